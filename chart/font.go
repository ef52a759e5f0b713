package chart

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// Font is the typeface a chart is measured and rasterised with; Family names it
// for SVG viewers (which fall back to sans-serif). Safe for concurrent use.
type Font struct {
	Family string
	otf    *opentype.Font
	mu     sync.Mutex
	faces  map[float64]font.Face
}

// ParseFont reads a TrueType or OpenType font.
func ParseFont(family string, ttf []byte) (*Font, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("chart font %s: %w", family, err)
	}
	return &Font{Family: family, otf: f, faces: map[float64]font.Face{}}, nil
}

var goFont = sync.OnceValue(func() *Font {
	f, err := ParseFont("Go", goregular.TTF)
	if err != nil {
		panic(err) // the embedded font is valid
	}
	return f
})

// GoFont is the Go regular typeface, embedded.
func GoFont() *Font { return goFont() }

// face is the face of size pixels; f.mu must be held.
func (f *Font) face(size float64) font.Face {
	if fc, ok := f.faces[size]; ok {
		return fc
	}
	fc, err := opentype.NewFace(f.otf, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err) // only an invalid size fails, and sizes are ours
	}
	f.faces[size] = fc
	return fc
}

// Width is the advance of s at size pixels.
func (f *Font) Width(s string, size float64) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return float64(font.MeasureString(f.face(size), s)) / 64
}

// Ascent is the height above the baseline of the font's tallest letters at size.
func (f *Font) Ascent(size float64) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return float64(f.face(size).Metrics().Ascent) / 64
}
