package remote_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"testing"

	"github.com/benchwright/benchwright/store/storetest"
)

// TestUploadCommonFormats: a workstation uploads a paletted PNG (PNG-8), a GIF
// and a WebP — the paletted header once panicked the server process itself
// (issue 25.1) while the workstation printed "imported 0" — and the server
// imports each with its size, then answers the next request.
func TestUploadCommonFormats(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	_, dial := serve(t, p.DB)
	c := dial(t)
	_, err := c.Authenticate(ctx, "ann1", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	pal := color.Palette{color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}, color.RGBA{0, 255, 0, 128}}
	m := image.NewPaletted(image.Rect(0, 0, 21, 13), pal)
	for i := range m.Pix {
		m.Pix[i] = uint8(i % len(pal))
	}
	var pngB, gifB bytes.Buffer
	if err := png.Encode(&pngB, m); err != nil {
		t.Fatal(err)
	}
	if err := gif.Encode(&gifB, m, nil); err != nil {
		t.Fatal(err)
	}
	webp, err := os.ReadFile("../store/testdata/images/lossless.webp")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := []struct {
		rel  string
		data []byte
		w, h int
	}{{"0009-lab-1/screenshot.png", pngB.Bytes(), 21, 13}, {"0009-lab-1/diagram.gif", gifB.Bytes(), 21, 13}, {"0009-lab-1/photo.webp", webp, 16, 12}}
	for _, f := range files {
		write(t, dir, f.rel, f.data)
	}
	res, err := c.ImportImages(ctx, p.Project.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != len(files) || len(res.Rejected) != 0 {
		t.Fatalf("upload: %+v; want all %d imported", res, len(files))
	}
	for _, f := range files {
		im, err := c.ImageByPath(ctx, p.Project.ID, f.rel)
		if err != nil || im.Width != f.w || im.Height != f.h {
			t.Errorf("%s on the server: %+v, %v; want %d×%d", f.rel, im, err, f.w, f.h)
		}
	}
	if _, err := c.Projects(ctx); err != nil {
		t.Errorf("the server after the upload: %v", err)
	}
}
