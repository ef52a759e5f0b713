package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
)

// Interval is one row of an interval chart: a value with its interval. A NaN
// value draws no mark; its row says Undefined instead.
type Interval struct {
	Label     string
	Value     float64
	Lo, Hi    float64
	Undefined string // why there is no value, written in the row
}

// Mark is a vertical reference line across the plot, named at its top.
type Mark struct {
	At    float64
	Label string
}

// Intervals is a horizontal interval chart: one row per interval, its label on the
// left and its value on the right in plain text, the interval as a bar and the
// value as a dot, on an axis from Min to Max (extended to every interval) with
// Marks as reference lines. It is the chart of estimates with their confidence
// intervals (Krippendorff's alpha with its bootstrap interval).
type Intervals struct {
	Title    string
	Rows     []Interval
	Min, Max float64
	Marks    []Mark
	Color    color.NRGBA
}

// Draw lays the chart out in a w×h box.
func (c Intervals) Draw(f *Font, p Palette, w, h float64) Drawing {
	d := Drawing{W: w, H: h, Font: f, Background: p.Background}
	top := header(&d, f, p, c.Title, nil, false)
	lh := lineHeight(textSize)
	asc := f.Ascent(textSize)
	lo, hi := c.Min, c.Max
	for _, r := range c.Rows {
		if !math.IsNaN(r.Value) {
			lo, hi = math.Min(lo, math.Min(r.Lo, r.Value)), math.Max(hi, math.Max(r.Hi, r.Value))
		}
	}
	if hi <= lo {
		hi = lo + 1
	}
	labelW, valueW := 0.0, f.Width("0.000 [0.000, 0.000]", textSize)
	for _, r := range c.Rows {
		labelW = math.Max(labelW, f.Width(r.Label, textSize))
	}
	labelW = math.Min(labelW, w/3)
	left, right := pad+labelW+8, w-pad-valueW-8
	top += lh // the marks' names
	bottom := h - pad - lh
	if len(c.Rows) == 0 || right-left < 40 || bottom-top < lh {
		d.text(Text{X: w / 2, Y: (top+bottom)/2 + asc/2, S: "no data", Size: textSize, Fill: p.Muted, Anchor: Middle})
		return d
	}
	x := func(v float64) float64 { return left + (right-left)*(v-lo)/(hi-lo) }
	// The axis: ticks at lo, hi and 0 when inside.
	d.rect(left, bottom, right-left, 1, p.Ink)
	for _, v := range []float64{lo, 0, hi} {
		if v < lo || v > hi {
			continue
		}
		d.rect(x(v), bottom, 1, 4, p.Ink)
		d.text(Text{X: x(v), Y: bottom + 4 + asc, S: Value(v), Size: textSize, Fill: p.Muted, Anchor: Middle})
	}
	marks := slices.SortedFunc(slices.Values(c.Marks), func(a, b Mark) int { return cmp.Compare(a.At, b.At) })
	for i, m := range marks {
		if m.At < lo || m.At > hi {
			continue
		}
		d.rect(x(m.At), top, 1, bottom-top, p.Grid)
		// Close marks (0.667 and 0.800) name themselves away from each other: the
		// lowest to the left of its line, the others to the right.
		t := Text{X: x(m.At) + 3, Y: top - 3, S: m.Label, Size: textSize, Fill: p.Muted}
		if i == 0 && len(marks) > 1 {
			t.X, t.Anchor = x(m.At)-3, End
		}
		d.text(t)
	}
	rowH := math.Min((bottom-top)/float64(len(c.Rows)), 2*lh)
	for i, r := range c.Rows {
		cy := top + rowH*float64(i) + rowH/2
		label, ok := fit(f, r.Label, textSize, labelW)
		t := Text{X: left - 8, Y: cy + asc/2 - 1, S: label, Size: textSize, Fill: p.Ink, Anchor: End}
		if !ok {
			t.Full = r.Label
		}
		d.text(t)
		hint := r.Label + ": "
		if math.IsNaN(r.Value) {
			why := "undefined"
			if r.Undefined != "" {
				why = "undefined: " + r.Undefined
			}
			s, _ := fit(f, why, textSize, right-left)
			d.text(Text{X: left + 4, Y: cy + asc/2 - 1, S: s, Size: textSize, Fill: p.Muted})
			hint += why
		} else {
			d.rect(x(r.Lo), cy-1.5, math.Max(1, x(r.Hi)-x(r.Lo)), 3, c.Color)
			d.rect(x(r.Value)-3.5, cy-3.5, 7, 7, c.Color)
			s := fmt.Sprintf("%.3f [%.3f, %.3f]", r.Value, r.Lo, r.Hi)
			d.text(Text{X: right + 8, Y: cy + asc/2 - 1, S: s, Size: textSize, Fill: p.Ink})
			hint += s
		}
		d.Hints = append(d.Hints, Hint{X: 0, Y: cy - rowH/2, W: w, H: rowH, Text: hint})
	}
	return d
}
