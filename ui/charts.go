package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/chart"
)

// The screens' charts are laid out once by package chart and shown by chartView,
// which draws them in the theme's colours at the canvas's pixel scale, again on
// every resize and theme change, and saves them for a paper.

// Series is one named set of values of a bar chart (chart.Series).
type Series = chart.Series

// ChartPalette is the colour of the i-th series of a chart (repeating after ten).
func ChartPalette(i int) color.NRGBA { return chart.SeriesColor(i) }

// HeatMet, HeatPartial and HeatFar colour a balance cell by its shortfall;
// HeatNone marks a cell without a target (drawn in the theme's empty colour).
var (
	HeatMet     = color.NRGBA{0x66, 0xbb, 0x6a, 0xff}
	HeatPartial = color.NRGBA{0xff, 0xca, 0x28, 0xff}
	HeatFar     = color.NRGBA{0xef, 0x53, 0x50, 0xff}
	HeatNone    = color.NRGBA{0xee, 0xee, 0xee, 0xff}
)

// HeatCell is one cell of a heat grid: its text and fill.
type HeatCell struct {
	Text string
	Fill color.Color
}

// chartPrintScale is how many pixels a saved PNG has per logical pixel (3×: a
// 400-pixel chart is 1200 pixels wide, 300 dpi at 4 inches).
const chartPrintScale = 3

// chartFont is the theme's text font, which the charts are measured and drawn with.
var chartFont = sync.OnceValue(func() *chart.Font {
	f, err := chart.ParseFont("Noto Sans", theme.DefaultTextFont().Content())
	if err != nil {
		return chart.GoFont()
	}
	return f
})

// chartLayout lays a chart out in a w×h box in palette p.
type chartLayout func(f *chart.Font, p chart.Palette, w, h float64) chart.Drawing

// barChart is a chart of counts: one bar per label, the series stacked, a legend
// when there is more than one series; at least w×h.
func (u *App) barChart(title string, labels []string, series []Series, w, h float32) *chartView {
	b := chart.Bars{Title: title, Labels: labels, Series: series, Stacked: true, Legend: len(series) > 1}
	return u.newChartView(title, w, h, b.Draw)
}

// groupedBarChart is a chart of percentages: per label a cluster of bars, one per
// series, a legend, and a y axis to 100 (further when a value exceeds 100). A NaN
// value draws no bar (the group has no such figure for that series).
func (u *App) groupedBarChart(title string, labels []string, series []Series, w, h float32) *chartView {
	b := chart.Bars{Title: title, Labels: labels, Series: series, Legend: true, Floor: 100}
	return u.newChartView(title, w, h, b.Draw)
}

// intervalChart is a chart of estimates with their intervals, one row each,
// readable left to right: label, the interval with its value, the figures.
func (u *App) intervalChart(title string, rows []chart.Interval, marks []chart.Mark, lo, hi float64, w, h float32) *chartView {
	c := chart.Intervals{Title: title, Rows: rows, Marks: marks, Min: lo, Max: hi, Color: ChartPalette(0)}
	return u.newChartView(title, w, h, c.Draw)
}

// heatGrid is a grid of coloured cells with the column labels above and the row
// labels to the left; cells[r][c] is the cell of row r and column c.
func (u *App) heatGrid(title string, rows, cols []string, cells [][]HeatCell, w, h float32) *chartView {
	g := chart.Heat{Title: title, Rows: rows, Cols: cols, Cells: make([][]chart.Cell, len(cells))}
	for r, row := range cells {
		for _, c := range row {
			fill := c.Fill
			if fill == HeatNone {
				fill = nil // the theme's empty colour
			}
			g.Cells[r] = append(g.Cells[r], chart.Cell{Text: c.Text, Fill: fill})
		}
	}
	return u.newChartView(title, w, h, g.Draw)
}

// chartView shows a chart laid out for its size in the theme's colours, rendered
// at the canvas's pixel size; hovering shows what is under the pointer (a bar's
// values, a shortened label in full), and the save button or the context menu saves
// it as PNG or SVG.
type chartView struct {
	widget.BaseWidget
	u      *App
	title  string
	min    fyne.Size
	layout chartLayout
	onCell func(row, col int) // a tap on a heat-grid cell, or nil (chart_cells.go)

	mu   sync.Mutex
	last chart.Drawing // as last drawn on screen, for hints
	hint string
	at   fyne.Position
	r    *chartRenderer
}

var (
	_ desktop.Hoverable      = (*chartView)(nil)
	_ fyne.SecondaryTappable = (*chartView)(nil)
)

func (u *App) newChartView(title string, w, h float32, layout chartLayout) *chartView {
	c := &chartView{u: u, title: title, min: fyne.NewSize(w, h), layout: layout}
	c.ExtendBaseWidget(c)
	return c
}

// palette is the chart palette of the widget's theme: its background and
// foreground, and shades between them for the muted text, the grid and empty cells.
func (c *chartView) palette() chart.Palette {
	th := c.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	bg := nrgba(th.Color(theme.ColorNameBackground, v))
	fg := nrgba(th.Color(theme.ColorNameForeground, v))
	return chart.Palette{Background: bg, Ink: fg, Muted: mix(bg, fg, 0.7), Grid: mix(bg, fg, 0.15), Empty: mix(bg, fg, 0.1)}
}

func nrgba(c color.Color) color.NRGBA { return color.NRGBAModel.Convert(c).(color.NRGBA) }

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + t*(float64(y)-float64(x)))) }
	return color.NRGBA{m(a.R, b.R), m(a.G, b.G), m(a.B, b.B), 0xff}
}

// drawing lays the chart out for size in palette p.
func (c *chartView) drawing(p chart.Palette, size fyne.Size) chart.Drawing {
	return c.layout(chartFont(), p, float64(size.Width), float64(size.Height))
}

// render is the chart at pw×ph device pixels for the widget's current size.
func (c *chartView) render(pw, ph int) image.Image {
	size := c.Size()
	if size.IsZero() {
		size = c.min
	}
	d := c.drawing(c.palette(), size)
	c.mu.Lock()
	c.last = d
	c.mu.Unlock()
	return d.Image(pw, ph)
}

func (c *chartView) MouseIn(e *desktop.MouseEvent)    { c.MouseMoved(e) }
func (c *chartView) MouseOut()                        { c.setHint("", fyne.Position{}) }
func (c *chartView) MouseMoved(e *desktop.MouseEvent) { c.setHint(c.hintAt(e.Position), e.Position) }

// hintAt is what the chart shows at pos.
func (c *chartView) hintAt(pos fyne.Position) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last.HintAt(float64(pos.X), float64(pos.Y))
}

func (c *chartView) setHint(s string, at fyne.Position) {
	if s == c.hint && (s == "" || at == c.at) {
		return
	}
	c.hint, c.at = s, at
	if c.r != nil { // only the tip moves; the chart is not drawn again
		c.r.layoutTip(c.Size())
		c.r.tipBg.Refresh()
		c.r.tip.Refresh()
	}
}

func (c *chartView) TappedSecondary(e *fyne.PointEvent) {
	cv := fyne.CurrentApp().Driver().CanvasForObject(c)
	if cv == nil {
		return
	}
	menu := fyne.NewMenu("", fyne.NewMenuItem("Save chart…", c.save))
	widget.ShowPopUpMenuAtPosition(menu, cv, e.AbsolutePosition)
}

// save asks for a file and writes the chart as it is laid out on screen, on white,
// as PNG or SVG after the file's extension.
func (c *chartView) save() {
	size := c.Size()
	if size.IsZero() {
		size = c.min
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			c.u.showError(err)
			return
		}
		if w == nil {
			return // cancelled
		}
		drawing := c.drawing(chart.Paper, size)
		// act, not a bare goroutine: its fyne.Do raced the tests (go test -race), and
		// a large PNG's encoding shows the busy mark.
		act(c.u, "", func() error {
			err := writeChart(w, w.URI().Extension(), drawing)
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			return err
		}, func(err error) {
			if err != nil {
				c.u.showError(fmt.Errorf("save chart %s: %w", w.URI().Name(), err))
				return
			}
			c.u.setStatus("Saved %s", w.URI().Path())
		})
	}, c.u.win)
	d.SetFileName(chartFileName(c.title) + ".png")
	d.SetFilter(storage.NewExtensionFileFilter([]string{".png", ".svg"}))
	d.Show()
}

// writeChart writes d as SVG for ".svg", or as a PNG at print scale for ".png".
func writeChart(w io.Writer, ext string, d chart.Drawing) error {
	switch strings.ToLower(ext) {
	case ".svg":
		return d.WriteSVG(w)
	case ".png":
		return png.Encode(w, d.Image(int(math.Ceil(d.W*chartPrintScale)), int(math.Ceil(d.H*chartPrintScale))))
	}
	return fmt.Errorf("a chart is saved as .png or .svg, not %q", ext)
}

// chartFileName makes a file name of a chart's title: "Samples per state, by kind"
// is samples-per-state-by-kind.
func chartFileName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "chart"
	}
	return b.String()
}

func (c *chartView) MinSize() fyne.Size { return c.min }

func (c *chartView) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{c: c, raster: canvas.NewRaster(c.render),
		tipBg: canvas.NewRectangle(color.Transparent), tip: canvas.NewText("", color.Black)}
	r.save = widget.NewButtonWithIcon("", theme.DocumentSaveIcon(), c.save)
	r.save.Importance = widget.LowImportance
	c.r = r
	return r
}

type chartRenderer struct {
	c      *chartView
	raster *canvas.Raster
	save   *widget.Button
	tipBg  *canvas.Rectangle
	tip    *canvas.Text
	size   fyne.Size
}

func (r *chartRenderer) Layout(size fyne.Size) {
	r.raster.Resize(size)
	b := r.save.MinSize()
	r.save.Resize(b)
	r.save.Move(fyne.NewPos(size.Width-b.Width, 0))
	if size != r.size { // a new size is a new layout, not the old one stretched
		r.size = size
		canvas.Refresh(r.raster)
	}
	r.layoutTip(size)
}

func (r *chartRenderer) layoutTip(size fyne.Size) {
	c := r.c
	r.tip.Text = c.hint
	r.tip.TextSize = theme.CaptionTextSize()
	r.tip.Hidden, r.tipBg.Hidden = c.hint == "", c.hint == ""
	if c.hint == "" {
		return
	}
	ts := r.tip.MinSize()
	p := theme.Padding()
	bg := fyne.NewSize(ts.Width+2*p, ts.Height+p)
	x := min(c.at.X+12, size.Width-bg.Width)
	y := c.at.Y + 16
	if y+bg.Height > size.Height {
		y = c.at.Y - bg.Height - 4
	}
	r.tipBg.Move(fyne.NewPos(max(0, x), max(0, y)))
	r.tipBg.Resize(bg)
	r.tip.Move(fyne.NewPos(max(0, x)+p, max(0, y)+p/2))
	r.tip.Resize(ts)
}

func (r *chartRenderer) MinSize() fyne.Size { return r.c.min }

func (r *chartRenderer) Refresh() {
	th := r.c.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.tipBg.FillColor = th.Color(theme.ColorNameOverlayBackground, v)
	r.tipBg.StrokeColor = th.Color(theme.ColorNameSeparator, v)
	r.tipBg.StrokeWidth = 1
	r.tip.Color = th.Color(theme.ColorNameForeground, v)
	r.layoutTip(r.c.Size())
	canvas.Refresh(r.raster)
	r.tipBg.Refresh()
	r.tip.Refresh()
	r.save.Refresh()
}

func (r *chartRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.raster, r.save, r.tipBg, r.tip}
}

func (r *chartRenderer) Destroy() {}

// chartPercent writes a share in [0, 1] as a whole percentage.
func chartPercent(share float64) string { return fmt.Sprintf("%.0f%%", 100*share) }
