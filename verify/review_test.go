package verify

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
)

var (
	t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

	ann  = User{ID: "ann", Name: "Ann", Role: RoleAnnotator, Group: "red"}
	vera = User{ID: "vera", Role: RoleVerifier, Group: "red"}  // round 1
	walt = User{ID: "walt", Role: RoleVerifier, Group: "blue"} // round 2
	rita = User{ID: "rita", Role: RoleVerifier, Group: "red"}  // vera's group
	p1   = User{ID: "p1", Role: RoleVerifier, Group: "red"}
	p2   = User{ID: "p2", Role: RoleVerifier, Group: "blue"}
	p3   = User{ID: "p3", Role: RoleVerifier, Group: "green"}
	p4   = User{ID: "p4", Role: RoleVerifier, Group: "green"}
	lena = User{ID: "lena", Role: RoleLead, Group: "green"}
	cora = User{ID: "cora", Role: RoleVerifier, Group: "blue"} // corrected revision 1 into revision 2
	otto = User{ID: "otto", Role: RoleVerifier, Group: "red"}  // corrected an earlier revision
	lee  = User{ID: "lee", Role: RoleLead, Group: "green"}     // wrote the sample

	r1 = Review{Round: 1, Reviewer: "vera", Group: "red", Decision: DecisionApprove}
	r2 = Review{Round: 2, Reviewer: "walt", Group: "blue", Decision: DecisionApprove}
)

func vote(u User, d Decision) Review {
	rv := Review{Round: 3, Reviewer: u.ID, Group: u.Group, Decision: d}
	if d == DecisionReject {
		rv.Reasons = []string{"box_precise"}
	}
	return rv
}

// ctx is revision 2 of a hop-QA sample written by lee, corrected by otto and
// then by cora, to whom revision 2 is attributed.
func ctx(s State, round int, reviewer User, reviews ...Review) ReviewContext {
	return ReviewContext{
		Kind: annotate.KindHopQA, State: s, Round: round, Revision: 2, BasedOn: 2,
		Author: "cora", Correctors: []string{"lee", "otto"},
		Reviewer: reviewer, Reviews: reviews, Now: t0,
	}
}

func TestCanReview(t *testing.T) {
	def := DefaultPolicy()
	anyGroup := def
	anyGroup.Round2DifferentGroup = false
	earlier := def
	earlier.Round3AllowEarlierVerifiers = true
	claim := func(u User, round int, ttl time.Duration) Claim {
		return Claim{Sample: "mh-0001", Round: round, Verifier: u.ID, Expires: t0.Add(ttl)}
	}
	stale := ctx(StateRound1, 1, vera)
	stale.BasedOn = 1
	nogroup := walt
	nogroup.Group = ""
	r1nogroup := r1
	r1nogroup.Group = ""

	tests := []struct {
		name string
		p    Policy
		c    ReviewContext
		want error
	}{
		{"round 1 verifier", def, ctx(StateRound1, 1, vera), nil},
		{"round 2 other group", def, ctx(StateRound2, 2, walt, r1), nil},
		{"round 3 first seat", def, ctx(StateRound3, 3, p1, r1, r2), nil},
		{"round 3 last seat", def, ctx(StateRound3, 3, p3, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), nil},
		{"lead verifies", def, ctx(StateRound1, 1, lena), nil},

		{"annotator verifies", def, ctx(StateRound1, 1, ann), ErrNotVerifier},
		{"user without role", def, ctx(StateRound1, 1, User{ID: "x"}), ErrNotVerifier},

		{"author of the revision", def, ctx(StateRound1, 1, cora), ErrSelfReview},
		{"earlier corrector", def, ctx(StateRound2, 2, otto, r1), ErrSelfReview},
		{"original author, a lead", def, ctx(StateRound3, 3, lee, r1, r2), ErrSelfReview},

		{"round 2 same group", def, ctx(StateRound2, 2, rita, r1), ErrSameGroup},
		{"round 2 reviewer in no group", def, ctx(StateRound2, 2, nogroup, r1), ErrSameGroup},
		{"round 1 verifier in no group", def, ctx(StateRound2, 2, walt, r1nogroup), ErrSameGroup},
		{"round 2 same group allowed by policy", anyGroup, ctx(StateRound2, 2, rita, r1), nil},

		{"round 2 by the round-1 verifier", anyGroup, ctx(StateRound2, 2, vera, r1), ErrAlreadyOnPanel},
		{"round 3 twice", def, ctx(StateRound3, 3, p1, r1, r2, vote(p1, DecisionApprove)), ErrAlreadyOnPanel},
		{"round 3 by the round-1 verifier", def, ctx(StateRound3, 3, vera, r1, r2), ErrAlreadyOnPanel},
		{"round 3 by the round-2 verifier", def, ctx(StateRound3, 3, walt, r1, r2), ErrAlreadyOnPanel},
		{"round 3 by earlier verifier, allowed", earlier, ctx(StateRound3, 3, walt, r1, r2), nil},
		{"round 3 twice, earlier allowed", earlier, ctx(StateRound3, 3, walt, r1, r2, vote(walt, DecisionApprove)), ErrAlreadyOnPanel},
		{"round 1 twice", def, ctx(StateRound1, 1, vera, r1), ErrAlreadyOnPanel},

		{"deciding seat after the panel shrank", def, ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove), vote(p3, DecisionApprove)), nil},
		{"deciding seat taken by a claim", def, withClaims(ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove), vote(p3, DecisionApprove)), claim(lena, 3, time.Minute)), ErrPanelFull},
		{"fourth seat held by a claim", def, withClaims(ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), claim(p3, 3, time.Minute)), ErrPanelFull},
		{"expired claim frees the seat", def, withClaims(ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), claim(p3, 3, 0)), nil},
		{"own claim holds no seat against you", def, withClaims(ctx(StateRound3, 3, p3, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), claim(p3, 3, time.Minute)), nil},
		{"voter's leftover claim counts once", def, withClaims(ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), claim(p1, 3, time.Minute)), nil},
		{"claim on another round", def, withClaims(ctx(StateRound2, 2, walt, r1), claim(p3, 3, time.Minute)), nil},
		{"round 1 seat claimed", def, withClaims(ctx(StateRound1, 1, vera), claim(otto, 1, time.Minute)), ErrPanelFull},

		{"stale revision", def, stale, ErrStaleRevision},

		{"round 2 review in round 1", def, ctx(StateRound1, 2, walt), ErrWrongRound},
		{"review of a draft", def, ctx(StateDraft, 1, vera), ErrWrongRound},
		{"no such round", def, ctx(StateRound1, 4, vera), ErrWrongRound},

		{"round 1 review in round 2", def, ctx(StateRound2, 1, vera), ErrRoundClosed},
		{"accepted", def, ctx(StateAccepted, 3, p4), ErrRoundClosed},
		{"returned", def, ctx(StateReturned, 1, vera), ErrRoundClosed},
		{"withdrawn", def, ctx(StateWithdrawn, 2, walt, r1), ErrRoundClosed},
		{"round 3 after a reject", def, ctx(StateRound3, 3, p3, r1, r2, vote(p1, DecisionReject)), ErrRoundClosed},
		{"unknown state", def, ctx("limbo", 1, vera), ErrUnknownState},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CanReview(tt.p, tt.c)
			if !errors.Is(err, tt.want) {
				t.Fatalf("CanReview = %v; want %v", err, tt.want)
			}
		})
	}
}

func withClaims(c ReviewContext, cl ...Claim) ReviewContext { c.Claims = cl; return c }

func TestRefusalMessages(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		c    ReviewContext
		want string
	}{
		{ctx(StateRound1, 1, ann), "only verifiers and leads can review samples: Ann is an annotator"},
		{ctx(StateRound2, 2, rita, r1), `round 2 must be reviewed by someone outside group red, which reviewed round 1`},
		{ctx(StateRound1, 1, cora), "round 1: you cannot review a revision you wrote or corrected (revision 2 is attributed to you)"},
		{ctx(StateRound3, 3, walt, r1, r2), "round 3: you have already reviewed this revision (you verified round 2; each round needs someone new)"},
		{withClaims(ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), seat(p3, time.Minute)), "round 3: this round already has all the verifiers it needs (3 of 3 seats are taken)"},
		{ctx(StateRound2, 1, vera), "round 1: that round has already closed (it is in round 2)"},
	}
	for _, tt := range tests {
		if err := CanReview(p, tt.c); err == nil || err.Error() != tt.want {
			t.Errorf("CanReview = %v\nwant %s", err, tt.want)
		}
	}
}

func TestCanSeeRound3Votes(t *testing.T) {
	p := DefaultPolicy()
	a := func(u User) Review { return vote(u, DecisionApprove) }
	tests := []struct {
		name              string
		reviews           []Review
		revision, current int
		want              error
	}{
		{"no votes yet", []Review{r1, r2}, 2, 2, ErrBlind},
		{"one vote", []Review{r1, r2, a(p1)}, 2, 2, ErrBlind},
		{"two votes", []Review{r1, r2, a(p1), a(p2)}, 2, 2, ErrBlind},
		{"unanimous panel", []Review{r1, r2, a(p1), a(p2), a(p3)}, 2, 2, nil},
		{"closed by a reject", []Review{r1, r2, a(p1), vote(p2, DecisionReject)}, 2, 2, nil},
		{"revision replaced by a correction", []Review{r1, r2, a(p1)}, 1, 2, nil},
	}
	for _, tt := range tests {
		err := CanSeeRound3Votes(p, tt.reviews, tt.revision, tt.current)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: CanSeeRound3Votes = %v; want %v", tt.name, err, tt.want)
		}
	}
}

// seat is u's round-3 claim, ending ttl after t0.
func seat(u User, ttl time.Duration) Claim {
	return Claim{Sample: "mh-0001", Round: 3, Verifier: u.ID, Expires: t0.Add(ttl)}
}

// closed is revision 2 after p1's reject closed its round 3 while p2 and p3 held
// seats: the sample is returned and reviewer votes on revision 2.
func closed(reviewer User, claims ...Claim) ReviewContext {
	c := ctx(StateReturned, 3, reviewer, r1, r2, vote(p1, DecisionReject))
	c.Claims = claims
	return c
}

// resubmitted is closed after the author resubmitted: revision 3 is in round 1,
// and the reviewer still votes on revision 2.
func resubmitted(reviewer User, current []Review, claims ...Claim) ReviewContext {
	c := closed(reviewer, claims...)
	c.State, c.Revision, c.Author = StateRound1, 3, "lee"
	c.BasedOnReviews, c.Reviews = c.Reviews, current
	return c
}

func TestCanVoteLate(t *testing.T) {
	def := DefaultPolicy()
	earlier := def
	earlier.Round3AllowEarlierVerifiers = true
	smaller := def
	smaller.Round3Panel = 1
	with := func(c ReviewContext, f func(*ReviewContext)) ReviewContext { f(&c); return c }
	active, expired := seat(p2, time.Minute), seat(p2, 0)

	tests := []struct {
		name string
		p    Policy
		c    ReviewContext
		want error
	}{
		{"active claim after a reject", def, closed(p2, active, seat(p3, time.Minute)), nil},
		{"claim ends in a second", def, closed(p2, seat(p2, time.Second)), nil},
		{"after an earlier approval", def, with(closed(p2, active), func(c *ReviewContext) {
			c.Reviews = []Review{r1, r2, vote(p3, DecisionApprove), vote(p1, DecisionReject)}
		}), nil},
		{"withdrawn after the reject", def, with(closed(p2, active), func(c *ReviewContext) { c.State = StateWithdrawn }), nil},
		{"author resubmitted, new revision unreviewed", def, resubmitted(p2, nil, active), nil},
		{"a lead on the panel", def, closed(lena, seat(lena, time.Minute)), nil},

		{"no claim", def, closed(p2), ErrRoundClosed},
		{"someone else's claim", def, closed(p2, seat(p3, time.Minute)), ErrRoundClosed},
		{"expired claim", def, closed(p2, expired), ErrRoundClosed},
		{"claim for another round", def, closed(p2, Claim{Sample: "mh-0001", Round: 1, Verifier: "p2", Expires: t0.Add(time.Minute)}), ErrRoundClosed},
		{"own vote already cast", def, with(closed(p2, active), func(c *ReviewContext) {
			c.Reviews = append(c.Reviews, vote(p2, DecisionApprove))
		}), ErrAlreadyOnPanel},
		{"the rejecter", def, closed(p1, seat(p1, time.Minute)), ErrAlreadyOnPanel},
		{"round-2 verifier holding a seat", def, closed(walt, seat(walt, time.Minute)), ErrAlreadyOnPanel},
		{"round-2 verifier, earlier allowed", earlier, closed(walt, seat(walt, time.Minute)), nil},
		{"author of the revision", def, closed(cora, seat(cora, time.Minute)), ErrSelfReview},
		{"annotator", def, closed(ann, seat(ann, time.Minute)), ErrNotVerifier},
		{"panel shrank to the votes cast", smaller, closed(p2, active), ErrPanelFull},
		{"new revision reviewed since", def, resubmitted(p2, []Review{r1}, active), ErrStaleRevision},
		{"the new revision's claim", def, resubmitted(p2, []Review{r1}, seat(p2, time.Minute)), ErrStaleRevision},
		{"invalid policy", Policy{}, closed(p2, active), ErrInvalidPolicy},

		{"round 3 still open", def, ctx(StateRound3, 3, p2, r1, r2, vote(p1, DecisionApprove)), ErrNotLate},
		{"closed by acceptance", def, ctx(StateAccepted, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove), vote(p3, DecisionApprove)), ErrNotLate},
		{"round 1 after a reject", def, with(ctx(StateReturned, 1, walt, Review{Round: 1, Reviewer: "vera", Decision: DecisionReject}), func(c *ReviewContext) {
			c.Claims = []Claim{{Sample: "mh-0001", Round: 1, Verifier: "walt", Expires: t0.Add(time.Minute)}}
		}), ErrNotLate},
		{"round 2 after a reject", def, with(ctx(StateReturned, 2, p2, r1, Review{Round: 2, Reviewer: "walt", Decision: DecisionReject}), func(c *ReviewContext) {
			c.Claims = []Claim{{Sample: "mh-0001", Round: 2, Verifier: "p2", Expires: t0.Add(time.Minute)}}
		}), ErrNotLate},
		{"round 2 vote on a closed round 3", def, with(closed(p2, active), func(c *ReviewContext) { c.Round = 2 }), ErrNotLate},
		{"revised twice since", def, with(resubmitted(p2, nil, active), func(c *ReviewContext) { c.Revision = 4 }), ErrNotLate},
		{"older revision's reviews not given", def, with(resubmitted(p2, nil, active), func(c *ReviewContext) { c.BasedOnReviews = nil }), ErrNotLate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CanVoteLate(tt.p, tt.c)
			if !errors.Is(err, tt.want) || (tt.want == nil) != (err == nil) {
				t.Fatalf("CanVoteLate = %v; want %v", err, tt.want)
			}
		})
	}
}

func TestLateVoteMessages(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		c    ReviewContext
		want string
	}{
		{closed(p2), "round 3: that round has already closed (a panel member rejected revision 2, and you held no seat on its panel)"},
		{closed(p2, seat(p2, -time.Minute)), "round 3: that round has already closed (a panel member rejected revision 2, and your seat on its panel ended at 2025-03-01 08:59 UTC)"},
		{resubmitted(p2, []Review{r1}, seat(p2, time.Minute)), "the sample has changed since you opened it; reload it and review the new revision (revision 2 has been revised and reviewed since; its panel has been dissolved)"},
	}
	for _, tt := range tests {
		if err := CanVoteLate(p, tt.c); err == nil || err.Error() != tt.want {
			t.Errorf("CanVoteLate = %v\nwant %s", err, tt.want)
		}
	}
}

func TestRound3LateVotersAndBlindness(t *testing.T) {
	p := DefaultPolicy()
	rej, a := vote(p1, DecisionReject), func(u User) Review { return vote(u, DecisionApprove) }
	claims := []Claim{seat(p1, time.Minute), seat(p2, time.Minute), seat(p3, time.Minute), seat(p4, 0)}
	tests := []struct {
		name    string
		r       Round3
		late    []string
		settled bool
		blind   []string // viewers who may not see the votes
	}{
		{"open round", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p2)}, Claims: claims, Now: t0},
			nil, false, []string{"p1", "p2", "p3", "p4", "lena"}},
		{"reject, two seats held", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			[]string{"p2", "p3"}, false, []string{"p2", "p3"}},
		{"one late vote cast", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej, a(p2)}, Claims: claims, Now: t0},
			[]string{"p3"}, false, []string{"p3"}},
		{"every seat voted", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej, a(p2), a(p3)}, Claims: claims, Now: t0},
			nil, true, nil},
		{"seats ended", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0.Add(time.Minute)},
			nil, true, nil},
		{"resubmitted, not yet reviewed", Round3{Revision: 2, Current: 3, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			[]string{"p2", "p3"}, false, []string{"p2", "p3"}},
		{"resubmitted and reviewed", Round3{Revision: 2, Current: 3, CurrentReviewed: true, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			nil, true, nil},
		{"two revisions back", Round3{Revision: 1, Current: 3, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			nil, true, nil},
		{"accepted", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p1), a(p2), a(p3)}, Claims: claims, Now: t0},
			nil, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.LateVoters(); !slices.Equal(got, tt.late) {
				t.Errorf("LateVoters = %v; want %v", got, tt.late)
			}
			if got := tt.r.Settled(p); got != tt.settled {
				t.Errorf("Settled = %v; want %v", got, tt.settled)
			}
			for _, v := range []string{"p1", "p2", "p3", "p4", "lena"} {
				err := tt.r.CanSee(p, v)
				if want := slices.Contains(tt.blind, v); want != errors.Is(err, ErrBlind) || !want && err != nil {
					t.Errorf("CanSee(%s) = %v; blind %v", v, err, want)
				}
			}
		})
	}
}
