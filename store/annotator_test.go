package store_test

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/synth"
)

func TestImagesWithoutSamples(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	for i, p := range []string{"0002-lab-1/b.jpg", "0001-office-1/a.jpg", "0001-office-1/c.jpg"} {
		writeFile(t, filepath.Join(dir, p), encodeJPEG(t, 64+i, 48, color.White)) // distinct content
	}
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	list := func(offset, limit int) []string {
		t.Helper()
		ims, err := f.db.ImagesWithoutSamples(ctx, bench.Owner(), f.project.ID, offset, limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, im := range ims {
			out = append(out, im.RelPath)
		}
		return out
	}
	tests := []struct {
		name   string
		sample string // image a new draft is put on before listing; "" for none
		want   []string
		count  int
	}{
		{"all free, by scene then path", "", []string{"0001-office-1/a.jpg", "0001-office-1/c.jpg", "0002-lab-1/b.jpg"}, 3},
		{"a draft takes its image out", "0001-office-1/c.jpg", []string{"0001-office-1/a.jpg", "0002-lab-1/b.jpg"}, 2},
		{"so does another annotator's", "0002-lab-1/b.jpg", []string{"0001-office-1/a.jpg"}, 1},
	}
	for _, tt := range tests {
		if tt.sample != "" {
			if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(tt.sample)); err != nil {
				t.Fatal(err)
			}
		}
		if got := list(0, 10); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
		if n, err := f.db.CountImagesWithoutSamples(ctx, bench.Owner(), f.project.ID); err != nil || n != tt.count {
			t.Errorf("%s: count %d %v, want %d", tt.name, n, err, tt.count)
		}
	}
	// A draft moved to another image frees the first and takes the other.
	ss, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{}, 0, 10)
	if err != nil || len(ss) != 2 {
		t.Fatalf("samples: %d %v", len(ss), err)
	}
	var onC bench.SampleInfo
	for _, si := range ss {
		if si.Content.Image == "0001-office-1/c.jpg" {
			onC = si
		}
	}
	moved := onC.Content
	moved.Image = "0001-office-1/a.jpg"
	if _, err := f.db.SaveDraft(ctx, f.ann, onC.ID, onC.Version, moved); err != nil {
		t.Fatal(err)
	}
	if got := list(0, 10); !slices.Equal(got, []string{"0001-office-1/c.jpg"}) {
		t.Errorf("after moving the draft from c to a: %v, want [c]", got)
	}
	if n, _ := f.db.CountImagesWithoutSamples(ctx, bench.Owner(), f.project.ID); n != 1 {
		t.Errorf("after moving the draft: count %d, want 1", n)
	}
	// Paging.
	f2 := newFixture(t)
	if _, err := f2.db.ImportImages(ctx, f2.lead, f2.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	page, _ := f2.db.ImagesWithoutSamples(ctx, bench.Owner(), f2.project.ID, 1, 1)
	if len(page) != 1 || page[0].RelPath != "0001-office-1/c.jpg" {
		t.Errorf("page 2 of size 1: %+v", page)
	}
}

func TestSampleRevisionsKeepAcknowledgements(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	s := hopSample(img)
	s.Question = "From the perspective of the man, which object is closest to the camera?" // exo-phrase warning
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, nil); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("unacknowledged warning: %v, want ErrInvalid", err)
	}
	if revs, err := f.db.SampleRevisions(ctx, f.ann, si.ID); err != nil || len(revs) != 0 {
		t.Fatalf("before submit: %v %v", revs, err)
	}
	if _, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, []string{"exo-phrase"}); err != nil {
		t.Fatal(err)
	}
	revs, err := f.db.SampleRevisions(ctx, f.ver, si.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) != 1 || revs[0].Number != 1 || revs[0].Change != "submit" || revs[0].AuthorName != "ann" ||
		!slices.Equal(revs[0].Acknowledged, []string{"exo-phrase"}) || revs[0].Content.Question != s.Question {
		t.Fatalf("revisions %+v", revs)
	}
	if _, err := f.db.SampleRevisions(ctx, bench.User{ID: 999}, si.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("unknown user: %v", err)
	}
	if _, err := f.db.SampleRevisions(ctx, f.ann, "nope"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("unknown sample: %v", err)
	}
}

// TestImageUseCountsOnEveryEngine: images.sample_count agrees with the samples
// after a generated project's bulk writes, an import of many records onto few
// images (PostgreSQL counts an insert once per statement, migrations_pg/0024),
// and a deleted draft; the store's "images without samples" agrees too.
func TestImageUseCountsOnEveryEngine(t *testing.T) {
	ctx := context.Background()
	db, res := generated(t, synth.Options{Samples: 200, Images: 60, Seed: 5, Large: -1})
	lead, err := db.Authenticate(ctx, "lead", "secret")
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := db.Images(ctx, bench.Owner(), res.Project.ID, 0, 3)
	if err != nil || len(imgs) < 3 {
		t.Fatalf("images: %v, %v", imgs, err)
	}
	var recs []annotate.Imported
	for i := range 30 {
		s := annotate.Sample{Kind: annotate.KindJudgment, Image: imgs[i%3].RelPath, Question: fmt.Sprintf("Is object %d left of the lamp?", i), AnswerText: "yes"}
		if i%3 == 1 { // a sequence: its further images count too
			s.SetImages([]string{imgs[1].RelPath, imgs[2].RelPath, imgs[0].RelPath})
		}
		recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
	}
	if _, err := db.ImportSamples(ctx, lead, res.Project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true}); err != nil {
		t.Fatal(err)
	}
	raw := relRaw(t, db.Path())
	var wrong, free, seqs int
	if err := raw.QueryRow(`SELECT count(*) FROM images i WHERE sample_count != (SELECT count(*) FROM samples s WHERE s.image_id = i.id)
		+ (SELECT count(*) FROM sample_images x WHERE x.image_id = i.id)`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if err := raw.QueryRow(`SELECT count(*) FROM images i WHERE NOT EXISTS (SELECT 1 FROM samples s WHERE s.image_id = i.id)
		AND NOT EXISTS (SELECT 1 FROM sample_images x WHERE x.image_id = i.id)`).Scan(&free); err != nil {
		t.Fatal(err)
	}
	if err := raw.QueryRow(`SELECT count(*) FROM sample_images`).Scan(&seqs); err != nil || seqs != 20 {
		t.Errorf("%d rows of further images after importing ten sequences of three (%v), want 20", seqs, err)
	}
	n, err := db.CountImagesWithoutSamples(ctx, bench.Owner(), res.Project.ID)
	if wrong != 0 || err != nil || n != free {
		t.Errorf("%d images with a wrong count; %d without samples, the store says %d (%v)", wrong, free, n, err)
	}
}

// images.sample_count (migration 7) agrees with the samples after a generated
// project's writes, and the migration's backfill rebuilds it on an existing database.
func TestImageUseCountsAndBackfill(t *testing.T) {
	storetest.SkipOnPostgres(t, "drops SQLite triggers to rebuild a version-6 file")
	ctx := context.Background()
	db, res := generated(t, synth.Options{Samples: 300, Images: 90, Seed: 4, Large: -1})
	path := db.Path()
	check := func(when string, db *store.DB) {
		t.Helper()
		raw := relRaw(t, path)
		var wrong, free int
		if err := raw.QueryRow(`SELECT count(*) FROM images i WHERE sample_count != (SELECT count(*) FROM samples s WHERE s.image_id = i.id)`).Scan(&wrong); err != nil {
			t.Fatal(err)
		}
		if err := raw.QueryRow(`SELECT count(*) FROM images i WHERE NOT EXISTS (SELECT 1 FROM samples s WHERE s.image_id = i.id)`).Scan(&free); err != nil {
			t.Fatal(err)
		}
		n, err := db.CountImagesWithoutSamples(ctx, bench.Owner(), res.Project.ID)
		if wrong != 0 || err != nil || n != free || free == 0 {
			t.Errorf("%s: %d images with a wrong count; %d without samples, the store says %d (%v)", when, wrong, free, n, err)
		}
	}
	check("after generating", db)
	// Back to schema 6 with the count gone, then open: migration 7 runs again.
	db.Close()
	raw := relRaw(t, path)
	for _, q := range []string{`DROP INDEX images_unused`, `DROP TRIGGER image_use_insert`, `DROP TRIGGER image_use_delete`,
		`DROP TRIGGER image_use_update`, `DROP TRIGGER sample_images_use_insert`, `DROP TRIGGER sample_images_use_delete`,
		`ALTER TABLE images DROP COLUMN sample_count`, `PRAGMA user_version = 6`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db2, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	check("after the backfill", db2)
}
