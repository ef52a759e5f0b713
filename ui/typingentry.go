package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// typingEntry is a widget.Entry for text people type at length: every multi-line
// entry of the app is one (or embeds one), so the workaround in TypedRune holds
// wherever text wraps.
type typingEntry struct {
	widget.Entry
	// typedTo is where the cursor should be after the last rune typed, -1 after
	// anything else (see TypedRune).
	typedTo int
	// The form's scroll around the entry, and the entry's own (typingentry_scroll.go).
	formScroll
}

// newTypingEntry is widget.NewMultiLineEntry as a typingEntry: several lines,
// wrapped at words.
func newTypingEntry() *typingEntry {
	e := &typingEntry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

// TypedRune types r as Entry does, working around Fyne 2.7's wrapped entries: a
// space typed at the end of the text exactly where the text wraps leaves the
// cursor before that space, so the next letter went in front of it ("to the
// leftof … camera? ", issue 17). When the cursor is found there, the rune is
// added at the end of the text instead, and the cursor put after it.
func (e *typingEntry) TypedRune(r rune) {
	runes := []rune(e.Text)
	if n := len(runes); e.MultiLine && e.Wrapping != fyne.TextWrapOff && e.typedTo == n && n > 0 && runes[n-1] == ' ' &&
		e.CursorTextOffset() == n-1 && e.SelectedText() == "" {
		e.SetText(e.Text + string(r))
		e.cursorToEnd()
		e.typedTo = n + 1
		return
	}
	e.typedTo = e.CursorTextOffset() + 1
	if e.SelectedText() != "" {
		e.typedTo = -1
	}
	e.Entry.TypedRune(r)
}

// cursorToEnd puts the cursor after the last character, moving it with the
// entry's own keys so that its rows and columns stay its own.
func (e *typingEntry) cursorToEnd() {
	for range strings.Count(e.Text, "\n") + len(e.Text) + 1 {
		row := e.CursorRow
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		if e.CursorRow == row {
			break
		}
	}
	e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
}

// isTextEntry reports whether the focused object takes typed text: a widget.Entry
// or a type that embeds one (typingEntry, wsEntry). Screens leave their letter keys
// to it.
func isTextEntry(f fyne.Focusable) bool {
	_, ok := f.(interface{ SelectedText() string })
	return ok
}
