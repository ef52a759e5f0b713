package ui

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// canvasHost lies over the box canvas and owns the keyboard for the image area. It
// forwards every pointer event to the canvas, then takes the focus back from it, so
// that the workspace's letter keys (n, a, d, 1–4, ?) work right after a click or a
// drawing, and only then (see workspace.installKeys); the
// canvas's own keys (arrows nudge, Delete, Escape; shift and space held) are passed on.
type canvasHost struct {
	widget.BaseWidget
	c  *boxcanvas.Canvas
	ws *workspace

	forwarding bool                  // a pointer event is being passed on (focus moves are transient)
	held       map[fyne.KeyName]bool // keys down now, replayed after the canvas loses focus to us
}

var (
	_ fyne.Tappable      = (*canvasHost)(nil)
	_ fyne.Draggable     = (*canvasHost)(nil)
	_ fyne.Scrollable    = (*canvasHost)(nil)
	_ fyne.Focusable     = (*canvasHost)(nil)
	_ desktop.Keyable    = (*canvasHost)(nil)
	_ desktop.Mouseable  = (*canvasHost)(nil)
	_ desktop.Hoverable  = (*canvasHost)(nil)
	_ desktop.Cursorable = (*canvasHost)(nil)
)

func newCanvasHost(c *boxcanvas.Canvas, ws *workspace) *canvasHost {
	h := &canvasHost{c: c, ws: ws, held: map[fyne.KeyName]bool{}}
	h.ExtendBaseWidget(h)
	return h
}

func (h *canvasHost) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// forward runs a pointer event on the canvas and takes the focus back.
func (h *canvasHost) forward(f func()) {
	h.forwarding = true
	f()
	h.takeFocus()
	h.forwarding = false
}

func (h *canvasHost) takeFocus() {
	app := fyne.CurrentApp()
	if app == nil {
		return
	}
	cv := app.Driver().CanvasForObject(h)
	if cv == nil || cv.Focused() == h {
		return
	}
	cv.Focus(h)
	for k := range h.held { // the canvas forgot them on losing the focus
		h.c.KeyDown(&fyne.KeyEvent{Name: k})
	}
}

func (h *canvasHost) Tapped(ev *fyne.PointEvent)       { h.forward(func() { h.c.Tapped(ev) }) }
func (h *canvasHost) Dragged(ev *fyne.DragEvent)       { h.forward(func() { h.c.Dragged(ev) }) }
func (h *canvasHost) DragEnd()                         { h.forward(h.c.DragEnd) }
func (h *canvasHost) MouseDown(ev *desktop.MouseEvent) { h.forward(func() { h.c.MouseDown(ev) }) }
func (h *canvasHost) MouseUp(ev *desktop.MouseEvent)   { h.c.MouseUp(ev) }
func (h *canvasHost) Scrolled(ev *fyne.ScrollEvent)    { h.c.Scrolled(ev) }

// MouseIn tracks the pointer. It does not take the keyboard: only a click does, so
// that letters typed after a click beside a field never reach the image's keys
// because the pointer passed over it (issue 27). Space held with nothing focused
// reaches the image through the window (workspace.keyDown), so Space+drag pans
// before the image was clicked.
func (h *canvasHost) MouseIn(ev *desktop.MouseEvent) { h.c.MouseIn(ev) }

func (h *canvasHost) MouseMoved(ev *desktop.MouseEvent) {
	h.c.MouseMoved(ev)
}
func (h *canvasHost) MouseOut()                 { h.c.MouseOut() }
func (h *canvasHost) Cursor() desktop.Cursor    { return h.c.Cursor() }
func (h *canvasHost) FocusGained()              {}
func (h *canvasHost) TypedRune(r rune)          { h.ws.typedRune(r) }
func (h *canvasHost) KeyDown(ev *fyne.KeyEvent) { h.held[ev.Name] = true; h.c.KeyDown(ev) }
func (h *canvasHost) KeyUp(ev *fyne.KeyEvent)   { delete(h.held, ev.Name); h.c.KeyUp(ev) }

// FocusLost forgets held keys unless the focus only went to the canvas for a moment.
func (h *canvasHost) FocusLost() {
	if !h.forwarding {
		clear(h.held)
		h.c.FocusLost()
	}
}

// TypedKey opens the help on F1 and passes the rest to the canvas.
func (h *canvasHost) TypedKey(ev *fyne.KeyEvent) {
	if h.ws.typedKey(ev) {
		return
	}
	h.c.TypedKey(ev)
}

// boxFields shows the box being drawn or the selected box as x1 y1 x2 y2 in image
// pixels, in full, and takes typed numbers: Enter in a field sets the box (checked
// by annotate.Box.Check against the image), undoable like a drawn box.
type boxFields struct {
	ws     *workspace
	fields [4]*wsEntry
	row    *fyne.Container
}

func newBoxFields(ws *workspace) *boxFields {
	b := &boxFields{ws: ws}
	cells := make([]fyne.CanvasObject, 0, 8)
	for i, name := range []string{"x1", "y1", "x2", "y2"} {
		e := newWSEntry(ws, false, name, func(string) {})
		e.OnSubmitted = func(string) { b.apply() }
		b.fields[i] = e
		// wide enough for four digits whatever the window's width (images up to 9999 px)
		room := canvas.NewRectangle(color.Transparent)
		room.SetMinSize(fyne.NewSize(fyne.MeasureText("8888", theme.TextSize(), fyne.TextStyle{}).Width+2*theme.InnerPadding(), 0))
		cells = append(cells, container.NewStack(room, e)) // one caption for the four: a label each widened a 1024-px window
	}
	b.row = container.NewBorder(nil, nil, small("Box x1 y1 x2 y2"), nil, container.NewGridWithColumns(4, cells...))
	b.show(nil, false)
	return b
}

// show puts box (nil: none) into the fields, except the one the annotator is
// typing in unless force (an undo, a refused number).
func (b *boxFields) show(box *annotate.Box, force bool) {
	var focused fyne.Focusable
	if cv := fyne.CurrentApp().Driver().CanvasForObject(b.row); cv != nil {
		focused = cv.Focused()
	}
	for i, e := range b.fields {
		t := ""
		if box != nil {
			t = strconv.FormatFloat(box[i], 'f', -1, 64)
		}
		if force || focused != fyne.Focusable(e) {
			e.setText(t)
		}
		if b.ws.sample == nil || b.ws.canvas.ReadOnly {
			e.Disable()
		} else {
			e.Enable()
		}
	}
}

// apply sets the box from the four fields.
func (b *boxFields) apply() {
	ws := b.ws
	if ws.sample == nil || ws.canvas.ReadOnly {
		return
	}
	var box annotate.Box
	for i, e := range b.fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(e.Text), 64)
		if err != nil {
			ws.u.setStatus("The box is not changed: %s must be a number of pixels.", []string{"x1", "y1", "x2", "y2"}[i])
			ws.showBoxFields()
			return
		}
		box[i] = v
	}
	box = box.Normalize()
	if err := box.Check(ws.image.Width, ws.image.Height); err != nil {
		ws.u.setStatus("The box is not changed: %s.", err)
		ws.showBoxFields()
		return
	}
	shown := ws.seq.shown
	ws.edit("", func(s *annotate.Sample) { s.Box, s.BoxImage = &box, shown })
	ws.syncCanvas()
	for i, e := range b.fields { // the fields say what was set, normalised
		e.setText(strconv.FormatFloat(box[i], 'f', -1, 64))
	}
	ws.u.setStatus("Box set to x1 %g y1 %g x2 %g y2 %g (Ctrl+Z undoes).", box[0], box[1], box[2], box[3])
}

// showReadout shows the box being drawn or the selected one in the fields, its
// size beside the tools, else the pixel under the pointer.
func (ws *workspace) showReadout() {
	boxes, i := ws.canvas.Boxes(), ws.canvas.Selected()
	if i < 0 && len(boxes) == 1 {
		i = 0
	}
	if i >= 0 && i < len(boxes) {
		bx := boxes[i]
		ws.boxFields.show(&bx, false)
		ws.readout.SetText(fmt.Sprintf("%.0f×%.0f px", bx[2]-bx[0], bx[3]-bx[1]))
		if ro := ws.canvas.Readout(); strings.HasPrefix(ro, "x ") {
			ws.readout.SetText(ro)
		}
		return
	}
	ws.boxFields.show(nil, false)
	ws.readout.SetText(ws.canvas.Readout())
}

// showBoxFields shows the sample's box in every field, the focused one too.
func (ws *workspace) showBoxFields() {
	var box *annotate.Box
	if ws.cur.Box != nil && ws.cur.BoxImage == ws.seq.shown {
		box = ws.cur.Box
	}
	ws.boxFields.show(box, true)
}
