package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// TestImportSamplesAcceptLintErrors: with AcceptLintErrors, boxes converted from
// COCO or Label Studio, which have no question yet, come in as drafts and are listed
// in Incomplete; without it they are skipped; into round 1 it is refused.
func TestImportSamplesAcceptLintErrors(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	box := func(id string, b annotate.Box) annotate.Imported {
		return annotate.Imported{Line: len(id), Sample: annotate.Sample{ID: id, Kind: annotate.KindHopQA, Image: img, Box: &b, Tags: []string{"coco:mug"}}}
	}
	complete := hopSample(img)
	complete.ID = "complete"
	noImage := box("draft-no-image", annotate.Box{1, 1, 5, 5})
	noImage.Sample.Image = "0009-attic-1/gone.jpg"
	recs := []annotate.Imported{
		box("draft-1", annotate.Box{10, 5, 30, 15}),
		box("draft-past-edge", annotate.Box{10, 5, 100, 15}), // the image is 64×48
		{Line: 20, Sample: complete},
		noImage,
	}

	skipped, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(skipped.Imported, []string{"complete"}) || len(skipped.Skipped) != 3 || len(skipped.Incomplete) != 0 {
		t.Fatalf("without AcceptLintErrors: %+v", skipped)
	}

	if _, err := f.db.ImportSamples(ctx, f.lead, f.project.ID, recs, bench.ImportSamplesOptions{Author: "ann", ToRound1: true, AcceptLintErrors: true}); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("into round 1 with AcceptLintErrors: %v, want ErrInvalid", err)
	}

	recs[2].Sample.ID = "complete-2"
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Imported, []string{"draft-1", "draft-past-edge", "complete-2"}) {
		t.Errorf("imported %v", res.Imported)
	}
	// An unknown image is still a reason to skip: the draft could not show it.
	if len(res.Skipped) != 1 || res.Skipped[0].ID != "draft-no-image" || res.Skipped[0].Reason != bench.SkipUnknownImage {
		t.Errorf("skipped %+v", res.Skipped)
	}
	if len(res.Incomplete) != 2 {
		t.Fatalf("incomplete %+v", res.Incomplete)
	}
	for _, p := range res.Incomplete {
		if !slices.Contains(p.Rules, annotate.RuleSchema) || !strings.HasPrefix(p.Message, "imported as a draft with lint errors: ") ||
			!strings.Contains(p.Message, "question is missing") || p.Reason != "" {
			t.Errorf("%s: %+v", p.ID, p)
		}
	}
	if p := res.Incomplete[1]; p.ID != "draft-past-edge" || !slices.Contains(p.Rules, annotate.RuleBoxInvalid) {
		t.Errorf("the box past the image's edge is named: %+v", p)
	}
	for _, id := range res.Imported {
		si, err := f.db.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		if si.Status != verify.StateDraft || si.AuthorID != f.ann.ID {
			t.Errorf("%s: %s by %s", id, si.Status, si.AuthorName)
		}
	}
	if si, _ := f.db.Sample(ctx, bench.Owner(), "draft-1"); si.Content.Box == nil || si.Content.Box[2] != 30 || !slices.Equal(si.Content.Tags, []string{"coco:mug"}) {
		t.Errorf("draft-1 stored as %+v", si.Content)
	}
	// The annotator completes the draft and submits it: the lint gate applies then.
	if _, err := f.db.Submit(ctx, f.ann, "draft-1", 1, nil); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("submitting the incomplete draft: %v, want ErrInvalid", err)
	}
}

func TestImageBySHA256(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	data := encodeJPEG(t, 20, 10, color.RGBA{1, 2, 3, 255})
	writeFile(t, filepath.Join(dir, "0003-lab-1", "k.jpg"), data)
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	im, err := f.db.ImageBySHA256(ctx, bench.Owner(), f.project.ID, hex.EncodeToString(sum[:]))
	if err != nil || im.RelPath != "0003-lab-1/k.jpg" || im.Width != 20 {
		t.Errorf("got %+v, %v", im, err)
	}
	other := sha256.Sum256([]byte("other"))
	if _, err := f.db.ImageBySHA256(ctx, bench.Owner(), f.project.ID, hex.EncodeToString(other[:])); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("unknown content: %v, want ErrNotFound", err)
	}
}

// TestImportSamplesReportsGivenIDs: a record without an id (a COCO box has none)
// gets one from the store, and the result names it — in Imported and in
// Incomplete — so that the caller can find the draft it made.
func TestImportSamplesReportsGivenIDs(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	box := annotate.Box{10, 5, 30, 15}
	recs := []annotate.Imported{
		{Line: 1, Sample: annotate.Sample{Kind: annotate.KindHopQA, Image: img, Box: &box}},
		{Line: 2, Sample: annotate.Sample{ID: "named", Kind: annotate.KindHopQA, Image: img, Box: &box}},
		{Line: 3, Sample: annotate.Sample{Kind: annotate.KindHopQA, Image: img, Box: &box}},
	}
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Imported) != 3 || len(res.Incomplete) != 3 {
		t.Fatalf("imported %q, incomplete %+v", res.Imported, res.Incomplete)
	}
	seen := map[string]bool{}
	for i, id := range res.Imported {
		if id == "" || seen[id] {
			t.Errorf("record %d reported as imported under id %q", i+1, id)
			continue
		}
		seen[id] = true
		if res.Incomplete[i].ID != id {
			t.Errorf("record %d: Incomplete names %q, Imported %q", i+1, res.Incomplete[i].ID, id)
		}
		si, err := f.db.Sample(ctx, bench.Owner(), id)
		if err != nil || si.AuthorID != f.ann.ID || si.Status != verify.StateDraft {
			t.Errorf("the reported id %q: %+v, %v", id, si, err)
		}
	}
	if res.Imported[1] != "named" {
		t.Errorf("the named record was reported as %q", res.Imported[1])
	}
}
