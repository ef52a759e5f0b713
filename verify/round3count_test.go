package verify

import (
	"testing"
	"time"
)

// TestRound3Count is how the figures count a revision's round-3 votes in each
// state of a round 3.
func TestRound3Count(t *testing.T) {
	p := DefaultPolicy() // a panel of 3
	a := func(u User) Review { return vote(u, DecisionApprove) }
	rej := vote(p1, DecisionReject)
	claims := []Claim{seat(p1, time.Minute), seat(p2, time.Minute), seat(p3, time.Minute)}
	small := p
	small.Round3Panel = 2
	tests := []struct {
		name string
		p    Policy
		r    Round3
		want Round3Count
	}{
		{"open, two approvals", p, Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p1), a(p2)}, Claims: claims, Now: t0},
			Round3Count{}},
		{"the panel of 2 full", small, Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p1), a(p2)}, Claims: claims, Now: t0},
			Round3Count{Counted: true, Result: DecisionApprove}},
		{"accepted unanimously", p, Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p1), a(p2), a(p3)}, Claims: claims, Now: t0},
			Round3Count{Counted: true, Result: DecisionApprove}},
		{"closed by a reject, two seats still held", p, Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			Round3Count{Waiting: true}},
		{"closed by a reject, the seats ended", p, Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0.Add(time.Minute)},
			Round3Count{Counted: true, Result: DecisionReject}},
		{"closed by a reject, every seat voted", p, Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej, a(p2), a(p3)}, Claims: claims, Now: t0},
			Round3Count{Counted: true, Result: DecisionReject}},
		{"corrected away while open: counted, no result", p, Round3{Revision: 1, Current: 2, CurrentReviewed: true, Reviews: []Review{r1, r2, a(p1)}, Now: t0},
			Round3Count{Counted: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.Count(tt.p); got != tt.want {
				t.Errorf("Count = %+v, want %+v", got, tt.want)
			}
		})
	}
}
