package verify

import (
	"slices"
	"testing"
)

func TestTrail(t *testing.T) {
	ok := func(round int, who string) Review {
		return Review{Round: round, Reviewer: who, Name: "v" + who, Decision: DecisionApprove}
	}
	no := func(round int, who string) Review {
		return Review{Round: round, Reviewer: who, Name: "v" + who, Decision: DecisionReject}
	}
	three, two, panel2 := DefaultPolicy(), DefaultPolicy(), DefaultPolicy()
	two.Rounds = 2
	panel2.Round3Panel = 2
	tests := []struct {
		name    string
		p       Policy
		reviews []Review
		want    []string
	}{
		{"complete, 3 rounds", three, []Review{ok(1, "a"), ok(2, "b"), ok(3, "c"), ok(3, "d"), ok(3, "e")}, nil},
		{"complete, 2 rounds", two, []Review{ok(1, "a"), ok(2, "b")}, nil},
		{"2 rounds, finished round 3 after the change", two, []Review{ok(1, "a"), ok(2, "b"), ok(3, "c"), ok(3, "d"), ok(3, "e")}, nil},
		{"2 rounds, round 3 short", two, []Review{ok(1, "a"), ok(2, "b"), ok(3, "c")}, []string{"round 3 has 1 approvals, the policy needs a panel of 3"}},
		{"panel of 2", panel2, []Review{ok(1, "a"), ok(2, "b"), ok(3, "c"), ok(3, "d")}, nil},
		{"no round 2", three, []Review{ok(1, "a"), ok(3, "c"), ok(3, "d"), ok(3, "e")}, []string{"no round-2 approval on the accepted revision"}},
		{"2 rounds, no round 2", two, []Review{ok(1, "a")}, []string{"no round-2 approval on the accepted revision"}},
		{"short panel", three, []Review{ok(1, "a"), ok(2, "b"), ok(3, "c"), ok(3, "c")},
			[]string{"round 3 has 1 approvals, the policy needs a panel of 3"}},
		{"not unanimous", three, []Review{ok(1, "a"), ok(2, "b"), ok(3, "c"), ok(3, "d"), ok(3, "e"), no(3, "f")},
			[]string{"round 3 was not unanimous: 1 rejections"}},
		{"author reviewed", panel2, []Review{ok(1, "au"), ok(2, "b"), ok(3, "c"), ok(3, "co")},
			[]string{"vau reviewed in round 1 a revision they wrote or corrected", "vco reviewed in round 3 a revision they wrote or corrected"}},
	}
	for _, tt := range tests {
		if got := Trail(tt.p, "au", []string{"co"}, tt.reviews); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Trail = %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
