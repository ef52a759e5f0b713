// Package chart lays out the app's charts (bar charts of counts or percentages,
// heat grids) once, as a Drawing: rectangles and text in logical pixels, with the
// colours of a Palette. Two backends render the same Drawing: Image rasterises it at
// any pixel size (the screen's scale, or 3× for print), WriteSVG writes it as
// vector SVG with the text as <text>. Plain Go; the ui package shows a Drawing in a
// widget and saves it.
package chart

import (
	"image/color"
	"math"
	"strconv"
	"strings"
)

// Palette is a chart's colours: Background behind everything, Ink for titles and
// labels, Muted for axis numbers and messages, Grid for grid lines and Empty for
// a heat cell without a value.
type Palette struct {
	Background, Ink, Muted, Grid, Empty color.NRGBA
}

// Paper is the palette of a chart saved for a paper: black on white.
var Paper = Palette{
	Background: color.NRGBA{0xff, 0xff, 0xff, 0xff},
	Ink:        color.NRGBA{0x21, 0x21, 0x21, 0xff},
	Muted:      color.NRGBA{0x61, 0x61, 0x61, 0xff},
	Grid:       color.NRGBA{0xe0, 0xe0, 0xe0, 0xff},
	Empty:      color.NRGBA{0xee, 0xee, 0xee, 0xff},
}

// SeriesColor is the colour of the i-th series of a chart (repeating after ten).
func SeriesColor(i int) color.NRGBA {
	p := []color.NRGBA{
		{0x42, 0x85, 0xf4, 0xff}, {0xab, 0x47, 0xbc, 0xff}, {0x26, 0xa6, 0x9a, 0xff}, {0xff, 0x98, 0x00, 0xff},
		{0xec, 0x40, 0x7a, 0xff}, {0x8d, 0x6e, 0x63, 0xff}, {0x7c, 0xb3, 0x42, 0xff}, {0x5c, 0x6b, 0xc0, 0xff},
		{0x78, 0x90, 0x9c, 0xff}, {0xd4, 0xe1, 0x57, 0xff},
	}
	return p[((i%len(p))+len(p))%len(p)]
}

// Anchor is where a text's point lies along the text: its start, middle or end.
type Anchor int

const (
	Start Anchor = iota
	Middle
	End
)

// Rect is a filled rectangle.
type Rect struct {
	X, Y, W, H float64
	Fill       color.NRGBA
}

// Text is one line of text whose baseline passes through (X, Y) at its Anchor,
// rotated by Angle degrees clockwise around that point (negative: upwards). Full
// is the whole text when S had to be shortened.
type Text struct {
	X, Y   float64
	S      string
	Size   float64
	Fill   color.NRGBA
	Anchor Anchor
	Angle  float64
	Full   string
}

// Hint is a region of the chart and what it shows, for a tooltip.
type Hint struct {
	X, Y, W, H float64
	Text       string
}

// Drawing is a chart laid out in a W×H box of logical pixels: its background,
// then its rectangles, then its texts, in order.
type Drawing struct {
	W, H       float64
	Font       *Font
	Background color.NRGBA
	Rects      []Rect
	Texts      []Text
	Hints      []Hint
	Cells      []CellArea // a heat grid's cells, for a screen that links them
}

// CellArea is where the cell of row Row and column Col of a heat grid lies.
type CellArea struct {
	X, Y, W, H float64
	Row, Col   int
}

// CellAt is the row and column of the heat-grid cell holding (x, y); ok is false
// outside every cell.
func (d *Drawing) CellAt(x, y float64) (row, col int, ok bool) {
	for _, c := range d.Cells {
		if x >= c.X && x < c.X+c.W && y >= c.Y && y < c.Y+c.H {
			return c.Row, c.Col, true
		}
	}
	return 0, 0, false
}

// HintAt is the text of the last hint holding (x, y), or "".
func (d *Drawing) HintAt(x, y float64) string {
	for i := len(d.Hints) - 1; i >= 0; i-- {
		h := d.Hints[i]
		if x >= h.X && x < h.X+h.W && y >= h.Y && y < h.Y+h.H {
			return h.Text
		}
	}
	return ""
}

func (d *Drawing) rect(x, y, w, h float64, c color.NRGBA) {
	if w > 0 && h > 0 {
		d.Rects = append(d.Rects, Rect{x, y, w, h, c})
	}
}

func (d *Drawing) text(t Text) { d.Texts = append(d.Texts, t) }

// Text sizes and spacing, in logical pixels.
const (
	textSize  = 11.0
	titleSize = 12.5
	pad       = 8.0
)

func lineHeight(size float64) float64 { return math.Ceil(size * 1.4) }

// NiceMax rounds v up to four steps of 1, 1.5, 2, 2.5, 3 or 5 times a power of
// ten, so that the four grid lines fall on round numbers; with integral, the steps
// are whole numbers (for counts).
func NiceMax(v float64, integral bool) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		v = 1
	}
	exp := math.Pow(10, math.Floor(math.Log10(v/4)))
	for e := exp; ; e *= 10 {
		for _, m := range []float64{1, 1.5, 2, 2.5, 3, 5} {
			step := m * e
			if integral && step != math.Trunc(step) {
				continue
			}
			if step*4 >= v {
				return step * 4
			}
		}
	}
}

// Value writes a value briefly: integers without decimals, others with up to two.
func Value(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// fit shortens s with "…" to at most w pixels at size; ok is false when it had to.
func fit(f *Font, s string, size, w float64) (string, bool) {
	if f.Width(s, size) <= w {
		return s, true
	}
	r := []rune(s)
	for n := len(r) - 1; n > 0; n-- {
		if t := string(r[:n]) + "…"; f.Width(t, size) <= w {
			return t, false
		}
	}
	return "", false
}

// inkOn is the text colour readable on fill: the palette's ink or its background,
// whichever contrasts more.
func inkOn(p Palette, fill color.NRGBA) color.NRGBA {
	l := func(c color.NRGBA) float64 { return 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B) }
	dark, light := p.Ink, p.Background
	if l(dark) > l(light) {
		dark, light = light, dark
	}
	if l(fill) > 140 {
		return dark
	}
	return light
}
