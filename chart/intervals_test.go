package chart

import (
	"math"
	"strings"
	"testing"
)

// TestIntervalsDrawsValuesIntervalsAndMarks: each row's label, its value with the
// interval written out, a bar from its low to its high end, the thresholds named;
// an undefined value says why instead of drawing a mark.
func TestIntervalsDrawsValuesIntervalsAndMarks(t *testing.T) {
	c := Intervals{Title: "alpha", Min: 0, Max: 1, Marks: []Mark{{0.8, "reliable"}, {0.667, "tentative"}},
		Rows: []Interval{{Label: "Round 1", Value: 0.5, Lo: 0.25, Hi: 0.75}, {Label: "Round 3", Value: math.NaN(), Undefined: "no pairable unit"}}}
	d := c.Draw(GoFont(), Paper, 400, 170)
	var texts []string
	for _, x := range d.Texts {
		texts = append(texts, x.S)
	}
	all := strings.Join(texts, "|")
	for _, want := range []string{"Round 1", "0.500 [0.250, 0.750]", "Round 3", "undefined: no pairable unit", "reliable", "tentative"} {
		if !strings.Contains(all, want) {
			t.Errorf("the chart does not write %q: %s", want, all)
		}
	}
	// The interval's bar spans a quarter to three quarters of the axis.
	var bar *Rect
	for i, r := range d.Rects {
		if r.H == 3 && r.Fill == c.Color {
			bar = &d.Rects[i]
		}
	}
	if bar == nil {
		t.Fatal("no interval bar")
	}
	var axis Rect
	for _, r := range d.Rects {
		if r.H == 1 && r.W > axis.W {
			axis = r
		}
	}
	if got := (bar.X - axis.X) / axis.W; math.Abs(got-0.25) > 0.01 {
		t.Errorf("the interval starts at %.2f of the axis, want 0.25", got)
	}
	if got := bar.W / axis.W; math.Abs(got-0.5) > 0.01 {
		t.Errorf("the interval spans %.2f of the axis, want 0.5", got)
	}
}
