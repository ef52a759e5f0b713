package verify

import (
	"fmt"
	"slices"
	"time"

	"github.com/benchwright/benchwright/annotate"
)

// Decision is a verifier's verdict.
type Decision string

// The decisions.
const (
	DecisionApprove Decision = "approve"
	DecisionReject  Decision = "reject"
)

// Review is one verifier's recorded decision on one revision of a sample.
type Review struct {
	Round      int
	Reviewer   string // user id
	Group      string // the reviewer's group at the time
	Decision   Decision
	Reasons    []string        // reason codes of a reject: criterion ids or ReasonOther
	Judgements map[string]bool // criterion id → passed
}

// ReviewContext is what a store knows when someone wants to review a sample.
type ReviewContext struct {
	Kind     annotate.Kind // the sample's kind, used by Record to check the verdict
	State    State         // the sample's current state
	Round    int           // the round the review is for
	Revision int           // the sample's current revision
	BasedOn  int           // the revision the reviewer looked at
	Author   string        // id of the user the current revision is attributed to
	// Correctors are the ids of everyone who authored or corrected this revision
	// or a revision it was made from.
	Correctors []string
	Reviewer   User
	// Reviews are the reviews recorded on the current revision, plus any that
	// Correct carried over to it.
	Reviews []Review
	// Claims are the claims on this sample. Other verifiers' claims that are
	// active at Now hold seats in their round.
	Claims []Claim
	Now    time.Time
}

// CanReview reports whether c.Reviewer may review c's revision in c.Round, or
// the refusal. Every refusal wraps one of ErrNotVerifier, ErrStaleRevision,
// ErrWrongRound, ErrRoundClosed, ErrSelfReview, ErrAlreadyOnPanel, ErrPanelFull
// or ErrSameGroup, or an ErrInvalidPolicy or ErrUnknownState error. It is
// checked in that order, so the reviewer hears the most basic problem first.
func CanReview(p Policy, c ReviewContext) error {
	if err := p.Validate(); err != nil {
		return err
	}
	r := c.Reviewer
	if !r.Role.CanVerify() {
		return fmt.Errorf("%w: %s is %s", ErrNotVerifier, r.display(), roleName(r.Role))
	}
	if c.BasedOn != c.Revision {
		return fmt.Errorf("%w (you reviewed revision %d; the current one is %d)", ErrStaleRevision, c.BasedOn, c.Revision)
	}
	if err := checkRound(c.State, c.Round); err != nil {
		return err
	}
	if r.ID == c.Author {
		return fmt.Errorf("round %d: %w (revision %d is attributed to you)", c.Round, ErrSelfReview, c.Revision)
	}
	if slices.Contains(c.Correctors, r.ID) {
		return fmt.Errorf("round %d: %w (you worked on this sample's content)", c.Round, ErrSelfReview)
	}
	if err := checkSeat(p, c.Round, c.Reviews, r.ID, c.Claims, c.Now); err != nil {
		return err
	}
	if c.Round == 2 && p.Round2DifferentGroup {
		return checkGroup(r, c.Reviews)
	}
	return nil
}

// checkRound refuses a review for a round the sample is not in.
func checkRound(s State, round int) error {
	if !s.Valid() {
		return fmt.Errorf("%w %q", ErrUnknownState, s)
	}
	if round < 1 || round > 3 {
		return fmt.Errorf("%w (there is no round %d)", ErrWrongRound, round)
	}
	switch cur := s.Round(); {
	case s == StateDraft:
		return fmt.Errorf("round %d: %w (it is a draft that has not been submitted)", round, ErrWrongRound)
	case cur == 0:
		return fmt.Errorf("round %d: %w (the sample is %s)", round, ErrRoundClosed, s)
	case round < cur:
		return fmt.Errorf("round %d: %w (it is in round %d)", round, ErrRoundClosed, cur)
	case round > cur:
		return fmt.Errorf("round %d: %w (it is in round %d)", round, ErrWrongRound, cur)
	}
	return nil
}

// checkSeat refuses a reviewer who already served on the revision, or a round
// whose seats are taken by recorded reviews and other verifiers' active claims.
func checkSeat(p Policy, round int, reviews []Review, id string, claims []Claim, now time.Time) error {
	voters := map[string]bool{}
	for _, rv := range reviews {
		switch {
		case rv.Round == round && rv.Reviewer == id:
			return fmt.Errorf("round %d: %w (you already gave your decision in this round)", round, ErrAlreadyOnPanel)
		case rv.Round == 3 && round == 3 && rv.Decision == DecisionReject:
			return fmt.Errorf("round 3: %w (a panel member rejected the sample)", ErrRoundClosed)
		case rv.Round < round && rv.Reviewer == id && (round == 2 || !p.Round3AllowEarlierVerifiers):
			return fmt.Errorf("round %d: %w (you verified round %d; each round needs someone new)", round, ErrAlreadyOnPanel, rv.Round)
		case rv.Round == round:
			voters[rv.Reviewer] = true
		}
	}
	taken := len(voters)
	for _, cl := range claims {
		if cl.Round == round && cl.Verifier != id && !voters[cl.Verifier] && cl.Active(now) {
			voters[cl.Verifier] = true
			taken++
		}
	}
	if seats := p.seats(round); taken >= seats {
		return fmt.Errorf("round %d: %w (%d of %d seats are taken)", round, ErrPanelFull, taken, seats)
	}
	return nil
}

// checkGroup refuses a round-2 reviewer from the round-1 verifier's group. An
// empty group never counts as different.
func checkGroup(r User, reviews []Review) error {
	i := slices.IndexFunc(reviews, func(rv Review) bool { return rv.Round == 1 })
	if i < 0 {
		return nil // nobody to differ from
	}
	g := reviews[i].Group
	switch {
	case r.Group == "":
		return fmt.Errorf("%w (you are in no group)", ErrSameGroup)
	case g == "":
		return fmt.Errorf("%w (the round-1 verifier was in no group)", ErrSameGroup)
	case g == r.Group:
		return fmt.Errorf("%w (you and the round-1 verifier are both in group %q)", ErrSameGroup, g)
	}
	return nil
}

// CanSeeRound3Votes reports whether the round-3 votes on a revision may be shown
// to anyone except the verifier who cast each one. reviews are the revision's
// reviews, and revision and current are its number and the sample's current
// revision. Round 3 is blind until it closes. It closes when a panel member
// rejects, when the panel has approved unanimously, or when a correction
// replaces the revision. Leads are blind too. This keeps the rule simple, and
// a lead who also verifies cannot be swayed. Until the round closes the error
// wraps ErrBlind.
func CanSeeRound3Votes(p Policy, reviews []Review, revision, current int) error {
	if revision != current {
		return nil
	}
	approvals := 0
	for _, rv := range reviews {
		if rv.Round != 3 {
			continue
		}
		if rv.Decision == DecisionReject {
			return nil
		}
		approvals++
	}
	if approvals >= p.Round3Panel {
		return nil
	}
	return fmt.Errorf("%w (%d of %d votes cast)", ErrBlind, approvals, p.Round3Panel)
}
