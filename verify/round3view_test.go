package verify

import (
	"testing"
	"time"
)

// TestRound3ViewFor is what every viewer role sees of the round-3 votes in each
// state of a round 3: the rule every place that shows votes calls.
func TestRound3ViewFor(t *testing.T) {
	p := DefaultPolicy()
	a := func(u User) Review { return vote(u, DecisionApprove) }
	rej := vote(p1, DecisionReject)
	claims := []Claim{seat(p1, time.Minute), seat(p2, time.Minute), seat(p3, time.Minute)}
	outsider := User{ID: "vic", Role: RoleVerifier, Group: "blue"} // on no panel
	type seen struct {
		others VoteView
		mask   string
		closer bool // the closing reject's author is hidden
	}
	shown, hidden := seen{others: VoteShown}, seen{others: VoteHidden}
	open, late := seen{VoteMasked, MaskOpen, false}, seen{VoteMasked, MaskLate, true}
	states := []struct {
		name string
		r    Round3
		want map[string]seen // viewer id → what they see of others' votes
	}{
		{"open, two approvals", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p1), a(p2)}, Claims: claims, Now: t0},
			map[string]seen{"lena": open, "p1": hidden, "p2": hidden, "p3": hidden, "vic": hidden, "ann": hidden}},
		{"open, no vote yet", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2}, Claims: claims, Now: t0},
			map[string]seen{"lena": open, "p1": hidden, "p3": hidden, "vic": hidden, "ann": hidden}},
		{"accepted unanimously", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, a(p1), a(p2), a(p3)}, Claims: claims, Now: t0},
			map[string]seen{"lena": shown, "p1": shown, "p2": shown, "p3": shown, "vic": shown, "ann": shown}},
		{"closed by a reject, two seats still held", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			map[string]seen{"lena": shown, "p1": shown, "p2": late, "p3": late, "vic": shown, "ann": shown}},
		{"closed by a reject, resubmitted, not yet reviewed", Round3{Revision: 2, Current: 3, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0},
			map[string]seen{"lena": shown, "p2": late, "vic": shown, "ann": shown}},
		{"closed by a reject, the seats ended", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej}, Claims: claims, Now: t0.Add(time.Minute)},
			map[string]seen{"lena": shown, "p2": shown, "p3": shown, "vic": shown}},
		{"closed by a reject, every seat voted", Round3{Revision: 2, Current: 2, Reviews: []Review{r1, r2, rej, a(p2), a(p3)}, Claims: claims, Now: t0},
			map[string]seen{"lena": shown, "p2": shown, "p3": shown}},
		{"a revision corrected away while open", Round3{Revision: 1, Current: 2, CurrentReviewed: true, Reviews: []Review{r1, r2, a(p1)}, Now: t0},
			map[string]seen{"lena": shown, "p2": shown, "ann": shown}},
	}
	viewers := map[string]User{"lena": lena, "p1": p1, "p2": p2, "p3": p3, "vic": outsider, "ann": ann}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			for id, want := range st.want {
				v := st.r.ViewFor(p, viewers[id])
				if got := (seen{v.Others, v.Mask, v.HideCloser}); got != want {
					t.Errorf("%s sees others' votes %+v, want %+v", id, got, want)
				}
				// Their own vote every viewer sees, whatever the others'.
				if got := v.Vote(id); got != VoteShown {
					t.Errorf("%s sees their own vote %s", id, got)
				}
				for _, other := range []string{"p1", "p2", "p3"} {
					if other != id && v.Vote(other) != want.others {
						t.Errorf("%s sees %s's vote %s, want %s", id, other, v.Vote(other), want.others)
					}
				}
			}
		})
	}
}
