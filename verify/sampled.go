package verify

import "fmt"

// Sampled validation of a generated batch (package sampling, store/validation.go).
//
// The items of a generated batch wait outside the protocol, as items of their
// batch, not as samples: they are in no queue, no draft list and no funnel.
// Drawn into the validation sample, an item becomes a sample in round 1
// (submitted on its author's behalf, as an import into round 1 is) and is
// verified like any other. When the sample passes (sampling.CheckAcceptRest), a
// lead accepts the unsampled rest in one action: each of those items becomes a
// sample whose first revision moves from draft to accepted by
// EventAcceptSampled, a move the store fires only there.
//
// Such a sample has no reviews. Its trail is its batch's acceptance instead.

// SampledAcceptance is the record of the accept-rest that accepted a sample by
// sampling: the batch, the lead who accepted its rest, and the batch's upper
// bound and threshold at that moment.
type SampledAcceptance struct {
	Batch      string
	AcceptedBy string // "" when the batch has no accept-rest record
	Upper      float64
	Threshold  float64
}

// SampledTrail is Trail for a sample accepted by sampling: what is missing from
// its trail. Its batch's rest must have been accepted, by a lead, with the
// upper bound below the threshold, and the sample must have no reviews (a
// sample someone reviewed was not accepted by sampling). An empty result means
// the trail is complete.
func SampledTrail(a SampledAcceptance, reviews []Review) []string {
	var out []string
	switch {
	case a.AcceptedBy == "":
		out = append(out, fmt.Sprintf("accepted by sampling, but batch %q has no accept-rest record", a.Batch))
	case !(a.Upper < a.Threshold):
		out = append(out, fmt.Sprintf("accepted by sampling from batch %q with an upper bound of %.4f, not below the threshold of %.4f", a.Batch, a.Upper, a.Threshold))
	}
	if len(reviews) > 0 {
		out = append(out, fmt.Sprintf("accepted by sampling from batch %q, yet it has %d reviews", a.Batch, len(reviews)))
	}
	return out
}

// SampleOutcome is what the verification of one sampled item says about the batch.
type SampleOutcome string

// The outcomes.
const (
	OutcomePending SampleOutcome = "pending" // not judged yet
	OutcomeRight   SampleOutcome = "right"   // its first revision was approved in round 1
	OutcomeError   SampleOutcome = "error"   // rejected or corrected, or withdrawn before it was judged
)

// SampledOutcome is the outcome of a sampled item: the item as generated is an
// error when round 1 rejected its first revision, when a verifier corrected it
// (a later revision exists), or when a lead withdrew it before any judgement;
// it is right when round 1 approved its first revision; else it is pending.
// Later rounds do not change the outcome: the sample estimates what round 1,
// judged with the normal criteria, finds in the generated items.
func SampledOutcome(status State, firstRejected, firstApproved, corrected bool) SampleOutcome {
	switch {
	case firstRejected || corrected:
		return OutcomeError
	case firstApproved:
		return OutcomeRight
	case status == StateWithdrawn:
		return OutcomeError
	}
	return OutcomePending
}
