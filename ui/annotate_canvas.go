package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

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
