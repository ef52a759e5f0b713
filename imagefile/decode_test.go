package imagefile

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/disintegration/imaging"
)

// photo is a w×h picture with smooth waves and hard edges, in colour or gray.
func photo(w, h int, gray bool) image.Image {
	px := func(x, y int) (uint8, uint8, uint8) {
		fx, fy := float64(x), float64(y)
		r := 128 + 100*math.Sin(fx/37)*math.Cos(fy/23)
		g := 255 * fx / float64(w)
		b := 128 + 90*math.Sin((fx+2*fy)/11)
		if (x/97+y/61)%2 == 0 {
			r, g, b = r*0.6, g*0.6, b*0.6
		}
		return uint8(r), uint8(g), uint8(b)
	}
	if gray {
		m := image.NewGray(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				r, g, _ := px(x, y)
				m.Pix[y*m.Stride+x] = r/2 + g/2
			}
		}
		return m
	}
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, b := px(x, y)
			m.SetRGBA(x, y, color.RGBA{r, g, b, 255})
		}
	}
	return m
}

// encodeJPEG is img as a JPEG (Go's encoder: 4:2:0 colour or 1-component gray)
// with an EXIF orientation when orientation is not 0.
func encodeJPEG(t testing.TB, img image.Image, orientation uint16) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	if orientation == 0 {
		return b.Bytes()
	}
	return withExif(b.Bytes(), orientation)
}

// withExif inserts an EXIF segment with an orientation after a JPEG's SOI marker.
func withExif(data []byte, orientation uint16) []byte {
	tiff := []byte("II\x2a\x00\x08\x00\x00\x00\x01\x00\x12\x01\x03\x00\x01\x00\x00\x00")
	tiff = binary.LittleEndian.AppendUint16(tiff, orientation)
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(len(payload)+2))
	out := append([]byte{0xFF, 0xD8}, append(seg, payload...)...)
	return append(out, data[2:]...)
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// meanAbsDiff is the mean absolute difference of two images' 8-bit R, G and B
// over their pixels; they must have the same size.
func meanAbsDiff(t testing.TB, a, b image.Image) float64 {
	t.Helper()
	if a.Bounds().Size() != b.Bounds().Size() {
		t.Fatalf("sizes %v and %v differ", a.Bounds().Size(), b.Bounds().Size())
	}
	var sum float64
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			sum += math.Abs(float64(r1>>8)-float64(r2>>8)) + math.Abs(float64(g1>>8)-float64(g2>>8)) +
				math.Abs(float64(b1>>8)-float64(b2>>8))
		}
	}
	return sum / float64(3*ab.Dx()*ab.Dy())
}

// The preview and the thumbnail made from libjpeg-turbo's scaled decoding look as
// those made the way every import did before it (Go's decoder at full size, then
// imaging), at every DCT scale used and EXIF orientation, in colour, gray, progressive
// 4:4:4 and CMYK; the stored width and height are the same, full-size and upright.
func TestScaledDecodeMatchesFullDecode(t *testing.T) {
	colour := func(w, h int) image.Image { return photo(w, h, false) }
	tests := []struct {
		name  string
		data  []byte
		scale int  // the DCT scale expected, in eighths
		turbo bool // decoded by libjpeg-turbo (where built in)
		self  bool // the file is its own preview (small, no EXIF): only the thumbnail is made
	}{
		{"small: its own preview, thumbnail's source at 1/2", encodeJPEG(t, colour(700, 500), 0), 4, true, true},
		{"small: thumbnail's source at 1/4", encodeJPEG(t, colour(1280, 960), 0), 2, true, true},
		{"full size, resized", encodeJPEG(t, colour(2400, 1000), 0), 8, true, false},
		{"12 MP at 1/2", encodeJPEG(t, colour(4000, 3000), 0), 4, true, false},
		{"1/4", encodeJPEG(t, colour(6500, 600), 1), 2, true, false},
		{"12,900 px at 1/4, not 1/8", encodeJPEG(t, colour(600, 12900), 0), 2, true, false},
		{"orientation 2", encodeJPEG(t, colour(3300, 900), 2), 4, true, false},
		{"orientation 3", encodeJPEG(t, colour(3300, 900), 3), 4, true, false},
		{"orientation 4", encodeJPEG(t, colour(3300, 900), 4), 4, true, false},
		{"orientation 5", encodeJPEG(t, colour(3300, 900), 5), 4, true, false},
		{"orientation 6", encodeJPEG(t, colour(3300, 900), 6), 4, true, false},
		{"orientation 7", encodeJPEG(t, colour(900, 3300), 7), 4, true, false},
		{"orientation 8, small: EXIF, so a preview is made", encodeJPEG(t, colour(300, 200), 8), 8, true, false},
		{"gray at 1/2", encodeJPEG(t, photo(3400, 700, true), 6), 4, true, false},
		{"gray, small", encodeJPEG(t, photo(320, 200, true), 0), 8, true, true},
		{"progressive 4:4:4 at 1/2", readTestdata(t, "progressive444.jpg"), 4, true, false},
		{"CMYK (Go's decoder)", readTestdata(t, "cmyk.jpg"), 8, false, false},
		{"CMYK, orientation 6", withExif(readTestdata(t, "cmyk.jpg"), 6), 8, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, format, err := image.DecodeConfig(bytes.NewReader(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			m := previewScale(cfg.Width, cfg.Height)
			if tt.self {
				m = thumbScale(cfg.Width, cfg.Height)
			}
			if m != tt.scale {
				t.Fatalf("scale %d/8, want %d/8", m, tt.scale)
			}
			if turbo := decodeJPEGScaled(tt.data, cfg, m) != nil; turbo != (tt.turbo && turboJPEG) {
				t.Fatalf("decoded by libjpeg-turbo: %v, want %v", turbo, tt.turbo && turboJPEG)
			}
			want, err := decodeGo(tt.data, cfg, format)
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeForPreview(tt.data, cfg, format)
			if err != nil {
				t.Fatal(err)
			}
			if got.width != want.width || got.height != want.height {
				t.Errorf("stored size %d×%d, want %d×%d", got.width, got.height, want.width, want.height)
			}
			if got.fileIsPreview != tt.self || want.fileIsPreview != tt.self {
				t.Fatalf("the file is its own preview: %v (Go's path: %v), want %v", got.fileIsPreview, want.fileIsPreview, tt.self)
			}
			// Today's path: imaging.Fit from Go's full-size decoding.
			todayFit := func(m image.Image, side int) image.Image {
				if b := m.Bounds(); b.Dx() <= side && b.Dy() <= side {
					return m
				}
				return imaging.Fit(m, side, side, imaging.Linear)
			}
			wp, gp := want.img, got.img
			if !tt.self {
				wp, gp = todayFit(want.img, PreviewSide), previewOf(got.img, false)
				if d := meanAbsDiff(t, gp, wp); d > 1.5 {
					t.Errorf("preview %v differs from today's by %.2f levels on average", gp.Bounds().Size(), d)
				}
			}
			wt, gt := imaging.Fit(wp, ThumbSide, ThumbSide, imaging.Linear), thumbOf(gp, false)
			if d := meanAbsDiff(t, gt, wt); d > 1.5 {
				t.Errorf("thumbnail differs from today's by %.2f levels on average", d)
			}
		})
	}
}

// A cut-off or corrupt JPEG is refused with the reason Go's decoder gives, as
// before libjpeg-turbo decoded JPEGs (which would fill what is missing with grey,
// or skip what it cannot read, and only warn).
func TestScaledDecodeRefusesWhatGoRefuses(t *testing.T) {
	good := encodeJPEG(t, photo(3300, 900, false), 6)
	sos := bytes.Index(good, []byte{0xFF, 0xDA})
	corrupt := bytes.Clone(good)
	copy(corrupt[sos+400:], []byte{0xFF, 0xD3}) // a restart marker where none may be
	tests := []struct {
		name, data, want string
	}{
		{"cut in the image data", string(good[:len(good)*2/3]), "bad image: corrupt jpeg data (invalid JPEG format: short Huffman data)"},
		{"cut after the first scan bytes", string(good[:sos+200]), "bad image: corrupt jpeg data (invalid JPEG format: short Huffman data)"},
		{"cut in the scan header", string(good[:sos+6]), "bad image: truncated jpeg: the file ends before the image data does"},
		{"a stray marker", string(corrupt), "bad image: corrupt jpeg data ("},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if turboJPEG && decodeJPEGScaled(data, cfg, previewScale(cfg.Width, cfg.Height)) != nil {
				t.Error("libjpeg-turbo's decoding was kept")
			}
			_, want := decodeGo(data, cfg, format)
			_, err = decodeForPreview(data, cfg, format)
			if err == nil || want == nil || err.Error() != want.Error() || !bytes.HasPrefix([]byte(err.Error()), []byte(tt.want)) {
				t.Errorf("got %v, want %v (%q…)", err, want, tt.want)
			}
		})
	}
}
