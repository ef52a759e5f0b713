package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

var (
	approve3 = verify.Verdict{Decision: verify.DecisionApprove,
		Judgements: map[string]bool{"option_entities_exist": true, "box_precise": true, "answer_unique": true}}
	reject3 = verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{"box_precise"}}
)

// inRound3 submits a hop sample by ann and has a1 and b1 approve rounds 1 and 2.
func inRound3(t *testing.T, f fixture, vs map[string]bench.User, img string) bench.SampleInfo {
	t.Helper()
	si := submitted(t, f, f.ann, img)
	mustReview(t, f, vs["a1"], si, 1)
	mustReview(t, f, vs["b1"], si, 2)
	si, err := f.db.Sample(context.Background(), bench.Owner(), si.ID)
	if err != nil || si.Status != verify.StateRound3 {
		t.Fatalf("sample in round 3: %+v, %v", si, err)
	}
	return si
}

// round3Votes lists the round-3 reviews u may see, as "verifier:decision@revision".
func round3Votes(t *testing.T, f fixture, u bench.User, id string) []string {
	t.Helper()
	rs, err := f.db.Reviews(context.Background(), u, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		if r.Round == 3 {
			out = append(out, fmt.Sprintf("%s:%s@%d", r.VerifierName, r.Decision, r.Revision))
		}
	}
	return out
}

// historyShows reports whether u's history of id names who rejected it in round 3:
// a visible round-3 reject vote, or the rejecter as the actor of the transition out
// of round 3.
func historyShows(t *testing.T, f fixture, u bench.User, id, rejecter string) bool {
	t.Helper()
	h, err := f.db.History(context.Background(), u, id)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(h, func(e bench.Event) bool {
		return e.Action == "review.reject" && e.Detail == "round 3 revision 1" ||
			e.Action == "sample.status" && e.Detail == "round3 → returned" && e.Actor == rejecter
	})
}

// TestLateVotesAfterRound3Reject: a panel of three claims its seats, the first
// rejects and the sample returns; the other two still vote, blind, for agreement.
func TestLateVotesAfterRound3Reject(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "a2", "b2", "c1")
	si := inRound3(t, f, vs, img)
	for _, n := range []string{"a2", "b2", "c1"} {
		if _, err := f.db.ClaimReview(ctx, vs[n], si.ID, 3); err != nil {
			t.Fatalf("%s claims a seat: %v", n, err)
		}
	}
	vote := func(u bench.User, v verify.Verdict) (verify.Outcome, error) {
		return submitReview(f.db, ctx, u, bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1, Verdict: v})
	}
	out, err := vote(vs["a2"], reject3)
	if err != nil || out.Result != verify.ResultReturned || out.State != verify.StateReturned {
		t.Fatalf("the first reject: %+v, %v", out, err)
	}
	returned, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
	statusChanges := auditCount(t, f.db.Path(), "sample.status")

	// b2 and c1 hold seats and have not voted: the reject stays hidden from them.
	for _, n := range []string{"b2", "c1"} {
		if got := round3Votes(t, f, vs[n], si.ID); len(got) != 0 {
			t.Errorf("%s sees %v before voting late", n, got)
		}
		if historyShows(t, f, vs[n], si.ID, "a2") {
			t.Errorf("%s's history shows who rejected before they voted", n)
		}
	}
	if got := round3Votes(t, f, f.lead, si.ID); !slices.Equal(got, []string{"a2:reject@1"}) {
		t.Errorf("the lead sees %v after the round closed; want a2's reject", got)
	}
	if !historyShows(t, f, f.lead, si.ID, "a2") {
		t.Error("the lead's history hides the closed round's reject")
	}
	a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, a, 3, bench.CriterionDecision); r.Units != 0 {
		t.Errorf("agreement counts %d round-3 units while late votes may still come; want 0", r.Units)
	}

	steps := []struct {
		name      string
		who       bench.User
		round     int
		v         verify.Verdict
		want      error
		approvals int
	}{
		{"b2 votes late", vs["b2"], 3, approve3, nil, 1},
		{"b2 votes again", vs["b2"], 3, approve3, verify.ErrAlreadyOnPanel, 0},
		{"the rejecter votes again", vs["a2"], 3, approve3, verify.ErrAlreadyOnPanel, 0},
		{"a verifier without a seat", f.ver, 3, approve3, verify.ErrRoundClosed, 0},
		{"a round-2 vote", f.ver, 2, approve, verify.ErrRoundClosed, 0},
		{"c1 rejects late", vs["c1"], 3, reject3, nil, 1},
	}
	for _, s := range steps {
		out, err := submitReview(f.db, ctx, s.who, bench.ReviewInput{SampleID: si.ID, Round: s.round, BasedOn: 1, Verdict: s.v})
		if s.want != nil {
			if !errors.Is(err, s.want) || !errors.Is(err, bench.ErrForbidden) {
				t.Errorf("%s: got %v, want %v", s.name, err, s.want)
			}
			continue
		}
		if err != nil || out.Result != verify.ResultLate || out.State != verify.StateReturned || out.Event != "" ||
			out.Revision != 1 || out.Approvals != s.approvals {
			t.Fatalf("%s: %+v, %v", s.name, out, err)
		}
		if s.who.Name == "b2" { // c1 has not voted yet and stays blind; b2 now sees the reject
			if got := round3Votes(t, f, vs["c1"], si.ID); len(got) != 0 {
				t.Errorf("c1 sees %v before voting late", got)
			}
			if got := round3Votes(t, f, vs["b2"], si.ID); !slices.Equal(got, []string{"a2:reject@1", "b2:approve@1"}) {
				t.Errorf("b2 sees %v after voting", got)
			}
		}
	}

	got, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
	if got.Status != verify.StateReturned || got.Version != returned.Version {
		t.Errorf("late votes changed the sample: %s v%d, was %s v%d", got.Status, got.Version, returned.Status, returned.Version)
	}
	want := []string{"a2:reject@1", "b2:approve@1", "c1:reject@1"}
	for _, u := range []bench.User{f.lead, vs["c1"], f.ann} {
		if got := round3Votes(t, f, u, si.ID); !slices.Equal(got, want) {
			t.Errorf("%s sees %v; want %v", u.Name, got, want)
		}
	}
	for action, n := range map[string]int{"review.late": 2, "review.reject": 1, "sample.status": statusChanges} {
		if got := auditCount(t, f.db.Path(), action); got != n {
			t.Errorf("audit has %d %q rows; want %d", got, action, n)
		}
	}
	a, err = f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, a, 3, bench.CriterionDecision); r.Units != 1 || r.Pairable != 1 || r.Values != 3 {
		t.Errorf("round-3 decision: %d units, %d pairable, %d values; want one unit of 3 votes", r.Units, r.Pairable, r.Values)
	}
}

// TestLateVoteClaims: only an active seat taken before the round closed gives a late
// vote, also after the author resubmitted, until the new revision is first reviewed.
func TestLateVoteClaims(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	clk := setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "a2", "b2", "c1")
	si := inRound3(t, f, vs, img)
	claim := func(u bench.User) {
		t.Helper()
		if _, err := f.db.ClaimReview(ctx, u, si.ID, 3); err != nil {
			t.Fatalf("%s claims a seat: %v", u.Name, err)
		}
	}
	claim(vs["b2"]) // ends at 09:30
	clk.advance(20 * time.Minute)
	claim(vs["c1"]) // ends at 09:50
	clk.advance(12 * time.Minute)
	claim(f.ver) // ends at 10:02; b2's seat is free again
	clk.advance(3 * time.Minute)
	if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1, Verdict: reject3}); err != nil {
		t.Fatal(err)
	}
	si, _ = f.db.Sample(ctx, bench.Owner(), si.ID)
	if _, err := f.db.Submit(ctx, f.ann, si.ID, changedDraft(t, f.db, f.ann, si), nil); err != nil { // revision 2 enters round 1
		t.Fatal(err)
	}
	if got := round3Votes(t, f, f.ver, si.ID); len(got) != 0 {
		t.Errorf("ver holds a seat on revision 1 and sees %v", got)
	}
	steps := []struct {
		name string
		who  bench.User
		do   func() // before the vote
		want error
	}{
		{"expired claim", vs["b2"], nil, verify.ErrRoundClosed},
		{"active claim, revision resubmitted", vs["c1"], nil, nil},
		{"the new revision reviewed since", f.ver, func() {
			si, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
			mustReview(t, f, vs["b2"], si, 1)
		}, bench.ErrConflict},
	}
	for _, s := range steps {
		if s.do != nil {
			s.do()
		}
		out, err := submitReview(f.db, ctx, s.who, bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1, Verdict: approve3})
		switch {
		case s.want != nil && !errors.Is(err, s.want):
			t.Errorf("%s: got %v, want %v", s.name, err, s.want)
		case s.want == nil && (err != nil || out.Result != verify.ResultLate || out.Revision != 1 || out.State != verify.StateRound1):
			t.Errorf("%s: %+v, %v", s.name, out, err)
		}
	}
	want := []string{"a2:reject@1", "c1:approve@1"}
	if got := round3Votes(t, f, f.ver, si.ID); !slices.Equal(got, want) {
		t.Errorf("ver, whose seat ended with revision 2's review, sees %v; want %v", got, want)
	}
	if got, _ := f.db.Sample(ctx, bench.Owner(), si.ID); got.Status != verify.StateRound2 || got.Revision != 2 {
		t.Errorf("sample is %s at revision %d; want round2 at revision 2", got.Status, got.Revision)
	}
}
