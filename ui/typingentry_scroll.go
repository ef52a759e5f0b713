package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// formScroll ties a field to the scroll of the form it sits in (issue 17): the form
// scrolls the field into view when it takes the focus (Tab), and a mouse wheel over a
// text field whose own text has nothing to scroll scrolls the form.
type formScroll struct {
	outer func() *container.Scroll // the form's scroll, or nil
	self  fyne.CanvasObject        // the widget in the tree (the type that embeds the entry)
	inner *container.Scroll        // the entry's own scroll, found in its renderer
}

// followForm makes e's form scroll with it: outer gives the form's scroll (it may
// be built after the entry); self is the object the form holds.
func (e *typingEntry) followForm(self fyne.CanvasObject, outer func() *container.Scroll) {
	e.self, e.outer = self, outer
}

// newLineEntry is a one-line text field that follows its form's scroll.
func newLineEntry(outer func() *container.Scroll) *typingEntry {
	e := &typingEntry{}
	e.ExtendBaseWidget(e)
	e.followForm(e, outer)
	return e
}

// FocusGained is widget.Entry's, then brings the entry into the form's view.
func (e *typingEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.outer != nil {
		revealIn(e.outer(), e.self)
	}
}

// CreateRenderer is widget.Entry's with a transparent layer over it that takes the
// mouse wheel: the wheel scrolls the entry's text when it can move, else the form.
// The layer takes nothing else (taps, drags and the pointer go to the entry).
func (e *typingEntry) CreateRenderer() fyne.WidgetRenderer {
	r := e.Entry.CreateRenderer()
	for _, o := range r.Objects() {
		if s, ok := o.(*container.Scroll); ok {
			e.inner = s
		}
	}
	w := &wheelLayer{e: e}
	w.ExtendBaseWidget(w)
	return &wheelRenderer{WidgetRenderer: r, layer: w}
}

type wheelRenderer struct {
	fyne.WidgetRenderer
	layer   *wheelLayer
	objects []fyne.CanvasObject
}

func (r *wheelRenderer) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.layer.Move(fyne.Position{})
	r.layer.Resize(size)
}

// Objects are the entry's, the wheel layer on top; rebuilt only when the entry's change.
func (r *wheelRenderer) Objects() []fyne.CanvasObject {
	in := r.WidgetRenderer.Objects()
	same := len(r.objects) == len(in)+1
	for i := 0; same && i < len(in); i++ {
		same = r.objects[i] == in[i]
	}
	if !same {
		r.objects = append(append(r.objects[:0], in...), r.layer)
	}
	return r.objects
}

// wheelLayer is the transparent object over a typingEntry that implements only
// fyne.Scrollable.
type wheelLayer struct {
	widget.BaseWidget
	e *typingEntry
}

func (w *wheelLayer) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// Scrolled gives the wheel to the entry's own text while that moves, else to the form.
func (w *wheelLayer) Scrolled(ev *fyne.ScrollEvent) {
	if in := w.e.inner; in != nil && in.Visible() {
		before := in.Offset
		in.Scrolled(ev)
		if in.Offset != before {
			return
		}
	}
	if w.e.outer != nil {
		if s := w.e.outer(); s != nil {
			s.Scrolled(ev)
		}
	}
}

// revealIn scrolls s (vertically) so that o, inside its content, is in view with a
// little room around it; an object taller than the view shows its top. Nothing
// happens when o is not inside s.
func revealIn(s *container.Scroll, o fyne.CanvasObject) {
	if s == nil || o == nil || s.Content == nil || !s.Visible() {
		return
	}
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	content, view := s.Content.Size().Height, s.Size().Height
	if top < 0 || top > content || view <= 0 {
		return
	}
	pad := theme.Padding() * 2
	off := s.Offset.Y
	switch bottom := top + o.Size().Height; {
	case top-pad < off || bottom-top+2*pad > view:
		off = top - pad
	case bottom+pad > off+view:
		off = bottom + pad - view
	default:
		return
	}
	off = max(0, min(off, content-view))
	s.ScrollToOffset(fyne.NewPos(s.Offset.X, off))
}
