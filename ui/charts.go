package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Charts are pure functions from data to an image, drawn with image/draw and the
// fixed 7×13 X11 font (ASCII text only), so that they look the same everywhere and
// can be compared pixel by pixel in tests.

// Chart colours.
var (
	chartBackground = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	chartInk        = color.NRGBA{0x21, 0x21, 0x21, 0xff}
	chartGrid       = color.NRGBA{0xe0, 0xe0, 0xe0, 0xff}
	chartMuted      = color.NRGBA{0x75, 0x75, 0x75, 0xff}

	// HeatMet, HeatPartial and HeatFar colour a balance cell by its shortfall;
	// HeatNone marks a cell without a target.
	HeatMet     = color.NRGBA{0x66, 0xbb, 0x6a, 0xff}
	HeatPartial = color.NRGBA{0xff, 0xca, 0x28, 0xff}
	HeatFar     = color.NRGBA{0xef, 0x53, 0x50, 0xff}
	HeatNone    = color.NRGBA{0xee, 0xee, 0xee, 0xff}
)

// ChartPalette is the colour of the i-th series of a chart (repeating after ten).
func ChartPalette(i int) color.NRGBA {
	p := []color.NRGBA{
		{0x42, 0x85, 0xf4, 0xff}, {0xab, 0x47, 0xbc, 0xff}, {0x26, 0xa6, 0x9a, 0xff}, {0xff, 0x98, 0x00, 0xff},
		{0xec, 0x40, 0x7a, 0xff}, {0x8d, 0x6e, 0x63, 0xff}, {0x7c, 0xb3, 0x42, 0xff}, {0x5c, 0x6b, 0xc0, 0xff},
		{0x78, 0x90, 0x9c, 0xff}, {0xd4, 0xe1, 0x57, 0xff},
	}
	return p[((i%len(p))+len(p))%len(p)]
}

// Series is one named set of values, one per label of a bar chart, drawn in Color.
type Series struct {
	Name   string
	Values []float64
	Color  color.NRGBA
}

const (
	chartFontW   = 7  // advance of basicfont.Face7x13
	chartAscent  = 11 // ascent of basicfont.Face7x13
	chartLineH   = 15 // a line of text with some leading
	chartPadding = 8
)

func chartCanvas(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	draw.Draw(img, img.Bounds(), image.NewUniform(chartBackground), image.Point{}, draw.Src)
	return img
}

func chartFill(img *image.RGBA, r image.Rectangle, c color.Color) {
	draw.Draw(img, r.Intersect(img.Bounds()), image.NewUniform(c), image.Point{}, draw.Src)
}

func chartTextWidth(s string) int { return font.MeasureString(basicfont.Face7x13, s).Round() }

// chartText writes s with its top-left corner at (x, y).
func chartText(img *image.RGBA, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y+chartAscent)}
	d.DrawString(s)
}

// chartClip shortens s to at most w pixels, marking the cut with "..".
func chartClip(s string, w int) string {
	if chartTextWidth(s) <= w {
		return s
	}
	for n := len(s) - 1; n > 0; n-- {
		if chartTextWidth(s[:n]+"..") <= w {
			return s[:n] + ".."
		}
	}
	return ""
}

// chartNiceMax rounds v up to four steps of 1, 1.5, 2, 2.5, 3 or 5 times a power of
// ten, so that the four grid lines fall on round numbers; with integral, the steps
// are whole numbers (for counts).
func chartNiceMax(v float64, integral bool) float64 {
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

// chartValue writes a value briefly: integers without decimals, others with up to two.
func chartValue(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return strings.TrimSuffix(s, ".")
}

// chartHeader writes a chart's title and, with legend, a legend of the series
// (wrapped to the width), and returns the y where the plot may start.
func chartHeader(img *image.RGBA, title string, series []Series, w int, legend bool) int {
	chartText(img, chartPadding, chartPadding/2, chartClip(title, w-2*chartPadding), chartInk)
	top := chartPadding/2 + chartLineH + chartPadding/2
	if legend {
		x := chartPadding
		for _, s := range series {
			entry := chartTextWidth(s.Name) + 16
			if x+entry > w-chartPadding && x > chartPadding {
				x, top = chartPadding, top+chartLineH
			}
			chartFill(img, image.Rect(x, top+3, x+9, top+12), s.Color)
			chartText(img, x+12, top, s.Name, chartInk)
			x += entry + 6
		}
		top += chartLineH + chartPadding/2
	}
	return top
}

// BarChart draws a w×h bar chart: one bar per label, the series stacked bottom-up in
// their order, the total above each bar, the title at the top, a legend when there
// is more than one series, and a y axis with four grid lines. Labels too wide for
// their slot are shortened; when the slots are narrower than five characters, only
// every k-th label is written. Negative and missing values count as 0. With no labels or
// only zeros it says "no data".
func BarChart(title string, labels []string, series []Series, w, h int) *image.RGBA {
	img := chartCanvas(w, h)
	top := chartHeader(img, title, series, w, len(series) > 1)
	totals := make([]float64, len(labels))
	for _, s := range series {
		for i := range labels {
			if i < len(s.Values) && s.Values[i] > 0 {
				totals[i] += s.Values[i]
			}
		}
	}
	maxTotal := 0.0
	for _, t := range totals {
		maxTotal = max(maxTotal, t)
	}
	top += chartLineH // room for the totals above the tallest bar
	integral := true
	for _, t := range totals {
		integral = integral && t == math.Trunc(t)
	}
	yMax := chartNiceMax(maxTotal, integral)
	axisW := 0
	for i := 0; i <= 4; i++ {
		axisW = max(axisW, chartTextWidth(chartValue(yMax*float64(i)/4)))
	}
	left, right, bottom := chartPadding+axisW+4, w-chartPadding, h-chartPadding/2-chartLineH
	if bottom-top < 10 || right-left < 10 {
		return img
	}
	for i := 0; i <= 4; i++ {
		v := yMax * float64(i) / 4
		y := bottom - int(math.Round(float64(bottom-top)*float64(i)/4))
		chartFill(img, image.Rect(left, y, right, y+1), chartGrid)
		s := chartValue(v)
		chartText(img, left-4-chartTextWidth(s), y-chartAscent/2-1, s, chartMuted)
	}
	chartFill(img, image.Rect(left, top, left+1, bottom+1), chartInk)
	chartFill(img, image.Rect(left, bottom, right, bottom+1), chartInk)
	if len(labels) == 0 || maxTotal == 0 {
		msg := "no data"
		chartText(img, left+(right-left-chartTextWidth(msg))/2, (top+bottom)/2-chartAscent/2, msg, chartMuted)
		return img
	}
	slot := float64(right-left) / float64(len(labels))
	barW := max(1, int(slot*0.7))
	widest := 0
	for _, l := range labels {
		widest = max(widest, chartTextWidth(l))
	}
	every := 1 // a slot of five characters or more takes its label, shortened if need be
	if need := float64(min(widest+6, 5*chartFontW)); slot < need {
		every = int(math.Ceil(need / slot))
	}
	scale := float64(bottom-top) / yMax
	for i, l := range labels {
		x0 := left + int(math.Round(slot*float64(i)+(slot-float64(barW))/2))
		y := float64(bottom)
		for _, s := range series {
			if i >= len(s.Values) || s.Values[i] <= 0 {
				continue
			}
			y1 := y - s.Values[i]*scale
			chartFill(img, image.Rect(x0, int(math.Round(y1)), x0+barW, int(math.Round(y))), s.Color)
			y = y1
		}
		if totals[i] > 0 {
			t := chartValue(totals[i])
			if chartTextWidth(t) <= int(slot) {
				chartText(img, x0+(barW-chartTextWidth(t))/2, int(math.Round(y))-chartLineH+1, t, chartInk)
			}
		}
		if i%every == 0 {
			room := int(slot) * every
			t := chartClip(l, room-2)
			cx := left + int(math.Round(slot*float64(i)+slot/2))
			chartText(img, max(left, min(cx-chartTextWidth(t)/2, right-chartTextWidth(t))), bottom+3, t, chartInk)
		}
	}
	return img
}

// HeatCell is one cell of a heat grid: its text and fill.
type HeatCell struct {
	Text string
	Fill color.Color
}

// HeatGrid draws a w×h grid of coloured cells with the column labels above and the
// row labels to the left, and the title at the top. cells[r][c] is the cell of row r
// and column c; a missing cell is drawn as HeatNone without text.
func HeatGrid(title string, rows, cols []string, cells [][]HeatCell, w, h int) *image.RGBA {
	img := chartCanvas(w, h)
	chartText(img, chartPadding, chartPadding/2, chartClip(title, w-2*chartPadding), chartInk)
	if len(rows) == 0 || len(cols) == 0 {
		return img
	}
	labelW := 0
	for _, r := range rows {
		labelW = max(labelW, chartTextWidth(r))
	}
	left := chartPadding + labelW + chartPadding
	top := chartPadding/2 + chartLineH + chartPadding/2 + chartLineH
	cw := (w - chartPadding - left) / len(cols)
	ch := (h - chartPadding - top) / len(rows)
	if cw < 4 || ch < 4 {
		return img
	}
	for c, l := range cols {
		t := chartClip(l, cw-4)
		chartText(img, left+c*cw+(cw-chartTextWidth(t))/2, top-chartLineH, t, chartInk)
	}
	for r, l := range rows {
		y := top + r*ch
		chartText(img, chartPadding+labelW-chartTextWidth(l), y+(ch-chartAscent)/2, l, chartInk)
		for c := range cols {
			cell := HeatCell{Fill: HeatNone}
			if r < len(cells) && c < len(cells[r]) && cells[r][c].Fill != nil {
				cell = cells[r][c]
			}
			x := left + c*cw
			chartFill(img, image.Rect(x+1, y+1, x+cw-1, y+ch-1), cell.Fill)
			t := chartClip(cell.Text, cw-6)
			chartText(img, x+(cw-chartTextWidth(t))/2, y+(ch-chartAscent)/2, t, chartInk)
		}
	}
	return img
}

// chartPercent writes a share in [0, 1] as a whole percentage.
func chartPercent(share float64) string { return fmt.Sprintf("%.0f%%", 100*share) }
