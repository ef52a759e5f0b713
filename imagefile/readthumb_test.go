package imagefile

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"
)

// The near-duplicate check reads cached thumbnails: one that is there decodes,
// one that is missing or damaged is nil (the caller makes it again).
func TestReadThumb(t *testing.T) {
	dir := t.TempDir()
	const sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	const damaged = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	img := image.NewRGBA(image.Rect(0, 0, 24, 16))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.Black)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{sha: buf.Bytes(), damaged: []byte("not a jpeg")} {
		p := ThumbPath(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, sha string
		size      image.Point // of the image read; zero for nil
	}{
		{"there", sha, image.Pt(24, 16)},
		{"damaged", damaged, image.Point{}},
		{"missing", "0000000000000000000000000000000000000000000000000000000000000000", image.Point{}},
	}
	for _, tt := range tests {
		got := ReadThumb(dir, tt.sha)
		var size image.Point
		if got != nil {
			size = got.Bounds().Size()
		}
		if size != tt.size || (got == nil) != (tt.size == image.Point{}) {
			t.Errorf("%s: ReadThumb = %v (size %v), want size %v", tt.name, got != nil, size, tt.size)
		}
	}
}
