package imagefile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRead reads 100 generated JPEGs as an import does, one at a time
// (hash, decode, preview, thumbnail): 98 of 320×240 to 640×480 and two 12-MP
// photos of 4000×3000, about the mix of BenchmarkImportJPEG2k (store). With
// -tags nolibjpeg it measures Go's decoder instead of libjpeg-turbo's.
func BenchmarkRead(b *testing.B) {
	dir := b.TempDir()
	sizes := [][2]int{{320, 240}, {400, 300}, {480, 360}, {640, 480}, {360, 480}}
	var files []string
	for i := 0; i < 100; i++ {
		s := sizes[i%len(sizes)]
		if i%50 == 0 {
			s = [2]int{4000, 3000}
		}
		name := filepath.Join(dir, fmt.Sprintf("%03d.jpg", i))
		if err := os.WriteFile(name, encodeJPEG(b, photo(s[0]+i%7, s[1], false), 0), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, name)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		previews := filepath.Join(dir, fmt.Sprint("previews-", i))
		for _, f := range files {
			if _, err := Read(f, previews, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(files)), "ms/file")
}
