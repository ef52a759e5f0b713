package verify

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestCriteriaEveryKindAndRound(t *testing.T) {
	hop1 := []string{"objects_exist", "box_on_answer", "follows_template", "answer_correct"}
	step := []string{"steps_valid", "preconditions_correct", "preconditions_complete", "final_achieves_task"}
	other := []string{"answerable", "answer_correct", "format_followed"}
	want := map[annotate.Kind][3][]string{
		annotate.KindHopQA:     {hop1, append(slices.Clone(hop1), "natural_grammar", "not_eliminable"), {"option_entities_exist", "box_precise", "answer_unique"}},
		annotate.KindStepGraph: {step, step, step},
		annotate.KindJudgment:  {other, other, other},
		annotate.KindMCQ:       {other, other, other},
		annotate.KindOpen:      {other, other, other},
	}
	id := regexp.MustCompile(`^[a-z][a-z_]*[a-z]$`)
	for _, kind := range annotate.Kinds {
		for round := 1; round <= 3; round++ {
			list := Criteria(kind, round)
			var got []string
			for _, c := range list {
				got = append(got, c.ID)
				if !id.MatchString(c.ID) || c.Label == "" || c.Help == "" || c.ID == ReasonOther {
					t.Errorf("%s round %d: bad criterion %+v", kind, round, c)
				}
			}
			if !slices.Equal(got, want[kind][round-1]) {
				t.Errorf("Criteria(%s, %d) = %v; want %v", kind, round, got, want[kind][round-1])
			}
		}
	}
	for _, bad := range []struct {
		kind  annotate.Kind
		round int
	}{{annotate.KindHopQA, 0}, {annotate.KindHopQA, 4}, {"essay", 1}} {
		if got := Criteria(bad.kind, bad.round); got != nil {
			t.Errorf("Criteria(%q, %d) = %v; want nil", bad.kind, bad.round, got)
		}
	}
	Criteria(annotate.KindHopQA, 1)[0].ID = "changed"
	if Criteria(annotate.KindHopQA, 1)[0].ID != "objects_exist" {
		t.Error("Criteria returns the shared slice")
	}
}

func TestReasonsFor(t *testing.T) {
	tests := []struct {
		j    map[string]bool
		want []string
	}{
		{nil, nil},
		{map[string]bool{"objects_exist": true}, nil},
		{map[string]bool{"box_on_answer": false, "answer_correct": false, "objects_exist": true}, []string{"answer_correct", "box_on_answer"}},
	}
	for _, tt := range tests {
		if got := ReasonsFor(tt.j); !slices.Equal(got, tt.want) {
			t.Errorf("ReasonsFor(%v) = %v; want %v", tt.j, got, tt.want)
		}
	}
}

func TestCheckVerdict(t *testing.T) {
	hop, step := annotate.KindHopQA, annotate.KindStepGraph
	tests := []struct {
		name       string
		kind       annotate.Kind
		round      int
		v          Verdict
		reasons    []string
		judgements map[string]bool // the stored judgements; nil: as given
		err        error
		msg        string
	}{
		{"approve, all pass", hop, 1, approve, nil, nil, nil, ""},
		{"approve, all pass, round 2", hop, 2, Verdict{Decision: DecisionApprove, Judgements: AllPassed(hop, 2)}, nil, nil, nil, ""},
		{"reject, derived reasons", hop, 1, rejectBox, []string{"box_on_answer"}, nil, nil, ""},
		{"reject, explicit reason is judged no", hop, 2, Verdict{Decision: DecisionReject, Reasons: []string{"natural_grammar"}},
			[]string{"natural_grammar"}, map[string]bool{"natural_grammar": false}, nil, ""},
		{"reject, other with a comment", step, 1, Verdict{Decision: DecisionReject, Reasons: []string{"other"}, Comment: " blurry "},
			[]string{"other"}, map[string]bool{}, nil, ""},
		{"reject, merged without duplicates", step, 3, Verdict{Decision: DecisionReject,
			Judgements: map[string]bool{"steps_valid": false, "preconditions_complete": false, "final_achieves_task": true},
			Reasons:    []string{"steps_valid", "other"}, Comment: "x"}, []string{"other", "preconditions_complete", "steps_valid"}, nil, nil, ""},
		{"reject leaves unjudged criteria unjudged", hop, 1, Verdict{Decision: DecisionReject, Judgements: map[string]bool{"answer_correct": false}},
			[]string{"answer_correct"}, map[string]bool{"answer_correct": false}, nil, ""},

		{"approve, nothing judged", hop, 2, Verdict{Decision: DecisionApprove}, nil, nil, ErrIncompleteVerdict,
			"an approval needs every criterion of round 2 judged yes; not judged: Objects exist (objects_exist), Box on the answer (box_on_answer), " +
				"Follows the template (follows_template), Answer correct (answer_correct), Natural grammar (natural_grammar), Not eliminable (not_eliminable)"},
		{"approve, one left out", hop, 1, Verdict{Decision: DecisionApprove, Judgements: map[string]bool{"objects_exist": true, "box_on_answer": true, "answer_correct": true}},
			nil, nil, ErrIncompleteVerdict, "an approval needs every criterion of round 1 judged yes; not judged: Follows the template (follows_template)"},
		{"reject, no reason", hop, 1, Verdict{Decision: DecisionReject, Judgements: pass}, nil, nil, ErrNoReason, ""},
		{"reject, other without a comment", hop, 1, Verdict{Decision: DecisionReject, Reasons: []string{"other"}, Comment: "  "}, nil, nil, ErrNoReason,
			`the reason "other" needs a comment saying what the problem is`},
		{"approve, failed criterion", hop, 1, Verdict{Decision: DecisionApprove, Judgements: badBox}, nil, nil, ErrApproveWithFailure,
			"an approval cannot fail a criterion, and Box on the answer (box_on_answer) is judged no: reject instead, or change the judgement"},
		{"approve with other", hop, 1, Verdict{Decision: DecisionApprove, Judgements: pass, Reasons: []string{"other"}}, nil, nil, ErrApproveWithFailure, ""},
		{"unknown criterion", hop, 3, Verdict{Decision: DecisionApprove, Judgements: map[string]bool{"box_on_answer": true}}, nil, nil, ErrUnknownCriterion,
			`there is no criterion "box_on_answer" for hop_qa samples in round 3; the criteria are option_entities_exist, box_precise, answer_unique`},
		{"unknown reason", annotate.KindMCQ, 1, Verdict{Decision: DecisionReject, Reasons: []string{"blurry"}}, nil, nil, ErrUnknownCriterion,
			`there is no reason "blurry" for mcq samples in round 1; the reasons are answerable, answer_correct, format_followed, other`},
		{"reason contradicts judgement", hop, 1, Verdict{Decision: DecisionReject, Judgements: pass, Reasons: []string{"answer_correct"}}, nil, nil, ErrInvalidReview, ""},
		{"no decision", hop, 1, Verdict{Judgements: pass}, nil, nil, ErrInvalidReview, ""},
		{"unknown kind", "essay", 1, approve, nil, nil, ErrInvalidReview, ""},
	}
	for _, tt := range tests {
		got, err := CheckVerdict(tt.kind, tt.round, tt.v)
		if !errors.Is(err, tt.err) || !slices.Equal(got.Reasons, tt.reasons) {
			t.Errorf("%s: CheckVerdict = %v, %v; want %v, %v", tt.name, got.Reasons, err, tt.reasons, tt.err)
		}
		if tt.msg != "" && (err == nil || err.Error() != tt.msg) {
			t.Errorf("%s: message %q\nwant %q", tt.name, err, tt.msg)
		}
		if err != nil {
			continue
		}
		want := tt.judgements
		if want == nil {
			want = tt.v.Judgements
		}
		if !maps.Equal(got.Judgements, want) {
			t.Errorf("%s: stored judgements %v; want %v", tt.name, got.Judgements, want)
		}
		if got.Comment != strings.TrimSpace(tt.v.Comment) {
			t.Errorf("%s: comment %q not trimmed", tt.name, got.Comment)
		}
	}
}
