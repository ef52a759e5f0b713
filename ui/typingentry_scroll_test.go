package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
)

// longStepDraft opens ann2's Annotate screen at w×h on a step-graph draft whose
// steps are long sentences.
func longStepDraft(t *testing.T, w, h float32) (*App, *workspace) {
	t.Helper()
	u, db := demoApp(t)
	ctx := context.Background()
	ann2, err := db.Authenticate(ctx, "ann2", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	sg, err := db.CreateSample(ctx, ann2, p.ID, annotate.Sample{Kind: annotate.KindStepGraph, Image: "0001-office-1/img_002.jpg",
		Scene: "0001-office-1", Question: "Pick up the laptop", Steps: steps(
			[]string{"step1", "Remove the heavy blue book from the top of the closed laptop on the desk"},
			[]string{"step2", "Move the half-full coffee mug away from the laptop's left edge", "step1"},
			[]string{"step3", "Unplug the charger cable from the laptop's right side", "step2"},
			[]string{"step4", "Pick up the laptop with both hands", "step3"})})
	if err != nil {
		t.Fatal(err)
	}
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "ann2", demo.DemoPassword)
	u.win.Resize(fyne.NewSize(w, h))
	u.nav.Select(1)
	ws := findWorkspace(t, u)
	ws.autosaveDelay = time.Hour
	for i, it := range ws.items {
		if it.kind == qSample && it.sample.ID == sg.ID {
			ws.queue.Select(i)
		}
	}
	if _, ok := ws.form.(*stepForm); !ok || ws.formScroll == nil {
		t.Fatalf("%s did not open", sg.ID)
	}
	return u, ws
}

// inView reports whether o lies wholly within the visible part of scroll s.
func inView(s *container.Scroll, o fyne.CanvasObject) bool {
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s).Y
	return top >= 0 && top+o.Size().Height <= s.Size().Height+0.5
}

// inScroll reports whether o is inside the content of s.
func inScroll(s *container.Scroll, o fyne.CanvasObject) bool {
	for _, x := range test.LaidOutObjects(s.Content) {
		if x == o {
			return true
		}
	}
	return false
}

// Tab through the Annotate form at 1024×700: every field that takes the focus is
// scrolled into the form's view (issue 17).
func TestAnnotateTabScrollsTheFieldIntoView(t *testing.T) {
	u, ws := longStepDraft(t, 1024, 700)
	c := u.win.Canvas()
	c.Focus(ws.form.(*stepForm).question)
	seen, below := 0, 0
	for range 40 {
		c.FocusNext()
		f, ok := c.Focused().(fyne.CanvasObject)
		switch f.(type) {
		case *wsEntry, *wsCheck: // the form's fields (its buttons: formbutton_test.go)
		default:
			ok = false
		}
		if !ok || !inScroll(ws.formScroll, f) {
			continue
		}
		seen++
		if ws.formScroll.Offset.Y > 0 {
			below++
		}
		if !inView(ws.formScroll, f) {
			t.Fatalf("focused field %T (%d of the form) is out of view at offset %.0f", f, seen, ws.formScroll.Offset.Y)
		}
	}
	if seen < 10 || below == 0 {
		t.Fatalf("Tab reached %d fields of the form, %d of them below its first screen", seen, below)
	}
}

// The same in the verifier's correction editor: its fields follow their form.
func TestCorrectionTabScrollsTheFieldIntoView(t *testing.T) {
	u, _ := demoApp(t)
	u.win.Resize(fyne.NewSize(1024, 560))
	v := openVerify(t, u, "ver1")
	openItem(t, v, "demo-sg-002")
	v.openCorrection()
	e := v.editor
	e.dlg.Resize(fyne.NewSize(900, 330)) // short, so that its form scrolls
	c := u.win.Canvas()
	var form *container.Scroll
	for _, o := range test.LaidOutObjects(c.Overlays().Top()) {
		if s, ok := o.(*container.Scroll); ok && inScroll(s, e.comment) {
			form = s
		}
	}
	if form == nil {
		t.Fatal("no scrolled form around the comment")
	}
	if inView(form, e.comment) {
		t.Fatal("the whole correction form fits: nothing to scroll")
	}
	c.Focus(e.comment)
	if !inView(form, e.comment) || form.Offset.Y == 0 {
		t.Fatalf("the focused comment is out of view (offset %.0f)", form.Offset.Y)
	}
	c.Focus(e.question)
	if !inView(form, e.question) {
		t.Fatalf("the focused question is out of view (offset %.0f)", form.Offset.Y)
	}
}

// A wheel over a text field whose text has nothing to scroll scrolls the form; over
// a field with more text than it shows, it scrolls the field first (issue 17).
func TestAnnotateWheelOverTextFieldScrollsTheForm(t *testing.T) {
	u, ws := longStepDraft(t, 1024, 700)
	f := ws.form.(*stepForm)
	entry := f.cards[0].content
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(entry).Add(fyne.NewPos(20, 10))
	test.Scroll(u.win.Canvas(), at, 0, -60)
	if ws.formScroll.Offset.Y <= 0 {
		t.Fatalf("the wheel over a step's text did not scroll the form (offset %.0f)", ws.formScroll.Offset.Y)
	}

	// A long text: the wheel moves the text inside the field, the form stays.
	ws.formScroll.ScrollToOffset(fyne.Position{})
	u.win.Canvas().Focus(entry)
	entry.SetText(strings.Repeat("Remove the heavy blue book from the top of the laptop. ", 12))
	entry.inner.ScrollToOffset(fyne.Position{})
	before := ws.formScroll.Offset
	at = d.AbsolutePositionForObject(entry).Add(fyne.NewPos(20, 10))
	test.Scroll(u.win.Canvas(), at, 0, -20)
	if entry.inner.Offset.Y <= 0 || ws.formScroll.Offset != before {
		t.Fatalf("a long text: field offset %.0f, form %v → %v", entry.inner.Offset.Y, before, ws.formScroll.Offset)
	}
}

// A step's text takes the width of the form and wraps, so that long steps show
// whole (it was ~200 px beside the id and the buttons; issue 17).
func TestAnnotateStepTextUsesTheWidth(t *testing.T) {
	u, ws := longStepDraft(t, 1024, 700)
	f := ws.form.(*stepForm)
	formW := ws.formScroll.Size().Width
	for i, c := range f.cards {
		if w := c.content.Size().Width; w < 0.8*formW {
			t.Errorf("step %d's text is %.0f px wide in a %.0f px form", i+1, w, formW)
		}
		if c.content.Wrapping != fyne.TextWrapWord {
			t.Errorf("step %d's text does not wrap", i+1)
		}
	}
	// Return adds no line to a step.
	e := f.cards[3].content
	u.win.Canvas().Focus(e)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if strings.Contains(e.Text, "\n") || strings.Contains(ws.cur.Steps[3].Content, "\n") {
		t.Errorf("Return made a new line in a step: %q", e.Text)
	}
	u.win.Resize(fyne.NewSize(1024, 1000)) // the whole form: the test painter does not clip a scrolled form
	assertGolden(t, "annotate_steps_long.png", u.win)
}
