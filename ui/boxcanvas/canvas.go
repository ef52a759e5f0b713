// Package boxcanvas is the annotation canvas widget: it shows an image and lets an
// annotator draw, select, move and resize bounding boxes in image pixels.
//
// Boxes are annotate.Box values in pixels of the full-resolution (EXIF-oriented)
// image, whatever the size of the picture shown: a downscaled preview is
// stretched to the full size for display. The screen↔image mapping lives in the
// pure View type.
//
// Pointer: drag on empty space draws a box, tap selects, drag inside a box moves
// it, the eight handles of the selected box resize it, the wheel zooms around the
// cursor, and a middle-button drag or a drag with space held pans. Keyboard (when
// focused): arrows nudge the selected box 1 px (10 px with shift), Delete or
// Backspace removes it, Escape deselects. Ctrl+Z and the zoom shortcuts are left
// to the caller, which can call Undo, Redo, ZoomIn, ZoomOut, FitToWindow and
// ActualSize.
package boxcanvas

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

const (
	handleSize     float32 = 8    // side of a handle square, screen units
	handleGrab     float32 = 6    // half-width of a handle's hit area, screen units
	zoomStep       float32 = 1.25 // ZoomIn/ZoomOut factor
	wheelPerDouble float32 = 50   // wheel units that double the zoom
)

var (
	boxColor      = color.NRGBA{R: 0xff, G: 0xc8, B: 0x00, A: 0xff}
	selectedColor = color.NRGBA{R: 0x00, G: 0xa0, B: 0xff, A: 0xff}
)

type dragMode int

const (
	dragDraw dragMode = iota
	dragMove
	dragResize
	dragPan
)

// drag is the state of a drag in progress.
type drag struct {
	mode        dragMode
	anchor, cur fyne.Position // widget positions where it started and is now
	index       int           // box being edited
	handle      int           // handle for dragResize
	orig        annotate.Box  // the box when the drag started
	before      []annotate.Box
	selBefore   int
	view        View // the view when the drag started, for dragPan
}

// Canvas is the annotation canvas widget. Create it with New.
type Canvas struct {
	widget.BaseWidget

	// OnChanged is called with a copy of the boxes after every committed change:
	// a finished drag, a nudge, a deletion, Undo or Redo; not after SetBoxes.
	OnChanged func(boxes []annotate.Box)
	// OnSelect is called when the selected box changes; -1 means none.
	OnSelect func(i int)
	// OnReadout, if set, is called whenever Readout may have changed.
	OnReadout func(s string)
	// OnZoom, if set, is called with the zoom in percent of the image's pixels
	// whenever the view's zoom changes (zoom in or out, fit, actual size, a new image).
	OnZoom func(percent float32)
	// OnView, if set, is called after the person changes the view: zoom (wheel,
	// ZoomIn, ZoomOut, ActualSize), fit, or a pan once its drag ends and while it
	// moves. It is not called by SetView, SetImage or a resize. A grid of canvases
	// uses it to keep its cells in step (View.Follow).
	OnView func(v View)
	// ReadOnly shows the boxes for inspection: zoom, pan and selection work, but
	// dragging never draws, moves or resizes, and keys never nudge or delete.
	ReadOnly bool

	img          image.Image
	fullW, fullH int
	boxes        []annotate.Box
	styles       []Style // by box index; shorter than boxes when some have none
	selected     int
	history      History
	// The styles before each change History holds, kept in step with it.
	stylePast, styleFuture [][]Style

	view   View
	fitted bool // the view follows the widget size
	size   fyne.Size

	hover    fyne.Position
	hovering bool
	pressed  bool // a MouseDown without its MouseUp yet
	pressPos fyne.Position
	pressBtn desktop.MouseButton
	drag     *drag

	shiftHeld, spaceHeld bool
}

var (
	_ fyne.Widget        = (*Canvas)(nil)
	_ fyne.Tappable      = (*Canvas)(nil)
	_ fyne.Draggable     = (*Canvas)(nil)
	_ fyne.Scrollable    = (*Canvas)(nil)
	_ fyne.Focusable     = (*Canvas)(nil)
	_ desktop.Keyable    = (*Canvas)(nil)
	_ desktop.Mouseable  = (*Canvas)(nil)
	_ desktop.Hoverable  = (*Canvas)(nil)
	_ desktop.Cursorable = (*Canvas)(nil)
)

// New returns a canvas showing img for a fullW×fullH image. img may be a
// downscaled preview; box coordinates are always in full-resolution pixels.
func New(img image.Image, fullW, fullH int) *Canvas {
	c := &Canvas{selected: -1}
	c.ExtendBaseWidget(c)
	c.setImage(img, fullW, fullH)
	return c
}

// SetImage shows another image, fits it to the window and clears the boxes,
// the selection and the undo history.
func (c *Canvas) SetImage(img image.Image, fullW, fullH int) {
	c.setImage(img, fullW, fullH)
	c.Refresh()
	c.readoutChanged()
}

// ReplacePicture shows img in place of the picture shown, standing for the same
// full-size image: the boxes, the selection, the view and the undo history stay.
// The editor shows a placeholder of the image's proportions at once and its
// preview when it has been read (off the UI goroutine).
func (c *Canvas) ReplacePicture(img image.Image) {
	c.img = img
	c.Refresh()
}

// Picture is the picture shown (SetImage's, or ReplacePicture's).
func (c *Canvas) Picture() image.Image { return c.img }

func (c *Canvas) setImage(img image.Image, fullW, fullH int) {
	c.img, c.fullW, c.fullH = img, fullW, fullH
	c.boxes, c.styles, c.selected, c.drag = nil, nil, -1, nil
	c.resetHistory()
	c.view.Zoom = 0 // a new image reports its zoom to OnZoom, even the last one's
	c.setView(View{ImageW: fullW, ImageH: fullH, Zoom: 1}.Fit(c.size))
	c.fitted = true
}

// SetBoxes replaces the boxes (copied), clears their styles, the selection and
// the undo history. It does not call OnChanged.
func (c *Canvas) SetBoxes(boxes []annotate.Box) {
	c.boxes, c.styles = slices.Clone(boxes), nil
	c.drag = nil
	c.resetHistory()
	c.setSelected(-1)
	c.Refresh()
	c.readoutChanged()
}

// Style is how one box is drawn: its outline colour and a label written at its
// top-left corner. A box without a colour is drawn in the default yellow, and
// blue while selected; a box with one keeps it and is drawn thicker while
// selected.
type Style struct {
	Color color.Color // nil: the default
	Label string      // "": none
}

// SetStyles sets the style of each box by its index (copied): styles[i] is box
// i's, and boxes past the end of styles have the default. Styles follow their
// boxes through deletion, Undo and Redo; a newly drawn box has the default, and
// SetBoxes and SetImage clear them.
func (c *Canvas) SetStyles(styles []Style) {
	c.styles = slices.Clone(styles)
	c.Refresh()
}

// Styles returns a copy of the styles.
func (c *Canvas) Styles() []Style { return slices.Clone(c.styles) }

// style is box i's style, the zero Style when it has none.
func (c *Canvas) style(i int) Style {
	if i >= 0 && i < len(c.styles) {
		return c.styles[i]
	}
	return Style{}
}

func (c *Canvas) resetHistory() {
	c.history.Reset()
	c.stylePast, c.styleFuture = nil, nil
}

// Boxes returns a copy of the boxes.
func (c *Canvas) Boxes() []annotate.Box { return slices.Clone(c.boxes) }

// Selected is the index of the selected box, -1 when none is.
func (c *Canvas) Selected() int { return c.selected }

// Select selects box i; an index out of range clears the selection.
func (c *Canvas) Select(i int) {
	c.setSelected(i)
	c.Refresh()
	c.readoutChanged()
}

func (c *Canvas) setSelected(i int) {
	if i < 0 || i >= len(c.boxes) {
		i = -1
	}
	if i == c.selected {
		return
	}
	c.selected = i
	if c.OnSelect != nil {
		c.OnSelect(i)
	}
}

// View returns the current screen↔image mapping.
func (c *Canvas) View() View { return c.view }

// History gives access to the undo history, e.g. for CanUndo in a menu.
func (c *Canvas) History() *History { return &c.history }

// Undo restores the boxes before the last change and reports whether there was one.
func (c *Canvas) Undo() bool { return c.step(c.history.Undo, &c.stylePast, &c.styleFuture) }

// Redo re-applies the last undone change and reports whether there was one.
func (c *Canvas) Redo() bool { return c.step(c.history.Redo, &c.styleFuture, &c.stylePast) }

// step applies an undo or redo step f to the boxes, and moves the styles from
// the top of from to to alike.
func (c *Canvas) step(f func([]annotate.Box) ([]annotate.Box, bool), from, to *[][]Style) bool {
	if c.drag != nil {
		return false
	}
	boxes, ok := f(c.boxes)
	if !ok {
		return false
	}
	c.boxes = boxes
	if n := len(*from); n > 0 {
		*to = append(*to, c.styles)
		c.styles, *from = (*from)[n-1], (*from)[:n-1]
	}
	if c.selected >= len(c.boxes) {
		c.setSelected(-1)
	}
	c.changed()
	return true
}

// changed refreshes and reports a committed change.
func (c *Canvas) changed() {
	c.Refresh()
	if c.OnChanged != nil {
		c.OnChanged(c.Boxes())
	}
	c.readoutChanged()
}

// commit records before, and the styles before (stylesBefore), as an undo step
// if the boxes differ from it.
func (c *Canvas) commit(before []annotate.Box, stylesBefore []Style) {
	if slices.Equal(before, c.boxes) {
		c.Refresh()
		c.readoutChanged()
		return
	}
	c.history.Record(before)
	c.stylePast, c.styleFuture = append(c.stylePast, slices.Clone(stylesBefore)), nil
	c.changed()
}

// Readout describes the box being drawn or the selected box, as
// "x1 412 y1 188 x2 470 y2 240 · 58×52 px", else the image pixel under the
// pointer as "x 412 y 188", else "".
func (c *Canvas) Readout() string {
	i := c.selected
	if c.drag != nil && c.drag.mode != dragPan {
		i = c.drag.index
	}
	if i >= 0 && i < len(c.boxes) {
		b := c.boxes[i]
		return fmt.Sprintf("x1 %.0f y1 %.0f x2 %.0f y2 %.0f · %.0f×%.0f px",
			b[0], b[1], b[2], b[3], b[2]-b[0], b[3]-b[1])
	}
	if c.hovering {
		x, y := c.view.ToImage(c.hover)
		if x >= 0 && y >= 0 && x < float64(c.fullW) && y < float64(c.fullH) {
			return fmt.Sprintf("x %d y %d", int(x), int(y))
		}
	}
	return ""
}

func (c *Canvas) readoutChanged() {
	if c.OnReadout != nil {
		c.OnReadout(c.Readout())
	}
}

// ZoomIn zooms in around the centre of the widget.
func (c *Canvas) ZoomIn() { c.zoomAt(c.centre(), zoomStep) }

// ZoomOut zooms out around the centre of the widget.
func (c *Canvas) ZoomOut() { c.zoomAt(c.centre(), 1/zoomStep) }

// FitToWindow shows the whole image, centred, and keeps it fitted on resize.
func (c *Canvas) FitToWindow() {
	c.setView(c.view.Fit(c.size))
	c.fitted = true
	c.Refresh()
	c.viewChanged()
}

// SetView shows the image through v (its ImageW and ImageH are the canvas's own),
// as another canvas asked; it does not call OnView. The view stays where it is on
// a resize.
func (c *Canvas) SetView(v View) {
	v.ImageW, v.ImageH = c.fullW, c.fullH
	c.setView(v)
	c.fitted = false
	c.Refresh()
}

// ViewSize is the size of the widget the view maps into (its last layout).
func (c *Canvas) ViewSize() fyne.Size { return c.size }

// Fitted reports whether the view follows the widget's size (FitToWindow, a new
// image), rather than a zoom or pan of the person's.
func (c *Canvas) Fitted() bool { return c.fitted }

func (c *Canvas) viewChanged() {
	if c.OnView != nil {
		c.OnView(c.view)
	}
}

// ActualSize shows the image at 100%, one image pixel per Fyne unit, keeping
// the image point at the centre of the widget fixed.
func (c *Canvas) ActualSize() {
	c.setView(c.view.Actual(c.centre()))
	c.fitted = false
	c.Refresh()
	c.viewChanged()
}

func (c *Canvas) centre() fyne.Position {
	return fyne.NewPos(c.size.Width/2, c.size.Height/2)
}

// setView changes the view and reports a new zoom to OnZoom.
func (c *Canvas) setView(v View) {
	old := c.view.Zoom
	c.view = v
	if c.OnZoom != nil && v.Zoom != old {
		c.OnZoom(100 * v.Zoom)
	}
}

func (c *Canvas) zoomAt(at fyne.Position, factor float32) {
	c.setView(c.view.ZoomAt(at, factor))
	c.fitted = false
	c.Refresh()
	c.viewChanged()
}

// hitHandle returns the handle of the selected box at widget position p, or -1:
// the nearest one within reach, a corner on a tie. On a small box the handles'
// areas overlap, and the first found (the middle of the right edge before the
// bottom-right corner) moved one coordinate where the corner was grabbed.
func (c *Canvas) hitHandle(p fyne.Position) int {
	if c.selected < 0 {
		return -1
	}
	best, bestD := -1, float32(0)
	for h, hp := range handlePositions(c.view, c.boxes[c.selected]) {
		dx, dy := abs32(p.X-hp.X), abs32(p.Y-hp.Y)
		if dx > handleGrab || dy > handleGrab {
			continue
		}
		d := dx*dx + dy*dy
		if best < 0 || d < bestD || (d == bestD && h%2 == 0 && best%2 == 1) {
			best, bestD = h, d
		}
	}
	return best
}

// hitBox returns the box containing widget position p, preferring the selected
// one and then the last drawn, or -1.
func (c *Canvas) hitBox(p fyne.Position) int {
	x, y := c.view.ToImage(p)
	in := func(b annotate.Box) bool {
		b = b.Normalize()
		return x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3]
	}
	if c.selected >= 0 && in(c.boxes[c.selected]) {
		return c.selected
	}
	for i := len(c.boxes) - 1; i >= 0; i-- {
		if in(c.boxes[i]) {
			return i
		}
	}
	return -1
}

// focus takes the keyboard focus: drivers do not give it on click.
func (c *Canvas) focus() {
	app := fyne.CurrentApp()
	if app == nil {
		return
	}
	if cv := app.Driver().CanvasForObject(c); cv != nil && cv.Focused() != c {
		cv.Focus(c)
	}
}

// Tapped selects the box under the pointer, or clears the selection.
func (c *Canvas) Tapped(ev *fyne.PointEvent) {
	c.focus()
	if c.hitHandle(ev.Position) >= 0 {
		return
	}
	c.Select(c.hitBox(ev.Position))
}

// MouseDown remembers where a drag starts and with which button.
func (c *Canvas) MouseDown(ev *desktop.MouseEvent) {
	c.pressed, c.pressPos, c.pressBtn = true, ev.Position, ev.Button
	c.focus()
}

// MouseUp ends a press.
func (c *Canvas) MouseUp(*desktop.MouseEvent) { c.pressed = false }

// Dragged draws, moves or resizes a box, or pans.
//
// The real driver sends MouseDown and then Dragged events carrying the current
// pointer position and the step since the last event; fyne's test.Drag sends one
// Dragged event carrying the start position and the whole distance, without a
// MouseDown or an absolute position. The anchor is therefore the MouseDown
// position when there was one, else the event position when it has no absolute
// position (test.Drag), else the event position minus its step; the pointer is
// the anchor plus the sum of the steps in either case.
func (c *Canvas) Dragged(ev *fyne.DragEvent) {
	if c.drag == nil {
		anchor := ev.Position
		switch {
		case c.pressed:
			anchor = c.pressPos
		case !ev.AbsolutePosition.IsZero():
			anchor = ev.Position.Subtract(ev.Dragged)
		}
		c.beginDrag(anchor)
	}
	d := c.drag
	d.cur = d.cur.Add(ev.Dragged)
	c.updateDrag()
	c.Refresh()
	c.readoutChanged()
	if d.mode == dragPan {
		c.viewChanged()
	}
}

func (c *Canvas) beginDrag(anchor fyne.Position) {
	c.focus()
	d := &drag{anchor: anchor, cur: anchor, index: -1, before: slices.Clone(c.boxes), selBefore: c.selected, view: c.view}
	c.drag = d
	if (c.pressed && c.pressBtn == desktop.MouseButtonTertiary) || c.spaceHeld || c.ReadOnly {
		d.mode = dragPan
		return
	}
	if h := c.hitHandle(anchor); h >= 0 {
		d.mode, d.index, d.handle, d.orig = dragResize, c.selected, h, c.boxes[c.selected]
		return
	}
	if i := c.hitBox(anchor); i >= 0 {
		c.setSelected(i)
		d.mode, d.index, d.orig = dragMove, i, c.boxes[i]
		return
	}
	x, y := c.view.ToImage(anchor)
	d.mode, d.index = dragDraw, len(c.boxes)
	d.orig = annotate.Box{x, y, x, y}.Clamp(c.fullW, c.fullH)
	c.boxes = append(c.boxes, d.orig)
	c.setSelected(d.index)
}

// handle coordinates: which x and y coordinate of a box (index into Box, -1 for
// none) each handle moves, clockwise from the top-left corner.
var (
	handleX = [8]int{0, -1, 2, 2, 2, -1, 0, 0}
	handleY = [8]int{1, 1, 1, -1, 3, 3, 3, -1}
)

func (c *Canvas) updateDrag() {
	d := c.drag
	if d.mode == dragPan {
		c.view = d.view.Pan(fyne.NewDelta(d.cur.X-d.anchor.X, d.cur.Y-d.anchor.Y))
		c.fitted = false
		return
	}
	ax, ay := c.view.ToImage(d.anchor)
	px, py := c.view.ToImage(d.cur)
	dx, dy := px-ax, py-ay
	b := d.orig
	switch d.mode {
	case dragDraw:
		b = annotate.Box{b[0], b[1], px, py}.Normalize().Clamp(c.fullW, c.fullH)
	case dragMove:
		dx = max(-b[0], min(dx, float64(c.fullW)-b[2]))
		dy = max(-b[1], min(dy, float64(c.fullH)-b[3]))
		b = annotate.Box{b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy}
	case dragResize:
		if i := handleX[d.handle]; i >= 0 {
			b[i] += dx
		}
		if i := handleY[d.handle]; i >= 0 {
			b[i] += dy
		}
		b = b.Normalize().Clamp(c.fullW, c.fullH)
	}
	c.boxes[d.index] = b
}

// DragEnd snaps the edited box to whole pixels and records the change. A drawn
// box smaller than a pixel is dropped; a resize to nothing is undone.
func (c *Canvas) DragEnd() {
	d := c.drag
	if d == nil {
		return
	}
	c.drag, c.pressed = nil, false
	if d.mode == dragPan {
		c.Refresh()
		return
	}
	b := snap(c.boxes[d.index]).Normalize().Clamp(c.fullW, c.fullH)
	if b.Area() > 0 {
		c.boxes[d.index] = b
	} else if d.mode == dragDraw {
		c.boxes = slices.Delete(c.boxes, d.index, d.index+1)
		c.setSelected(d.selBefore)
	} else {
		c.boxes[d.index] = d.orig
	}
	c.commit(d.before, c.styles) // a drag leaves the styles as they were
}

func snap(b annotate.Box) annotate.Box {
	for i := range b {
		b[i] = math.Round(b[i])
	}
	return b
}

// Scrolled zooms around the pointer: up zooms in, down zooms out.
func (c *Canvas) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Scrolled.DY == 0 {
		return
	}
	at := ev.Position
	if at.IsZero() && ev.AbsolutePosition.IsZero() {
		at = c.hover // test.Scroll sends no position
	}
	c.zoomAt(at, float32(math.Exp2(float64(ev.Scrolled.DY/wheelPerDouble))))
}

// MouseIn tracks the pointer for the readout and wheel zoom.
func (c *Canvas) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved tracks the pointer for the readout and wheel zoom.
func (c *Canvas) MouseMoved(ev *desktop.MouseEvent) {
	c.hover, c.hovering = ev.Position, true
	c.readoutChanged()
}

// MouseOut forgets the pointer.
func (c *Canvas) MouseOut() {
	c.hovering = false
	c.readoutChanged()
}

// Cursor is a crosshair, for precise drawing.
func (c *Canvas) Cursor() desktop.Cursor { return desktop.CrosshairCursor }

// FocusGained is part of fyne.Focusable.
func (c *Canvas) FocusGained() {}

// FocusLost forgets held keys, whose KeyUp will not arrive.
func (c *Canvas) FocusLost() { c.shiftHeld, c.spaceHeld = false, false }

// TypedRune is part of fyne.Focusable; the canvas takes no text.
func (c *Canvas) TypedRune(rune) {}

// KeyDown tracks shift (for 10 px nudges) and space (for panning).
func (c *Canvas) KeyDown(ev *fyne.KeyEvent) { c.trackKey(ev.Name, true) }

// KeyUp tracks shift and space.
func (c *Canvas) KeyUp(ev *fyne.KeyEvent) { c.trackKey(ev.Name, false) }

func (c *Canvas) trackKey(k fyne.KeyName, down bool) {
	switch k {
	case desktop.KeyShiftLeft, desktop.KeyShiftRight:
		c.shiftHeld = down
	case fyne.KeySpace:
		c.spaceHeld = down
	}
}

func (c *Canvas) shift() bool {
	if c.shiftHeld {
		return true
	}
	if app := fyne.CurrentApp(); app != nil {
		if d, ok := app.Driver().(desktop.Driver); ok {
			return d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
		}
	}
	return false
}

// TypedKey nudges (arrows, 10 px with shift), deletes (Delete, Backspace) or
// deselects (Escape) the selected box.
func (c *Canvas) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		c.Select(-1)
		return
	}
	if c.selected < 0 || c.drag != nil || c.ReadOnly {
		return
	}
	step := 1.0
	if c.shift() {
		step = 10
	}
	var dx, dy float64
	switch ev.Name {
	case fyne.KeyLeft:
		dx = -step
	case fyne.KeyRight:
		dx = step
	case fyne.KeyUp:
		dy = -step
	case fyne.KeyDown:
		dy = step
	case fyne.KeyDelete, fyne.KeyBackspace:
		before, stylesBefore := c.Boxes(), c.Styles()
		c.boxes = slices.Delete(c.boxes, c.selected, c.selected+1)
		if c.selected < len(c.styles) {
			c.styles = slices.Delete(c.styles, c.selected, c.selected+1)
		}
		c.selected = -1 // not setSelected: the index is already gone
		if c.OnSelect != nil {
			c.OnSelect(-1)
		}
		c.commit(before, stylesBefore)
		return
	default:
		return
	}
	before := c.Boxes()
	b := c.boxes[c.selected]
	dx = max(-b[0], min(dx, float64(c.fullW)-b[2]))
	dy = max(-b[1], min(dy, float64(c.fullH)-b[3]))
	c.boxes[c.selected] = annotate.Box{b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy}
	c.commit(before, c.styles)
}

// CreateRenderer is part of fyne.Widget.
func (c *Canvas) CreateRenderer() fyne.WidgetRenderer {
	c.ExtendBaseWidget(c)
	r := &renderer{c: c, image: canvas.NewImageFromImage(nil)}
	r.image.FillMode = canvas.ImageFillStretch
	r.image.ScaleMode = canvas.ImageScaleSmooth
	for i := range r.handles {
		h := canvas.NewRectangle(color.White)
		h.StrokeColor, h.StrokeWidth = selectedColor, 1
		h.Resize(fyne.NewSquareSize(handleSize))
		r.handles[i] = h
	}
	return r
}

func abs32(v float32) float32 { return float32(math.Abs(float64(v))) }

// handlePositions are the centres of a box's handles, in handleX/handleY order.
func handlePositions(v View, b annotate.Box) [8]fyne.Position {
	b = b.Normalize()
	tl, br := v.ToScreen(b[0], b[1]), v.ToScreen(b[2], b[3])
	mx, my := (tl.X+br.X)/2, (tl.Y+br.Y)/2
	return [8]fyne.Position{
		tl, {X: mx, Y: tl.Y}, {X: br.X, Y: tl.Y}, {X: br.X, Y: my},
		br, {X: mx, Y: br.Y}, {X: tl.X, Y: br.Y}, {X: tl.X, Y: my},
	}
}
