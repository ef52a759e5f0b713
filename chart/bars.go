package chart

import (
	"fmt"
	"image/color"
	"math"
	"strings"
)

// Series is one named set of values, one per label of a bar chart, drawn in Color.
type Series struct {
	Name   string
	Values []float64
	Color  color.NRGBA
}

// Bars is a bar chart: per label, the series stacked bottom-up in their order
// (Stacked, for counts) or side by side (for figures), the total or value above each
// bar when it fits, a legend when Legend, and a y axis from 0 to at least Floor with
// four grid lines. Negative values count as 0; NaN draws no bar. With no labels or
// nothing above 0 it says "no data".
type Bars struct {
	Title   string
	Labels  []string
	Series  []Series
	Stacked bool
	Legend  bool
	Floor   float64
}

const sin45 = 0.7071067811865476

// Draw lays the chart out in a w×h box.
func (b Bars) Draw(f *Font, p Palette, w, h float64) Drawing {
	d := Drawing{W: w, H: h, Font: f, Background: p.Background}
	top := header(&d, f, p, b.Title, b.Series, b.Legend)
	n := len(b.Labels)
	heights := make([]float64, n) // the tallest bar (stack) of each label
	integral, some := true, false
	for i := range n {
		for _, s := range b.Series {
			v := at(s.Values, i)
			if math.IsNaN(v) || v <= 0 {
				continue
			}
			some = true
			integral = integral && v == math.Trunc(v)
			if b.Stacked {
				heights[i] += v
			} else {
				heights[i] = max(heights[i], v)
			}
		}
	}
	maxH := 0.0
	for _, x := range heights {
		maxH = max(maxH, x)
	}
	yMax := NiceMax(maxH, integral)
	if b.Floor > 0 && maxH <= b.Floor {
		yMax = b.Floor
	}
	lh := lineHeight(textSize)
	top += lh // room for the values above the tallest bar
	axisW := 0.0
	for i := 0; i <= 4; i++ {
		axisW = max(axisW, f.Width(Value(yMax*float64(i)/4), textSize))
	}
	left, right := pad+axisW+5, w-pad
	lab := layoutLabels(f, b.Labels, left, right, h)
	left = lab.left
	bottom := h - pad/2 - lab.height
	if bottom-top < 10 || right-left < 10 {
		return d
	}
	asc := f.Ascent(textSize)
	for i := 0; i <= 4; i++ {
		y := math.Round(bottom - (bottom-top)*float64(i)/4)
		d.rect(left, y, right-left, 1, p.Grid)
		d.text(Text{X: left - 5, Y: y + asc/2 - 1, S: Value(yMax * float64(i) / 4), Size: textSize, Fill: p.Muted, Anchor: End})
	}
	d.rect(left, top, 1, bottom-top+1, p.Ink)
	d.rect(left, bottom, right-left, 1, p.Ink)
	if n == 0 || !some {
		d.text(Text{X: (left + right) / 2, Y: (top+bottom)/2 + asc/2, S: "no data", Size: textSize, Fill: p.Muted, Anchor: Middle})
		return d
	}
	slot := (right - left) / float64(n)
	scale := (bottom - top) / yMax
	barW := slot * 0.7
	if !b.Stacked && len(b.Series) > 0 {
		barW = slot * 0.8 / float64(len(b.Series))
	}
	for i, l := range b.Labels {
		x0 := left + slot*float64(i) + (slot-barW)/2
		if !b.Stacked {
			x0 = left + slot*float64(i) + (slot-barW*float64(len(b.Series)))/2
		}
		y := bottom
		var hint []string
		for j, s := range b.Series {
			v := at(s.Values, i)
			if math.IsNaN(v) {
				continue
			}
			hint = append(hint, fmt.Sprintf("%s %s", s.Name, Value(v)))
			v = max(0, v)
			if b.Stacked {
				d.rect(x0, y-v*scale, barW, v*scale, s.Color)
				y -= v * scale
				continue
			}
			x := x0 + barW*float64(j)
			gap := min(1, barW/4)
			d.rect(x+gap, bottom-v*scale, barW-2*gap, v*scale, s.Color)
			if t := Value(math.Round(v)); f.Width(t, textSize) <= barW+2 {
				d.text(Text{X: x + barW/2, Y: bottom - v*scale - 3, S: t, Size: textSize, Fill: p.Ink, Anchor: Middle})
			}
		}
		if b.Stacked && heights[i] > 0 {
			if t := Value(heights[i]); f.Width(t, textSize) <= slot {
				d.text(Text{X: x0 + barW/2, Y: y - 3, S: t, Size: textSize, Fill: p.Ink, Anchor: Middle})
			}
		}
		cx := left + slot*float64(i) + slot/2
		lab.draw(&d, i, cx, bottom, p)
		if len(b.Series) > 0 {
			d.Hints = append(d.Hints, Hint{X: left + slot*float64(i), Y: top, W: slot, H: h - top,
				Text: l + ": " + strings.Join(hint, ", ")})
		}
	}
	return d
}

func at(xs []float64, i int) float64 {
	if i < len(xs) {
		return xs[i]
	}
	return math.NaN()
}

// header writes the title and, with legend, the series' names (wrapped to the
// width), and returns the y where the plot may start.
func header(d *Drawing, f *Font, p Palette, title string, series []Series, legend bool) float64 {
	y := pad / 2
	if title != "" {
		s, ok := fit(f, title, titleSize, d.W-2*pad)
		t := Text{X: pad, Y: y + f.Ascent(titleSize), S: s, Size: titleSize, Fill: p.Ink}
		if !ok {
			t.Full = title
			d.Hints = append(d.Hints, Hint{X: 0, Y: 0, W: d.W, H: lineHeight(titleSize), Text: title})
		}
		d.text(t)
		y += lineHeight(titleSize) + pad/2
	}
	if !legend || len(series) == 0 {
		return y
	}
	lh := lineHeight(textSize)
	asc := f.Ascent(textSize)
	x := pad
	for _, s := range series {
		entry := 13 + f.Width(s.Name, textSize)
		if x+entry > d.W-pad && x > pad {
			x, y = pad, y+lh
		}
		d.rect(x, y+(lh-9)/2, 9, 9, s.Color)
		d.text(Text{X: x + 13, Y: y + (lh+asc)/2 - 1, S: s.Name, Size: textSize, Fill: p.Ink})
		x += entry + 10
	}
	return y + lh + pad/2
}

// labels is how the category labels under a plot are written.
type labels struct {
	texts  []string // as written; "" for a label left out
	full   []string
	angle  float64
	height float64 // below the axis
	left   float64 // the plot's left edge, moved right for slanted labels
	size   float64
	asc    float64
}

// layoutLabels places labels under slots between left and right: horizontally when
// every label fits its slot, else at 45° (every k-th when even that crowds), shortened
// with "…" only when a slanted label would take more than 40% of the height h.
func layoutLabels(f *Font, ls []string, left, right, h float64) labels {
	lab := labels{texts: make([]string, len(ls)), full: ls, left: left, size: textSize, asc: f.Ascent(textSize)}
	lh := lineHeight(textSize)
	lab.height = lh + 3
	if len(ls) == 0 {
		return lab
	}
	widest := 0.0
	for _, l := range ls {
		widest = max(widest, f.Width(l, textSize))
	}
	slot := (right - left) / float64(len(ls))
	if widest+4 <= slot {
		copy(lab.texts, ls)
		return lab
	}
	lab.angle = -45
	limit := (0.4*h - textSize*sin45) / sin45 // the longest slanted label
	width := min(widest, limit)
	// The first label runs down-left from its slot's middle: keep it inside the box.
	for range 2 {
		slot = (right - lab.left) / float64(len(ls))
		lab.left = max(left, pad+width*sin45-slot/2+textSize*0.4)
	}
	slot = (right - lab.left) / float64(len(ls))
	every := max(1, int(math.Ceil(textSize*1.2/(slot*sin45))))
	for i, l := range ls {
		if i%every != 0 {
			continue
		}
		lab.texts[i], _ = fit(f, l, textSize, limit)
	}
	lab.height = width*sin45 + textSize*sin45 + 6
	return lab
}

// draw writes label i under the slot whose middle is cx.
func (lab labels) draw(d *Drawing, i int, cx, bottom float64, p Palette) {
	s := lab.texts[i]
	if s == "" {
		return
	}
	t := Text{X: cx, Y: bottom + 3 + lab.asc, S: s, Size: lab.size, Fill: p.Ink, Anchor: Middle}
	if lab.angle != 0 {
		// The text ends at the tick, its top-right corner just under the axis.
		t = Text{X: cx + lab.asc*0.5, Y: bottom + 4 + lab.asc*0.5, S: s, Size: lab.size, Fill: p.Ink, Anchor: End, Angle: lab.angle}
	}
	if s != lab.full[i] {
		t.Full = lab.full[i]
	}
	d.text(t)
}
