package verify

import (
	"slices"
	"testing"
)

func TestAcceptedTrail(t *testing.T) {
	p := DefaultPolicy()
	full := []Review{
		{Round: 1, Reviewer: "v1", Decision: DecisionApprove},
		{Round: 2, Reviewer: "v2", Decision: DecisionApprove},
	}
	for i := range p.Round3Panel {
		full = append(full, Review{Round: 3, Reviewer: string(rune('p' + i)), Decision: DecisionApprove})
	}
	byCorrector := append(slices.Clone(full), Review{Round: 3, Reviewer: "c", Name: "Carol", Decision: DecisionApprove})
	passed := &SampledAcceptance{Batch: "b", AcceptedBy: "lead", Upper: 0.02, Threshold: 0.05}
	for _, tc := range []struct {
		name    string
		sampled *SampledAcceptance
		rev     string
		reviews []Review
		want    []string
	}{
		{"complete", nil, "a", full, nil},
		{"the revision's author reviewed", nil, "c", byCorrector, []string{"Carol reviewed in round 3 a revision they wrote or corrected"}},
		{"someone else's revision", nil, "a", byCorrector, nil},
		{"accepted by sampling", passed, "a", nil, nil},
		{"accepted by sampling, with reviews", passed, "a", full[:1], []string{`accepted by sampling from batch "b", yet it has 1 reviews`}},
		{"accepted by sampling, no record", &SampledAcceptance{Batch: "b"}, "a", nil, []string{`accepted by sampling, but batch "b" has no accept-rest record`}},
	} {
		got := AcceptedTrail(p, "a", tc.rev, tc.sampled, tc.reviews)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
