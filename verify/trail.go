package verify

import (
	"cmp"
	"fmt"
	"slices"
)

// Trail lists what is missing from an accepted revision's verification trail
// under p, the trail a sample must have to be frozen. reviews are the revision's
// (any order); author and correctors are as in ReviewContext, and problems
// name reviewers by Name. The trail is:
//
//   - an approval in every round before the final one (rounds 1 and 2, or round 1
//     in a 2-round project);
//   - a final round with at least its seats of distinct approvals and no reject:
//     round 3's panel (p.Round3Panel), or round 2's single verifier when
//     p.Rounds is 2 and nobody voted in round 3;
//   - nobody who wrote or corrected the sample among its reviewers.
//
// An empty result means the trail is complete. Policy changes apply: a sample
// accepted by a panel of 2 before the lead set the panel to 3 is reported.
func Trail(p Policy, author string, correctors []string, reviews []Review) []string {
	var out []string
	approvals := map[int][]string{}
	rejects := map[int]int{}
	final := p.Rounds
	for _, rv := range reviews {
		if rv.Reviewer == author || slices.Contains(correctors, rv.Reviewer) {
			out = append(out, fmt.Sprintf("%s reviewed in round %d a revision they wrote or corrected", cmp.Or(rv.Name, rv.Reviewer), rv.Round))
		}
		if rv.Round == 3 {
			final = 3
		}
		if rv.Decision == DecisionReject {
			rejects[rv.Round]++
		} else if !slices.Contains(approvals[rv.Round], rv.Reviewer) {
			approvals[rv.Round] = append(approvals[rv.Round], rv.Reviewer)
		}
	}
	for round := 1; round < final; round++ {
		if len(approvals[round]) == 0 {
			out = append(out, fmt.Sprintf("no round-%d approval on the accepted revision", round))
		}
	}
	if n, seats := len(approvals[final]), p.seats(final); n < seats {
		if final == 3 {
			out = append(out, fmt.Sprintf("round 3 has %d approvals, the policy needs a panel of %d", n, seats))
		} else {
			out = append(out, fmt.Sprintf("no round-%d approval on the accepted revision", final))
		}
	}
	if rejects[final] > 0 {
		out = append(out, fmt.Sprintf("round %d was not unanimous: %d rejections", final, rejects[final]))
	}
	return out
}
