package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

// tabThrough presses Tab n times on c and checks that everything that takes the
// focus inside form (fields, ticks and buttons alike) is scrolled into its view. It
// returns how many focus stops were inside the form, how many of them were buttons,
// and how many came with the form scrolled down.
func tabThrough(t *testing.T, c fyne.Canvas, form *container.Scroll, n int) (stops, buttons, below int) {
	t.Helper()
	for range n {
		c.FocusNext()
		f, ok := c.Focused().(fyne.CanvasObject)
		if !ok || !inScroll(form, f) {
			continue
		}
		stops++
		if _, ok := f.(*formButton); ok {
			buttons++
		}
		if form.Offset.Y > 0 {
			below++
		}
		if !inView(form, f) {
			t.Fatalf("Tab stop %d (%T) is out of the form's view at offset %.0f", stops, f, form.Offset.Y)
		}
	}
	return stops, buttons, below
}

// Tab through the Annotate form of a step graph at 1024×700: the buttons (Add step,
// a step's up/down/delete, Remove edge) come into view like its fields (issue 17).
func TestAnnotateTabScrollsButtonsIntoView(t *testing.T) {
	u, ws := longStepDraft(t, 1024, 700)
	ws.edit("", func(s *annotate.Sample) { s.Steps[3].Precondition = append(s.Steps[3].Precondition, "step1") }) // a redundant edge: a Remove button at the foot
	c := u.win.Canvas()
	c.Focus(ws.form.(*stepForm).question)
	stops, buttons, below := tabThrough(t, c, ws.formScroll, 60)
	if buttons < 10 || below == 0 {
		t.Fatalf("Tab reached %d stops of the form, %d buttons, %d below its first screen", stops, buttons, below)
	}
	if len(ws.form.(*stepForm).fixBtns) == 0 {
		t.Fatal("no Remove edge button to reach")
	}
}

// The correction editor of a hop question: the correct option's buttons follow the
// editor's form too.
func TestCorrectionTabScrollsButtonsIntoView(t *testing.T) {
	u, _ := demoApp(t)
	u.win.Resize(fyne.NewSize(1024, 560))
	v := openVerify(t, u, "ver1")
	openItem(t, v, "demo-hq-004")
	v.openCorrection()
	e := v.editor
	e.dlg.Resize(fyne.NewSize(900, 300)) // short, so that its form scrolls
	c := u.win.Canvas()
	var form *container.Scroll
	for _, o := range test.LaidOutObjects(c.Overlays().Top()) {
		if s, ok := o.(*container.Scroll); ok && inScroll(s, e.comment) {
			form = s
		}
	}
	if form == nil || inView(form, e.comment) {
		t.Fatal("no scrolled correction form, or nothing to scroll")
	}
	c.Focus(e.question)
	stops, buttons, _ := tabThrough(t, c, form, 12)
	if buttons < 4 {
		t.Fatalf("Tab reached %d stops of the form, %d of them the option buttons", stops, buttons)
	}
}
