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

// OtherLabel is what people read for ReasonOther.
const OtherLabel = "Other problem"

// ReasonLabel is what people read for a reason code or criterion id: the
// criterion's label (an id names one criterion whatever the kind and round),
// OtherLabel for ReasonOther, and the code itself when it names nothing known.
func ReasonLabel(id string) string {
	if id == ReasonOther {
		return OtherLabel
	}
	for _, rounds := range criteria {
		for _, list := range rounds {
			for _, c := range list {
				if c.ID == id {
					return c.Label
				}
			}
		}
	}
	return id
}

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

// CheckVerdict validates v against the criteria of kind in round and returns
// it in the one form every door stores: Judgements holds exactly the criteria
// the verifier judged (a criterion given as a reason is judged "no"), Reasons
// are the failed criteria plus ReasonOther when given, sorted, and Comment is
// trimmed. The rules:
//   - approve: every criterion of the round is judged, and judged yes; no
//     reasons (ErrIncompleteVerdict names the criteria not judged,
//     ErrApproveWithFailure the ones judged no);
//   - reject: at least one criterion judged no, or ReasonOther with a comment
//     saying what the problem is (ErrNoReason); criteria left unjudged stay
//     unjudged, and agreement counts them as missing values, never as yes;
//   - a judgement or reason names an unknown criterion (ErrUnknownCriterion; the
//     error lists the valid ones), a reason contradicts a "yes" judgement, or the
//     decision, kind or round is unknown (ErrInvalidReview).
func CheckVerdict(kind annotate.Kind, round int, v Verdict) (Verdict, error) {
	list := Criteria(kind, round)
	if list == nil {
		return Verdict{}, refuse(ErrInvalidReview, "%s samples have no criteria in round %d", kind, round)
	}
	valid := make([]string, len(list))
	for i, c := range list {
		valid[i] = c.ID
	}
	for _, id := range slices.Sorted(maps.Keys(v.Judgements)) {
		if !slices.Contains(valid, id) {
			return Verdict{}, refuse(ErrUnknownCriterion, "there is no criterion %q for %s samples in round %d; the criteria are %s",
				id, kind, round, strings.Join(valid, ", "))
		}
	}
	out := Verdict{Decision: v.Decision, Judgements: maps.Clone(v.Judgements), Comment: strings.TrimSpace(v.Comment)}
	if out.Judgements == nil {
		out.Judgements = map[string]bool{}
	}
	other := false
	for _, r := range v.Reasons {
		switch {
		case r == ReasonOther:
			other = true
		case !slices.Contains(valid, r):
			return Verdict{}, refuse(ErrUnknownCriterion, "there is no reason %q for %s samples in round %d; the reasons are %s, %s",
				r, kind, round, strings.Join(valid, ", "), ReasonOther)
		case v.Judgements[r]:
			return Verdict{}, refuseNamed(ErrInvalidReview, ReasonLabel(r)+" is given as a reason but judged as passed",
				"%s is given as a reason but judged as passed", r)
		default:
			out.Judgements[r] = false
		}
	}
	failed := ReasonsFor(out.Judgements)
	switch v.Decision {
	case DecisionApprove:
		if len(failed) > 0 {
			const f = "an approval cannot fail a criterion, and %s is judged no: reject instead, or change the judgement"
			return Verdict{}, refuseNamed(ErrApproveWithFailure, fmt.Sprintf(f, names(failed)), f, labels(list, failed))
		}
		if other {
			return Verdict{}, refuseNamed(ErrApproveWithFailure, "an approval cannot name another problem: reject instead, or drop "+OtherLabel,
				"an approval cannot name another problem: reject instead, or drop the reason %q", ReasonOther)
		}
		var missing []string
		for _, c := range list {
			if _, ok := out.Judgements[c.ID]; !ok {
				missing = append(missing, c.ID)
			}
		}
		if len(missing) > 0 {
			const f = "an approval needs every criterion of round %d judged yes; not judged: %s"
			return Verdict{}, refuseNamed(ErrIncompleteVerdict, fmt.Sprintf(f, round, names(missing)), f, round, labels(list, missing))
		}
		return out, nil
	case DecisionReject:
		if other {
			if out.Comment == "" {
				return Verdict{}, refuseNamed(ErrNoReason, OtherLabel+" needs a comment saying what the problem is",
					"the reason %q needs a comment saying what the problem is", ReasonOther)
			}
			failed = append(failed, ReasonOther)
		}
		if len(failed) == 0 {
			return Verdict{}, refuseNamed(ErrNoReason, "a rejection needs a reason: judge a criterion no, or give "+OtherLabel+" with a comment",
				"a rejection needs a reason: judge a criterion no, or give the reason %q with a comment", ReasonOther)
		}
		slices.Sort(failed)
		out.Reasons = failed
		return out, nil
	}
	return Verdict{}, refuse(ErrInvalidReview, "the decision must be %q or %q, not %q", DecisionApprove, DecisionReject, v.Decision)
}

// names names criteria by label alone, for screens: "Box on the answer".
func names(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = ReasonLabel(id)
	}
	return strings.Join(out, ", ")
}

// labels names criteria by label and id: "Box on the answer (box_on_answer)".
func labels(list []Criterion, ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id
		if j := slices.IndexFunc(list, func(c Criterion) bool { return c.ID == id }); j >= 0 {
			out[i] = fmt.Sprintf("%s (%s)", list[j].Label, id)
		}
	}
	return strings.Join(out, ", ")
}

// AllPassed returns judgements that pass every criterion of kind in round: what
// an approval carries.
func AllPassed(kind annotate.Kind, round int) map[string]bool {
	out := map[string]bool{}
	for _, c := range Criteria(kind, round) {
		out[c.ID] = true
	}
	return out
}
