package verify

import (
	"errors"

	"github.com/benchwright/benchwright/annotate"
	"slices"
	"testing"
	"time"
)

var (
	pass       = map[string]bool{"objects_exist": true, "box_on_answer": true, "follows_template": true, "answer_correct": true}
	badBox     = map[string]bool{"objects_exist": true, "box_on_answer": false, "follows_template": true, "answer_correct": true}
	approve    = Verdict{Decision: DecisionApprove, Judgements: pass}
	rejectBox  = Verdict{Decision: DecisionReject, Judgements: badBox}
	approve3   = Verdict{Decision: DecisionApprove, Judgements: map[string]bool{"option_entities_exist": true, "box_precise": true, "answer_unique": true}}
	rejectBox3 = Verdict{Decision: DecisionReject, Judgements: map[string]bool{"box_precise": false}, Reasons: []string{"other"}, Comment: "loose box"}
)

func TestRecordRounds1And2(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		name    string
		c       ReviewContext
		v       Verdict
		state   State
		result  Result
		reasons []string
	}{
		{"round 1 approve", ctx(StateRound1, 1, vera), approve, StateRound2, ResultAdvanced, nil},
		{"round 1 reject", ctx(StateRound1, 1, vera), rejectBox, StateReturned, ResultReturned, []string{"box_on_answer"}},
		{"round 2 approve", ctx(StateRound2, 2, walt, r1), Verdict{Decision: DecisionApprove, Judgements: AllPassed(annotate.KindHopQA, 2)}, StateRound3, ResultAdvanced, nil},
		{"round 2 reject", ctx(StateRound2, 2, walt, r1), Verdict{Decision: DecisionReject, Reasons: []string{"not_eliminable"}}, StateReturned, ResultReturned, []string{"not_eliminable"}},
	}
	for _, tt := range tests {
		o, err := Record(p, tt.c, tt.v)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if o.State != tt.state || o.Result != tt.result || !slices.Equal(o.Reasons, tt.reasons) {
			t.Errorf("%s: got %s/%s %v; want %s/%s %v", tt.name, o.State, o.Result, o.Reasons, tt.state, tt.result, tt.reasons)
		}
		want := Review{Round: tt.c.Round, Reviewer: tt.c.Reviewer.ID, Group: tt.c.Reviewer.Group, Decision: tt.v.Decision, Reasons: tt.reasons}
		// A criterion given as a reason is stored as judged no.
		if got := o.Review; got.Round != want.Round || got.Reviewer != want.Reviewer || got.Group != want.Group ||
			got.Decision != want.Decision || !slices.Equal(got.Reasons, want.Reasons) || len(got.Judgements) != len(tt.v.Judgements)+len(tt.v.Reasons) {
			t.Errorf("%s: review to store = %+v, want %+v", tt.name, got, want)
		}
	}
}

// panel records verdicts in round 3 one after another, as a store would, and
// returns the outcomes and the reviews recorded on the revision.
func panel(t *testing.T, p Policy, verdicts ...Verdict) ([]Outcome, []Review) {
	t.Helper()
	state, reviews := StateRound3, []Review{r1, r2}
	var outs []Outcome
	for i, v := range verdicts {
		o, err := Record(p, ctx(state, 3, []User{p1, p2, p3, p4}[i], reviews...), v)
		if err != nil {
			t.Fatalf("vote %d: %v", i+1, err)
		}
		outs = append(outs, o)
		reviews = append(reviews, o.Review)
		state = o.State
	}
	return outs, reviews
}

func TestRound3Unanimity(t *testing.T) {
	outs, reviews := panel(t, DefaultPolicy(), approve3, approve3, approve3)
	want := []struct {
		state     State
		result    Result
		event     Event
		approvals int
	}{
		{StateRound3, ResultWaiting, EventApprove, 1},
		{StateRound3, ResultWaiting, EventApprove, 2},
		{StateAccepted, ResultAccepted, EventAccept, 3},
	}
	for i, w := range want {
		if o := outs[i]; o.State != w.state || o.Result != w.result || o.Event != w.event || o.Approvals != w.approvals || o.Panel != 3 {
			t.Errorf("vote %d: %+v; want %+v", i+1, o, w)
		}
	}
	if err := CanSeeRound3Votes(DefaultPolicy(), reviews, 2, 2); err != nil {
		t.Errorf("votes hidden after acceptance: %v", err)
	}
}

func TestRound3EarlyReject(t *testing.T) {
	p := DefaultPolicy()
	outs, reviews := panel(t, p, approve3, rejectBox3)
	last := outs[1]
	if last.State != StateReturned || last.Event != EventReject || last.Approvals != 1 ||
		!slices.Equal(last.Reasons, []string{"box_precise", "other"}) {
		t.Fatalf("reject outcome = %+v", last)
	}
	if n := len(reviews); n != 4 || reviews[2].Decision != DecisionApprove {
		t.Errorf("the approval cast before the reject is not kept: %+v", reviews)
	}
	// The third panel member can no longer vote; everyone may now see the votes.
	if _, err := Record(p, ctx(StateReturned, 3, p3, reviews...), approve3); !errors.Is(err, ErrRoundClosed) {
		t.Errorf("vote after the reject = %v; want ErrRoundClosed", err)
	}
	if err := CanSeeRound3Votes(p, reviews, 2, 2); err != nil {
		t.Errorf("votes hidden after the reject: %v", err)
	}

	outs, _ = panel(t, p, rejectBox3)
	if outs[0].State != StateReturned || outs[0].Approvals != 0 {
		t.Errorf("first vote reject = %+v", outs[0])
	}
}

func TestRound3PanelOfOne(t *testing.T) {
	p := DefaultPolicy()
	p.Round3Panel = 1
	outs, _ := panel(t, p, approve3)
	if outs[0].State != StateAccepted {
		t.Errorf("panel of one: %+v", outs[0])
	}
}

func TestRecordRefuses(t *testing.T) {
	p := DefaultPolicy()
	tests := []struct {
		name string
		c    ReviewContext
		v    Verdict
		want error
	}{
		{"ineligible reviewer", ctx(StateRound1, 1, cora), approve, ErrSelfReview},
		{"reject without reason", ctx(StateRound1, 1, vera), Verdict{Decision: DecisionReject, Judgements: pass}, ErrNoReason},
		{"approve with a failure", ctx(StateRound1, 1, vera), Verdict{Decision: DecisionApprove, Judgements: badBox}, ErrApproveWithFailure},
		{"round-1 criteria in round 3", ctx(StateRound3, 3, p1, r1, r2), approve, ErrUnknownCriterion},
		{"fourth seat held by a claim", withClaims(ctx(StateRound3, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove)), seat(p3, time.Minute)), approve3, ErrPanelFull},
	}
	for _, tt := range tests {
		if _, err := Record(p, tt.c, tt.v); !errors.Is(err, tt.want) {
			t.Errorf("%s: Record = %v; want %v", tt.name, err, tt.want)
		}
	}
}

func TestCorrect(t *testing.T) {
	def := DefaultPolicy()
	stay := def
	stay.CorrectionReentersRound1 = false
	tests := []struct {
		name    string
		p       Policy
		c       ReviewContext
		state   State
		carried []Review
		err     error
	}{
		{"round 1, default", def, ctx(StateRound1, 1, vera), StateRound1, nil, nil},
		{"round 2, default", def, ctx(StateRound2, 2, walt, r1), StateRound1, nil, nil},
		{"round 3, default", def, ctx(StateRound3, 3, p2, r1, r2, vote(p1, DecisionApprove)), StateRound1, nil, nil},
		{"round 1, stay", stay, ctx(StateRound1, 1, vera), StateRound1, nil, nil},
		{"round 2, stay", stay, ctx(StateRound2, 2, walt, r1), StateRound2, []Review{r1}, nil},
		{"round 3, stay", stay, ctx(StateRound3, 3, p2, r1, r2, vote(p1, DecisionApprove)), StateRound3, []Review{r1, r2}, nil},
		{"annotator", def, ctx(StateRound1, 1, ann), "", nil, ErrNotVerifier},
		{"author", def, ctx(StateRound2, 2, cora, r1), "", nil, ErrSelfReview},
		{"returned", def, ctx(StateReturned, 1, vera), "", nil, ErrRoundClosed},
	}
	for _, tt := range tests {
		state, carried, err := Correct(tt.p, tt.c)
		if state != tt.state || !errors.Is(err, tt.err) || !slices.EqualFunc(carried, tt.carried, func(a, b Review) bool {
			return a.Round == b.Round && a.Reviewer == b.Reviewer
		}) {
			t.Errorf("%s: Correct = %s, %v, %v; want %s, %v, %v", tt.name, state, carried, err, tt.state, tt.carried, tt.err)
		}
	}

	// With corrections staying in round 2, the carried round-1 review still
	// keeps the round-1 verifier and their group off round 2.
	_, carried, _ := Correct(stay, ctx(StateRound2, 2, walt, r1))
	next := ctx(StateRound2, 2, rita, carried...)
	next.Revision, next.BasedOn, next.Author = 3, 3, "walt"
	if err := CanReview(stay, next); !errors.Is(err, ErrSameGroup) {
		t.Errorf("round 2 after a correction: %v; want ErrSameGroup", err)
	}
	next.Reviewer = walt
	if err := CanReview(stay, next); !errors.Is(err, ErrSelfReview) {
		t.Errorf("corrector reviews own correction: %v; want ErrSelfReview", err)
	}
}

func TestRecordLateVote(t *testing.T) {
	p := DefaultPolicy()
	held := []Claim{seat(p2, time.Minute), seat(p3, time.Minute)}
	tests := []struct {
		name      string
		c         ReviewContext
		v         Verdict
		revision  int
		state     State
		approvals int
	}{
		{"approve", closed(p2, held...), approve3, 2, StateReturned, 1},
		{"reject", closed(p3, held...), rejectBox3, 2, StateReturned, 0},
		{"after the author resubmitted", resubmitted(p2, nil, held...), approve3, 2, StateRound1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Record(p, tt.c, tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if o.Result != ResultLate || o.Event != "" || o.State != tt.state || o.Revision != tt.revision ||
				o.Approvals != tt.approvals || o.Panel != 3 || o.Reasons != nil {
				t.Errorf("outcome = %+v; want a late vote on revision %d leaving %s, %d approvals", o, tt.revision, tt.state, tt.approvals)
			}
			if rv := o.Review; rv.Round != 3 || rv.Reviewer != tt.c.Reviewer.ID || rv.Decision != tt.v.Decision {
				t.Errorf("review to store = %+v", rv)
			}
		})
	}
}

func TestRecordLateVoteRefused(t *testing.T) {
	p := DefaultPolicy()
	held := seat(p2, time.Minute)
	accepted := ctx(StateAccepted, 3, p4, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove), vote(p3, DecisionApprove))
	accepted.Claims = []Claim{seat(p4, time.Minute)}
	round1 := ctx(StateReturned, 1, walt, Review{Round: 1, Reviewer: "vera", Decision: DecisionReject, Reasons: []string{"other"}})
	round1.Claims = []Claim{{Sample: "mh-0001", Round: 1, Verifier: "walt", Expires: t0.Add(time.Minute)}}
	round2 := ctx(StateReturned, 2, p2, r1, Review{Round: 2, Reviewer: "walt", Decision: DecisionReject, Reasons: []string{"other"}})
	round2.Claims = []Claim{{Sample: "mh-0001", Round: 2, Verifier: "p2", Expires: t0.Add(time.Minute)}}
	voted := closed(p2, held)
	voted.Reviews = append(voted.Reviews, vote(p2, DecisionApprove))
	tests := []struct {
		name string
		c    ReviewContext
		v    Verdict
		want error
	}{
		{"no claim", closed(p2), approve3, ErrRoundClosed},
		{"expired claim", closed(p2, seat(p2, 0)), approve3, ErrRoundClosed},
		{"own vote already cast", voted, approve3, ErrAlreadyOnPanel},
		{"round 1 after its reject", round1, approve, ErrRoundClosed},
		{"round 2 after its reject", round2, approve, ErrRoundClosed},
		{"closed by acceptance", accepted, approve3, ErrRoundClosed},
		{"revised and reviewed since", resubmitted(p2, []Review{r1}, held), approve3, ErrStaleRevision},
		{"reject without reason", closed(p2, held), Verdict{Decision: DecisionReject}, ErrNoReason},
		{"round-1 criteria", closed(p2, held), approve, ErrUnknownCriterion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if o, err := Record(p, tt.c, tt.v); !errors.Is(err, tt.want) {
				t.Errorf("Record = %+v, %v; want %v", o, err, tt.want)
			}
		})
	}
}

// TestRound3LateVotesAfterReject plays a panel of three who all took their seat
// before p1 rejected: p2 and p3 still vote, blind, and nothing moves the sample.
func TestRound3LateVotesAfterReject(t *testing.T) {
	p := DefaultPolicy()
	c := ctx(StateRound3, 3, p1, r1, r2)
	c.Claims = []Claim{seat(p1, time.Minute), seat(p2, time.Minute), seat(p3, time.Minute)}
	first, err := Record(p, c, rejectBox3)
	if err != nil || first.Result != ResultReturned || first.State != StateReturned {
		t.Fatalf("the first reject: %+v, %v", first, err)
	}
	c.State, c.Reviews = first.State, append(c.Reviews, first.Review)
	c.Claims = c.Claims[1:] // the rejecter's claim ends with their vote
	r3 := Round3{Revision: 2, Current: 2, Reviews: c.Reviews, Claims: c.Claims, Now: t0}
	if late := r3.LateVoters(); !slices.Equal(late, []string{"p2", "p3"}) {
		t.Fatalf("late voters after the reject = %v", late)
	}
	for i, step := range []struct {
		who  User
		v    Verdict
		late []string
	}{{p2, approve3, []string{"p3"}}, {p3, rejectBox3, nil}} {
		if err := r3.CanSee(p, step.who.ID); !errors.Is(err, ErrBlind) {
			t.Errorf("%s sees the votes before voting: %v", step.who.ID, err)
		}
		c.Reviewer = step.who
		o, err := Record(p, c, step.v)
		if err != nil || o.Result != ResultLate || o.State != StateReturned || o.Event != "" {
			t.Fatalf("late vote %d: %+v, %v", i+1, o, err)
		}
		c.Reviews = append(c.Reviews, o.Review)
		c.Claims = c.Claims[1:]
		r3.Reviews, r3.Claims = c.Reviews, c.Claims
		if late := r3.LateVoters(); !slices.Equal(late, step.late) {
			t.Errorf("late voters after %s's vote = %v; want %v", step.who.ID, late, step.late)
		}
		if err := r3.CanSee(p, step.who.ID); err != nil {
			t.Errorf("%s after voting: %v", step.who.ID, err)
		}
	}
	if n := len(c.Reviews) - 2; n != 3 || !r3.Settled(p) {
		t.Errorf("%d round-3 votes, settled %v; want 3 and settled", n, r3.Settled(p))
	}
}

func TestTwoRounds(t *testing.T) {
	p := DefaultPolicy()
	p.Rounds = 2
	approve2 := Verdict{Decision: DecisionApprove, Judgements: AllPassed(annotate.KindHopQA, 2)}
	o, err := Record(p, ctx(StateRound2, 2, walt, r1), approve2)
	if err != nil || o.State != StateAccepted || o.Result != ResultAccepted || o.Event != EventAccept {
		t.Fatalf("round-2 approval in a 2-round project = %+v, %v; want accepted", o, err)
	}
	o, err = Record(p, ctx(StateRound1, 1, vera), approve)
	if err != nil || o.State != StateRound2 {
		t.Errorf("round 1 still leads to round 2: %+v, %v", o, err)
	}
	// A sample already in round 3 when the project went to 2 rounds finishes it.
	o, err = Record(p, ctx(StateRound3, 3, p1, r1, r2), approve3)
	if err != nil || o.State != StateRound3 || o.Result != ResultWaiting {
		t.Errorf("round 3 under a 2-round policy = %+v, %v; want waiting", o, err)
	}
}

func TestPanelShrunkUnderOpenRound3(t *testing.T) {
	p := DefaultPolicy()
	p.Round3Panel = 2
	// Two approvals were cast while the panel was 3: the next verifier decides.
	c := ctx(StateRound3, 3, p3, r1, r2, vote(p1, DecisionApprove), vote(p2, DecisionApprove))
	o, err := Record(p, c, approve3)
	if err != nil || o.State != StateAccepted || o.Approvals != 3 || o.Panel != 2 {
		t.Fatalf("deciding approval = %+v, %v; want accepted", o, err)
	}
	o, err = Record(p, c, rejectBox3)
	if err != nil || o.State != StateReturned {
		t.Fatalf("deciding reject = %+v, %v; want returned", o, err)
	}
	// One approval under a panel now of 2: the next approval completes it.
	o, err = Record(p, ctx(StateRound3, 3, p2, r1, r2, vote(p1, DecisionApprove)), approve3)
	if err != nil || o.State != StateAccepted {
		t.Fatalf("second approval under the new panel of 2 = %+v, %v; want accepted", o, err)
	}
}
