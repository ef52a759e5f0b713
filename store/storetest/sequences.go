package storetest

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
)

// AddImages writes one small JPEG per path (of its own size and colour) into the
// project's folder and imports them, returning their paths.
func (p *Project) AddImages(t *testing.T, paths ...string) []string {
	t.Helper()
	ctx := context.Background()
	for i, rel := range paths {
		img := image.NewRGBA(image.Rect(0, 0, 40+8*i, 30+4*i))
		for j := range img.Pix {
			img.Pix[j] = uint8(40 * (i + 1))
		}
		img.Set(1, 1, color.White)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		full := filepath.Join(p.Dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lead, err := p.DB.Authenticate(ctx, "lead", Password)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DB.ImportImages(ctx, lead, p.Project.ID, p.Dir, nil); err != nil {
		t.Fatal(err)
	}
	return paths
}

// testSequences: a sample of several images is written, listed, counted as using
// every image it shows, reordered, reviewed and frozen with what the release
// knows of each image, on both sides of the network.
func testSequences(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	more := p.AddImages(t, "0002-seq/b.jpg", "0002-seq/c.jpg", "0002-seq/d.jpg")
	pid := p.Project.ID
	ann, ua := p.As(t, "ann1")
	lead, ul := p.As(t, "lead")
	unused := func() int {
		t.Helper()
		n, err := lead.As(ul).CountImagesWithoutSamples(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := unused(); n != 4 {
		t.Fatalf("%d images without samples before any sample, want 4", n)
	}

	s := HopSample(p.Image)
	s.SetImages([]string{p.Image, more[0], more[1]})
	s.BoxImage = 2
	bad := s
	bad.SetImages([]string{p.Image, "0002-seq/missing.jpg"})
	if _, err := ann.As(ua).CreateSample(ctx, pid, bad); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a sequence with an image the project lacks: %v, want ErrInvalid", err)
	}
	si, err := ann.As(ua).CreateSample(ctx, pid, s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ann.As(ua).Sample(ctx, si.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := s.AllImages(); !slices.Equal(got.Content.AllImages(), want) || got.Content.BoxImage != 2 {
		t.Fatalf("stored images %v (box on %d), want %v (box on 2)", got.Content.AllImages(), got.Content.BoxImage, want)
	}
	if n := unused(); n != 1 {
		t.Errorf("%d images without samples with a sequence of three, want 1 (d.jpg)", n)
	}
	// The sample is found by any of its images.
	imgs, err := lead.As(ul).Images(ctx, pid, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	idOf := map[string]int64{}
	for _, im := range imgs {
		idOf[im.RelPath] = im.ID
	}
	for _, path := range []string{p.Image, more[1]} {
		list, err := lead.As(ul).Samples(ctx, pid, bench.SampleFilter{ImageID: idOf[path]}, 0, 10)
		if err != nil || len(list) != 1 || list[0].ID != si.ID {
			t.Errorf("samples on %s: %+v, %v; want %s", path, list, err, si.ID)
		}
	}

	// Reordered and changed in the draft: the uses follow.
	s.SetImages([]string{p.Image, more[2], more[1]})
	v, err := ann.As(ua).SaveDraft(ctx, si.ID, si.Version, s)
	if err != nil {
		t.Fatal(err)
	}
	if n := unused(); n != 1 {
		t.Errorf("%d images without samples after the reorder, want 1 (b.jpg)", n)
	}
	if list, _ := lead.As(ul).Samples(ctx, pid, bench.SampleFilter{ImageID: idOf[more[0]]}, 0, 10); len(list) != 0 {
		t.Errorf("b.jpg left the sequence but still lists %+v", list)
	}
	if si, err = ann.As(ua).Submit(ctx, si.ID, v, nil); err != nil {
		t.Fatal(err)
	}
	p.ApproveThrough(t, si)
	rel, err := lead.As(ul).Freeze(ctx, bench.FreezeInput{ProjectID: pid, Name: "sequences", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	items, err := lead.As(ul).ReleaseItems(ctx, rel.ID)
	if err != nil || len(items) != 1 {
		t.Fatalf("release items: %+v, %v", items, err)
	}
	want := []release.ImageFacts{}
	for _, path := range s.AllImages() {
		for _, im := range imgs {
			if im.RelPath == path {
				want = append(want, release.ImageFacts{Path: path, Width: im.Width, Height: im.Height, SHA256: im.SHA256})
			}
		}
	}
	if gotFacts := items[0].Record().Images(); !slices.Equal(gotFacts, want) {
		t.Errorf("the release's images:\n got %+v\nwant %+v", gotFacts, want)
	}
	if c := items[0].Content; c.Modality() != annotate.ModalityImages || !slices.Equal(c.AllImages(), s.AllImages()) {
		t.Errorf("frozen content: %v, modality %s", c.AllImages(), c.Modality())
	}
}
