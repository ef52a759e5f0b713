package verify

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Criterion is one yes/no check a verifier answers.
type Criterion struct {
	ID    string // stable short name, usable on a command line and as a reason code
	Label string // what a form shows
	Help  string // one line of guidance
}

// ReasonOther is the reason code for a rejection that no criterion covers.
const ReasonOther = "other"

// The criteria (spec §3; multihopspatial.txt:272-276, spatialqa.txt:371).
var (
	objectsExist          = Criterion{"objects_exist", "Objects exist", "Every object named in the question and the options is in the image."}
	boxOnAnswer           = Criterion{"box_on_answer", "Box on the answer", "The bounding box is on the object the correct option names."}
	followsTemplate       = Criterion{"follows_template", "Follows the template", "The question follows its template and category tags (hop, view, subject phrase)."}
	answerCorrect         = Criterion{"answer_correct", "Answer correct", "The labelled answer is visually correct."}
	naturalGrammar        = Criterion{"natural_grammar", "Natural grammar", "The question and the options read naturally."}
	notEliminable         = Criterion{"not_eliminable", "Not eliminable", "No option can be ruled out without looking at the image."}
	optionEntitiesExist   = Criterion{"option_entities_exist", "Option entities exist", "Each option names one object, and that object is in the image."}
	boxPrecise            = Criterion{"box_precise", "Box precise", "The box matches the target object precisely."}
	answerUnique          = Criterion{"answer_unique", "Answer unique", "The image supports the labelled answer and no other option."}
	stepsValid            = Criterion{"steps_valid", "Steps valid", "Each step is one action on one object, and it can be done in the scene."}
	preconditionsCorrect  = Criterion{"preconditions_correct", "Preconditions correct", "Every listed precondition must really be done before its step."}
	preconditionsComplete = Criterion{"preconditions_complete", "Preconditions complete", "No step is missing a direct precondition."}
	finalAchievesTask     = Criterion{"final_achieves_task", "Final step achieves the task", "The final step carries out the task the question asks for."}
	answerable            = Criterion{"answerable", "Answerable", "The question can be answered from the image."}
	formatFollowed        = Criterion{"format_followed", "Format followed", "The question and the answer follow the kind's format (yes/no, 2-6 options, short answer)."}
)

var (
	stepGraphCriteria = []Criterion{stepsValid, preconditionsCorrect, preconditionsComplete, finalAchievesTask}
	otherCriteria     = []Criterion{answerable, answerCorrect, formatFollowed}
)

// criteria holds the criteria of rounds 1, 2 and 3 for each kind.
var criteria = map[annotate.Kind][3][]Criterion{
	annotate.KindHopQA: {
		{objectsExist, boxOnAnswer, followsTemplate, answerCorrect},
		{objectsExist, boxOnAnswer, followsTemplate, answerCorrect, naturalGrammar, notEliminable},
		{optionEntitiesExist, boxPrecise, answerUnique},
	},
	annotate.KindStepGraph: {stepGraphCriteria, stepGraphCriteria, stepGraphCriteria},
	annotate.KindJudgment:  {otherCriteria, otherCriteria, otherCriteria},
	annotate.KindMCQ:       {otherCriteria, otherCriteria, otherCriteria},
	annotate.KindOpen:      {otherCriteria, otherCriteria, otherCriteria},
}

// Criteria returns the criteria a verifier judges for kind in round (1-3), in
// form order. It returns nil for an unknown kind or round.
func Criteria(kind annotate.Kind, round int) []Criterion {
	if round < 1 || round > 3 {
		return nil
	}
	return slices.Clone(criteria[kind][round-1])
}

// ReasonsFor returns the reason codes a set of judgements implies: the ids of
// the failed criteria, sorted.
func ReasonsFor(judgements map[string]bool) []string {
	var failed []string
	for id, passed := range judgements {
		if !passed {
			failed = append(failed, id)
		}
	}
	slices.Sort(failed)
	return failed
}

// CheckVerdict validates v against the criteria of kind in round. It returns the
// reasons of a reject: the explicit reasons plus the failed criteria, sorted and
// without duplicates. These are the refusals:
//   - a judgement or reason names an unknown criterion (ErrUnknownCriterion; the
//     error lists the valid ones);
//   - an approve fails a criterion (ErrApproveWithFailure), or gives reasons;
//   - a reject has no reason (ErrNoReason), or gives as a reason a criterion it
//     judged as passed;
//   - the decision, kind or round is unknown (ErrInvalidReview).
func CheckVerdict(kind annotate.Kind, round int, v Verdict) ([]string, error) {
	list := Criteria(kind, round)
	if list == nil {
		return nil, fmt.Errorf("%w: no criteria for kind %q in round %d", ErrInvalidReview, kind, round)
	}
	valid := make([]string, len(list))
	for i, c := range list {
		valid[i] = c.ID
	}
	for _, id := range slices.Sorted(maps.Keys(v.Judgements)) {
		if !slices.Contains(valid, id) {
			return nil, fmt.Errorf("%w %q for %s round %d; valid criteria: %s", ErrUnknownCriterion, id, kind, round, strings.Join(valid, ", "))
		}
	}
	failed := ReasonsFor(v.Judgements)
	switch v.Decision {
	case DecisionApprove:
		if len(failed) > 0 {
			return nil, fmt.Errorf("approve with failed criterion %s: %w", strings.Join(failed, ", "), ErrApproveWithFailure)
		}
		if len(v.Reasons) > 0 {
			return nil, fmt.Errorf("%w: an approval gives no reasons (got %s)", ErrInvalidReview, strings.Join(v.Reasons, ", "))
		}
		return nil, nil
	case DecisionReject:
		reasons := failed
		for _, r := range v.Reasons {
			if r != ReasonOther && !slices.Contains(valid, r) {
				return nil, fmt.Errorf("%w %q given as a reason for %s round %d; valid reasons: %s, %s", ErrUnknownCriterion, r, kind, round, strings.Join(valid, ", "), ReasonOther)
			}
			if v.Judgements[r] {
				return nil, fmt.Errorf("%w: reason %s contradicts the judgement that it passed", ErrInvalidReview, r)
			}
			reasons = append(reasons, r)
		}
		if len(reasons) == 0 {
			return nil, fmt.Errorf("%w: fail a criterion or give the reason %q", ErrNoReason, ReasonOther)
		}
		slices.Sort(reasons)
		return slices.Compact(reasons), nil
	}
	return nil, fmt.Errorf("%w: the decision must be %q or %q, not %q", ErrInvalidReview, DecisionApprove, DecisionReject, v.Decision)
}
