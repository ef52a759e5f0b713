package ui

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"
)

// assertChart compares img with testdata/name; -update rewrites it.
func assertChart(t *testing.T, name string, img image.Image) {
	t.Helper()
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test.AssertImageMatches(t, name, img)
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// column finds, at height y, the x range of the pixels of colour c.
func column(img image.Image, y int, c color.Color) (x0, x1 int) {
	x0, x1 = -1, -1
	for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
		if sameColor(img.At(x, y), c) {
			if x0 < 0 {
				x0 = x
			}
			x1 = x
		}
	}
	return x0, x1
}

// height counts the pixels of colour c in column x.
func height(img image.Image, x int, c color.Color) int {
	n := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		if sameColor(img.At(x, y), c) {
			n++
		}
	}
	return n
}

func TestBarChart(t *testing.T) {
	a, b := ChartPalette(0), ChartPalette(1)
	tests := []struct {
		name   string
		labels []string
		series []Series
		w, h   int
	}{
		{"charts_bar_stacked.png", []string{"draft", "round1", "round2", "round3", "accepted", "returned", "withdrawn"},
			[]Series{{"hop_qa", []float64{4, 10, 6, 3, 20, 2, 1}, a}, {"step_graph", []float64{1, 2, 0, 1, 5, 0, 0}, b}}, 420, 220},
		{"charts_bar_days.png", []string{"03-01", "03-02", "03-03", "03-04", "03-05", "03-06",
			"03-07", "03-08", "03-09", "03-10", "03-11", "03-12"},
			[]Series{{"all", []float64{3, 8, 0, 12, 7, 7, 1, 0, 4, 9, 13, 2}, a}}, 420, 220},
		{"charts_bar_empty.png", nil, nil, 300, 160},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := BarChart("Samples", tt.labels, tt.series, tt.w, tt.h)
			if got := img.Bounds().Size(); got != image.Pt(tt.w, tt.h) {
				t.Fatalf("size %v", got)
			}
			assertChart(t, tt.name, img)
		})
	}
}

// Bar heights are proportional to the values and stack in series order.
func TestBarChartProportions(t *testing.T) {
	a, b := ChartPalette(0), ChartPalette(1)
	img := BarChart("t", []string{"x", "y"}, []Series{{"a", []float64{10, 20}, a}, {"b", []float64{10, 0}, b}}, 300, 300)
	// The bars of x and y: find their columns on a row inside both a-segments.
	xs := map[string]int{}
	for y := 0; y < 300; y++ {
		if x0, x1 := column(img, y, a); x0 >= 0 && x1-x0 > 100 { // a row crossing both bars
			for x := x0; x <= x1; x++ {
				if sameColor(img.At(x, y), a) && xs["x"] == 0 {
					xs["x"] = x + 2
				}
			}
			xs["y"] = x1 - 2
			break
		}
	}
	if xs["x"] == 0 || xs["y"] == 0 {
		t.Fatal("no row crosses both bars")
	}
	ax, ay, bx := height(img, xs["x"], a), height(img, xs["y"], a), height(img, xs["x"], b)
	if ax == 0 || ay != 2*ax || bx != ax {
		t.Errorf("heights: a(x)=%d a(y)=%d b(x)=%d; want a(y) = 2·a(x) = 2·b(x)", ax, ay, bx)
	}
	// b stacks on top of a: its lowest pixel is just above a's highest.
	topA, bottomB := -1, -1
	for y := 0; y < 300; y++ {
		if sameColor(img.At(xs["x"], y), a) && topA < 0 {
			topA = y
		}
		if sameColor(img.At(xs["x"], y), b) {
			bottomB = y
		}
	}
	if bottomB != topA-1 {
		t.Errorf("b ends at y=%d, a starts at y=%d", bottomB, topA)
	}
}

func TestChartNiceMax(t *testing.T) {
	for _, tt := range []struct {
		in       float64
		integral bool
		want     float64
	}{
		{0, false, 1}, {3, false, 4}, {7, false, 8}, {9, false, 10}, {17, false, 20}, {41, false, 60}, {11, false, 12},
		{750, false, 800}, {0.3, false, 0.4}, {5, false, 6},
		{5, true, 8}, {1, true, 4}, {0, true, 4}, {3, true, 4}, {11, true, 12}, {41, true, 60},
	} {
		if got := chartNiceMax(tt.in, tt.integral); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("chartNiceMax(%v, %v) = %v, want %v", tt.in, tt.integral, got, tt.want)
		}
	}
}

func TestHeatGrid(t *testing.T) {
	cells := [][]HeatCell{
		{{"750/750", HeatMet}, {"400/750", HeatPartial}},
		{{"12/750", HeatFar}, {"0/750", HeatFar}},
		{{"3", HeatNone}}, // the second cell is missing
	}
	img := HeatGrid("Accepted of target, hop x view", []string{"1-hop", "2-hop", "3-hop"}, []string{"ego", "exo"}, cells, 360, 200)
	assertChart(t, "charts_heat.png", img)
	// Every cell's centre has its level's colour, the missing one HeatNone.
	bounds := map[color.NRGBA]int{}
	for y := 0; y < 200; y++ {
		for x := 0; x < 360; x++ {
			for _, c := range []color.NRGBA{HeatMet, HeatPartial, HeatFar, HeatNone} {
				if sameColor(img.At(x, y), c) {
					bounds[c]++
				}
			}
		}
	}
	if bounds[HeatMet] == 0 || bounds[HeatPartial] == 0 || bounds[HeatNone] == 0 || bounds[HeatFar] < bounds[HeatMet]*3/2 {
		t.Errorf("cell colours: %v", bounds)
	}
}
