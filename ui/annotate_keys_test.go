package ui

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"testing"

	"fyne.io/fyne/v2/widget"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// clickOn presses and releases the primary button on o, then taps it, as the
// desktop driver does (an entry takes the focus on the press, not the tap).
func clickOn(o fyne.CanvasObject) {
	ev := &desktop.MouseEvent{Button: desktop.MouseButtonPrimary, PointEvent: fyne.PointEvent{Position: fyne.NewPos(2, 2)}}
	if m, ok := o.(desktop.Mouseable); ok {
		m.MouseDown(ev)
		m.MouseUp(ev)
	}
	if t, ok := o.(fyne.Tappable); ok {
		test.TapAt(t, ev.Position)
	}
}

// showAnnotate shows the Annotate screen again (the screen is made anew) and
// returns its workspace.
func showAnnotate(t *testing.T, u *App) *workspace {
	t.Helper()
	for i, s := range u.screens {
		if s.title == "Annotate" {
			u.nav.Select(i)
		}
	}
	ws := findWorkspace(t, u)
	ws.autosaveDelay = time.Hour
	return ws
}

// Letter keys typed with nothing focused (a click that landed beside the Question
// field), with a check focused, or after the pointer passed over the image, are no
// shortcuts: the box, the answer and the open item stay, and nothing is saved. A
// click on the image, or the queue list with the keyboard, makes them shortcuts.
func TestAnnotateLetterKeysOnlyWithTheImageOrQueueFocused(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	c := u.win.Canvas()
	id, box, answer, start := ws.sample.ID, *ws.cur.Box, ws.cur.AnswerIndex, ws.current
	version := storedSample(t, u, id).Version
	unchanged := func(how string) {
		t.Helper()
		if ws.sample == nil || ws.sample.ID != id || ws.current != start {
			t.Fatalf("%s: the open item changed to %d (%+v)", how, ws.current, ws.sample)
		}
		if ws.cur.Box == nil || *ws.cur.Box != box || ws.cur.AnswerIndex != answer {
			t.Fatalf("%s: box %v answer %d, want %v and %d", how, ws.cur.Box, ws.cur.AnswerIndex, box, answer)
		}
		if len(ws.canvas.Boxes()) != 1 || ws.canvas.Boxes()[0] != box {
			t.Fatalf("%s: the canvas shows %v", how, ws.canvas.Boxes())
		}
	}
	sentence := "Now rename 1 and 2 and draw a red box"

	c.Unfocus() // a click a few pixels beside the Question field
	typeKeys(c, sentence)
	unchanged("typed with nothing focused")
	for _, k := range []fyne.KeyName{fyne.KeyBackspace, fyne.KeyDelete, fyne.KeyLeft, fyne.KeyDown} {
		c.(interface{ OnTypedKey() func(*fyne.KeyEvent) }).OnTypedKey()(&fyne.KeyEvent{Name: k})
	}
	unchanged("Backspace, Delete and arrows with nothing focused")

	f := ws.form.(*hopForm)
	clickOn(f.cats[0]) // ticks att: the check has the keyboard
	clickOn(f.cats[0]) // and unticks it
	test.Type(f.cats[0], "nd2")
	unchanged("typed on a check")

	c.Unfocus()
	test.MoveMouse(c, hostPos(ws, imagePos(ws, 10, 10))) // the pointer passes over the image
	if c.Focused() != nil {
		t.Fatalf("the pointer over the image took the keyboard: %T", c.Focused())
	}
	typeKeys(c, "n")
	unchanged("typed after the pointer passed over the image")
	if got := storedSample(t, u, id); got.Version != version {
		t.Fatalf("stray keys saved the draft: version %d → %d", version, got.Version)
	}

	// A click on the image gives it the letter keys: N clears the box, and Ctrl+Z
	// brings it back.
	ws.host.MouseDown(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary, PointEvent: fyne.PointEvent{Position: imagePos(ws, 5, 5)}})
	ws.host.MouseUp(&desktop.MouseEvent{Button: desktop.MouseButtonPrimary})
	if c.Focused() != fyne.Focusable(ws.host) {
		t.Fatalf("a click on the image did not give it the keyboard: %T", c.Focused())
	}
	typeKeys(c, "n")
	if ws.cur.Box != nil {
		t.Fatal("n on the clicked image did not clear the box")
	}
	c.(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	unchanged("Ctrl+Z after n")

	// The queue list with the keyboard takes them too.
	c.Focus(ws.queue)
	typeKeys(c, "d")
	if ws.current == start {
		t.Fatal("d on the focused queue did not open the next item")
	}
}

// A click on a field gives it the keyboard, in a new multiple-choice sample's
// option A too; what is typed there lands in the option and runs no shortcut.
func TestAnnotateClickFocusesTheFieldOfANewSample(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	img := ws.image.RelPath
	test.Tap(findButton(t, ws.root, "New sample…"))
	// the dialog's kind choice, then Create
	var chose bool
	for _, o := range test.LaidOutObjects(u.win.Canvas().Overlays().Top()) {
		if r, ok := o.(*widget.RadioGroup); ok {
			r.SetSelected(kindTitle(annotate.KindMCQ))
			chose = true
		}
	}
	if !chose {
		t.Fatal("no kind choice in the New sample dialog")
	}
	test.Tap(findButton(t, u.win.Canvas().Overlays().Top(), "Create"))
	if ws.sample == nil || ws.sample.Kind != annotate.KindMCQ || ws.image.RelPath != img {
		t.Fatalf("no new multiple-choice draft open: %+v", ws.sample)
	}
	f := ws.form.(*optionsForm)
	a := f.options.entries[0]
	clickOn(a)
	if u.win.Canvas().Focused() != fyne.Focusable(a) {
		t.Fatalf("a click on option A left the keyboard to %T", u.win.Canvas().Focused())
	}
	typeKeys(u.win.Canvas(), "the mug and 1 cup")
	if ws.cur.Options[0] != "the mug and 1 cup" || ws.cur.AnswerIndex != -1 || ws.current < 0 || ws.sample.Kind != annotate.KindMCQ {
		t.Fatalf("option A %q, answer %d", ws.cur.Options[0], ws.cur.AnswerIndex)
	}
	clickOn(f.question)
	if u.win.Canvas().Focused() != fyne.Focusable(f.question) {
		t.Fatalf("a click on the question left the keyboard to %T", u.win.Canvas().Focused())
	}
}

// A cleared box and a changed answer can be undone after going to another item or
// another screen and back (the history is kept for the session), unless the
// sample changed meanwhile.
func TestAnnotateUndoSurvivesLeavingAndComingBack(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id, box, answer := ws.sample.ID, *ws.cur.Box, ws.cur.AnswerIndex
	ws.host.takeFocus()
	typeKeys(u.win.Canvas(), "n")
	if ws.cur.Box != nil {
		t.Fatal("n did not clear the box")
	}
	ws.allImages.SetChecked(true)
	typeKeys(u.win.Canvas(), "d") // the next item: the draft is saved without its box
	if ws.sample != nil && ws.sample.ID == id {
		t.Fatal("d did not leave the draft")
	}
	if storedSample(t, u, id).Content.Box != nil {
		t.Fatal("the cleared box was not saved on leaving")
	}
	typeKeys(u.win.Canvas(), "a")
	if ws.sample == nil || ws.sample.ID != id {
		t.Fatalf("a did not come back to %s", id)
	}
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if ws.cur.Box == nil || *ws.cur.Box != box || len(ws.canvas.Boxes()) != 1 {
		t.Fatalf("Ctrl+Z after coming back: box %v, want %v", ws.cur.Box, box)
	}

	// Another screen and back: the answer changed by a key comes back too.
	other := (answer + 1) % 4
	ws.host.takeFocus()
	typeKeys(u.win.Canvas(), string(rune('1'+other)))
	if ws.cur.AnswerIndex != other {
		t.Fatalf("key %d: answer %d", other+1, ws.cur.AnswerIndex)
	}
	u.nav.Select(0)
	ws = showAnnotate(t, u)
	if ws.sample == nil || ws.sample.ID != id || ws.cur.AnswerIndex != other {
		t.Fatalf("came back to %+v", ws.sample)
	}
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if ws.cur.AnswerIndex != answer {
		t.Fatalf("Ctrl+Z after another screen: answer %d, want %d", ws.cur.AnswerIndex, answer)
	}
	shortcut(u, fyne.KeyS, ctrl)
	if got := storedSample(t, u, id).Content; got.Box == nil || *got.Box != box || got.AnswerIndex != answer {
		t.Fatalf("stored box %v answer %d", got.Box, got.AnswerIndex)
	}

	// Changed elsewhere meanwhile: the old steps are forgotten, not applied over it.
	ws.host.takeFocus()
	typeKeys(u.win.Canvas(), "n")
	typeKeys(u.win.Canvas(), "d")
	si := storedSample(t, u, id)
	si.Content.Question = "Changed elsewhere?"
	if _, err := u.db.As(u.user).SaveDraft(context.Background(), id, si.Version, si.Content); err != nil {
		t.Fatal(err)
	}
	typeKeys(u.win.Canvas(), "a")
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if ws.cur.Question != "Changed elsewhere?" || ws.cur.Box != nil {
		t.Fatalf("undo after a change elsewhere: question %q box %v", ws.cur.Question, ws.cur.Box)
	}
}

// typeKeys types s as the desktop driver does: to the focused widget, else to the
// window (test.TypeOnCanvas always types to the window).
func typeKeys(c fyne.Canvas, s string) {
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if h := c.OnTypedRune(); h != nil {
			h(r)
		}
	}
}

// Ctrl+Enter submits and opens the next image to annotate: with every image
// listed, the one after the submitted sample's image; never a submitted sample.
func TestAnnotateSubmitOpensTheNextImage(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	ws.allImages.SetChecked(true)
	id, path := ws.sample.ID, ws.image.RelPath
	var want string
	seen := false
	for _, it := range ws.items {
		if it.kind == qImage {
			if seen && want == "" {
				want = it.image.RelPath
			}
			seen = seen || it.image.RelPath == path
		}
	}
	if want == "" {
		t.Fatalf("no image after %s in the queue", path)
	}
	shortcut(u, fyne.KeyReturn, ctrl)
	if storedSample(t, u, id).Status == verify.StateDraft {
		t.Fatalf("%s was not submitted: %s", id, u.status.Text)
	}
	if ws.sample != nil || !ws.hasImage || ws.image.RelPath != want {
		t.Fatalf("after Ctrl+Enter: sample %v, image %q; want the image %q", ws.sample != nil, ws.image.RelPath, want)
	}
}

// Others' work arriving through the change poll refreshes the queue's counts and
// rows, and leaves what is being typed alone.
func TestAnnotateQueueFollowsOthersWork(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	clickOn(f.question)
	typeKeys(u.win.Canvas(), " Really")
	typed, id := f.question.Text, ws.sample.ID
	row := func() string {
		for _, it := range ws.items {
			if it.kind == qSample && it.sample.ID == "demo-hq-007" {
				return it.title
			}
		}
		return ""
	}
	if !strings.HasSuffix(row(), "Round 1") {
		t.Fatalf("before: %q", row())
	}
	lead, err := u.db.As(bench.Owner()).UserByName(context.Background(), "lead")
	if err != nil {
		t.Fatal(err)
	}
	lead.Role = string(verify.RoleLead)
	if err := u.db.As(lead).Withdraw(context.Background(), "demo-hq-007", "a duplicate"); err != nil {
		t.Fatal(err)
	}
	u.othersChanged() // what the poll runs when the project's change counter moved
	if want := "demo-hq-007 · " + stateTitle(verify.StateWithdrawn); row() != want {
		t.Fatalf("after the lead withdrew it: %q, want %q", row(), want)
	}
	if ws.sample == nil || ws.sample.ID != id || f.question.Text != typed || u.win.Canvas().Focused() != fyne.Focusable(f.question) {
		t.Fatalf("the refresh disturbed the editor: %q (focus %T)", f.question.Text, u.win.Canvas().Focused())
	}
}

// The box's x1 y1 x2 y2 are shown in full, follow a drag, and take typed
// numbers (Enter), checked against the image and undoable.
func TestAnnotateBoxFieldsShowAndTakeNumbers(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	u.win.Resize(fyne.NewSize(1024, 700))
	fields := func() [4]string {
		var out [4]string
		for i, e := range ws.boxFields.fields {
			out[i] = e.Text
		}
		return out
	}
	box := *ws.cur.Box
	want := [4]string{}
	for i := range box {
		want[i] = strconv.FormatFloat(box[i], 'f', -1, 64)
	}
	if fields() != want {
		t.Fatalf("fields %q, want %q", fields(), want)
	}
	for _, e := range ws.boxFields.fields { // each number whole, four digits too, at 1024×700
		if w := fyne.MeasureText("8888", theme.TextSize(), e.TextStyle).Width; e.Size().Width < w+2*theme.InnerPadding() {
			t.Fatalf("the field of %q is %v wide, four digits need %v", e.Text, e.Size().Width, w+2*theme.InnerPadding())
		}
	}
	// Typed: x2, then Enter.
	x2 := ws.boxFields.fields[2]
	clickOn(x2)
	x2.SetText("")
	typeKeys(u.win.Canvas(), "455")
	x2.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	typedBox := annotate.Box{box[0], box[1], 455, box[3]}
	if ws.cur.Box == nil || *ws.cur.Box != typedBox || ws.canvas.Boxes()[0] != typedBox {
		t.Fatalf("typed x2: box %v, canvas %v, want %v", ws.cur.Box, ws.canvas.Boxes(), typedBox)
	}
	// Outside the image (960 px wide): refused, said why.
	x2.SetText("5000")
	x2.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if *ws.cur.Box != typedBox || !strings.Contains(u.status.Text, "not changed") {
		t.Fatalf("x2 5000: box %v, status %q", *ws.cur.Box, u.status.Text)
	}
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if *ws.cur.Box != box || fields() != want {
		t.Fatalf("undo: box %v, fields %q", *ws.cur.Box, fields())
	}
	// A drag shows the new box in the fields.
	u.win.Canvas().Unfocus()
	test.Drag(u.win.Canvas(), hostPos(ws, imagePos(ws, 20, 20)), 60, 40)
	for i, f := range fields() {
		if f != strconv.FormatFloat(ws.cur.Box[i], 'f', -1, 64) {
			t.Fatalf("after a drag the fields say %q, the box is %v", fields(), *ws.cur.Box)
		}
	}
}

// Dragging a handle past the opposite corner flips the box: the bottom-right
// handle dragged above and left of the top-left corner.
func TestAnnotateHandlePastTheOppositeCornerFlips(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	b := *ws.cur.Box
	v := ws.canvas.View()
	br := v.ToScreen(b[2], b[3])
	tl := v.ToScreen(b[0], b[1])
	to := tl.AddXY(-40, -30)
	test.Drag(u.win.Canvas(), hostPos(ws, br), to.X-br.X, to.Y-br.Y)
	x, y := v.ToImage(to)
	want := annotate.Box{math.Round(x), math.Round(y), b[0], b[1]}
	if ws.cur.Box == nil || *ws.cur.Box != want {
		t.Fatalf("flipped box %v, want %v", ws.cur.Box, want)
	}
}

// The kind chooser remembers the kind made last: the next image offers it by
// name, one click, while the chooser itself still waits for a choice.
func TestAnnotateKindChooserRemembersTheLastKind(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0001-office-1/img_001.jpg", annotate.KindMCQ)
	u.nav.Select(0)
	ws = showAnnotate(t, u) // another visit of the screen: still remembered
	ws.allImages.SetChecked(true)
	for i, it := range ws.items {
		if it.kind == qImage && it.image.RelPath == "0002-kitchen-1/img_002.jpg" {
			ws.queue.Select(i)
		}
	}
	if ws.newSampleChoice == nil || ws.newSampleChoice.Selected != "" {
		t.Fatal("the image offers no new sample, or chose its kind")
	}
	test.Tap(findButton(t, ws.root, kindTitle(annotate.KindMCQ)+" again"))
	if ws.sample == nil || ws.sample.Kind != annotate.KindMCQ || ws.image.RelPath != "0002-kitchen-1/img_002.jpg" {
		t.Fatalf("created %+v", ws.sample)
	}
}
