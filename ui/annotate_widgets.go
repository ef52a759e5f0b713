package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The workspace's form widgets route the workspace's keys to it: an entry passes
// Ctrl+S, Ctrl+Enter, Ctrl+Z and Ctrl+Shift+Z (which Fyne would otherwise give to the
// focused entry only) and F1, and leaves the text field on Escape; checks pass every
// letter key except space (which toggles) on. Text typed in an entry never triggers a
// letter shortcut. (The queue list hands the focus to the image when an item opens.)

type wsEntry struct {
	typingEntry
	ws      *workspace
	oneLine bool // wraps as a multi-line entry, but Return adds no line (a step's text)
}

func newWSEntry(ws *workspace, multiLine bool, placeholder string, changed func(string)) *wsEntry {
	e := &wsEntry{ws: ws}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	}
	e.PlaceHolder = placeholder
	e.ExtendBaseWidget(e)
	e.followForm(e, func() *container.Scroll { return ws.formScroll }) // typingentry_scroll.go
	e.OnChanged = func(s string) {
		if !ws.loading {
			changed(s)
		}
	}
	return e
}

// setText shows s without recording an edit.
func (e *wsEntry) setText(s string) {
	if e.Text != s {
		e.ws.quietly(func() { e.SetText(s) })
	}
}

func (e *wsEntry) TypedShortcut(s fyne.Shortcut) {
	if e.ws.shortcut(s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

func (e *wsEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape:
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
			c.Unfocus()
		}
		return
	case fyne.KeyF1:
		e.ws.showShortcuts()
		return
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.oneLine {
			return
		}
	}
	e.Entry.TypedKey(ev)
}

type wsCheck struct {
	widget.Check
	ws *workspace
}

func newWSCheck(ws *workspace, label string, changed func(bool)) *wsCheck {
	c := &wsCheck{ws: ws}
	c.Text = label
	c.ExtendBaseWidget(c)
	c.OnChanged = func(on bool) {
		if !ws.loading {
			changed(on)
		}
	}
	return c
}

// FocusGained brings the check into the form's view (Tab through the form).
func (c *wsCheck) FocusGained() {
	c.Check.FocusGained()
	revealIn(c.ws.formScroll, c)
}

func (c *wsCheck) setChecked(on bool) {
	if c.Checked != on {
		c.ws.quietly(func() { c.SetChecked(on) })
	}
}

// TypedRune toggles on Space; letters are no shortcuts here (only the image area
// and the queue take them), so a word typed after ticking a box changes nothing.
func (c *wsCheck) TypedRune(r rune) {
	if r == ' ' {
		c.Check.TypedRune(r)
	}
}

func (c *wsCheck) TypedKey(ev *fyne.KeyEvent) {
	if !c.ws.typedKey(ev) {
		c.Check.TypedKey(ev)
	}
}

// segmented is a row of buttons of which one is chosen (highlighted); a click does not
// give a button the keyboard focus, so letter shortcuts keep working after it; Tab
// reaches them, and they follow the form's scroll (formbutton.go).
type segmented struct {
	box      *fyne.Container
	buttons  []*formButton
	values   []string
	selected string
}

func newSegmented(outer func() *container.Scroll, labels, values []string, changed func(string)) *segmented {
	s := &segmented{box: container.NewHBox(), values: values}
	for i, l := range labels {
		v := values[i]
		b := newFormButton(outer, l, nil, func() {
			s.set(v)
			changed(v)
		})
		s.buttons = append(s.buttons, b)
		s.box.Add(b)
	}
	s.set("")
	return s
}

func (s *segmented) set(v string) {
	s.selected = v
	for i, b := range s.buttons {
		imp := widget.MediumImportance
		if s.values[i] == v {
			imp = widget.HighImportance
		}
		if b.Importance != imp {
			b.Importance = imp
			b.Refresh()
		}
	}
}

// radioButton is a round choice marker that a click does not focus (Tab does; it
// follows the form's scroll).
func radioButton(outer func() *container.Scroll, tapped func()) *formButton {
	b := newFormButton(outer, "", theme.RadioButtonIcon(), tapped)
	b.Importance = widget.LowImportance
	return b
}

func setRadio(b *formButton, on bool) {
	icon := theme.RadioButtonIcon()
	if on {
		icon = theme.RadioButtonCheckedIcon()
	}
	if b.Icon != icon {
		b.SetIcon(icon)
	}
}
