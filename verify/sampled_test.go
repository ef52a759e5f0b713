package verify

import (
	"slices"
	"strings"
	"testing"
)

func TestAcceptSampledMove(t *testing.T) {
	to, err := Transition(StateDraft, EventAcceptSampled)
	if err != nil || to != StateAccepted {
		t.Fatalf("draft --accept_sampled--> %q, %v; want accepted", to, err)
	}
	for _, from := range States {
		if from == StateDraft {
			continue
		}
		if _, err := Transition(from, EventAcceptSampled); err == nil {
			t.Errorf("accept_sampled from %s is allowed; only drafts (an unsampled batch item) may be", from)
		}
	}
	if err := Authorize(EventAcceptSampled, User{ID: "v", Name: "vera", Role: RoleVerifier}, false); err == nil {
		t.Error("a verifier may accept by sampling")
	}
	if err := Authorize(EventAcceptSampled, User{ID: "l", Name: "lee", Role: RoleLead}, false); err != nil {
		t.Errorf("a lead may not accept by sampling: %v", err)
	}
}

func TestSampledTrail(t *testing.T) {
	ok := SampledAcceptance{Batch: "gen1", AcceptedBy: "lee", Upper: 0.031, Threshold: 0.05}
	tests := []struct {
		name    string
		a       SampledAcceptance
		reviews []Review
		want    []string
	}{
		{"complete", ok, nil, nil},
		{"no record", SampledAcceptance{Batch: "gen1"}, nil, []string{`batch "gen1" has no accept-rest record`}},
		{"bound too high", SampledAcceptance{Batch: "gen1", AcceptedBy: "lee", Upper: 0.05, Threshold: 0.05}, nil, []string{"not below the threshold"}},
		{"reviewed", ok, []Review{{Round: 1, Reviewer: "7", Decision: DecisionApprove}}, []string{"yet it has 1 reviews"}},
	}
	for _, tc := range tests {
		got := SampledTrail(tc.a, tc.reviews)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %q, want %d problems", tc.name, got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) {
				t.Errorf("%s: %q lacks %q", tc.name, got[i], w)
			}
		}
	}
	if !slices.Contains(Events, EventAcceptSampled) {
		t.Error("EventAcceptSampled is not in Events")
	}
}

func TestSampledOutcome(t *testing.T) {
	tests := []struct {
		status                      State
		rejected, approved, correct bool
		want                        SampleOutcome
	}{
		{StateRound1, false, false, false, OutcomePending},
		{StateRound2, false, true, false, OutcomeRight},
		{StateAccepted, false, true, false, OutcomeRight},
		{StateReturned, true, false, false, OutcomeError},
		{StateRound1, false, false, true, OutcomeError}, // corrected in round 1
		{StateRound2, true, true, false, OutcomeError},  // a reject counts even beside an approval
		{StateWithdrawn, false, false, false, OutcomeError},
		{StateWithdrawn, false, true, false, OutcomeRight}, // withdrawn after it was judged right
	}
	for _, tc := range tests {
		if got := SampledOutcome(tc.status, tc.rejected, tc.approved, tc.correct); got != tc.want {
			t.Errorf("SampledOutcome(%s, rejected=%v, approved=%v, corrected=%v) = %s, want %s", tc.status, tc.rejected, tc.approved, tc.correct, got, tc.want)
		}
	}
}
