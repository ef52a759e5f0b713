package verify

import (
	"slices"
	"testing"
)

func TestInReview(t *testing.T) {
	tests := []struct {
		s    State
		want bool
	}{
		{StateDraft, false},
		{StateRound1, true},
		{StateRound2, true},
		{StateRound3, true},
		{StateAccepted, false},
		{StateReturned, false},
		{StateWithdrawn, false},
		{"", false},
		{"round4", false},
	}
	for _, tt := range tests {
		if got := tt.s.InReview(); got != tt.want {
			t.Errorf("%q.InReview() = %v, want %v", tt.s, got, tt.want)
		}
	}
	if got, want := ReviewStates(), []State{StateRound1, StateRound2, StateRound3}; !slices.Equal(got, want) {
		t.Errorf("ReviewStates() = %v, want %v", got, want)
	}
}

func TestDraftDeletable(t *testing.T) {
	tests := []struct {
		name     string
		s        State
		revision int
		want     bool
	}{
		{"a draft never submitted", StateDraft, 0, true},
		{"a reopened draft with revisions", StateDraft, 2, false},
		{"returned to its author", StateReturned, 1, false},
		{"in round 1", StateRound1, 1, false},
		{"accepted", StateAccepted, 1, false},
		{"withdrawn before a submit", StateWithdrawn, 0, false},
	}
	for _, tt := range tests {
		if got := DraftDeletable(tt.s, tt.revision); got != tt.want {
			t.Errorf("%s: DraftDeletable(%s, %d) = %v, want %v", tt.name, tt.s, tt.revision, got, tt.want)
		}
	}
}
