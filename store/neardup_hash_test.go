package store_test

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/store"
)

// TestImportHashMatchesThumbHash: the import hashes the thumbnail it made before
// its JPEG encoding (sparing the decoding of the file it wrote), the audit hashes
// the thumbnail file for images imported before migration 28. Over pictures of
// several sizes and qualities the two stay within maxImportFileBits of each
// other, far inside the near-duplicate distance, and mostly agree.
func TestImportHashMatchesThumbHash(t *testing.T) {
	const maxImportFileBits = 2
	sizes := []struct{ w, h, q int }{{640, 480, 92}, {480, 640, 75}, {1024, 768, 85}, {300, 200, 60}, {2000, 1500, 90}}
	var n, differ, total int
	for i, sz := range sizes {
		for seed := range uint64(8) {
			t.Run(fmt.Sprintf("%dx%d-q%d-seed%d", sz.w, sz.h, sz.q, seed), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "x.jpg")
				writeFile(t, path, photoJPEG(t, 100*uint64(i)+seed, sz.w, sz.h, 0, sz.q))
				imp, file := store.ImportAndFileHash(t, path, filepath.Join(dir, "previews"))
				d := bits.OnesCount64(uint64(imp ^ file))
				if d > maxImportFileBits {
					t.Errorf("imported hash %016x, of the thumbnail file %016x: %d bits apart, more than %d", uint64(imp), uint64(file), d, maxImportFileBits)
				}
				n++
				total += d
				if d > 0 {
					differ++
				}
			})
		}
	}
	t.Logf("%d pictures: %d hashes differ from the thumbnail file's, %d bits in all", n, differ, total)
	if differ*2 > n {
		t.Errorf("%d of %d imported hashes differ from the thumbnail file's", differ, n)
	}
}
