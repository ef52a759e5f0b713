package store

import "testing"

// SetImageHashing turns the import's perceptual hashing on or off until tb ends
// (BenchmarkImportImageHash).
func SetImageHashing(tb testing.TB, on bool) {
	old := hashOnImport
	hashOnImport = on
	tb.Cleanup(func() { hashOnImport = old })
}

// ImportAndFileHash reads the image file at path as an import does (probeImage)
// into previewDir and returns the hash the import stores and thumbHash's, of the
// thumbnail file it wrote (TestImportHashMatchesThumbHash).
func ImportAndFileHash(tb testing.TB, path, previewDir string) (imported, file int64) {
	tb.Helper()
	p, err := probeImage(path, "x.jpg", previewDir)
	if err != nil {
		tb.Fatal(err)
	}
	f := thumbHash(previewDir, p.SHA256)
	if !p.PHash.Valid || !f.Valid {
		tb.Fatalf("no hash: imported %v, of the thumbnail file %v", p.PHash, f)
	}
	return p.PHash.Int64, f.Int64
}
