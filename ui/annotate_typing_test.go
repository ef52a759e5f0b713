package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
)

// typedQuestion is n characters of question text, single-spaced, ending in "?".
func typedQuestion(n int) string {
	base := "Which blue ball on the wooden shelf left of the green plant is the closest one to the camera, " +
		"not counting the red mug that stands on the small table near the door; "
	s := []rune(strings.Repeat(base, n/len(base)+2))[:n-1]
	if s[len(s)-1] == ' ' {
		s[len(s)-1] = 'x'
	}
	return string(s) + "?"
}

// The "Done when" session of issue 27, with fyne's test driver: 500 characters
// typed into the Question field at 80 ms a key (the sample's clock) while
// autosaves return between keys, with clicks that land beside a field (nothing
// focused) followed by stray letters, a "?" deleted by Backspace, at 1024×700 where
// the question wraps. No save sets the entry's text or caret: after every save the
// entry holds what was typed, with the caret at its end; the stored text is what
// was typed; the box, the answer and the options are unchanged.
func TestAnnotateTypingWhileAutosavesReturn(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	u.win.Resize(fyne.NewSize(1024, 700))
	clock := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	ws.now = func() time.Time { return clock }
	c := u.win.Canvas()
	f := ws.form.(*hopForm)
	id, box, answer, options := ws.sample.ID, *ws.cur.Box, ws.cur.AnswerIndex, slices.Clone(ws.cur.Options)
	text := typedQuestion(500)

	clickOn(f.question)
	f.question.SetText("") // the annotator clears the field (select all, Delete)
	typed, saves, strays := 0, 0, 0
	key := func(name fyne.KeyName) { c.Focused().TypedKey(&fyne.KeyEvent{Name: name}) }
	check := func(what string) {
		t.Helper()
		want := string([]rune(text)[:typed])
		if f.question.Text != want || ws.cur.Question != want {
			t.Fatalf("%s after %d keys: the entry has\n%q\nthe sample\n%q\nwant\n%q", what, typed, f.question.Text, ws.cur.Question, want)
		}
	}
	// The caret is compared before and after each save rather than with the count of
	// keys: where the question wraps after a space, fyne's entry may report the caret
	// at the end of one row or the start of the next, one apart.
	caretKept := func(before int) {
		t.Helper()
		if got := f.question.CursorTextOffset(); got != before {
			t.Fatalf("a save after %d keys moved the caret from %d to %d", typed, before, got)
		}
	}
	for i, r := range []rune(text) {
		typeKeys(c, string(r))
		typed++
		clock = clock.Add(80 * time.Millisecond)
		if i%23 == 22 { // a save returns
			before := f.question.CursorTextOffset()
			ws.autosave(ws.saveGen)
			saves++
			check("a save")
			caretKept(before)
		}
		if i == 250 { // "?" typed and taken back, space and all
			typeKeys(c, " ?")
			key(fyne.KeyBackspace)
			key(fyne.KeyBackspace)
			check("Backspace")
		}
		if i%97 == 96 { // a click lands beside a field: nothing focused
			c.Unfocus()
			typeKeys(c, "n2d r4a")
			strays++
			clickOn(f.question) // back in the field, at the end of the text
			f.question.cursorToEnd()
			check("a stray click")
		}
	}
	ws.autosave(ws.saveGen)
	check("the last save")
	got := storedSample(t, u, id).Content
	if got.Question != text {
		t.Fatalf("stored\n%q\nwant\n%q", got.Question, text)
	}
	if got.Box == nil || *got.Box != box || got.AnswerIndex != answer || !slices.Equal(got.Options, options) {
		t.Fatalf("stored box %v answer %d options %q; want %v %d %q", got.Box, got.AnswerIndex, got.Options, box, answer, options)
	}
	if ws.dirty || saves < 20 || strays < 5 {
		t.Fatalf("dirty %v after %d saves and %d stray clicks", ws.dirty, saves, strays)
	}
}
