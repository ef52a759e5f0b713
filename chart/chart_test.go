package chart

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"
)

func TestNiceMax(t *testing.T) {
	for _, tt := range []struct {
		in       float64
		integral bool
		want     float64
	}{
		{0, false, 1}, {3, false, 4}, {7, false, 8}, {9, false, 10}, {17, false, 20}, {41, false, 60}, {11, false, 12},
		{750, false, 800}, {0.3, false, 0.4}, {5, false, 6},
		{5, true, 8}, {1, true, 4}, {0, true, 4}, {3, true, 4}, {11, true, 12}, {41, true, 60},
	} {
		if got := NiceMax(tt.in, tt.integral); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("NiceMax(%v, %v) = %v, want %v", tt.in, tt.integral, got, tt.want)
		}
	}
}

// Stacked bars are proportional to their values and stack in series order; side by
// side, each value has its own bar.
func TestBarsProportions(t *testing.T) {
	a, b := SeriesColor(0), SeriesColor(1)
	bars := func(d Drawing, c any) []Rect {
		var out []Rect
		for _, r := range d.Rects {
			if r.Fill == c && r.W > 2 && r.X > 20 { // not a legend swatch
				out = append(out, r)
			}
		}
		return out
	}
	series := []Series{{"a", []float64{10, 20}, a}, {"b", []float64{10, 0}, b}}
	d := Bars{Labels: []string{"x", "y"}, Series: series, Stacked: true}.Draw(GoFont(), Paper, 300, 300)
	as, bs := bars(d, a), bars(d, b)
	if len(as) != 2 || len(bs) != 1 {
		t.Fatalf("%d bars of a, %d of b", len(as), len(bs))
	}
	if math.Abs(as[1].H-2*as[0].H) > 1e-9 || math.Abs(bs[0].H-as[0].H) > 1e-9 {
		t.Errorf("heights a(x)=%v a(y)=%v b(x)=%v; want a(y) = 2·a(x) = 2·b(x)", as[0].H, as[1].H, bs[0].H)
	}
	if math.Abs(bs[0].Y+bs[0].H-as[0].Y) > 1e-9 || bs[0].X != as[0].X {
		t.Errorf("b (%+v) does not stand on a (%+v)", bs[0], as[0])
	}
	d = Bars{Labels: []string{"x", "y"}, Series: series, Floor: 100}.Draw(GoFont(), Paper, 300, 300)
	as, bs = bars(d, a), bars(d, b)
	if len(as) != 2 || len(bs) != 1 || as[0].X >= bs[0].X || math.Abs(as[0].H-bs[0].H) > 1e-9 {
		t.Errorf("side by side: a %+v, b %+v", as, bs)
	}
}

// Labels are written level when they fit their slots, slanted when they do not,
// thinned when even slanted they crowd, and shortened (with the full label kept)
// only when a slanted label would take too much of the height.
func TestBarLabels(t *testing.T) {
	states := []string{"draft", "round1", "round2", "round3", "accepted", "returned", "withdrawn"}
	days := make([]string, 60)
	for i := range days {
		days[i] = fmt.Sprintf("03-%02d", i+1)
	}
	long := []string{"left_of+behind+near+far+above", "in_front_of+between", "below"}
	for _, tt := range []struct {
		name             string
		labels           []string
		w, h             float64
		angle            float64
		written, shorter int
	}{
		{"wide", states, 900, 210, 0, 7, 0},
		{"default size", states, 400, 210, -45, 7, 0},
		{"many days", days, 400, 210, -45, 15, 0},
		{"long sets", long, 400, 150, -45, 3, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vals := make([]float64, len(tt.labels))
			for i := range vals {
				vals[i] = float64(i + 1)
			}
			d := Bars{Labels: tt.labels, Series: []Series{{"n", vals, SeriesColor(0)}}, Stacked: true}.Draw(GoFont(), Paper, tt.w, tt.h)
			written, shorter := 0, 0
			for _, x := range d.Texts {
				in := false
				for _, l := range tt.labels {
					in = in || x.S == l || x.Full == l
				}
				if !in {
					continue
				}
				written++
				if x.Angle != tt.angle {
					t.Errorf("%q at %v°, want %v°", x.S, x.Angle, tt.angle)
				}
				if x.Full != "" {
					shorter++
					if !strings.HasSuffix(x.S, "…") || len(x.S) >= len(x.Full) {
						t.Errorf("%q shortened to %q", x.Full, x.S)
					}
				}
				if x.Angle != 0 && (x.X-GoFont().Width(x.S, x.Size)*sin45 < 0 || x.Y > tt.h) {
					t.Errorf("%q runs out of the chart from (%v, %v)", x.S, x.X, x.Y)
				}
			}
			if written != tt.written || shorter != tt.shorter {
				t.Errorf("%d labels written, %d shortened; want %d and %d", written, shorter, tt.written, tt.shorter)
			}
		})
	}
}

// The SVG is well-formed XML, escapes text, keeps a shortened label's full text as a
// title, and writes the same texts as the drawing.
func TestWriteSVG(t *testing.T) {
	d := Bars{Title: `Errors <by> "set" & kind`, Labels: []string{"a very long category set name, longer than the chart", "b"},
		Series: []Series{{"n", []float64{1, 2}, SeriesColor(0)}}, Stacked: true}.Draw(GoFont(), Paper, 200, 120)
	var b bytes.Buffer
	if err := d.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Texts []struct {
			Title string `xml:"title"`
			Text  string `xml:",chardata"`
		} `xml:"text"`
		Rects []struct{} `xml:"rect"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	n := 0
	for _, x := range d.Texts {
		if x.S != "" {
			n++
		}
	}
	if len(doc.Texts) != n || len(doc.Rects) != len(d.Rects)+1 {
		t.Errorf("%d texts and %d rects, want %d and %d", len(doc.Texts), len(doc.Rects), n, len(d.Rects)+1)
	}
	var titled bool
	for _, x := range doc.Texts {
		titled = titled || x.Title == "a very long category set name, longer than the chart"
	}
	if doc.Texts[0].Text != `Errors <by> "set" & kind` && doc.Texts[0].Title != `Errors <by> "set" & kind` {
		t.Errorf("title text %+v", doc.Texts[0])
	}
	if !titled {
		t.Errorf("no full label kept: %+v", doc.Texts)
	}
}

// Image renders at the pixel size asked for, on the background.
func TestImageScale(t *testing.T) {
	d := Heat{Title: "t", Rows: []string{"1-hop"}, Cols: []string{"ego"}, Cells: [][]Cell{{{Text: "3/4"}}}}.Draw(GoFont(), Paper, 100, 60)
	for _, s := range []int{1, 2, 3} {
		img := d.Image(100*s, 60*s)
		if img.Bounds().Dx() != 100*s || img.Bounds().Dy() != 60*s {
			t.Errorf("scale %d: %v", s, img.Bounds())
		}
		if img.RGBAAt(0, 0) != (color.RGBA{0xff, 0xff, 0xff, 0xff}) {
			t.Errorf("scale %d: corner %v", s, img.RGBAAt(0, 0))
		}
	}
}

func ExampleBars() {
	d := Bars{Title: "Samples", Labels: []string{"draft", "accepted"},
		Series: []Series{{"hop_qa", []float64{4, 20}, SeriesColor(0)}}, Stacked: true}.Draw(GoFont(), Paper, 300, 160)
	var texts []string
	for _, t := range d.Texts {
		texts = append(texts, t.S)
	}
	fmt.Println(strings.Join(texts, " | "))
	fmt.Println(d.HintAt(250, 120))
	// Output:
	// Samples | 0 | 5 | 10 | 15 | 20 | 4 | draft | 20 | accepted
	// accepted: hop_qa 20
}
