package store_test

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
)

// hashImportCache holds the generated images of BenchmarkImportImageHash when
// it imports fewer than the 2,000 of importImages.
var hashImportCache benchCache

// hashBenchImages is how many images BenchmarkImportImageHash imports: a tenth
// of BENCHWRIGHT_BENCH_SAMPLES, from 100 to 2,000 — 200 in scripts/dev test's
// smoke run (--samples 2000), whose four imports then take seconds, 1,000 at the
// default 10,000 samples, 2,000 (importImages' set) from 20,000.
func hashBenchImages(tb testing.TB) int {
	return min(2000, max(100, benchSamples(tb)/10))
}

// hashImportImages is the folder of n generated images (synth's, seed 2) and its files.
func hashImportImages(tb testing.TB, n int) (string, []string) {
	if n == 2000 {
		return importImages(tb)
	}
	dir := hashImportCache.ensure(tb, fmt.Sprintf("benchwright-bench-import-%d", n), fmt.Sprintf("images=%d seed=2 gen=%d", n, benchGenVersion), func(dir string) error {
		ctx := context.Background()
		db, err := store.Open(ctx, filepath.Join(dir, "gen", "gen.db"))
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = synth.Generate(ctx, db, synth.Options{Project: "import", Password: benchPassword, Images: n, Seed: 2,
			ImageDir: filepath.Join(dir, "images")})
		return err
	})
	root := filepath.Join(dir, "images")
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) != n {
		tb.Fatalf("import images: %d files of %d, %v", len(files), n, err)
	}
	return root, files
}

// BenchmarkImportImageHash: what the perceptual hash adds to an image import
// (issue 29: less than 15 %). Each iteration imports the same generated images
// (hashBenchImages of them, mostly 320-640 pixels wide, the worst case for the
// share: the hash's cost does not grow with the picture, the import's does) into
// four new projects: without the hash, with it, with it, without it (the second
// pair in reverse order, so that a load that grows or falls during the run
// weighs on both alike). It reports both times per import, wall and CPU, and the
// overhead of each; the import without hashing is its floor.
func BenchmarkImportImageHash(b *testing.B) {
	root, files := hashImportImages(b, hashBenchImages(b))
	ctx := context.Background()
	var with, without, withCPU, withoutCPU time.Duration
	run := func(hash bool) (time.Duration, time.Duration) {
		store.SetImageHashing(b, hash)
		db, lead, p := newImportProject(b)
		defer db.Close()
		start, cpu := time.Now(), cpuTime()
		res, err := db.ImportImages(ctx, lead, p.ID, root, nil)
		took, tookCPU := time.Since(start), cpuTime()-cpu
		if err != nil || res.Imported != len(files) {
			b.Fatalf("imported %d of %d: %v", res.Imported, len(files), err)
		}
		return took, tookCPU
	}
	for b.Loop() {
		for _, hash := range []bool{false, true, true, false} {
			wall, cpu := run(hash)
			if hash {
				with, withCPU = with+wall, withCPU+cpu
			} else {
				without, withoutCPU = without+wall, withoutCPU+cpu
			}
		}
	}
	n := float64(2 * b.N)
	b.ReportMetric(float64(len(files)), "images")
	b.ReportMetric(without.Seconds()/n, "without-hash-s")
	b.ReportMetric(with.Seconds()/n, "with-hash-s")
	b.ReportMetric(100*(with.Seconds()-without.Seconds())/without.Seconds(), "overhead-%")
	// CPU time: what a machine busy with other work changes less than the wall time.
	b.ReportMetric(withoutCPU.Seconds()/n, "without-hash-cpu-s")
	b.ReportMetric(withCPU.Seconds()/n, "with-hash-cpu-s")
	b.ReportMetric(100*(withCPU.Seconds()-withoutCPU.Seconds())/withoutCPU.Seconds(), "cpu-overhead-%")
}
