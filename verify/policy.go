package verify

import (
	"errors"
	"time"
)

// Role is what a user may do in a project.
type Role string

// The roles.
const (
	RoleAnnotator Role = "annotator"
	RoleVerifier  Role = "verifier"
	RoleLead      Role = "lead"
)

// Valid reports whether r is a known role.
func (r Role) Valid() bool { return r == RoleAnnotator || r == RoleVerifier || r == RoleLead }

// CanVerify reports whether r may review samples. Verifiers and leads may, but
// annotators may not. A lead who reviews is held to every rule a verifier is.
func (r Role) CanVerify() bool { return r == RoleVerifier || r == RoleLead }

// User is a member of a project.
type User struct {
	ID    string
	Name  string
	Role  Role
	Group string // the verifier group, for the round-2 different-group rule
}

func (u User) display() string {
	if u.Name != "" {
		return u.Name
	}
	return u.ID
}

// Policy holds a project's verification settings.
type Policy struct {
	// Rounds is the number of review rounds: 3 (MultihopSpatial), or 2 (SpatiaLQA's
	// two review cycles), where an approval in round 2 accepts the sample. A sample
	// already in round 3 when a project changes to 2 rounds finishes round 3.
	Rounds int
	// Round3Panel is the number of round-3 verifiers. All of them must approve.
	Round3Panel int
	// Round3AllowEarlierVerifiers lets someone who verified rounds 1-2 of a
	// revision also sit on that revision's round-3 panel.
	Round3AllowEarlierVerifiers bool
	// CorrectionReentersRound1 sends a corrected sample back to round 1. When it
	// is false, the new revision stays in its round and keeps the reviews of the
	// earlier rounds (see Correct).
	CorrectionReentersRound1 bool
	// ClaimTTL is how long a verifier's claim on a sample lasts.
	ClaimTTL time.Duration
	// Round2DifferentGroup requires the round-2 verifier to be in a different
	// group than the round-1 verifier.
	Round2DifferentGroup bool
}

// DefaultPolicy follows the seed protocol (multihopspatial.txt:272-276).
func DefaultPolicy() Policy {
	return Policy{
		Rounds:                      3,
		Round3Panel:                 3,
		Round3AllowEarlierVerifiers: false,
		CorrectionReentersRound1:    true,
		ClaimTTL:                    30 * time.Minute,
		Round2DifferentGroup:        true,
	}
}

// Validate reports every setting that cannot work. Each problem wraps
// ErrInvalidPolicy.
func (p Policy) Validate() error {
	var errs []error
	if p.Rounds != 2 && p.Rounds != 3 {
		errs = append(errs, refuse(ErrInvalidPolicy, "rounds: a project runs 2 or 3 review rounds, got %d", p.Rounds))
	}
	if p.Round3Panel < 1 {
		errs = append(errs, refuse(ErrInvalidPolicy, "round3_panel: the round-3 panel needs at least 1 verifier, got %d", p.Round3Panel))
	}
	if p.ClaimTTL < time.Minute {
		errs = append(errs, refuse(ErrInvalidPolicy, "claim_minutes: a claim must last at least a minute, got %v", p.ClaimTTL))
	}
	return errors.Join(errs...)
}

// seats is the number of verifiers a round takes.
func (p Policy) seats(round int) int {
	if round == 3 {
		return p.Round3Panel
	}
	return 1
}

// Final reports whether round is the last round under p: an approval there that
// completes the round's seats accepts the sample. Round 3 is always final, so a
// sample that entered it before a project went to 2 rounds can still finish.
func (p Policy) Final(round int) bool { return round == 3 || round == p.Rounds }
