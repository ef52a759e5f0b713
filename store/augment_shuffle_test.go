package store_test

import (
	"context"
	"errors"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
	"github.com/benchwright/benchwright/bench"
)

// LRR-Bench's negative: an accepted yes/no question about a sequence gives one
// candidate, its images shuffled and its answer flipped, accepted like any
// candidate (lineage, a draft of the accepting annotator, verified through the
// rounds), once.
func TestAugmentShuffledNegative(t *testing.T) {
	ctx := context.Background()
	f := newAugmentFixture(t)
	dir := t.TempDir()
	seq := []string{"rot/A.jpg", "rot/B.jpg", "rot/C.jpg", "rot/D.jpg"}
	for i, p := range seq {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), encodeJPEG(t, 32+i, 24, color.Gray{uint8(50 * i)}))
	}
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	parent := annotate.Sample{Kind: annotate.KindJudgment, Question: "Is the camera rotating clockwise from A to D?", AnswerText: "yes", Task: "camera-rotation"}
	parent.SetImages(seq)
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, parent)
	if err != nil {
		t.Fatal(err)
	}
	if si, err = f.db.Submit(ctx, f.ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	f.verifyThrough(t, si.ID)
	// A one-image yes/no question gives nothing to shuffle.
	one, err := f.db.CreateSample(ctx, f.ann, f.project.ID, annotate.Sample{Kind: annotate.KindJudgment, Image: seq[0],
		Question: "Is the lamp on?", AnswerText: "no"})
	if err != nil {
		t.Fatal(err)
	}
	if one, err = f.db.Submit(ctx, f.ann, one.ID, one.Version, nil); err != nil {
		t.Fatal(err)
	}
	f.verifyThrough(t, one.ID)

	cs, err := f.db.AugmentCandidates(ctx, f.ann2, f.project.ID, bench.CandidateFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Transform != augment.Shuffle || cs[0].Parent != si.ID || !strings.HasPrefix(cs[0].Anchor, "order ") {
		t.Fatalf("candidates %v, want one shuffle of %s", refKeys(cs), si.ID)
	}
	c := cs[0]
	if !c.Acceptable() || c.Sample.AnswerText != "no" || slices.Equal(c.Sample.AllImages(), seq) {
		t.Fatalf("candidate: acceptable %v, answer %q, images %v (%v)", c.Acceptable(), c.Sample.AnswerText, c.Sample.AllImages(), c.Findings)
	}
	got, err := f.db.AcceptCandidate(ctx, f.ann2, f.project.ID, c.CandidateRef, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Content.AllImages(), c.Sample.AllImages()) || got.Content.Parent != si.ID || got.Content.Transform != "shuffle" ||
		got.AuthorName != "ann2" {
		t.Errorf("accepted as %+v", got)
	}
	// The new sample is found by each of its images, as its parent is.
	ims, err := f.db.Images(ctx, f.lead, f.project.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range ims {
		if im.RelPath != seq[3] {
			continue
		}
		list, err := f.db.Samples(ctx, f.lead, f.project.ID, bench.SampleFilter{ImageID: im.ID}, 0, 10)
		if err != nil || len(list) != 2 {
			t.Errorf("samples showing %s: %d, %v; want the parent and its negative", im.RelPath, len(list), err)
		}
	}
	if _, err := f.db.AcceptCandidate(ctx, f.ann2, f.project.ID, c.CandidateRef, false); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("the same candidate twice: %v, want ErrConflict", err)
	}
	if cs, _ := f.db.AugmentCandidates(ctx, f.ann2, f.project.ID, bench.CandidateFilter{}); len(cs) != 0 {
		t.Errorf("after accepting: candidates %v", refKeys(cs))
	}
	// A step-graph transform asked of the sequence is refused with a sentence.
	ref := c.CandidateRef
	ref.Transform, ref.Anchor = augment.Subgraph, "step2"
	if _, err := f.db.AcceptCandidate(ctx, f.ann2, f.project.ID, ref, false); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a subgraph of a yes/no sequence: %v, want ErrInvalid", err)
	}
}
