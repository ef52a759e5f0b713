package boxcanvas

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	fynecanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

const fullW, fullH = 800, 600

// preview is a deterministic 200×150 picture standing for an 800×600 original.
func preview() image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, 200, 150))
	for y := range 150 {
		for x := range 200 {
			img.Set(x, y, color.NRGBA{R: uint8(x), G: uint8(y), B: uint8((x / 25 % 2) * 200), A: 0xff})
		}
	}
	return img
}

type fixture struct {
	t       *testing.T
	c       *Canvas
	w       fyne.Window
	changed [][]annotate.Box
	selects []int
}

// newFixture shows a canvas for the preview in an unpadded 400×300 test window.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	test.NewTempApp(t)
	f := &fixture{t: t, c: New(preview(), fullW, fullH)}
	f.c.OnChanged = func(b []annotate.Box) { f.changed = append(f.changed, b) }
	f.c.OnSelect = func(i int) { f.selects = append(f.selects, i) }
	f.w = test.NewWindow(f.c)
	f.w.SetPadded(false)
	f.w.Resize(fyne.NewSize(400, 300))
	t.Cleanup(f.w.Close)
	if f.c.Size() != fyne.NewSize(400, 300) {
		t.Fatalf("canvas size %v", f.c.Size())
	}
	return f
}

// abs converts a widget position to a window-canvas position.
func (f *fixture) abs(p fyne.Position) fyne.Position { return f.c.Position().Add(p) }

// screen is the widget position of image point (x, y).
func (f *fixture) screen(x, y float64) fyne.Position { return f.c.View().ToScreen(x, y) }

// drag drags with fyne's test.Drag, from widget position p by (dx, dy).
func (f *fixture) drag(p fyne.Position, dx, dy float32) {
	test.Drag(f.w.Canvas(), f.abs(p), dx, dy)
}

// expectBox is the box from dragging between two widget positions, per the View.
func (f *fixture) expectBox(a, b fyne.Position) annotate.Box {
	v := f.c.View()
	ax, ay := v.ToImage(a)
	bx, by := v.ToImage(b)
	return snap(annotate.Box{ax, ay, bx, by}.Normalize().Clamp(fullW, fullH))
}

func (f *fixture) wantBoxes(want ...annotate.Box) {
	f.t.Helper()
	if got := f.c.Boxes(); !slices.Equal(got, want) {
		f.t.Fatalf("boxes = %v, want %v", got, want)
	}
}

func shifted(b annotate.Box, dx, dy float64) annotate.Box {
	return annotate.Box{b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy}
}

func TestDrawBox(t *testing.T) {
	f := newFixture(t)
	start := fyne.NewPos(50.3, 40.7)
	f.drag(start, 100, 60)
	want := f.expectBox(start, start.AddXY(100, 60))
	if want.Area() == 0 || want[2] < 250 {
		t.Fatalf("bad expectation %v", want) // the preview must be shown at full size
	}
	f.wantBoxes(want)
	if f.c.Selected() != 0 || !slices.Equal(f.selects, []int{0}) {
		t.Errorf("selected %d, OnSelect calls %v", f.c.Selected(), f.selects)
	}
	if len(f.changed) != 1 || !slices.Equal(f.changed[0], []annotate.Box{want}) {
		t.Errorf("OnChanged calls %v", f.changed)
	}
	wantReadout := fmt.Sprintf("x1 %.0f y1 %.0f x2 %.0f y2 %.0f · %.0f×%.0f px", want[0], want[1], want[2], want[3], want[2]-want[0], want[3]-want[1])
	if got := f.c.Readout(); got != wantReadout {
		t.Errorf("Readout = %q, want %q", got, wantReadout)
	}

	// Dragging up-left from the start draws the mirrored box, normalised.
	start = fyne.NewPos(300, 250)
	f.drag(start, -80, -30)
	f.wantBoxes(want, f.expectBox(start.AddXY(-80, -30), start))
}

// The real driver sends MouseDown, then Dragged events with the current position
// and the step since the previous event; the result must match test.Drag.
func TestDrawBoxDriverEvents(t *testing.T) {
	f := newFixture(t)
	start := fyne.NewPos(60, 50)
	f.c.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: start, AbsolutePosition: f.abs(start)}, Button: desktop.MouseButtonPrimary})
	cur := start
	for _, step := range []fyne.Delta{{DX: 4, DY: 3}, {DX: 50, DY: 20}, {DX: 26.5, DY: 17}} {
		cur = cur.Add(step)
		f.c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: cur, AbsolutePosition: f.abs(cur)}, Dragged: step})
	}
	f.c.DragEnd()
	f.c.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: cur}, Button: desktop.MouseButtonPrimary})
	f.wantBoxes(f.expectBox(start, cur))

	// Without a MouseDown (mobile) the first event's position minus its step is the anchor.
	start2, step := fyne.NewPos(200, 200), fyne.Delta{DX: 40, DY: 30}
	end := start2.Add(step)
	f.c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: end, AbsolutePosition: f.abs(end)}, Dragged: step})
	f.c.DragEnd()
	f.wantBoxes(f.expectBox(start, cur), f.expectBox(start2, end))
}

func TestTinyDragDrawsNothing(t *testing.T) {
	f := newFixture(t)
	f.drag(fyne.NewPos(100, 100), 0.2, 0.2)
	f.wantBoxes()
	if len(f.changed) != 0 || f.c.History().CanUndo() || f.c.Selected() != -1 {
		t.Errorf("tiny drag left traces: changed %v, undo %v, selected %d", f.changed, f.c.History().CanUndo(), f.c.Selected())
	}
}

func TestTapSelects(t *testing.T) {
	f := newFixture(t)
	a, b := annotate.Box{100, 100, 300, 300}, annotate.Box{400, 200, 600, 500}
	f.c.SetBoxes([]annotate.Box{a, b})
	test.TapCanvas(f.w.Canvas(), f.abs(f.screen(500, 300)))
	if f.c.Selected() != 1 {
		t.Fatalf("tap inside box 1 selected %d", f.c.Selected())
	}
	test.TapCanvas(f.w.Canvas(), f.abs(f.screen(150, 120)))
	if f.c.Selected() != 0 {
		t.Fatalf("tap inside box 0 selected %d", f.c.Selected())
	}
	test.TapCanvas(f.w.Canvas(), f.abs(f.screen(700, 50)))
	if f.c.Selected() != -1 {
		t.Fatalf("tap on empty space selected %d", f.c.Selected())
	}
	if !slices.Equal(f.selects, []int{1, 0, -1}) {
		t.Errorf("OnSelect calls %v", f.selects)
	}
	if f.w.Canvas().Focused() != f.c {
		t.Errorf("tap did not focus the canvas")
	}
	f.c.Select(7)
	if f.c.Selected() != -1 {
		t.Errorf("Select out of range gave %d", f.c.Selected())
	}
}

func TestMoveBox(t *testing.T) {
	f := newFixture(t)
	b := annotate.Box{100, 80, 300, 200}
	f.c.SetBoxes([]annotate.Box{b})
	z := float64(f.c.View().Zoom)
	f.drag(f.screen(200, 140), 20, -10) // not selected yet: dragging its inside selects and moves it
	f.wantBoxes(shifted(b, math.Round(20/z), math.Round(-10/z)))
	if f.c.Selected() != 0 {
		t.Errorf("moved box not selected")
	}
}

func TestResizeHandles(t *testing.T) {
	f := newFixture(t)
	b := annotate.Box{100, 80, 300, 200}
	f.c.SetBoxes([]annotate.Box{b})
	f.c.Select(0)
	z := float64(f.c.View().Zoom)

	// Bottom-right corner, grabbed 2 units off its centre.
	f.drag(f.screen(300, 200).AddXY(2, -2), 10, 15)
	b = annotate.Box{100, 80, 300 + math.Round(10/z), 200 + math.Round(15/z)}
	f.wantBoxes(b)

	// Top edge midpoint moves only y1.
	f.drag(f.screen((b[0]+b[2])/2, b[1]), 30, -20)
	b[1] += math.Round(-20 / z)
	f.wantBoxes(b)

	// Left edge dragged past the right edge flips into a normalised box.
	f.drag(f.screen(b[0], (b[1]+b[3])/2), float32((b[2]-b[0])*z+50), 0)
	f.wantBoxes(annotate.Box{b[2], b[1], b[2] + math.Round(50/z), b[3]})
}

func TestClampAtBorders(t *testing.T) {
	f := newFixture(t)
	f.c.ZoomOut() // the image now has a margin inside the widget
	v := f.c.View()
	if v.Offset.X <= 0 || v.Offset.Y <= 0 {
		t.Fatalf("ZoomOut left no margin: %+v", v)
	}
	// Draw from inside past the bottom-right corner, into the margin.
	start := f.screen(700, 500)
	f.drag(start, 100, 80)
	f.wantBoxes(annotate.Box{700, 500, fullW, fullH})

	// Moving it further right/down keeps its size and stays inside.
	f.drag(f.screen(750, 550), 200, 200)
	f.wantBoxes(annotate.Box{700, 500, fullW, fullH})
	f.drag(f.screen(750, 550), -2000, -2000)
	f.wantBoxes(annotate.Box{0, 0, 100, 100})

	// Resizing the top-left handle past the image corner clamps at 0.
	f.c.SetBoxes([]annotate.Box{{10, 20, 100, 100}})
	f.c.Select(0)
	f.drag(f.screen(10, 20), -100, -100)
	f.wantBoxes(annotate.Box{0, 0, 100, 100})
}

func TestKeyboard(t *testing.T) {
	f := newFixture(t)
	b := annotate.Box{100, 80, 300, 200}
	f.c.SetBoxes([]annotate.Box{b, {0, 0, 10, 10}})
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight}) // nothing selected: no-op
	f.wantBoxes(b, annotate.Box{0, 0, 10, 10})

	f.c.Select(0)
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	f.wantBoxes(shifted(b, 1, -1), annotate.Box{0, 0, 10, 10})

	f.c.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	f.c.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	b = shifted(b, 1-10-1, -1+10)
	f.wantBoxes(b, annotate.Box{0, 0, 10, 10})
	if len(f.changed) != 5 {
		t.Errorf("%d OnChanged calls for 5 nudges", len(f.changed))
	}

	// Nudging stops at the border without shrinking the box.
	f.c.Select(1)
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	f.wantBoxes(b, annotate.Box{0, 0, 10, 10})

	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	f.wantBoxes(b)
	if f.c.Selected() != -1 {
		t.Errorf("selection after delete: %d", f.c.Selected())
	}
	f.c.Select(0)
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	f.wantBoxes()
}

func TestUndoRedo(t *testing.T) {
	f := newFixture(t)
	f.drag(fyne.NewPos(40.4, 30.1), 120, 90)
	drawn := f.c.Boxes()
	f.drag(f.screen(drawn[0][0]+10, drawn[0][1]+10), 33.3, 11.1)
	moved := f.c.Boxes()
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	nudged := f.c.Boxes()

	for _, want := range [][]annotate.Box{moved, drawn, nil} {
		if !f.c.Undo() {
			t.Fatal("Undo reported nothing to undo")
		}
		f.wantBoxes(want...)
	}
	if f.c.Undo() {
		t.Fatal("Undo past the start")
	}
	for _, want := range [][]annotate.Box{drawn, moved, nudged} {
		if !f.c.Redo() {
			t.Fatal("Redo reported nothing to redo")
		}
		f.wantBoxes(want...)
	}
	if f.c.Redo() {
		t.Fatal("Redo past the end")
	}
	// A new change after an undo drops the redo steps.
	f.c.Undo()
	f.c.Select(0)
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	f.wantBoxes()
	if f.c.History().CanRedo() {
		t.Error("redo kept after a new change")
	}
	f.c.Undo()
	f.wantBoxes(moved...)
	// SetBoxes starts a fresh history.
	f.c.SetBoxes(nil)
	if f.c.History().CanUndo() {
		t.Error("SetBoxes kept the history")
	}
}

func TestScrollZoomsAroundCursor(t *testing.T) {
	f := newFixture(t)
	p := fyne.NewPos(123, 77)
	test.MoveMouse(f.w.Canvas(), f.abs(p))
	before := f.c.View()
	x, y := before.ToImage(p)
	if got, want := f.c.Readout(), fmt.Sprintf("x %d y %d", int(x), int(y)); got != want {
		t.Errorf("hover readout %q, want %q", got, want)
	}

	test.Scroll(f.w.Canvas(), f.abs(p), 0, 10)
	in := f.c.View()
	if in.Zoom <= before.Zoom {
		t.Fatalf("scroll up did not zoom in: %g → %g", before.Zoom, in.Zoom)
	}
	if gx, gy := in.ToImage(p); math.Abs(gx-x) > 1e-3 || math.Abs(gy-y) > 1e-3 {
		t.Errorf("point under cursor moved: (%g,%g) → (%g,%g)", x, y, gx, gy)
	}
	test.Scroll(f.w.Canvas(), f.abs(p), 0, -20)
	out := f.c.View()
	if out.Zoom >= before.Zoom {
		t.Fatalf("scroll down did not zoom out: %g → %g", before.Zoom, out.Zoom)
	}
	if gx, gy := out.ToImage(p); math.Abs(gx-x) > 1e-3 || math.Abs(gy-y) > 1e-3 {
		t.Errorf("point under cursor moved: (%g,%g) → (%g,%g)", x, y, gx, gy)
	}

	// After zooming in, a drawn box is still in full-resolution pixels.
	test.Scroll(f.w.Canvas(), f.abs(p), 0, 100)
	f.drag(fyne.NewPos(10, 10), 40, 30)
	f.wantBoxes(f.expectBox(fyne.NewPos(10, 10), fyne.NewPos(50, 40)))
}

func TestZoomMethods(t *testing.T) {
	f := newFixture(t)
	fit := f.c.View()
	if want := (View{ImageW: fullW, ImageH: fullH}).Fit(fyne.NewSize(400, 300)); fit != want {
		t.Fatalf("initial view %+v, want fit %+v", fit, want)
	}
	centre := fyne.NewPos(200, 150)
	cx, cy := fit.ToImage(centre)
	f.c.ZoomIn()
	if f.c.View().Zoom <= fit.Zoom {
		t.Errorf("ZoomIn: %g", f.c.View().Zoom)
	}
	f.c.ActualSize()
	if v := f.c.View(); v.Zoom != 1 {
		t.Errorf("ActualSize zoom %g", v.Zoom)
	} else if x, y := v.ToImage(centre); math.Abs(x-cx) > 1e-3 || math.Abs(y-cy) > 1e-3 {
		t.Errorf("ActualSize moved the centre: (%g,%g) → (%g,%g)", cx, cy, x, y)
	}
	f.c.ZoomOut()
	if f.c.View().Zoom >= 1 {
		t.Errorf("ZoomOut: %g", f.c.View().Zoom)
	}
	// Not fitted: a resize keeps the zoom; fitted: it refits.
	z := f.c.View().Zoom
	f.w.Resize(fyne.NewSize(200, 300))
	if f.c.View().Zoom != z {
		t.Errorf("resize changed a manual zoom")
	}
	f.c.FitToWindow()
	if want := (View{ImageW: fullW, ImageH: fullH}).Fit(fyne.NewSize(200, 300)); f.c.View() != want {
		t.Errorf("FitToWindow %+v, want %+v", f.c.View(), want)
	}
	f.w.Resize(fyne.NewSize(400, 300))
	if f.c.View() != fit {
		t.Errorf("fitted view did not follow the resize: %+v", f.c.View())
	}
}

func TestPan(t *testing.T) {
	f := newFixture(t)
	f.c.SetBoxes([]annotate.Box{{100, 100, 200, 200}})
	start := f.c.View().Offset

	// Middle-button drag, as the real driver sends it, over a box.
	p := f.screen(150, 150)
	f.c.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p, AbsolutePosition: f.abs(p)}, Button: desktop.MouseButtonTertiary})
	q := p.AddXY(30, -12)
	f.c.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: q, AbsolutePosition: f.abs(q)}, Dragged: fyne.NewDelta(30, -12)})
	f.c.DragEnd()
	f.c.MouseUp(&desktop.MouseEvent{Button: desktop.MouseButtonTertiary})
	if got := f.c.View().Offset; got != start.AddXY(30, -12) {
		t.Errorf("middle drag offset %v, want %v", got, start.AddXY(30, -12))
	}

	// Space held + primary drag on empty space pans instead of drawing.
	f.c.KeyDown(&fyne.KeyEvent{Name: fyne.KeySpace})
	f.drag(fyne.NewPos(300, 250), -50, 20)
	f.c.KeyUp(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := f.c.View().Offset; got != start.AddXY(-20, 8) {
		t.Errorf("space drag offset %v, want %v", got, start.AddXY(-20, 8))
	}
	f.wantBoxes(annotate.Box{100, 100, 200, 200})
	if len(f.changed) != 0 || f.c.History().CanUndo() {
		t.Error("panning recorded a change")
	}
}

func TestGoldenOneBox(t *testing.T) {
	f := newFixture(t)
	f.drag(f.screen(200, 150), float32(300*f.c.View().Zoom), float32(200*f.c.View().Zoom))
	f.wantBoxes(annotate.Box{200, 150, 500, 350})
	img := f.w.Canvas().Capture()
	const name = "boxcanvas_one_box.png"
	if *update {
		if err := writePNG(filepath.Join("testdata", name), img); err != nil {
			t.Fatal(err)
		}
	}
	test.AssertImageMatches(t, name, img)
}

func writePNG(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write golden: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write golden: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("encode golden %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write golden %s: %w", path, err)
	}
	return nil
}

// Zoomed in, only the visible part of the preview is drawn, and it lines up
// with the View; boxes outside the widget are hidden.
func TestRendererCropsZoomedImage(t *testing.T) {
	f := newFixture(t)
	f.c.SetBoxes([]annotate.Box{{700, 500, 790, 590}})
	for range 6 {
		f.c.ZoomIn()
	}
	r := test.TempWidgetRenderer(t, f.c)
	img := r.Objects()[0].(*fynecanvas.Image)
	v := f.c.View()
	if img.Size().Width > 400+2*v.Zoom*4 || img.Size().Height > 300+2*v.Zoom*4 {
		t.Errorf("image drawn at %v for a 400×300 widget", img.Size())
	}
	// The crop's top-left preview pixel maps to whole full-res pixels (4 per preview pixel).
	x, y := v.ToImage(img.Position())
	if math.Abs(x/4-math.Round(x/4)) > 1e-3 || math.Abs(y/4-math.Round(y/4)) > 1e-3 {
		t.Errorf("image placed at image point (%g,%g), not on a preview pixel", x, y)
	}
	if b := img.Image.Bounds(); b.Dx() >= 200 || b.Dy() >= 150 {
		t.Errorf("whole preview %v shown while zoomed in", b)
	}
	if r.Objects()[1].Visible() {
		t.Error("box outside the view is visible")
	}
}

// A read-only canvas (the verifier's view) pans on drag and never edits a box.
func TestReadOnly(t *testing.T) {
	f := newFixture(t)
	b := annotate.Box{100, 80, 200, 160}
	f.c.SetBoxes([]annotate.Box{b})
	f.c.ReadOnly = true
	v := f.c.View()
	f.drag(f.screen(150, 120), 40, 30) // inside the box: would move it
	f.drag(f.screen(300, 250), 40, 30) // outside: would draw
	f.wantBoxes(b)
	if f.c.View() == v {
		t.Error("dragging a read-only canvas should pan")
	}
	f.c.Select(0)
	for _, k := range []fyne.KeyName{fyne.KeyRight, fyne.KeyDelete} {
		f.c.TypedKey(&fyne.KeyEvent{Name: k})
	}
	f.wantBoxes(b)
	if len(f.changed) != 0 {
		t.Errorf("OnChanged calls %v on a read-only canvas", f.changed)
	}
}
