package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// tapButton is an icon button the pointer presses but Tab passes by: it is not
// Focusable. An option row's remove sits between its field and the next row's,
// and as a button Tab then Space from the field deleted the row (issue 27 item 1):
// a destructive control next to a field is not one Tab away from it. What it does
// is undoable (Ctrl+Z).
type tapButton struct {
	widget.DisableableWidget
	icon     fyne.Resource
	OnTapped func()
	hovered  bool
}

func newTapButton(icon fyne.Resource, tapped func()) *tapButton {
	b := &tapButton{icon: icon, OnTapped: tapped}
	b.ExtendBaseWidget(b)
	return b
}

// Tapped runs OnTapped unless the button is disabled.
func (b *tapButton) Tapped(*fyne.PointEvent) {
	if !b.Disabled() && b.OnTapped != nil {
		b.OnTapped()
	}
}

func (b *tapButton) MouseIn(*desktop.MouseEvent)    { b.hovered = true; b.Refresh() }
func (b *tapButton) MouseMoved(*desktop.MouseEvent) {}
func (b *tapButton) MouseOut()                      { b.hovered = false; b.Refresh() }
func (b *tapButton) Cursor() desktop.Cursor         { return desktop.PointerCursor }

func (b *tapButton) CreateRenderer() fyne.WidgetRenderer {
	r := &tapButtonRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), img: canvas.NewImageFromResource(b.icon)}
	r.bg.CornerRadius = theme.InputRadiusSize()
	r.img.FillMode = canvas.ImageFillContain
	r.Refresh()
	return r
}

type tapButtonRenderer struct {
	b   *tapButton
	bg  *canvas.Rectangle
	img *canvas.Image
}

func (r *tapButtonRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	s := theme.IconInlineSize()
	r.img.Resize(fyne.NewSquareSize(s))
	r.img.Move(fyne.NewPos((size.Width-s)/2, (size.Height-s)/2))
}

// MinSize is a button's with an icon only.
func (r *tapButtonRenderer) MinSize() fyne.Size {
	return fyne.NewSquareSize(theme.IconInlineSize() + 2*theme.InnerPadding())
}

func (r *tapButtonRenderer) Refresh() {
	icon := r.b.icon
	if r.b.Disabled() {
		icon = theme.NewDisabledResource(icon)
	}
	r.img.Resource = icon
	r.bg.FillColor = color.Transparent
	if r.b.hovered && !r.b.Disabled() {
		r.bg.FillColor = theme.Color(theme.ColorNameHover)
	}
	r.bg.Refresh()
	r.img.Refresh()
}

func (r *tapButtonRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.img} }
func (r *tapButtonRenderer) Destroy()                     {}
