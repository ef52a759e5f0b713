package plant

import (
	"testing"

	"github.com/benchwright/benchwright/verify"
)

// TestFeedback pins what a verifier is told after reviewing a copy.
func TestFeedback(t *testing.T) {
	tests := []struct {
		m    Mutation
		o    verify.PlantOutcome
		want string
	}{
		{Clean, verify.PlantRight, "This was a check item: a copy of an accepted sample with nothing changed, and you rightly approved it."},
		{Clean, verify.PlantFalseAlarm, "This was a check item: a copy of an accepted sample with nothing changed, so there was nothing to reject."},
		{BoxMoved, verify.PlantCaught, "This was a check item: the box had been moved off the answer's object, and you caught it."},
		{AnswerMoved, verify.PlantPartly, "This was a check item: the answer key had been moved to another option, and you rejected it, for another reason than the planted error."},
		{StepsSwapped, verify.PlantMissed, "This was a check item: two steps had been swapped, and you approved it."},
	}
	for _, tt := range tests {
		t.Run(string(tt.m)+"/"+string(tt.o), func(t *testing.T) {
			if got := Feedback(tt.m, tt.o); got != tt.want {
				t.Errorf("Feedback = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestPauseReason(t *testing.T) {
	f := VerifierFigures{Planted: 12, Caught: 3}
	want := "Your reviews are paused: of the 12 check items with a known error you reviewed, you caught 3, which is below the 60 % the project's lead asks for. A lead can resume your reviews."
	if got := f.PauseReason(60); got != want {
		t.Errorf("PauseReason = %q\nwant %q", got, want)
	}
}
