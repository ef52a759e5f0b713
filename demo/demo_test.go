package demo_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// The demo has a sample in every state, its accounts sign in with DemoPassword, its
// accepted samples have the trail a freeze needs, every approval judged every
// criterion yes, and a second seed is refused.
func TestSeed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := demo.Seed(ctx, db, assets.Demo(), filepath.Join(dir, "images")); err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	counts, err := db.StatusCounts(ctx, bench.Owner(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range verify.States {
		if counts[s] == 0 {
			t.Errorf("the demo has no %s sample (%v)", s, counts)
		}
	}
	if n, _ := db.CountImages(ctx, bench.Owner(), p.ID); n != 8 {
		t.Errorf("the demo has %d images, want 8", n)
	}
	users := map[string]bench.User{}
	for _, a := range demo.DemoAccounts {
		u, err := db.Authenticate(ctx, a.Name, demo.DemoPassword)
		if err != nil {
			t.Errorf("demo account %s: %v", a.Name, err)
		}
		if u.Role != a.Role || u.Group != a.Group {
			t.Errorf("demo account %s is %s in group %q, want %s in %q", a.Name, u.Role, u.Group, a.Role, a.Group)
		}
		users[a.Name] = u
	}

	samples, err := db.Samples(ctx, bench.Owner(), p.ID, bench.SampleFilter{}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	policy := p.Settings.Policy()
	for _, s := range samples {
		rs, err := db.Reviews(ctx, users["lead"], s.ID)
		if err != nil {
			t.Fatal(err)
		}
		var current []verify.Review
		for _, r := range rs {
			if r.Decision == verify.DecisionApprove && !reflect.DeepEqual(r.Judgements, verify.AllPassed(s.Kind, r.Round)) {
				t.Errorf("%s: round-%d approval by %s judged %v, not every criterion yes", s.ID, r.Round, r.VerifierName, r.Judgements)
			}
			if r.Revision == s.Revision {
				current = append(current, verify.Review{Round: r.Round, Reviewer: strconv.FormatInt(r.VerifierID, 10), Name: r.VerifierName,
					Decision: r.Decision, Reasons: r.Reasons, Judgements: r.Judgements})
			}
		}
		if s.Status != verify.StateAccepted {
			continue
		}
		author := strconv.FormatInt(s.AuthorID, 10)
		for _, problem := range verify.Trail(policy, author, []string{author}, current) {
			t.Errorf("%s: %s", s.ID, problem)
		}
	}

	if err := demo.Seed(ctx, db, assets.Demo(), t.TempDir()); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("seeding twice: got %v, want ErrConflict", err)
	}
}
