package store_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// photoJPEG is a natural-looking picture from seed (gradient, waves, shapes,
// noise), w×h, as a JPEG of quality q; resized to rw wide first when rw > 0.
func photoJPEG(t *testing.T, seed uint64, w, h, rw, q int) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	var waves [6][4]float64
	for i := range waves {
		waves[i] = [4]float64{r.Float64()*4 + 0.3, r.Float64()*4 + 0.3, r.Float64() * 2 * math.Pi, r.Float64()*50 + 10}
	}
	var blobs [8][5]float64
	for i := range blobs {
		blobs[i] = [5]float64{r.Float64(), r.Float64(), r.Float64()*0.2 + 0.05, r.Float64()*0.2 + 0.05, r.Float64() * 255}
	}
	for y := range h {
		for x := range w {
			u, v := float64(x)/float64(w), float64(y)/float64(h)
			c := [3]float64{60 + 80*u, 90 + 40*v, 120 - 50*u}
			for i, wv := range waves {
				c[i%3] += wv[3] * math.Sin(2*math.Pi*(wv[0]*u+wv[1]*v)+wv[2])
			}
			for i, b := range blobs {
				if dx, dy := (u-b[0])/b[2], (v-b[1])/b[3]; dx*dx+dy*dy < 1 {
					c = [3]float64{b[4], float64(i * 30), 255 - b[4]}
				}
			}
			px := color.NRGBA{A: 255}
			for k, p := range []*uint8{&px.R, &px.G, &px.B} {
				*p = uint8(max(0, min(255, c[k]+r.NormFloat64()*10)))
			}
			img.SetNRGBA(x, y, px)
		}
	}
	var out image.Image = img
	if rw > 0 {
		out = imaging.Resize(img, rw, 0, imaging.Lanczos)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, out, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// nearFixture is the release fixture with three more images in scene/: a
// photo (orig.jpg), the same photo resized to 60 % and re-encoded at quality 60
// (copy.jpg), and another photo (other.jpg).
func nearFixture(t *testing.T) relFixture {
	t.Helper()
	f := newRelFixture(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "scene", "orig.jpg"), photoJPEG(t, 1, 640, 480, 0, 92))
	writeFile(t, filepath.Join(dir, "scene", "copy.jpg"), photoJPEG(t, 1, 640, 480, 384, 60))
	writeFile(t, filepath.Join(dir, "scene", "other.jpg"), photoJPEG(t, 2, 640, 480, 0, 92))
	if _, err := f.db.ImportImages(context.Background(), f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	return f
}

func splitHop(id, img, question, split string) annotate.Sample {
	s := relHop(id, img, question)
	s.Split = split
	return s
}

// TestNearDuplicateImages: a photo and its resized re-encode, imported, are
// near-duplicates: in train and test an error that a freeze refuses, in one
// split a warning it does not; the same question about both is a duplicate
// question. On both engines.
func TestNearDuplicateImages(t *testing.T) {
	ctx := context.Background()
	const q = "Which object is closest to the camera?"
	tests := []struct {
		name    string
		samples []annotate.Sample
		want    []string // brief findings of the check and of duplicate-question
		text    string   // a message says this
		refused bool     // the freeze is refused
	}{
		{"across train and test", []annotate.Sample{splitHop("n-1", "scene/orig.jpg", q, "train"), splitHop("n-2", "scene/copy.jpg", "Which object is left of the mug?", "test"),
			splitHop("n-3", "scene/other.jpg", q, "test")},
			[]string{"error near-duplicate-image scene/copy.jpg"}, "scene/copy.jpg (test: n-2) and scene/orig.jpg (train: n-1) look alike", true},
		{"within train", []annotate.Sample{splitHop("n-1", "scene/orig.jpg", q, "train"), splitHop("n-2", "scene/copy.jpg", "Which object is left of the mug?", "train"),
			splitHop("n-3", "scene/other.jpg", q, "test")},
			[]string{"warning near-duplicate-image scene/copy.jpg"}, "scene/copy.jpg (train: n-2) and scene/orig.jpg (train: n-1) look alike", false},
		{"the same question about both", []annotate.Sample{splitHop("n-1", "scene/orig.jpg", "Where is the red ball?", ""), splitHop("n-2", "scene/copy.jpg", "where is the RED ball", "")},
			[]string{"error duplicate-question n-1", "error duplicate-question n-2", "warning near-duplicate-image scene/copy.jpg"},
			"the same question as n-2 on image scene/orig.jpg, near-duplicate of scene/copy.jpg (n-2)", true},
		{"another picture", []annotate.Sample{splitHop("n-1", "scene/orig.jpg", q, "train"), splitHop("n-3", "scene/other.jpg", q, "test")}, nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := nearFixture(t)
			for _, s := range tt.samples {
				f.accept(t, s)
			}
			rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			found := tt.text == ""
			for _, fd := range rep.Findings {
				if fd.Check == bench.CheckNearDuplicate || fd.Check == bench.CheckDuplicate {
					got = append(got, brief(fd))
				}
				found = found || strings.Contains(fd.Message, tt.text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings %q, want %q: %+v", got, tt.want, rep.Findings)
			}
			if !found {
				t.Errorf("no finding says %q: %+v", tt.text, rep.Findings)
			}
			_, err = f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1"})
			var ae *bench.AuditErrors
			if refused := errors.As(err, &ae); refused != tt.refused || err != nil && !refused {
				t.Fatalf("freeze: %v, want refused %v", err, tt.refused)
			}
			if tt.refused && !slices.ContainsFunc(ae.Findings, func(fd bench.AuditFinding) bool { return brief(fd) == tt.want[0] }) {
				t.Errorf("the freeze's refusal lacks %q: %v", tt.want[0], err)
			}
		})
	}
}

// TestNearDuplicateHashBackfill: images without a perceptual hash (imported
// before migration 28) get one on the first audit, from their thumbnail — or,
// when the previews are gone, from the image file — and keep it. On both engines.
func TestNearDuplicateHashBackfill(t *testing.T) {
	ctx := context.Background()
	for _, dropPreviews := range []bool{false, true} {
		f := nearFixture(t)
		f.accept(t, splitHop("n-1", "scene/orig.jpg", "Where is the cup?", "train"))
		f.accept(t, splitHop("n-2", "scene/copy.jpg", "Where is the lamp?", "test"))
		raw := relRaw(t, f.db.Path())
		hashes := func() map[string]int64 {
			rows, err := raw.Query(`SELECT rel_path, phash FROM images WHERE phash IS NOT NULL AND rel_path LIKE 'scene/%'`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			out := map[string]int64{}
			for rows.Next() {
				var p string
				var h int64
				if err := rows.Scan(&p, &h); err != nil {
					t.Fatal(err)
				}
				out[p] = h
			}
			return out
		}
		imported := hashes()
		if len(imported) != 3 {
			t.Fatalf("the import stored %d hashes of 3: %v", len(imported), imported)
		}
		if _, err := raw.Exec(`UPDATE images SET phash = NULL`); err != nil {
			t.Fatal(err)
		}
		if dropPreviews {
			if err := os.RemoveAll(f.db.PreviewDir()); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(rep.Findings, func(fd bench.AuditFinding) bool {
			return brief(fd) == "error near-duplicate-image scene/copy.jpg"
		}) {
			t.Errorf("previews dropped %v: no near-duplicate found: %+v", dropPreviews, rep.Findings)
		}
		after := hashes()
		if len(after) != 2 || after["scene/orig.jpg"] != imported["scene/orig.jpg"] || after["scene/copy.jpg"] != imported["scene/copy.jpg"] {
			t.Errorf("previews dropped %v: stored %v after the audit, imported %v (the images samples show)", dropPreviews, after, imported)
		}
	}
}

// TestMigration28AddsTheColumn: a SQLite file of schema 27 (images without
// phash) opens at 28 with the column, and its images get their hash on audit.
func TestMigration28AddsTheColumn(t *testing.T) {
	storetest.SkipOnPostgres(t, "SQLite's part of the migration")
	ctx := context.Background()
	f := nearFixture(t)
	f.accept(t, splitHop("n-1", "scene/orig.jpg", "Where is the cup?", "train"))
	f.accept(t, splitHop("n-2", "scene/copy.jpg", "Where is the lamp?", "test"))
	path := f.db.Path()
	f.db.Close()
	raw := relRaw(t, path)
	for _, q := range []string{`ALTER TABLE images DROP COLUMN phash`, `PRAGMA user_version = 27`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rep, err := db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rep.Findings, func(fd bench.AuditFinding) bool { return brief(fd) == "error near-duplicate-image scene/copy.jpg" }) {
		t.Errorf("no near-duplicate found after the migration: %+v", rep.Findings)
	}
}

// TestNearDuplicateConfirmedOnThumbnails: two different photos whose stored
// hashes are made equal are no pair: their thumbnails refute the hash.
func TestNearDuplicateConfirmedOnThumbnails(t *testing.T) {
	ctx := context.Background()
	f := nearFixture(t)
	f.accept(t, splitHop("n-1", "scene/orig.jpg", "Where is the cup?", "train"))
	f.accept(t, splitHop("n-3", "scene/other.jpg", "Where is the cup?", "test"))
	raw := relRaw(t, f.db.Path())
	if _, err := raw.Exec(`UPDATE images SET phash = (SELECT phash FROM images WHERE rel_path = 'scene/orig.jpg') WHERE rel_path = 'scene/other.jpg'`); err != nil {
		t.Fatal(err)
	}
	for _, dropPreviews := range []bool{false, true} { // then made again from the files
		if dropPreviews {
			if err := os.RemoveAll(f.db.PreviewDir()); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range rep.Findings {
			if fd.Check == bench.CheckNearDuplicate || fd.Check == bench.CheckDuplicate {
				t.Errorf("previews dropped %v: %s: %s", dropPreviews, brief(fd), fd.Message)
			}
		}
	}
	h, err := f.db.ImageHashes(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.NotAlike, [][2]string{{"scene/copy.jpg", "scene/other.jpg"}, {"scene/orig.jpg", "scene/other.jpg"}}) || h.MaxDistance != 8 || len(h.Hashes) != 8 {
		t.Errorf("ImageHashes: %+v", h)
	}
	// The lead's setting is the distance the check pairs at.
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"near_duplicate_distance": "5"}); err != nil {
		t.Fatal(err)
	}
	if h, err = f.db.ImageHashes(ctx, f.lead, f.project.ID); err != nil || h.MaxDistance != 5 {
		t.Errorf("with near_duplicate_distance 5: MaxDistance %d, %v", h.MaxDistance, err)
	}
}

// TestWithdrawNearDuplicateQuestions: the duplicate-question finding over two
// near-duplicate images is resolved as the audit grouped it: keeping one
// withdraws the other.
func TestWithdrawNearDuplicateQuestions(t *testing.T) {
	ctx := context.Background()
	f := nearFixture(t)
	f.accept(t, splitHop("n-1", "scene/orig.jpg", "Where is the red ball?", ""))
	f.accept(t, splitHop("n-2", "scene/copy.jpg", "where is the RED ball", ""))
	f.accept(t, splitHop("n-3", "scene/other.jpg", "Where is the red ball?", ""))
	res, err := f.db.WithdrawDuplicates(ctx, f.lead, f.project.ID, "n-1", "one picture, one question")
	if err != nil || !slices.Equal(res.Done, []string{"n-2"}) || len(res.Refused) != 0 {
		t.Fatalf("withdrew %+v: %v", res, err)
	}
	if _, err := f.db.WithdrawDuplicates(ctx, f.lead, f.project.ID, "n-3", "nothing to resolve"); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("n-3 has no duplicate, yet: %v", err)
	}
}
