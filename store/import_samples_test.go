package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

func stepSample(id, image string) annotate.Sample {
	return annotate.Sample{ID: id, Kind: annotate.KindStepGraph, Image: image, Scene: "0001-office-1", Question: "Pick up the laptop",
		Steps: []annotate.Step{{ID: "step1", Content: "Remove the book from the laptop"}, {ID: "step2", Content: "Pick up the laptop", Precondition: []string{"step1"}}}}
}

// importRecords is a file of records in every situation an import meets, one per
// odd line, and the outcome each must have.
func importRecords(img string) ([]annotate.Imported, map[string]string) {
	hop := func(id string) annotate.Sample { s := hopSample(img); s.ID = id; return s }
	lintBad := hop("imp-lint")
	lintBad.Options = []string{"the mug", "the mug"}
	unknownImage := hop("imp-noimage")
	unknownImage.Image = "0009-attic-1/missing.jpg"
	warned := hop("imp-warn")
	warned.Extra = map[string]json.RawMessage{"source": json.RawMessage(`"benchmark-x"`)}
	noID := hop("")
	recs := []annotate.Imported{
		{Line: 1, Sample: hop("imp-1")},
		{Line: 3, Sample: lintBad},
		{Line: 5, Sample: unknownImage},
		{Line: 7, Sample: hop("taken")},
		{Line: 9, Sample: hop("imp-1")}, // the file repeats an id
		{Line: 11, Sample: warned},
		{Line: 13, Sample: stepSample("imp-step", img)},
		{Line: 15, Sample: noID},
	}
	// line → "imported", "warned" or the skip reason and a word of its message.
	want := map[string]string{
		"1": "imported", "3": "lint errors|option-count|option-duplicate", "5": "unknown image|0009-attic-1/missing.jpg",
		"7": "id already exists|taken", "9": "id already exists|imp-1", "11": "warned|schema", "13": "imported",
		"15": "lint errors|schema|id is missing",
	}
	return recs, want
}

func TestImportSamplesAsDrafts(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	taken := hopSample(img)
	taken.ID = "taken"
	if _, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, taken); err != nil {
		t.Fatal(err)
	}
	recs, want := importRecords(img)
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, store.ImportSamplesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Imported, []string{"imp-1", "imp-warn", "imp-step"}) {
		t.Errorf("imported %v", res.Imported)
	}
	got := map[string]string{}
	for _, p := range res.Skipped {
		got[strconv.Itoa(p.Line)] = string(p.Reason) + "|" + strings.Join(p.Rules, "|") + "|" + p.Message
	}
	for _, p := range res.Warnings {
		got[strconv.Itoa(p.Line)] = "warned|" + strings.Join(p.Rules, "|")
	}
	for line, w := range want {
		parts := strings.Split(w, "|")
		if parts[0] == "imported" {
			if g, ok := got[line]; ok {
				t.Errorf("line %s: reported %q, want a clean import", line, g)
			}
			continue
		}
		for _, part := range parts {
			if !strings.Contains(got[line], part) {
				t.Errorf("line %s: reported %q, want it to hold %q", line, got[line], part)
			}
		}
	}
	if len(res.Skipped) != 5 || len(res.Warnings) != 1 {
		t.Errorf("%d skipped, %d warned; want 5 and 1: %+v", len(res.Skipped), len(res.Warnings), res)
	}
	// The imported samples are the annotator's drafts, with their content; the taken
	// id still holds ann2's sample.
	for _, id := range res.Imported {
		si, err := f.db.Sample(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if si.Status != verify.StateDraft || si.AuthorID != f.ann.ID || si.Revision != 0 || si.ImagePath != img {
			t.Errorf("%s: %s by %s revision %d image %q", id, si.Status, si.AuthorName, si.Revision, si.ImagePath)
		}
	}
	if si, _ := f.db.Sample(ctx, "imp-warn"); si.Content.Extra["source"] == nil {
		t.Error("the draft lost the field its warning is about")
	}
	if si, _ := f.db.Sample(ctx, "taken"); si.AuthorID != f.ann2.ID {
		t.Errorf("the existing sample was overwritten: author %s", si.AuthorName)
	}
	for _, id := range []string{"imp-lint", "imp-noimage"} {
		if _, err := f.db.Sample(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("skipped %s: got %v, want ErrNotFound", id, err)
		}
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["sample.import"] != 3 {
		t.Errorf("%d imports audited, want 3", counts["sample.import"])
	}
	// Importing the same file again imports nothing and says why.
	again, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, store.ImportSamplesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exists := 0
	for _, p := range again.Skipped {
		if p.Reason == store.SkipExists {
			exists++
		}
	}
	if len(again.Imported) != 0 || exists != 5 {
		t.Errorf("second import: %v imported, %d existing ids; want none and 5", again.Imported, exists)
	}
}

func TestImportSamplesToRound1(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1")
	recs, _ := importRecords(img)
	res, err := f.db.ImportSamples(ctx, f.lead, f.project.ID, recs, store.ImportSamplesOptions{Author: "ann", ToRound1: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Imported, []string{"imp-1", "taken", "imp-warn", "imp-step"}) {
		t.Fatalf("imported %v", res.Imported)
	}
	for _, id := range res.Imported {
		si, _ := f.db.Sample(ctx, id)
		if si.Status != verify.StateRound1 || si.Revision != 1 || si.AuthorID != f.ann.ID {
			t.Errorf("%s: %s revision %d by %s; want round1 revision 1 by ann", id, si.Status, si.Revision, si.AuthorName)
		}
		if !queueHas(t, f, vs["a1"], id) {
			t.Errorf("%s is not in a1's queue", id)
		}
	}
	// The warning was acknowledged by the import, and the history says so.
	events, _ := f.db.History(ctx, f.lead, "imp-warn")
	if !slices.ContainsFunc(events, func(e store.Event) bool {
		return e.Action == "sample.import" && e.Actor == "lead" && strings.Contains(e.Detail, "lint warnings acknowledged: schema")
	}) {
		t.Errorf("history of imp-warn: %+v", events)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["sample.import"] != 4 || counts["revision.import"] != 4 {
		t.Errorf("audit %v; want 4 sample.import and 4 revision.import", counts)
	}
}

func TestImportSamplesRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	recs, _ := importRecords(img)
	tests := []struct {
		name    string
		who     store.User
		project int64
		opt     store.ImportSamplesOptions
		want    error
	}{
		{"verifier", f.ver, f.project.ID, store.ImportSamplesOptions{}, store.ErrForbidden},
		{"annotator into round 1", f.ann, f.project.ID, store.ImportSamplesOptions{Author: "ann", ToRound1: true}, store.ErrForbidden},
		{"annotator for someone else", f.ann, f.project.ID, store.ImportSamplesOptions{Author: "ann2"}, store.ErrForbidden},
		{"round 1 without an author", f.lead, f.project.ID, store.ImportSamplesOptions{ToRound1: true}, store.ErrInvalid},
		{"unknown author", f.lead, f.project.ID, store.ImportSamplesOptions{Author: "nobody"}, store.ErrNotFound},
		{"verifier as author", f.lead, f.project.ID, store.ImportSamplesOptions{Author: "ver"}, store.ErrInvalid},
		{"unknown project", f.lead, 999, store.ImportSamplesOptions{}, store.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := f.db.ImportSamples(ctx, tt.who, tt.project, recs, tt.opt)
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if len(res.Imported) != 0 {
				t.Errorf("a refused import reports %v imported", res.Imported)
			}
		})
	}
	counts, _ := f.db.StatusCounts(ctx, f.project.ID)
	for s, n := range counts {
		if n != 0 {
			t.Errorf("refused imports left %d %s samples", n, s)
		}
	}
}
