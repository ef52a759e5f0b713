package store_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// bulkBatches hands batches to BulkWriteSamples, then fails with err when it is set.
func bulkBatches(err error, batches ...[]store.BulkSample) func(func([]store.BulkSample, error) bool) {
	return func(yield func([]store.BulkSample, error) bool) {
		for _, b := range batches {
			if !yield(b, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// bulkJudgment is a judgment sample without an image, submitted by author and
// approved in round 1 by ver.
func bulkJudgment(id string, author, ver bench.User) store.BulkSample {
	t0 := time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)
	s := annotate.Sample{ID: id, Kind: annotate.KindJudgment, Question: "Is the mug to the left of the kettle?", AnswerText: "yes"}
	return store.BulkSample{
		Draft: s, Author: author.ID, Status: verify.StateRound2, Version: 3, Created: t0, Updated: t0.Add(2 * time.Hour),
		Revisions: []store.BulkRevision{{Content: s, Author: author.ID, Change: "submit", At: t0.Add(time.Hour)}},
		Reviews: []store.BulkReview{{Revision: 1, Round: 1, Verifier: ver.ID, Decision: verify.DecisionApprove,
			Judgements: verify.AllPassed(s.Kind, 1), Seconds: 30, At: t0.Add(2 * time.Hour)}},
	}
}

func TestBulkWriteSamples(t *testing.T) {
	ctx := context.Background()
	f := newSyntheticFixture(t)
	draft := store.BulkSample{Draft: annotate.Sample{ID: "p-b2", Kind: annotate.KindOpen, Question: "How many cups?", AnswerText: "2"},
		Author: f.ann2.ID, Status: verify.StateDraft, Version: 1, Created: time.Now(), Updated: time.Now()}
	res, err := f.db.BulkWriteSamples(ctx, f.lead, f.project.ID, bulkBatches(nil, []store.BulkSample{bulkJudgment("p-b1", f.ann, f.ver)}, []store.BulkSample{draft}))
	if err != nil {
		t.Fatal(err)
	}
	if want := (store.BulkResult{Samples: 2, Revisions: 1, Reviews: 1}); res != want {
		t.Errorf("result %+v, want %+v", res, want)
	}
	si, err := f.db.Sample(ctx, bench.Owner(), "p-b1")
	if err != nil {
		t.Fatal(err)
	}
	if si.Status != verify.StateRound2 || si.Revision != 1 || si.Version != 3 || si.AuthorID != f.ann.ID || si.Content.AnswerText != "yes" || si.ProjectID != f.project.ID {
		t.Errorf("written sample %+v", si)
	}
	rs, err := f.db.Reviews(ctx, f.lead, "p-b1")
	if err != nil || len(rs) != 1 {
		t.Fatalf("reviews: %+v %v", rs, err)
	}
	if r := rs[0]; r.VerifierID != f.ver.ID || r.Revision != 1 || r.Decision != verify.DecisionApprove || len(r.Reasons) != 0 ||
		!reflect.DeepEqual(r.Judgements, verify.AllPassed(annotate.KindJudgment, 1)) || r.Seconds != 30 {
		t.Errorf("written review %+v", r)
	}
	if d, err := f.db.Sample(ctx, bench.Owner(), "p-b2"); err != nil || d.Status != verify.StateDraft || d.Revision != 0 {
		t.Errorf("written draft %+v %v", d, err)
	}
	if n := auditCount(t, f.db.Path(), "generate.samples"); n != 2 {
		t.Errorf("%d generate.samples audit rows, want one per batch (2)", n)
	}
}

func TestBulkWriteSamplesRefusals(t *testing.T) {
	ctx := context.Background()
	f := newSyntheticFixture(t)
	one := func(s store.BulkSample) func(func([]store.BulkSample, error) bool) {
		return bulkBatches(nil, []store.BulkSample{s})
	}
	withImage := bulkJudgment("p-img", f.ann, f.ver)
	withImage.Draft.Image = "0001-office-1/nowhere.jpg"
	badReview := bulkJudgment("p-rev", f.ann, f.ver)
	badReview.Reviews[0].Revision = 2
	badState := bulkJudgment("p-state", f.ann, f.ver)
	badState.Status = "limbo"
	tests := []struct {
		name    string
		actor   bench.User
		batches func(func([]store.BulkSample, error) bool)
		want    error
		absent  string
	}{
		{"annotator", f.ann, one(bulkJudgment("p-ann", f.ann, f.ver)), bench.ErrForbidden, "p-ann"},
		{"verifier", f.ver, one(bulkJudgment("p-ver", f.ann, f.ver)), bench.ErrForbidden, "p-ver"},
		{"unknown image", f.lead, one(withImage), bench.ErrInvalid, "p-img"},
		{"review on a missing revision", f.lead, one(badReview), bench.ErrInvalid, "p-rev"},
		{"unknown state", f.lead, one(badState), bench.ErrInvalid, "p-state"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := f.db.BulkWriteSamples(ctx, tt.actor, f.project.ID, tt.batches); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if _, err := f.db.Sample(ctx, bench.Owner(), tt.absent); !errors.Is(err, bench.ErrNotFound) {
				t.Errorf("refused sample %s was written: %v", tt.absent, err)
			}
		})
	}

	// A generator's error stops the writing: the batch it came with is not written,
	// the batches before it stay.
	planErr := errors.New("history refused")
	res, err := f.db.BulkWriteSamples(ctx, f.lead, f.project.ID, func(yield func([]store.BulkSample, error) bool) {
		if yield([]store.BulkSample{bulkJudgment("p-first", f.ann, f.ver)}, nil) {
			yield([]store.BulkSample{bulkJudgment("p-second", f.ann, f.ver)}, planErr)
		}
	})
	if !errors.Is(err, planErr) || res.Samples != 1 {
		t.Fatalf("got %+v, %v; want 1 sample and the generator's error", res, err)
	}
	if _, err := f.db.Sample(ctx, bench.Owner(), "p-first"); err != nil {
		t.Errorf("the batch before the error: %v", err)
	}
	if _, err := f.db.Sample(ctx, bench.Owner(), "p-second"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("the batch that came with the error was written: %v", err)
	}
}

func TestBulkAddUsers(t *testing.T) {
	ctx := context.Background()
	f := newSyntheticFixture(t)
	want := []bench.User{{Name: "ann", Role: bench.RoleAnnotator}, {Name: "g1", Role: bench.RoleVerifier, Group: "A"},
		{Name: "g2", Role: bench.RoleAnnotator}}
	us, err := f.db.BulkAddUsers(ctx, f.lead, want, "pw-gen")
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 3 || us[0].ID != f.ann.ID || us[1].Name != "g1" || us[1].Group != "A" || us[2].Role != bench.RoleAnnotator {
		t.Errorf("accounts %+v", us)
	}
	for _, name := range []string{"g1", "g2"} {
		if _, err := f.db.Authenticate(ctx, name, "pw-gen"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := f.db.Authenticate(ctx, "ann", "secret"); err != nil {
		t.Errorf("the reused account's password changed: %v", err)
	}
	if again, err := f.db.BulkAddUsers(ctx, f.lead, want, "pw-gen"); err != nil || !reflect.DeepEqual(again, us) {
		t.Errorf("second time: %+v %v, want the same accounts", again, err)
	}
	if n := auditCount(t, f.db.Path(), "generate.users"); n != 1 {
		t.Errorf("%d generate.users audit rows, want 1 (none when nothing is added)", n)
	}
	if _, err := f.db.BulkAddUsers(ctx, f.lead, []bench.User{{Name: "ver", Role: bench.RoleAnnotator}}, "pw-gen"); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("an account wanted with another role: got %v, want ErrConflict", err)
	}
	if _, err := f.db.BulkAddUsers(ctx, f.ann, []bench.User{{Name: "g3", Role: bench.RoleAnnotator}}, "pw-gen"); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator: got %v, want ErrForbidden", err)
	}
	if _, err := f.db.UserByName(ctx, bench.Owner(), "g3"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("the refused account exists: %v", err)
	}
}

// The generator's bulk writes refuse a database with real work, and only an empty
// database can be marked as generated.
func TestGeneratorOnlyWritesGeneratedDatabases(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	if err := f.db.MarkSynthetic(ctx); !errors.Is(err, bench.ErrConflict) || !strings.Contains(bench.Message(err), "4 accounts, 1 project") {
		t.Fatalf("MarkSynthetic on a database with work: %v", err)
	}
	if ok, err := f.db.Synthetic(ctx); err != nil || ok {
		t.Fatalf("Synthetic = %v, %v after a refused mark", ok, err)
	}
	if _, err := f.db.BulkAddUsers(ctx, f.lead, []bench.User{{Name: "g1", Role: bench.RoleVerifier}}, "pw-generated"); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("BulkAddUsers on a real database: %v, want ErrConflict", err)
	}
	if _, err := f.db.BulkWriteSamples(ctx, f.lead, f.project.ID, bulkBatches(nil, []store.BulkSample{bulkJudgment("p-b1", f.ann, f.ver)})); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("BulkWriteSamples on a real database: %v, want ErrConflict", err)
	}
	if n, err := f.db.CountSamples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{}); err != nil || n != 0 {
		t.Errorf("%d samples written, %v", n, err)
	}

	empty := MustOpenDB(t)
	for range 2 { // marking twice is fine
		if err := empty.MarkSynthetic(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := empty.Synthetic(ctx); err != nil || !ok {
		t.Fatalf("Synthetic = %v, %v after marking", ok, err)
	}
}
