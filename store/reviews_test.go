package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

func TestReviewRoundsThroughTheStore(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := map[string]store.User{}
	for _, v := range []struct{ name, group string }{{"a1", "A"}, {"a2", "A"}, {"b1", "B"}, {"b2", "B"}, {"c1", "C"}} {
		u, err := f.db.AddUser(ctx, f.lead, v.name, store.RoleVerifier, v.group, "secret")
		if err != nil {
			t.Fatal(err)
		}
		vs[v.name] = u
	}
	si, _ := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	si, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	approve := verify.Verdict{Decision: verify.DecisionApprove}
	review := func(u store.User, round, rev int) error {
		_, err := f.db.SubmitReview(ctx, u, store.ReviewInput{SampleID: si.ID, Round: round, BasedOn: rev, Verdict: approve})
		return err
	}
	steps := []struct {
		name  string
		who   store.User
		round int
		rev   int
		want  error
	}{
		{"author reviews", f.ann, 1, 1, store.ErrForbidden},
		{"wrong round", vs["a1"], 2, 1, verify.ErrWrongRound},
		{"stale revision", vs["a1"], 1, 0, store.ErrConflict},
		{"round 1", vs["a1"], 1, 1, nil},
		{"same group in round 2", vs["a2"], 2, 1, verify.ErrSameGroup},
		{"round 2", vs["b1"], 2, 1, nil},
		{"round-1 verifier in round 3", vs["a1"], 3, 1, verify.ErrAlreadyOnPanel},
		{"round 3 first vote", vs["a2"], 3, 1, nil},
		{"same verifier votes twice", vs["a2"], 3, 1, verify.ErrAlreadyOnPanel},
		{"round 3 second vote", vs["b2"], 3, 1, nil},
	}
	for _, s := range steps {
		err := review(s.who, s.round, s.rev)
		if s.want == nil && err != nil || s.want != nil && !errors.Is(err, s.want) {
			t.Fatalf("%s: got %v, want %v", s.name, err, s.want)
		}
	}
	// Round 3 is blind: b2 sees their own vote but not a2's; the lead sees neither.
	seen := func(u store.User) (n3 int) {
		rs, err := f.db.Reviews(ctx, u, si.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Round == 3 {
				n3++
			}
		}
		return n3
	}
	if n := seen(vs["b2"]); n != 1 {
		t.Errorf("b2 sees %d round-3 votes during the round, want 1 (their own)", n)
	}
	if n := seen(f.lead); n != 0 {
		t.Errorf("the lead sees %d round-3 votes during the round, want 0", n)
	}
	if err := review(vs["c1"], 3, 1); err != nil {
		t.Fatal(err)
	}
	got, _ := f.db.Sample(ctx, si.ID)
	if got.Status != verify.StateAccepted {
		t.Fatalf("after a unanimous panel: %s", got.Status)
	}
	if n := seen(f.lead); n != 3 {
		t.Errorf("after the round closed the lead sees %d round-3 votes, want 3", n)
	}
	if n := auditCount(t, f.db.Path(), "review.approve"); n != 5 {
		t.Errorf("audited %d approvals, want 5", n)
	}
}
