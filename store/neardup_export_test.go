package store

import "testing"

// SetImageHashing turns the import's perceptual hashing on or off until tb ends
// (BenchmarkImportImageHash).
func SetImageHashing(tb testing.TB, on bool) {
	old := hashOnImport
	hashOnImport = on
	tb.Cleanup(func() { hashOnImport = old })
}
