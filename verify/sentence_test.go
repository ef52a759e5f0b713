package verify

import (
	"errors"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// A refused verdict reads, on a screen, with the criteria's labels and never their
// ids; its Error text keeps the ids a command line takes.
func TestSentenceNamesCriteriaByLabel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		v      Verdict
		screen string // Sentence
		cli    string // in Error
	}{
		{"approve judging one", Verdict{Decision: DecisionApprove, Judgements: map[string]bool{"objects_exist": true}},
			"An approval needs every criterion of round 1 judged yes; not judged: Box on the answer, Follows the template, Answer correct.",
			"Box on the answer (box_on_answer)"},
		{"approve with a no", Verdict{Decision: DecisionApprove, Judgements: map[string]bool{"box_on_answer": false}},
			"An approval cannot fail a criterion, and Box on the answer is judged no: reject instead, or change the judgement.",
			"Box on the answer (box_on_answer) is judged no"},
		{"approve naming other", Verdict{Decision: DecisionApprove, Judgements: AllPassed(annotate.KindHopQA, 1), Reasons: []string{ReasonOther}},
			"An approval cannot name another problem: reject instead, or drop Other problem.", `drop the reason "other"`},
		{"other without a comment", Verdict{Decision: DecisionReject, Reasons: []string{ReasonOther}},
			"Other problem needs a comment saying what the problem is.", `the reason "other" needs a comment`},
		{"reject without a reason", Verdict{Decision: DecisionReject},
			"A rejection needs a reason: judge a criterion no, or give Other problem with a comment.", `give the reason "other"`},
		{"reason judged yes", Verdict{Decision: DecisionReject, Judgements: map[string]bool{"box_on_answer": true}, Reasons: []string{"box_on_answer"}},
			"Box on the answer is given as a reason but judged as passed.", "box_on_answer is given"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckVerdict(annotate.KindHopQA, 1, tc.v)
			if err == nil {
				t.Fatal("not refused")
			}
			got, ok := Sentence(err)
			if !ok || got != tc.screen {
				t.Errorf("Sentence = %q, %v\nwant %q", got, ok, tc.screen)
			}
			if !strings.Contains(err.Error(), tc.cli) {
				t.Errorf("Error = %q, want it to hold %q", err, tc.cli)
			}
			if wrapped, ok := Sentence(errors.Join(errors.New("submit"), err)); !ok || wrapped != got {
				t.Errorf("wrapped: %q", wrapped)
			}
		})
	}
	if _, ok := Sentence(errors.New("disk full")); ok {
		t.Error("Sentence words an error that is not a refusal of this package")
	}
	for id, want := range map[string]string{"box_precise": "Box precise", ReasonOther: OtherLabel, "answer_correct": "Answer correct", "no_such": "no_such"} {
		if got := ReasonLabel(id); got != want {
			t.Errorf("ReasonLabel(%q) = %q, want %q", id, got, want)
		}
	}
}
