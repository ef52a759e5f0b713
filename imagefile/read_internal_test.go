package imagefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/disintegration/imaging"
)

// encodable hands image/jpeg a fast-path type showing the same colours.
func TestEncodableKeepsColours(t *testing.T) {
	nrgba := func(alpha uint8) *image.NRGBA {
		m := image.NewNRGBA(image.Rect(2, 3, 7, 6)) // an origin away from 0,0
		for y := 3; y < 6; y++ {
			for x := 2; x < 7; x++ {
				m.SetNRGBA(x, y, color.NRGBA{uint8(40 * x), uint8(70 * y), 200, alpha})
			}
		}
		return m
	}
	gray := image.NewGray(image.Rect(0, 0, 3, 3))
	gray.SetGray(1, 1, color.Gray{Y: 99})
	tests := []struct {
		name string
		img  image.Image
	}{
		{"opaque NRGBA", nrgba(255)},
		{"translucent NRGBA", nrgba(128)},
		{"gray", gray},
		{"paletted", image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.RGBA{10, 20, 30, 255}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodable(tt.img)
			switch got.(type) {
			case *image.RGBA, *image.YCbCr, *image.Gray:
			default:
				t.Fatalf("encodable gave %T, not a type image/jpeg encodes fast", got)
			}
			if got.Bounds() != tt.img.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), tt.img.Bounds())
			}
			b := tt.img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r1, g1, b1, a1 := tt.img.At(x, y).RGBA()
					r2, g2, b2, a2 := got.At(x, y).RGBA()
					// 8-bit premultiplication rounds: allow one step of 257.
					if diff(r1, r2) > 257 || diff(g1, g2) > 257 || diff(b1, b2) > 257 || a1 != a2 {
						t.Fatalf("(%d,%d): %v, want %v", x, y, got.At(x, y), tt.img.At(x, y))
					}
				}
			}
		})
	}
}

func diff(a, b uint32) uint32 { return max(a, b) - min(a, b) }

func TestHasExif(t *testing.T) {
	seg := func(marker byte, payload string) []byte {
		n := len(payload) + 2
		return append([]byte{0xFF, marker, byte(n >> 8), byte(n)}, payload...)
	}
	jpegOf := func(parts ...[]byte) []byte {
		out := []byte{0xFF, 0xD8}
		for _, p := range parts {
			out = append(out, p...)
		}
		return append(out, 0xFF, 0xDA, 0, 2)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"no segments", jpegOf(), false},
		{"JFIF only", jpegOf(seg(0xE0, "JFIF\x00\x01\x02")), false},
		{"XMP in APP1 is not EXIF", jpegOf(seg(0xE1, "http://ns.adobe.com/xap/1.0/\x00<x/>")), false},
		{"EXIF after JFIF", jpegOf(seg(0xE0, "JFIF\x00"), seg(0xE1, "Exif\x00\x00MM")), true},
		{"fill bytes before a marker", append([]byte{0xFF, 0xD8, 0xFF}, jpegOf(seg(0xE1, "Exif\x00\x00II"))[2:]...), true},
		{"EXIF after the scan does not count", append(jpegOf(), seg(0xE1, "Exif\x00\x00")...), false},
		{"not a JPEG", []byte("GIF89a"), true},
		{"segment longer than the file", append([]byte{0xFF, 0xD8}, 0xFF, 0xE0, 0x10, 0x00, 'J'), true},
		{"cut inside the markers", []byte{0xFF, 0xD8, 0xFF}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hasExif(tc.data); got != tc.want {
				t.Errorf("hasExif = %v, want %v", got, tc.want)
			}
		})
	}
}

// pngNRGBA64 is a 16-bit RGBA PNG of w×h with varied pixels.
func pngNRGBA64(t testing.TB, w, h int, seed byte) []byte {
	t.Helper()
	m := image.NewNRGBA64(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = byte(i) ^ seed
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withBudget replaces the process's decode budget for one test.
func withBudget(t *testing.T, b *byteBudget) {
	old := decodeBudget
	decodeBudget = b
	t.Cleanup(func() { decodeBudget = old })
}

// Concurrent decodes together never reserve more than the budget, each reserves at
// least its decoded image's bytes, and everything reserved is given back.
func TestDecodeBudgetAccounting(t *testing.T) {
	dir, previews := t.TempDir(), t.TempDir()
	const n, w, h = 8, 120, 90
	var files []string
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("f%d.png", i)
		if err := os.WriteFile(filepath.Join(dir, name), pngNRGBA64(t, w, h, byte(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	data, _ := os.ReadFile(filepath.Join(dir, files[0]))
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	one := decodeCost(cfg, format, data, int64(len(data)))
	if decoded := int64(w * h * 8); one < decoded+int64(len(data)) {
		t.Fatalf("a %d×%d 16-bit PNG is estimated at %d bytes, less than its file and decoded pixels (%d)", w, h, one, decoded+int64(len(data)))
	}
	b := newByteBudget(one * 5 / 2) // room for two at once
	var reservations []int64
	b.onAcquire = func(n, used int64) {
		reservations = append(reservations, n)
		if used > b.max {
			t.Errorf("%d bytes reserved at once, over the budget of %d", used, b.max)
		}
	}
	withBudget(t, b)

	start := make(chan struct{})
	errs := make(chan error, n)
	for _, f := range files {
		go func() {
			<-start
			_, err := Read(filepath.Join(dir, f), previews, nil)
			errs <- err
		}()
	}
	close(start)
	for range files {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(reservations) != n || b.used != 0 || b.peak > b.max || b.peak < one {
		t.Errorf("%d reservations, %d bytes still reserved, peak %d of %d", len(reservations), b.used, b.peak, b.max)
	}
}

// A reservation that does not fit waits for a release; one larger than the budget is
// refused from the header, naming the sizes, without reserving anything.
func TestDecodeBudgetWaitsAndRefuses(t *testing.T) {
	b := newByteBudget(100)
	b.acquire(60)
	done := make(chan struct{})
	go func() { b.acquire(50); close(done) }()
	for { // wait until the second reservation is in line
		b.mu.Lock()
		queued := b.next == 2
		b.mu.Unlock()
		if queued {
			break
		}
		runtime.Gosched()
	}
	select {
	case <-done:
		t.Fatal("60 + 50 bytes reserved in a budget of 100")
	default:
	}
	b.release(60)
	<-done
	b.release(50)

	dir := t.TempDir()
	path := filepath.Join(dir, "a.png")
	if err := os.WriteFile(path, pngNRGBA64(t, 64, 64, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	small := newByteBudget(64 * 64 * 8)
	withBudget(t, small)
	_, err := Read(path, t.TempDir(), nil)
	if err == nil || !strings.Contains(err.Error(), "decoding needs about") || !strings.Contains(err.Error(), "budget") {
		t.Errorf("got %v, want a refusal naming the memory decoding needs", err)
	}
	if small.peak != 0 {
		t.Errorf("a refused file reserved %d bytes", small.peak)
	}
}

// A file rewritten between its header check and its read is refused, whatever the
// rewrite kept (its size, its time, its inode), and nothing of it is written.
func TestProbeRefusesFileChangedWhileRead(t *testing.T) {
	v1 := pngNRGBA64(t, 40, 30, 1)
	v2 := pngNRGBA64(t, 40, 30, 2) // same size, other content
	if len(v1) != len(v2) {
		v2 = pngNRGBA64(t, 40, 30, 1)
		v2[len(v2)-20] ^= 0xFF // still the same length
	}
	later := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	tests := []struct {
		name    string
		rewrite func(t *testing.T, path string)
	}{
		{"appended in place", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.Write([]byte("more"))
			f.Close()
		}},
		{"shortened in place", func(t *testing.T, path string) {
			if err := os.Truncate(path, int64(len(v1)/2)); err != nil {
				t.Fatal(err)
			}
		}},
		{"same size, new time", func(t *testing.T, path string) {
			if err := os.WriteFile(path, v2, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced by a rename", func(t *testing.T, path string) {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, v2, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, previews := t.TempDir(), t.TempDir()
			path := filepath.Join(dir, "a.png")
			if err := os.WriteFile(path, v1, 0o644); err != nil {
				t.Fatal(err)
			}
			old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			p, err := Read(path, previews, func() { tt.rewrite(t, path) })
			if err == nil || !strings.Contains(err.Error(), "changed while it was being imported; import again") {
				t.Fatalf("got %+v, %v; want the file refused as changed", p, err)
			}
			if entries, _ := os.ReadDir(previews); len(entries) != 0 {
				t.Errorf("previews written for a file that changed: %v", entries)
			}
		})
	}
	// Unchanged, the same file imports, with the size and hash of what was read.
	dir := t.TempDir()
	path := filepath.Join(dir, "a.png")
	if err := os.WriteFile(path, v1, 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Read(path, t.TempDir(), nil)
	sum := sha256.Sum256(v1)
	if err != nil || p.Size != int64(len(v1)) || p.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("unchanged file: %+v %v", p, err)
	}
}

// jpegWithOrientation is a JPEG of w×h (4:2:0, as image/jpeg writes colour) carrying
// an EXIF orientation, or none when orientation is 0.
func jpegWithOrientation(t testing.TB, w, h int, orientation uint16) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = byte(i * 5)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	if orientation == 0 {
		return b.Bytes()
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01")
	tiff = binary.BigEndian.AppendUint16(tiff, orientation)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(payload)+2))
	out := append([]byte{0xFF, 0xD8}, append(seg, payload...)...)
	return append(out, b.Bytes()[2:]...)
}

// pixBytes is the size of a decoded image's pixel buffers.
func pixBytes(t testing.TB, m image.Image) int64 {
	switch m := m.(type) {
	case *image.YCbCr:
		return int64(len(m.Y) + len(m.Cb) + len(m.Cr))
	case *image.Gray:
		return int64(len(m.Pix))
	case *image.Gray16:
		return int64(len(m.Pix))
	case *image.NRGBA:
		return int64(len(m.Pix))
	case *image.NRGBA64:
		return int64(len(m.Pix))
	case *image.RGBA:
		return int64(len(m.Pix))
	case *image.Paletted:
		return int64(len(m.Pix))
	}
	t.Fatalf("no size for %T", m)
	return 0
}

// The estimate covers what decoding really holds: the file, the decoder's image and
// the copy an EXIF orientation makes.
func TestDecodeCostCoversDecodedImage(t *testing.T) {
	encode := func(m image.Image) []byte {
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	grayJPEG := func() []byte {
		var b bytes.Buffer
		jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 70, 30)), nil)
		return b.Bytes()
	}()
	for name, data := range map[string][]byte{
		"4:2:0 JPEG":          jpegWithOrientation(t, 70, 30, 0),
		"JPEG turned by EXIF": jpegWithOrientation(t, 70, 30, 6),
		"JPEG, EXIF upright":  jpegWithOrientation(t, 70, 30, 1),
		"gray JPEG":           grayJPEG,
		"16-bit RGBA PNG":     pngNRGBA64(t, 70, 30, 3),
		"16-bit gray PNG":     encode(image.NewGray16(image.Rect(0, 0, 70, 30))),
		"paletted PNG":        encode(image.NewPaletted(image.Rect(0, 0, 70, 30), color.Palette{color.Black, color.White})),
	} {
		t.Run(name, func(t *testing.T) {
			cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			plain, _, err := image.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			held := int64(len(data)) + pixBytes(t, plain)
			turned, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
			if err != nil {
				t.Fatal(err)
			}
			if reflect.TypeOf(turned) != reflect.TypeOf(plain) {
				held += pixBytes(t, turned)
			}
			if format == "jpeg" {
				// libjpeg-turbo's decoding (an NRGBA or Gray at its scale, turned by
				// the EXIF orientation in a copy) is held beside what Go's decoder
				// then decodes when libjpeg-turbo gave up.
				if m := decodeJPEGScaled(data, cfg, previewScale(cfg.Width, cfg.Height)); m != nil {
					held += 2 * pixBytes(t, m)
				} else if turboJPEG && cfg.ColorModel != color.CMYKModel {
					t.Fatal("libjpeg-turbo did not decode it")
				}
			}
			if cost := decodeCost(cfg, format, data, int64(len(data))); cost < held {
				t.Errorf("estimated %d bytes, decoding holds %d", cost, held)
			}
		})
	}
	// From headers alone: a 100-megapixel camera JPEG fits the budget; turned by its
	// EXIF orientation it costs a 4-byte copy of every pixel more.
	big := func(orientation uint16) int64 {
		data := bytes.Clone(jpegWithOrientation(t, 16, 16, orientation))
		i := bytes.Index(data, []byte{0xFF, 0xC0})
		binary.BigEndian.PutUint16(data[i+5:], 10000)
		binary.BigEndian.PutUint16(data[i+7:], 10000)
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != 10000 {
			t.Fatalf("crafted header: %v %v", cfg, err)
		}
		return decodeCost(cfg, format, data, int64(len(data)))
	}
	if upright, turned := big(1), big(6); upright > DecodeBudget || turned < upright+4*10000*10000 {
		t.Errorf("100 MP JPEG estimated at %d bytes upright, %d turned", upright, turned)
	}
}

// The pixels Read decoded go back to a pool for the next decode: the thumbnail it
// returns (Info.Thumb, which the import hashes after Read returned) must not be
// among them, whatever path made it.
func TestReadThumbOutlivesNextRead(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		w, h int
		o    uint16 // EXIF orientation, 0: none
	}{
		{"fits the thumbnail, its own preview", 200, 150, 0},
		{"its own preview", 480, 360, 0},
		{"turned", 480, 360, 6},
		{"larger than its preview", 2000, 1500, 0},
		{"gray", 300, 200, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write := func(name string, img image.Image) string {
				p := filepath.Join(dir, tt.name+name)
				if err := os.WriteFile(p, encodeJPEG(t, img, tt.o), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			img := photo(tt.w, tt.h, tt.name == "gray")
			first, err := Read(write("-a.jpg", img), filepath.Join(dir, "previews"), nil)
			if err != nil || first.Thumb == nil {
				t.Fatalf("read: %v, thumbnail %v", err, first.Thumb != nil)
			}
			before := imaging.Clone(first.Thumb)
			// Other images of the same size, decoded into the pooled pixels.
			for i := 1; i <= 3; i++ {
				other := imaging.AdjustBrightness(imaging.Invert(img), float64(10*i))
				if _, err := Read(write(fmt.Sprintf("-%d.jpg", i), other), filepath.Join(dir, fmt.Sprint("previews", i)), nil); err != nil {
					t.Fatal(err)
				}
			}
			if d := meanAbsDiff(t, before, first.Thumb); d != 0 {
				t.Fatalf("the first image's thumbnail changed by %.2f levels on average after the next reads", d)
			}
		})
	}
}
