package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchwright/benchwright/store"
)

// BenchmarkImportImageHash: what the perceptual hash adds to an image import
// (issue 29: less than 15 %). Each iteration imports the same 2,000 generated
// images (mostly 320-640 pixels wide, the worst case for the share: the hash's
// cost does not grow with the picture, the import's does) into two new projects,
// without the hash and with it, in turn; it reports both times and the overhead.
func BenchmarkImportImageHash(b *testing.B) {
	root, files := importImages(b)
	ctx := context.Background()
	var with, without time.Duration
	run := func(hash bool) time.Duration {
		store.SetImageHashing(b, hash)
		db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bw.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		lead, err := db.CreateFirstLead(ctx, "lead", benchPassword)
		if err != nil {
			b.Fatal(err)
		}
		p, err := db.CreateProject(ctx, lead, "import")
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		res, err := db.ImportImages(ctx, lead, p.ID, root, nil)
		took := time.Since(start)
		if err != nil || res.Imported != len(files) {
			b.Fatalf("imported %d of %d: %v", res.Imported, len(files), err)
		}
		return took
	}
	for b.Loop() {
		without += run(false)
		with += run(true)
	}
	n := float64(b.N)
	b.ReportMetric(without.Seconds()/n, "without-hash-s")
	b.ReportMetric(with.Seconds()/n, "with-hash-s")
	b.ReportMetric(100*(with.Seconds()-without.Seconds())/without.Seconds(), "overhead-%")
}
