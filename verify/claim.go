package verify

import "time"

// Claim is a verifier's hold on one round of a sample while they review it. An
// active claim holds a seat in that round, so nobody takes on work they cannot
// record (see ReviewContext.Claims).
type Claim struct {
	Sample   string
	Round    int
	Verifier string
	Expires  time.Time
}

// NewClaim makes a claim that lasts p.ClaimTTL from now.
func NewClaim(p Policy, sample string, round int, verifier string, now time.Time) Claim {
	return Claim{Sample: sample, Round: round, Verifier: verifier, Expires: now.Add(p.ClaimTTL)}
}

// Active reports whether the claim still holds at now.
func (c Claim) Active(now time.Time) bool { return now.Before(c.Expires) }
