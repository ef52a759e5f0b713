package bench

import (
	"testing"

	"github.com/benchwright/benchwright/verify"
)

// The audit log's "sample.status" wording is read back by the history, the
// activity summaries and the round-3 closing, and cut after "→ " by migration
// 0004's SQL: writing and reading must agree, and the wording must stay.
func TestStatusChange(t *testing.T) {
	tests := []struct {
		detail string
		want   StatusChange
		ok     bool
	}{
		{"round1 → round2", StatusChange{verify.StateRound1, verify.StateRound2}, true},
		{"draft → accepted", StatusChange{verify.StateDraft, verify.StateAccepted}, true},
		{"round3 → returned", StatusChange{verify.StateRound3, verify.StateReturned}, true},
		{"no arrow", StatusChange{}, false},
		{"round1->round2", StatusChange{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseStatusChange(tt.detail)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseStatusChange(%q) = %v, %v; want %v, %v", tt.detail, got, ok, tt.want, tt.ok)
		}
		if tt.ok && tt.want.String() != tt.detail {
			t.Errorf("%#v.String() = %q, want %q", tt.want, tt.want.String(), tt.detail)
		}
	}
	if got, want := IntoPattern(verify.StateRound2), "% → round2"; got != want {
		t.Errorf("IntoPattern(round2) = %q, want %q", got, want)
	}
}
