package store_test

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
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
// overhead of each; the import without hashing is its floor. The overheads are
// the median of the iterations' (scripts/bench runs three): on this two-core VM
// the CPU time of the same import (most of it the kernel's, creating the
// previews' files) has swung by a fifth from one import to the next, more than
// the hash costs, and one iteration's overhead read from 9 to 32 %.
func BenchmarkImportImageHash(b *testing.B) {
	root, files := hashImportImages(b, hashBenchImages(b))
	ctx := context.Background()
	var with, without, withCPU, withoutCPU time.Duration
	run := func(hash bool) (wall, cpu, user time.Duration) {
		store.SetImageHashing(b, hash)
		db, lead, p := newImportProject(b)
		defer db.Close()
		start, cpu0, user0 := time.Now(), cpuTime(), userTime()
		res, err := db.ImportImages(ctx, lead, p.ID, root, nil)
		wall, cpu, user = time.Since(start), cpuTime()-cpu0, userTime()-user0
		if err != nil || res.Imported != len(files) {
			b.Fatalf("imported %d of %d: %v", res.Imported, len(files), err)
		}
		return wall, cpu, user
	}
	overhead := func(with, without time.Duration) float64 {
		return 100 * (with.Seconds() - without.Seconds()) / without.Seconds()
	}
	var wallOver, cpuOver, userOver []float64 // each iteration's
	for b.Loop() {
		var w, wo, wCPU, woCPU, wUser, woUser time.Duration
		for _, hash := range []bool{false, true, true, false} {
			wall, cpu, user := run(hash)
			if hash {
				w, wCPU, wUser = w+wall, wCPU+cpu, wUser+user
			} else {
				wo, woCPU, woUser = wo+wall, woCPU+cpu, woUser+user
			}
		}
		wallOver, cpuOver = append(wallOver, overhead(w, wo)), append(cpuOver, overhead(wCPU, woCPU))
		userOver = append(userOver, 100*(wUser-woUser).Seconds()/woCPU.Seconds())
		with, without, withCPU, withoutCPU = with+w, without+wo, withCPU+wCPU, withoutCPU+woCPU
	}
	n := float64(2 * b.N)
	b.ReportMetric(float64(len(files)), "images")
	b.ReportMetric(without.Seconds()/n, "without-hash-s")
	b.ReportMetric(with.Seconds()/n, "with-hash-s")
	b.ReportMetric(medianOf(wallOver), "overhead-%")
	// CPU time: what a machine busy with other work changes less than the wall time.
	b.ReportMetric(withoutCPU.Seconds()/n, "without-hash-cpu-s")
	b.ReportMetric(withCPU.Seconds()/n, "with-hash-cpu-s")
	b.ReportMetric(medianOf(cpuOver), "cpu-overhead-%")
	// What hashing adds to the import's time outside the kernel (the hash is
	// computed in memory, of the thumbnail the import made), over all its CPU time
	// without hashing: the kernel's time creating the previews' files, 40-55 % of
	// an import's CPU on this VM, swung by 2 s from one import to the next, which
	// the other two overheads take in whole.
	b.ReportMetric(medianOf(userOver), "user-cpu-overhead-%")
}

// medianOf is the median of xs (of the two middle ones, their mean).
func medianOf(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
