package ui

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/benchwright/benchwright/chart"
	"github.com/benchwright/benchwright/verify"
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

// variantTheme is the default theme in one variant, whatever the settings say.
type variantTheme struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// funnelChart is the dashboard's funnel chart of the demo's shape.
func funnelChart(u *App) *chartView {
	labels := make([]string, len(verify.States))
	for i, s := range verify.States {
		labels[i] = string(s)
	}
	return u.barChart("Samples per state, by kind", labels, []Series{
		{Name: "hop_qa", Values: []float64{4, 10, 6, 3, 20, 2, 1}, Color: ChartPalette(0)},
		{Name: "step_graph", Values: []float64{1, 2, 0, 1, 5, 0, 0}, Color: ChartPalette(1)},
	}, chartW, chartH)
}

// A chart follows the theme: light on the light theme, dark on the dark one, and is
// drawn again when the theme changes; on a 2× screen it is drawn at 2× its size.
func TestChartThemes(t *testing.T) {
	a := test.NewTempApp(t)
	light, dark := variantTheme{theme.DefaultTheme(), theme.VariantLight}, variantTheme{theme.DefaultTheme(), theme.VariantDark}
	c := funnelChart(&App{})
	w := test.NewWindow(c)
	defer w.Close()
	w.SetPadded(false)
	w.Resize(fyne.NewSize(chartW, chartH))
	for _, tt := range []struct {
		name  string
		th    fyne.Theme
		scale float32
	}{
		{"charts_light.png", light, 1}, {"charts_dark.png", dark, 1}, {"charts_light_2x.png", light, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a.Settings().SetTheme(tt.th)
			w.Canvas().(test.WindowlessCanvas).SetScale(tt.scale)
			img := w.Canvas().Capture()
			if got, want := img.Bounds().Size(), image.Pt(int(chartW*tt.scale), int(chartH*tt.scale)); got != want {
				t.Errorf("captured %v, want %v", got, want)
			}
			assertChart(t, tt.name, img)
			bg := nrgba(tt.th.Color(theme.ColorNameBackground, 0))
			if got := nrgba(img.At(2, img.Bounds().Dy()-2)); got != bg {
				t.Errorf("background %v, want the theme's %v", got, bg)
			}
		})
	}
}

// At the default size the funnel writes every state in full.
func TestDashboardFunnelLabelsFit(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "lead")
	var c *chartView
	for _, o := range objectsOf(v) {
		if x, ok := o.(*chartView); ok {
			c = x
		}
	}
	if c == nil {
		t.Fatal("the Funnel tab has no chart")
	}
	d := c.drawing(chart.Paper, c.Size())
	var texts []string
	for _, x := range d.Texts {
		if x.Full != "" {
			t.Errorf("%q is shortened to %q", x.Full, x.S)
		}
		texts = append(texts, x.S)
	}
	for _, s := range verify.States {
		if !slices.Contains(texts, string(s)) {
			t.Errorf("the funnel does not write %q in full; it writes %q", s, texts)
		}
	}
}

// A chart saves as SVG (well-formed, its labels as text) or as a PNG at three times
// its size on white, after the file's extension.
func TestWriteChart(t *testing.T) {
	test.NewTempApp(t)
	d := funnelChart(&App{}).drawing(chart.Paper, fyne.NewSize(chartW, chartH))
	var svg bytes.Buffer
	if err := writeChart(&svg, ".SVG", d); err != nil {
		t.Fatal(err)
	}
	var texts []string
	dec := xml.NewDecoder(&svg)
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch x := tok.(type) {
		case xml.StartElement:
			inText = x.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(x))
			}
		case xml.EndElement:
			inText = false
		}
	}
	for _, want := range []string{"Samples per state, by kind", "hop_qa", "step_graph", "draft", "accepted", "withdrawn", "25"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the SVG has no text %q: %q", want, texts)
		}
	}

	var b bytes.Buffer
	if err := writeChart(&b, ".png", d); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Size(), image.Pt(3*chartW, 3*chartH); got != want {
		t.Errorf("PNG of %v, want %v", got, want)
	}
	if got := nrgba(img.At(1, 1)); got != chart.Paper.Background {
		t.Errorf("PNG background %v, want white", got)
	}
	if err := writeChart(io.Discard, ".jpg", d); err == nil || !strings.Contains(err.Error(), ".png or .svg") {
		t.Errorf("a .jpg: %v", err)
	}
}

func TestChartFileName(t *testing.T) {
	for in, want := range map[string]string{
		"Samples per state, by kind":          "samples-per-state-by-kind",
		"mcq_acc by hop (%)":                  "mcq-acc-by-hop",
		"Rejected reviews, % by category set": "rejected-reviews-by-category-set",
		"…":                                   "chart",
	} {
		if got := chartFileName(in); got != want {
			t.Errorf("chartFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
