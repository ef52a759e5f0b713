package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// formButton is a button inside a scrolled form (Add step, Remove edge, a step's
// up/down/delete, an option's mark, …): reached with Tab it scrolls into the form's
// view, as the form's text fields and ticks do (typingentry_scroll.go).
type formButton struct {
	widget.Button
	outer func() *container.Scroll // the form's scroll, or nil
}

// newFormButton is a button labelled label (and icon, which may be nil) that taps
// tapped and follows the form whose scroll outer gives (it may be built later).
func newFormButton(outer func() *container.Scroll, label string, icon fyne.Resource, tapped func()) *formButton {
	b := &formButton{outer: outer}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// FocusGained is widget.Button's, then brings the button into the form's view.
func (b *formButton) FocusGained() {
	b.Button.FocusGained()
	if b.outer != nil {
		revealIn(b.outer(), b)
	}
}

// formOuter is the Annotate form's scroll, for the widgets that follow it.
func (ws *workspace) formOuter() func() *container.Scroll {
	return func() *container.Scroll { return ws.formScroll }
}
