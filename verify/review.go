package verify

import (
	"fmt"
	"slices"
	"strings"
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
	Name       string // the reviewer's name, for messages; optional
	Group      string // the reviewer's group at the time
	Decision   Decision
	Reasons    []string        // reason codes of a reject: criterion ids or ReasonOther
	Judgements map[string]bool // criterion id → passed; criteria left out were not judged
	Comment    string
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
	// BasedOnReviews are the reviews recorded on revision BasedOn when it is
	// older than the current revision. Only a late round-3 vote reads them (see
	// CanVoteLate), so a store may leave them out for any other review.
	BasedOnReviews []Review
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
	taken, votes := len(voters), len(voters)
	for _, cl := range claims {
		if cl.Round == round && cl.Verifier != id && !voters[cl.Verifier] && cl.Active(now) {
			voters[cl.Verifier] = true
			taken++
		}
	}
	seats := p.seats(round)
	if round == 3 && votes >= seats {
		// Every recorded vote approved (a reject closes the round), yet the round is
		// open: the lead shrank the panel after these votes. One more verifier takes
		// the deciding seat, and their decision follows the new panel size.
		seats = votes + 1
	}
	if taken >= seats {
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
	g := groupForm(reviews[i].Group)
	switch {
	case strings.TrimSpace(r.Group) == "":
		return refuse(ErrSameGroup, "round 2 must be reviewed by someone outside the round-1 verifier's group, and you are in no group; a lead can assign you one")
	case g == "":
		return refuse(ErrSameGroup, "round 2 must be reviewed by someone from another group than round 1's verifier, who was in no group; a lead can assign groups")
	case SameGroup(g, r.Group):
		return refuse(ErrSameGroup, "round 2 must be reviewed by someone outside group %s, which reviewed round 1", g)
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
//
// A panel member who may still vote late stays blind after the round closed.
// Round3.CanSee applies both rules for one viewer.
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

// Round3 is one revision's round 3 as a store knows it. The rules on late votes
// and on who may see the votes read it.
//
// A claim does not name its revision. A round-3 claim belongs to the revision
// that was in round 3 when it was taken. When a reject closes round 3, a store
// keeps the other panel members' round-3 claims so that they can still vote
// late (CanVoteLate). It drops every claim on the sample when any other review
// moves the sample on, and when a correction replaces its revision. So a
// round-3 claim that outlives its round belongs to Revision in two cases:
// Revision is the current revision, or the current revision is the author's
// resubmission of Revision and has no reviews yet.
type Round3 struct {
	Revision int      // the revision
	Current  int      // the sample's current revision
	Reviews  []Review // the reviews recorded on Revision
	// CurrentReviewed says whether the current revision has any review. It is
	// read only when Revision is older than Current.
	CurrentReviewed bool
	Claims          []Claim // the claims on the sample
	Now             time.Time
}

// ClosedByReject reports whether a panel member's reject closed Revision's
// round 3.
func (r Round3) ClosedByReject() bool {
	return slices.ContainsFunc(r.Reviews, func(rv Review) bool { return rv.Round == 3 && rv.Decision == DecisionReject })
}

// ownsClaims reports whether the round-3 claims on the sample are Revision's
// (see Round3).
func (r Round3) ownsClaims() bool {
	return r.Revision == r.Current || r.Revision == r.Current-1 && !r.CurrentReviewed
}

// claimOf returns id's round-3 claim on Revision, active or not.
func (r Round3) claimOf(id string) (Claim, bool) {
	i := slices.IndexFunc(r.Claims, func(cl Claim) bool { return cl.Round == 3 && cl.Verifier == id })
	if i < 0 || !r.ownsClaims() {
		return Claim{}, false
	}
	return r.Claims[i], true
}

// voted reports whether id cast a round-3 vote on Revision.
func (r Round3) voted(id string) bool {
	return slices.ContainsFunc(r.Reviews, func(rv Review) bool { return rv.Round == 3 && rv.Reviewer == id })
}

// LateVoters lists the verifiers who may still vote late on Revision, in claim
// order. A reject closed its round 3, they hold a round-3 claim on it that is
// active at Now, and they have not voted in it.
func (r Round3) LateVoters() []string {
	if !r.ClosedByReject() || !r.ownsClaims() {
		return nil
	}
	var out []string
	for _, cl := range r.Claims {
		if cl.Round == 3 && cl.Active(r.Now) && !r.voted(cl.Verifier) && !slices.Contains(out, cl.Verifier) {
			out = append(out, cl.Verifier)
		}
	}
	return out
}

// CanSee reports whether viewer (a user id) may see the round-3 votes on
// Revision other than their own. Everyone is blind while the round is open
// (CanSeeRound3Votes). A late voter (LateVoters) stays blind after the round
// closed, until they vote or their claim ends. The error wraps ErrBlind.
func (r Round3) CanSee(p Policy, viewer string) error {
	if err := CanSeeRound3Votes(p, r.Reviews, r.Revision, r.Current); err != nil {
		return err
	}
	if slices.Contains(r.LateVoters(), viewer) {
		return fmt.Errorf("%w (it has closed, but you hold a seat on its panel: they stay hidden until you vote or your seat ends)", ErrBlind)
	}
	return nil
}

// Settled reports whether Revision's round-3 votes are final. The round must
// have closed, and no late vote can still come. Agreement counts only settled
// votes. So no figure changes while a panel member still votes blind, and no
// figure tells a late voter how the others voted.
func (r Round3) Settled(p Policy) bool {
	return CanSeeRound3Votes(p, r.Reviews, r.Revision, r.Current) == nil && len(r.LateVoters()) == 0
}

// lateRound3 returns the round 3 that c, a round-3 vote, would join late. That is
// the round 3 of revision c.BasedOn. It must be the current revision or the one
// before it, and a reject must have closed it. ok is false when c is no such vote.
func (c ReviewContext) lateRound3() (r Round3, ok bool) {
	r = Round3{Revision: c.BasedOn, Current: c.Revision, Claims: c.Claims, Now: c.Now}
	switch {
	case c.Round != 3:
		return r, false
	case c.BasedOn == c.Revision:
		r.Reviews = c.Reviews
	case c.BasedOn == c.Revision-1:
		r.Reviews, r.CurrentReviewed = c.BasedOnReviews, len(c.Reviews) > 0
	default:
		return r, false
	}
	return r, r.ClosedByReject()
}

// CanVoteLate reports whether c.Reviewer may cast a late round-3 vote, or the
// refusal. A late vote is a vote on revision c.BasedOn after another panel
// member's reject closed its round 3. It is recorded for agreement and changes
// nothing else (see Record). The spec's round 3 (spec §3) is a panel of
// independent verifiers. Without late votes, the first reject would leave the
// others' judgements unrecorded.
//
// When c is not a late vote, the error wraps ErrNotLate and CanReview applies.
// That is the case when c.Round is not 3, or c.BasedOn is neither the current
// revision nor the one before it, or no reject closed its round 3. A late vote
// is refused, in this order, when:
//
//   - the reviewer is not a verifier or lead (ErrNotVerifier);
//   - the sample was revised and the new revision reviewed since: the claims
//     on it are no longer the closed round's (ErrStaleRevision);
//   - the reviewer wrote or corrected the sample (ErrSelfReview);
//   - the reviewer already voted in that round 3, or verified rounds 1-2 of the
//     revision and the policy does not allow that (ErrAlreadyOnPanel);
//   - the reviewer holds no round-3 claim on the revision, or it has expired
//     (ErrRoundClosed);
//   - the panel already has all its votes (ErrPanelFull).
//
// So only a panel member who held a seat when the round closed, and still
// holds it, may vote late.
func CanVoteLate(p Policy, c ReviewContext) error {
	if err := p.Validate(); err != nil {
		return err
	}
	r3, ok := c.lateRound3()
	if !ok {
		return fmt.Errorf("round %d, revision %d: %w", c.Round, c.BasedOn, ErrNotLate)
	}
	r := c.Reviewer
	if !r.Role.CanVerify() {
		return fmt.Errorf("%w: %s is %s", ErrNotVerifier, r.display(), roleName(r.Role))
	}
	if r3.Revision != r3.Current && r3.CurrentReviewed {
		return fmt.Errorf("%w (revision %d has been revised and reviewed since; its panel has been dissolved)", ErrStaleRevision, r3.Revision)
	}
	if r.ID == c.Author || slices.Contains(c.Correctors, r.ID) {
		return fmt.Errorf("round 3: %w (you worked on this sample's content)", ErrSelfReview)
	}
	voters := 0
	for _, rv := range r3.Reviews {
		switch {
		case rv.Round == 3 && rv.Reviewer == r.ID:
			return fmt.Errorf("round 3: %w (you already gave your decision in this round)", ErrAlreadyOnPanel)
		case rv.Round < 3 && rv.Reviewer == r.ID && !p.Round3AllowEarlierVerifiers:
			return fmt.Errorf("round 3: %w (you verified round %d; each round needs someone new)", ErrAlreadyOnPanel, rv.Round)
		case rv.Round == 3:
			voters++
		}
	}
	cl, ok := r3.claimOf(r.ID)
	switch {
	case !ok:
		return fmt.Errorf("round 3: %w (a panel member rejected revision %d, and you held no seat on its panel)", ErrRoundClosed, r3.Revision)
	case !cl.Active(c.Now):
		return fmt.Errorf("round 3: %w (a panel member rejected revision %d, and your seat on its panel ended at %s)",
			ErrRoundClosed, r3.Revision, cl.Expires.UTC().Format("2006-01-02 15:04 MST"))
	case voters >= p.Round3Panel:
		return fmt.Errorf("round 3: %w (%d of %d votes are cast)", ErrPanelFull, voters, p.Round3Panel)
	}
	return nil
}
