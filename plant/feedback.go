package plant

import (
	"fmt"

	"github.com/benchwright/benchwright/verify"
)

// Feedback is what a verifier is told after reviewing a copy made with m, which
// their review o judged (verify.ReviewOfPlanted).
func Feedback(m Mutation, o verify.PlantOutcome) string {
	if m == Clean {
		if o == verify.PlantRight {
			return "This was a check item: a copy of an accepted sample with nothing changed, and you rightly approved it."
		}
		return "This was a check item: a copy of an accepted sample with nothing changed, so there was nothing to reject."
	}
	verdict := map[verify.PlantOutcome]string{
		verify.PlantCaught: "you caught it",
		verify.PlantPartly: "you rejected it, for another reason than the planted error",
		verify.PlantMissed: "you approved it",
	}[o]
	return fmt.Sprintf("This was a check item: %s, and %s.", m.Words(), verdict)
}

// PauseReason is what a verifier paused by the lead's rule (Pause, below
// percent) is told, of their figures f.
func (f VerifierFigures) PauseReason(below int) string {
	return fmt.Sprintf("Your reviews are paused: of the %d check items with a known error you reviewed, you caught %d, "+
		"which is below the %d %% the project's lead asks for. A lead can resume your reviews.", f.Planted, f.Caught, below)
}
