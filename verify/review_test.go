package verify

import (
	"errors"
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
	withClaims := func(c ReviewContext, cl ...Claim) ReviewContext { c.Claims = cl; return c }
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

		{"fourth round-3 vote", def, ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove), vote(p3, DecisionApprove)), ErrPanelFull},
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

func TestRefusalMessages(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		c    ReviewContext
		want string
	}{
		{ctx(StateRound1, 1, ann), "only verifiers and leads can review samples: Ann is an annotator"},
		{ctx(StateRound2, 2, rita, r1), `round 2 needs a verifier from a different group than round 1 (you and the round-1 verifier are both in group "red")`},
		{ctx(StateRound1, 1, cora), "round 1: you cannot review a revision you wrote or corrected (revision 2 is attributed to you)"},
		{ctx(StateRound3, 3, walt, r1, r2), "round 3: you have already reviewed this revision (you verified round 2; each round needs someone new)"},
		{ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove), vote(p3, DecisionApprove)), "round 3: this round already has all the verifiers it needs (3 of 3 seats are taken)"},
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
