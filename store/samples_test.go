package store_test

import (
	"context"
	"errors"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

func hopSample(image string) annotate.Sample {
	return annotate.Sample{Kind: annotate.KindHopQA, Image: image, Question: "Which object is closest to the camera?", QuestionTag: "Which object is <REL>closest to the camera</REL>?",
		Options: []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
		Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}}
}

func withImage(t *testing.T, f fixture) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "0001-office-1", "a.jpg"), encodeJPEG(t, 64, 48, color.White))
	if _, err := f.db.ImportImages(context.Background(), f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	return "0001-office-1/a.jpg"
}

func TestDraftConflictAndSubmit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	if err != nil {
		t.Fatal(err)
	}
	if si.Status != verify.StateDraft || si.ID != "p-00001" || si.ImagePath != img {
		t.Fatalf("created %+v", si)
	}
	// Two editors load version 1; the second save is refused, the first edit survives.
	a, b := hopSample(img), hopSample(img)
	a.Question, b.Question = "Which object is farthest from the camera?", "lost edit"
	v2, err := f.db.SaveDraft(ctx, f.ann, si.ID, si.Version, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.SaveDraft(ctx, f.ann, si.ID, si.Version, b); !errors.Is(err, bench.ErrConflict) {
		t.Fatalf("stale save: got %v, want ErrConflict", err)
	}
	got, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
	if got.Content.Question != a.Question || got.Version != v2 {
		t.Fatalf("after conflict: %q v%d", got.Content.Question, got.Version)
	}
	// Someone else's draft, a bad image and a lint error are refused.
	if _, err := f.db.SaveDraft(ctx, f.ann2, si.ID, v2, a); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("other annotator edits: got %v", err)
	}
	bad := hopSample("nope.jpg")
	if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, bad); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("unknown image: got %v", err)
	}
	lintBad := a
	lintBad.Options = []string{"x", "y"}
	v3, _ := f.db.SaveDraft(ctx, f.ann, si.ID, v2, lintBad)
	if _, err := f.db.Submit(ctx, f.ann, si.ID, v3, nil); !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), "option-count") {
		t.Errorf("submit with lint error: got %v", err)
	}
	v4, _ := f.db.SaveDraft(ctx, f.ann, si.ID, v3, a)
	sub, err := f.db.Submit(ctx, f.ann, si.ID, v4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sub.Status != verify.StateRound1 || sub.Revision != 1 {
		t.Fatalf("submitted: %s rev %d", sub.Status, sub.Revision)
	}
	if _, err := f.db.SaveDraft(ctx, f.ann, si.ID, sub.Version, a); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("editing a submitted sample: got %v", err)
	}
	// Revisions are immutable in the database itself.
	sdb, _ := store.RawSQL(f.db.Path())
	defer sdb.Close()
	if _, err := sdb.Exec(`UPDATE revisions SET content = '{}'`); err == nil {
		t.Error("revision update was allowed")
	}
}

func TestWithdrawReopen(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	si, _ := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	si, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.Withdraw(ctx, f.ann, si.ID, ""); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("annotator withdraws: %v", err)
	}
	if err := f.db.Withdraw(ctx, f.lead, si.ID, "duplicate"); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Reopen(ctx, f.lead, si.ID, ""); err != nil {
		t.Fatal(err)
	}
	got, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
	if got.Status != verify.StateRound1 {
		t.Errorf("reopened to %s, want round1", got.Status)
	}
}

// Keyset pages (SampleFilter.After) list exactly what offset pages list, in the same
// order, for every filter, across equal update times; CountSamples counts them.
func TestSamplesKeysetPagesMatchOffsetPages(t *testing.T) {
	ctx := context.Background()
	db, res := generated(t, synth.Options{Samples: 400, Images: 12, Seed: 5, Large: -1})
	pid := res.Project.ID
	all, err := db.Samples(ctx, bench.Owner(), pid, bench.SampleFilter{}, 0, 1000)
	if err != nil || len(all) != 400 {
		t.Fatalf("all samples: %d, %v", len(all), err)
	}
	ties := 0
	for i := 1; i < len(all); i++ {
		if all[i].UpdatedAt == all[i-1].UpdatedAt {
			ties++
		}
	}
	if ties == 0 {
		t.Log("no two samples share an update time: the id tie-break is not exercised")
	}
	var drafter int64
	for _, s := range all {
		if s.Status == verify.StateDraft {
			drafter = s.AuthorID
		}
	}
	for _, tc := range []struct {
		name string
		f    bench.SampleFilter
	}{
		{"all", bench.SampleFilter{}},
		{"accepted", bench.SampleFilter{Status: verify.StateAccepted}},
		{"hop questions", bench.SampleFilter{Kind: annotate.KindHopQA}},
		{"one author's drafts", bench.SampleFilter{Status: verify.StateDraft, AuthorID: drafter}},
	} {
		f := tc.f
		t.Run(tc.name, func(t *testing.T) {
			want, err := db.Samples(ctx, bench.Owner(), pid, f, 0, 1000)
			if err != nil || len(want) == 0 {
				t.Fatalf("offset list: %d, %v", len(want), err)
			}
			var got []bench.SampleInfo
			page := f
			for range len(want) + 1 {
				ss, err := db.Samples(ctx, bench.Owner(), pid, page, 0, 7)
				if err != nil {
					t.Fatal(err)
				}
				if len(ss) == 0 {
					break
				}
				got = append(got, ss...)
				page.After = &ss[len(ss)-1]
			}
			if len(got) != len(want) {
				t.Fatalf("keyset pages gave %d samples, offset %d", len(got), len(want))
			}
			if n, err := db.CountSamples(ctx, bench.Owner(), pid, f); err != nil || n != len(want) {
				t.Errorf("CountSamples = %d, %v; the list has %d", n, err, len(want))
			}
			for i := range want {
				if got[i].ID != want[i].ID {
					t.Fatalf("sample %d: keyset %s, offset %s", i, got[i].ID, want[i].ID)
				}
			}
		})
	}
}

// Sample ids are checked on the way in: a caller-chosen id must be in
// annotate's safe set, and a generated one is made safe from the project name.
func TestSampleIDsAreSafe(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	for _, id := range []string{"q1\nq2 approved", "a b", "q\x1b[31m", "-x", "caf\u00e9"} {
		s := hopSample(img)
		s.ID = id
		if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, s); !errors.Is(err, bench.ErrInvalid) {
			t.Errorf("id %q: got %v, want ErrInvalid", id, err)
		}
	}
	p, err := f.db.CreateProject(ctx, f.lead, "Café lab #2")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.AddMember(ctx, f.lead, p.ID, f.ann.Name); err != nil {
		t.Fatal(err)
	}
	si, err := f.db.CreateSample(ctx, f.ann, p.ID, annotate.Sample{Kind: annotate.KindJudgment, Question: "Is it?", AnswerText: "yes"})
	if err != nil {
		t.Fatal(err)
	}
	if si.ID != "Caf_lab_2-00001" {
		t.Errorf("generated id %q, want Caf_lab_2-00001", si.ID)
	}
}

// Saving removes stray spaces from the text and keeps the tags on their phrases.
func TestSaveTidiesSpaces(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	s := hopSample(img)
	s.Question, s.QuestionTag = " Which object is  closest to the camera? ", " Which object is  <REL>closest to the camera</REL>? "
	s.Options[0] = "the  mug "
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.db.Sample(ctx, bench.Owner(), si.ID)
	if err != nil {
		t.Fatal(err)
	}
	c := got.Content
	if c.Question != "Which object is closest to the camera?" || c.QuestionTag != "Which object is <REL>closest to the camera</REL>?" || c.Options[0] != "the mug" {
		t.Errorf("stored %q / %q / %q", c.Question, c.QuestionTag, c.Options[0])
	}
	s.Question = "Which object is closest to the camera  ?"
	if _, err := f.db.SaveDraft(ctx, f.ann, si.ID, si.Version, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.db.Sample(ctx, bench.Owner(), si.ID); got.Content.Question != "Which object is closest to the camera ?" {
		t.Errorf("saved %q", got.Content.Question)
	}
}
