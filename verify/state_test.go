package verify

import (
	"errors"
	"slices"
	"testing"
)

// wantRules is the protocol written out independently of the table in state.go.
var wantRules = []Rule{
	{StateDraft, EventSubmit, StateRound1, ActorAuthor},
	{StateReturned, EventSubmit, StateRound1, ActorAuthor},
	{StateRound1, EventApprove, StateRound2, ActorVerifier},
	{StateRound1, EventReject, StateReturned, ActorVerifier},
	{StateRound2, EventApprove, StateRound3, ActorVerifier},
	{StateRound2, EventReject, StateReturned, ActorVerifier},
	{StateRound3, EventApprove, StateRound3, ActorVerifier},
	{StateRound3, EventAccept, StateAccepted, ActorVerifier},
	{StateRound3, EventReject, StateReturned, ActorVerifier},
	{StateRound1, EventCorrect, StateRound1, ActorVerifier},
	{StateRound2, EventCorrect, StateRound1, ActorVerifier},
	{StateRound3, EventCorrect, StateRound1, ActorVerifier},
	{StateRound1, EventCorrectInRound, StateRound1, ActorVerifier},
	{StateRound2, EventCorrectInRound, StateRound2, ActorVerifier},
	{StateRound3, EventCorrectInRound, StateRound3, ActorVerifier},
	{StateDraft, EventWithdraw, StateWithdrawn, ActorLead},
	{StateRound1, EventWithdraw, StateWithdrawn, ActorLead},
	{StateRound2, EventWithdraw, StateWithdrawn, ActorLead},
	{StateRound3, EventWithdraw, StateWithdrawn, ActorLead},
	{StateAccepted, EventWithdraw, StateWithdrawn, ActorLead},
	{StateReturned, EventWithdraw, StateWithdrawn, ActorLead},
	{StateWithdrawn, EventReopen, StateDraft, ActorLead},
	{StateDraft, EventAcceptSampled, StateAccepted, ActorLead},
	{StateRound2, EventAccept, StateAccepted, ActorVerifier},
}

func TestTransitionEveryRule(t *testing.T) {
	got := Rules()
	if len(got) != len(wantRules) {
		t.Fatalf("table has %d rules, want %d", len(got), len(wantRules))
	}
	for _, w := range wantRules {
		if !slices.Contains(got, w) {
			t.Errorf("table lacks %+v", w)
		}
		to, err := Transition(w.From, w.Event)
		if err != nil || to != w.To {
			t.Errorf("Transition(%s, %s) = %q, %v; want %q", w.From, w.Event, to, err, w.To)
		}
	}
}

func TestTransitionRefused(t *testing.T) {
	for _, from := range States {
		for _, ev := range Events {
			if slices.ContainsFunc(wantRules, func(r Rule) bool { return r.From == from && r.Event == ev }) {
				continue
			}
			to, err := Transition(from, ev)
			if !errors.Is(err, ErrInvalidTransition) || to != "" {
				t.Errorf("Transition(%s, %s) = %q, %v; want ErrInvalidTransition", from, ev, to, err)
			}
		}
	}
	if _, err := Transition("limbo", EventSubmit); !errors.Is(err, ErrUnknownState) {
		t.Errorf("unknown state: %v", err)
	}
	if _, err := Transition(StateDraft, "publish"); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown event: %v", err)
	}
}

func TestWithdrawFromAnyStateButWithdrawn(t *testing.T) {
	for _, s := range States {
		_, err := Transition(s, EventWithdraw)
		if (s == StateWithdrawn) != (err != nil) {
			t.Errorf("withdraw from %s: %v", s, err)
		}
	}
}

func TestReopen(t *testing.T) {
	tests := []struct {
		from, prev, want State
		err              error
	}{
		{StateWithdrawn, StateRound2, StateRound2, nil},
		{StateWithdrawn, StateAccepted, StateAccepted, nil},
		{StateWithdrawn, "", StateDraft, nil},
		{StateWithdrawn, StateWithdrawn, StateDraft, nil},
		{StateWithdrawn, "bogus", StateDraft, nil},
		{StateRound1, StateRound2, "", ErrInvalidTransition},
	}
	for _, tt := range tests {
		got, err := Reopen(tt.from, tt.prev)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Reopen(%s, %q) = %q, %v; want %q, %v", tt.from, tt.prev, got, err, tt.want, tt.err)
		}
	}
}

func TestEachEventHasOneActor(t *testing.T) {
	who := map[Event]Actor{}
	for _, r := range Rules() {
		if w, ok := who[r.Event]; ok && w != r.Who {
			t.Errorf("event %s is fired by both %s and %s", r.Event, w, r.Who)
		}
		who[r.Event] = r.Who
	}
	for _, ev := range Events {
		if _, ok := who[ev]; !ok {
			t.Errorf("event %s is in no rule", ev)
		}
	}
}

func TestRulesIsACopy(t *testing.T) {
	Rules()[0].To = StateAccepted
	if to, _ := Transition(StateDraft, EventSubmit); to != StateRound1 {
		t.Fatalf("editing Rules() changed the table: submit gives %s", to)
	}
}

func TestAuthorize(t *testing.T) {
	ann := User{ID: "ann", Role: RoleAnnotator}
	vera := User{ID: "vera", Role: RoleVerifier}
	lee := User{ID: "lee", Role: RoleLead}
	tests := []struct {
		ev       Event
		u        User
		isAuthor bool
		want     error
	}{
		{EventSubmit, ann, true, nil},
		{EventSubmit, lee, false, ErrNotAuthor},
		{EventApprove, vera, false, nil},
		{EventReject, lee, false, nil},
		{EventAccept, ann, false, ErrNotVerifier},
		{EventCorrect, ann, true, ErrNotVerifier},
		{EventCorrectInRound, vera, false, nil},
		{EventWithdraw, lee, false, nil},
		{EventWithdraw, vera, false, ErrNotLead},
		{EventReopen, ann, true, ErrNotLead},
		{"publish", lee, true, ErrUnknownEvent},
	}
	for _, tt := range tests {
		err := Authorize(tt.ev, tt.u, tt.isAuthor)
		if !errors.Is(err, tt.want) {
			t.Errorf("Authorize(%s, %s, %v) = %v; want %v", tt.ev, tt.u.ID, tt.isAuthor, err, tt.want)
		}
	}
	if err := Authorize(EventWithdraw, ann, false); err == nil || err.Error() != "withdraw: only a lead can do this (ann is an annotator)" {
		t.Errorf("message: %v", err)
	}
}

func TestStateRound(t *testing.T) {
	want := map[State]int{StateRound1: 1, StateRound2: 2, StateRound3: 3}
	for _, s := range States {
		if s.Round() != want[s] {
			t.Errorf("%s.Round() = %d, want %d", s, s.Round(), want[s])
		}
	}
}
