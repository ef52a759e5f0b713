package verify

import "testing"

func TestStateWords(t *testing.T) {
	want := map[State]string{
		StateDraft: "draft", StateRound1: "in round 1", StateRound2: "in round 2", StateRound3: "in round 3",
		StateAccepted: "accepted", StateReturned: "returned", StateWithdrawn: "withdrawn",
	}
	for _, s := range States {
		if got := s.Words(); got != want[s] {
			t.Errorf("%s.Words() = %q, want %q", s, got, want[s])
		}
	}
}
