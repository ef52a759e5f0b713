package store_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
)

// jpegSegments splits a baseline JPEG written by image/jpeg into its marker segments
// before the scan (each with marker and length) and the entropy-coded scan data.
func jpegSegments(t testing.TB, data []byte) (segs [][]byte, scan []byte) {
	t.Helper()
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			t.Fatalf("no marker at offset %d", i)
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		seg := data[i : i+2+n]
		if data[i+1] == 0xDA { // SOS: the scan runs to EOI
			return segs, data[i+2+n : len(data)-2]
		}
		segs = append(segs, seg)
		i += 2 + n
	}
	t.Fatal("no SOS segment")
	return nil, nil
}

// cmykJPEG builds a baseline four-component Adobe JPEG (CMYK, APP14 transform 0) of
// w×h (multiples of 8): a grey JPEG's quantisation and Huffman tables are kept, and
// its scan is repeated as each of the four components' non-interleaved scans.
func cmykJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i := range g.Pix {
		g.Pix[i] = uint8(i * 7)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, g, nil); err != nil {
		t.Fatal(err)
	}
	segs, scan := jpegSegments(t, b.Bytes())
	out := []byte{0xFF, 0xD8}
	out = append(out, 0xFF, 0xEE, 0, 14)
	out = append(out, "Adobe\x00\x64\x00\x00\x00\x00\x00"...) // version 100, flags, transform 0
	sof := []byte{0xFF, 0xC0, 0, 20, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 4}
	for c := byte(1); c <= 4; c++ {
		sof = append(sof, c, 0x11, 0)
	}
	for _, s := range segs {
		switch s[1] {
		case 0xDB, 0xC4: // DQT, DHT
			out = append(out, s...)
		case 0xC0:
			out = append(out, sof...)
		}
	}
	for c := byte(1); c <= 4; c++ {
		out = append(out, 0xFF, 0xDA, 0, 8, 1, c, 0x00, 0, 63, 0)
		out = append(out, scan...)
	}
	return append(out, 0xFF, 0xD9)
}

// hugeJPEGHeader is a small JPEG whose frame header claims w×h.
func hugeJPEGHeader(t testing.TB, w, h uint16) []byte {
	t.Helper()
	data := bytes.Clone(encodeJPEG(t, 16, 16, color.Gray{128}))
	i := bytes.Index(data, []byte{0xFF, 0xC0})
	binary.BigEndian.PutUint16(data[i+5:], h)
	binary.BigEndian.PutUint16(data[i+7:], w)
	return data
}

// hugePNG is hugePNGHeader followed by a little compressed image data and the end
// chunk: a decoder that trusted the header would allocate w×h pixels before noticing
// that the data runs out.
func hugePNG(t testing.TB, w, h uint32) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 64<<10))
	zw.Close()
	out := hugePNGHeader(w, h)
	for _, c := range []struct {
		typ  string
		data []byte
	}{{"IDAT", z.Bytes()}, {"IEND", nil}} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.data)))
		body := append([]byte(c.typ), c.data...)
		out = append(out, body...)
		out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(body))
	}
	return out
}

func png16(t testing.TB, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// paletted is a w×h paletted image of n colours (PNG-8 when encoded as PNG).
func paletted(w, h, n int) *image.Paletted {
	pal := make(color.Palette, n)
	for i := range pal {
		pal[i] = color.RGBA{uint8(i * 255 / max(n-1, 1)), uint8(255 - i), 40, 255}
	}
	m := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for i := range m.Pix {
		m.Pix[i] = uint8(i % n)
	}
	return m
}

func gifOf(t testing.TB, m *image.Paletted) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// rawPNG writes a w×h PNG of colour type ct and bit depth depth (Go's encoder never
// writes grey+alpha, type 4) with every sample byte counting up.
func rawPNG(t testing.TB, w, h int, ct, depth byte) []byte {
	t.Helper()
	channels := map[byte]int{0: 1, 2: 3, 4: 2, 6: 4}[ct]
	row := 1 + w*channels*int(depth)/8
	raw := make([]byte, row*h)
	for i := range raw {
		if i%row != 0 { // each row starts with filter type 0
			raw[i] = byte(i * 7)
		}
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	out := []byte("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, depth, ct, 0, 0, 0)
	for _, c := range []struct {
		typ  string
		data []byte
	}{{"IHDR", ihdr}, {"IDAT", z.Bytes()}, {"IEND", nil}} {
		out = binary.BigEndian.AppendUint32(out, uint32(len(c.data)))
		body := append([]byte(c.typ), c.data...)
		out = append(out, body...)
		out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(body))
	}
	if _, err := png.Decode(bytes.NewReader(out)); err != nil {
		t.Fatalf("crafted PNG type %d depth %d: %v", ct, depth, err)
	}
	return out
}

// testImage reads one of the tiny files in testdata/images (WebP: Go has no
// encoder; made with cwebp).
func testImage(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "images", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestImportBadImages imports every kind of awkward file in one folder: each either
// loads with its displayed size or is listed with a reason, and the rest still import.
func TestImportBadImages(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()

	good := encodeJPEG(t, 80, 40, color.RGBA{10, 200, 30, 255})
	g16 := image.NewGray16(image.Rect(0, 0, 30, 20))
	for i := range g16.Pix {
		g16.Pix[i] = uint8(i)
	}
	rgba64 := image.NewNRGBA64(image.Rect(0, 0, 24, 18))
	for i := range rgba64.Pix {
		rgba64.Pix[i] = uint8(i * 3)
	}
	cmyk := cmykJPEG(t, 48, 32)
	if m, err := jpeg.Decode(bytes.NewReader(cmyk)); err != nil {
		t.Fatalf("crafted CMYK JPEG: %v", err)
	} else if _, ok := m.(*image.CMYK); !ok {
		t.Fatalf("crafted CMYK JPEG decodes as %T", m)
	}
	plainPNG := png16(t, rgba64)
	if plainPNG[24] != 16 {
		t.Fatalf("test PNG has bit depth %d, want 16", plainPNG[24])
	}
	tests := []struct {
		file   string
		data   []byte
		w, h   int    // the stored size when it loads
		reason string // a part of the reason when it is rejected
	}{
		{file: "bad/zero.jpg", data: nil, reason: "empty file (0 bytes)"},
		{file: "bad/truncated.jpg", data: good[:len(good)/2], reason: "truncated"},
		{file: "bad/header-only.jpg", data: good[:20], reason: "truncated"},
		{file: "bad/text.jpg", data: []byte("Dear diary, today I renamed a note to .jpg\n"), reason: "not a readable image"},
		{file: "bad/huge.png", data: hugePNG(t, 60000, 60000), reason: "header declares 60000×60000 pixels"},
		{file: "bad/huge.jpg", data: hugeJPEGHeader(t, 60000, 60000), reason: "header declares 60000×60000 pixels"},
		{file: "bad/wide.png", data: hugePNGHeader(20001, 10), reason: "20001×10"},
		// Under the pixel cap, but 1.2 GB once decoded as 16-bit RGBA: over the budget.
		{file: "bad/deep16.png", data: hugePNGDepth(t, 12247, 12247, 16), reason: "decoding needs about 1.2 GiB, over the import's 512 MiB budget"},
		{file: "bad/truncated16.png", data: plainPNG[:len(plainPNG)-30], reason: "truncated png"},
		{file: "ok/cmyk.jpg", data: cmyk, w: 48, h: 32},
		{file: "ok/gray16.png", data: png16(t, g16), w: 30, h: 20},
		{file: "ok/rgba16.png", data: plainPNG, w: 24, h: 18},
		{file: "ok/png-named.jpg", data: png16(t, image.NewGray(image.Rect(0, 0, 7, 9))), w: 7, h: 9},
		{file: "ok/plain.jpg", data: good, w: 80, h: 40}, // no EXIF: its own preview
		// Common formats whose headers carry a palette (a slice: the header check once
		// compared them with == and panicked) or an unusual colour type.
		{file: "ok/palette8.png", data: png16(t, paletted(20, 10, 200)), w: 20, h: 10},
		{file: "ok/palette1.png", data: png16(t, paletted(9, 5, 2)), w: 9, h: 5},
		{file: "ok/palette.gif", data: gifOf(t, paletted(12, 7, 16)), w: 12, h: 7},
		{file: "ok/gray-alpha.png", data: rawPNG(t, 6, 4, 4, 8), w: 6, h: 4},
		{file: "ok/gray-alpha16.png", data: rawPNG(t, 5, 3, 4, 16), w: 5, h: 3},
		{file: "ok/lossless.webp", data: testImage(t, "lossless.webp"), w: 16, h: 12},
		{file: "ok/lossy.webp", data: testImage(t, "lossy.webp"), w: 16, h: 12},
	}
	for o := 1; o <= 8; o++ {
		w, h := 80, 40
		if o >= 5 {
			w, h = 40, 80 // orientations 5-8 turn the picture a quarter
		}
		tests = append(tests, struct {
			file   string
			data   []byte
			w, h   int
			reason string
		}{file: "exif/orientation-" + string(rune('0'+o)) + ".jpg", data: withOrientation(good, uint16(o)), w: w, h: h})
	}
	loaded := 0
	for _, tt := range tests {
		writeFile(t, filepath.Join(dir, tt.file), tt.data)
		if tt.reason == "" {
			loaded++
		}
	}

	res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	rejected := map[string]string{}
	for _, r := range res.Rejected {
		rejected[r.RelPath] = r.Reason
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			reason, isRejected := rejected[tt.file]
			if tt.reason != "" {
				if !isRejected || !strings.Contains(reason, tt.reason) {
					t.Errorf("rejected=%v reason %q; want a rejection saying %q", isRejected, reason, tt.reason)
				}
				if _, err := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, tt.file); err == nil {
					t.Error("a rejected file was stored")
				}
				return
			}
			if isRejected {
				t.Fatalf("rejected: %s", reason)
			}
			im, err := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			if im.Width != tt.w || im.Height != tt.h {
				t.Errorf("stored as %d×%d, want %d×%d", im.Width, im.Height, tt.w, tt.h)
			}
			for _, p := range []string{imagefile.PreviewPath(f.db.PreviewDir(), im.SHA256), imagefile.ThumbPath(f.db.PreviewDir(), im.SHA256)} {
				if _, err := os.Stat(p); err != nil {
					t.Errorf("no preview: %v", err)
				}
			}
			// The preview shows the image as stored: turned by its EXIF orientation,
			// at full size (these are all small), and a plain JPEG's bytes unchanged.
			prev, err := os.ReadFile(imagefile.PreviewPath(f.db.PreviewDir(), im.SHA256))
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(prev))
			if err != nil || cfg.Width != tt.w || cfg.Height != tt.h {
				t.Errorf("preview is %d×%d (%v), want %d×%d", cfg.Width, cfg.Height, err, tt.w, tt.h)
			}
			if copied := bytes.Equal(prev, tt.data); copied != (tt.file == "ok/plain.jpg") {
				t.Errorf("preview is a copy of the file: %v", copied)
			}
		})
	}
	if res.Imported != loaded || len(res.Rejected) != len(tests)-loaded || len(res.Duplicate) != 0 {
		t.Errorf("imported %d, rejected %d, duplicates %v; want %d and %d", res.Imported, len(res.Rejected), res.Duplicate, loaded, len(tests)-loaded)
	}
}

// TestImportHugeHeaderAllocatesLittle checks that files declaring 60000×60000 pixels
// (14.4 GB as RGBA) are refused from their header: the whole import allocates little.
func TestImportHugeHeaderAllocatesLittle(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "huge.png"), hugePNG(t, 60000, 60000))
	writeFile(t, filepath.Join(dir, "huge.jpg"), hugeJPEGHeader(t, 60000, 60000))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil)
	runtime.ReadMemStats(&after)
	if err != nil || len(res.Rejected) != 2 {
		t.Fatalf("import: %+v %v", res, err)
	}
	const limit = 16 << 20
	if grew := after.TotalAlloc - before.TotalAlloc; grew > limit {
		t.Errorf("importing two huge headers allocated %d MiB, want under %d MiB", grew>>20, limit>>20)
	}
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew > limit {
		t.Errorf("heap grew by %d MiB, want under %d MiB", grew>>20, limit>>20)
	}
}

// hugePNGDepth is hugePNG declaring RGBA samples of the given bit depth (8 or 16).
func hugePNGDepth(t testing.TB, w, h uint32, depth byte) []byte {
	t.Helper()
	data := hugePNG(t, w, h)
	data[24] = depth // IHDR: signature (8), length (4), type (4), width, height, then depth
	binary.BigEndian.PutUint32(data[29:], crc32.ChecksumIEEE(data[12:29]))
	return data
}
