package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

const altKey = fyne.KeyModifierAlt

// newHopQuestion starts a hop question on a demo image with question q.
func newHopQuestion(t *testing.T, q string) (*App, *workspace, *hopForm) {
	t.Helper()
	u, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0002-kitchen-1/img_001.jpg", annotate.KindHopQA)
	f := ws.form.(*hopForm)
	f.question.SetText(q)
	return u, ws, f
}

func checkedCats(f *hopForm) []annotate.Category { return f.checkedCategories() }

// A selection that cuts words is tagged whole words, and tagging a phrase ticks
// its category (the hop count follows) (issue 27).
func TestAnnotateTagSnapsToWordsAndTicks(t *testing.T) {
	_, ws, f := newHopQuestion(t, "Which round object on the table is closest to the door?")
	selectPhrase(t, &f.question.Entry, "und obj")
	test.Tap(findButton(t, ws.root, "ATT"))
	if want := "Which <ATT>round object</ATT> on the table is closest to the door?"; ws.cur.QuestionTag != want {
		t.Fatalf("tagged %q, want %q", ws.cur.QuestionTag, want)
	}
	if got := checkedCats(f); !slices.Equal(got, []annotate.Category{annotate.CatAtt}) || !slices.Equal(ws.cur.Categories, got) || ws.cur.Hop != 1 {
		t.Fatalf("ticked %v, sample %v hop %d", got, ws.cur.Categories, ws.cur.Hop)
	}
	selectPhrase(t, &f.question.Entry, "n the tab")
	test.Tap(findButton(t, ws.root, "POS"))
	if want := "Which <ATT>round object</ATT> <POS>on the table</POS> is closest to the door?"; ws.cur.QuestionTag != want {
		t.Fatalf("tagged %q, want %q", ws.cur.QuestionTag, want)
	}
	if got := checkedCats(f); !slices.Equal(got, []annotate.Category{annotate.CatAtt, annotate.CatPos}) || ws.cur.Hop != 2 || !strings.HasPrefix(f.hop.Text, "2-hop") {
		t.Fatalf("ticked %v, hop %d, %q", got, ws.cur.Hop, f.hop.Text)
	}
	if slices.ContainsFunc(ws.findings, func(f annotate.Finding) bool { return f.Rule == annotate.RuleCategoryTags }) {
		t.Errorf("tags and categories disagree: %+v", ws.findings)
	}
}

// Alt+A, Alt+P, Alt+R tag the question's selection while the question has the
// focus, without typing into it; elsewhere they change nothing and say what to
// do. Alt+E and Alt+X choose the viewpoint. A bare letter never tags.
func TestAnnotateTagAndViewKeys(t *testing.T) {
	u, ws, f := newHopQuestion(t, "Which round object on the table is closest to the door?")
	q := f.question.Text
	// Selected, and focused as a click into the question does (the test
	// driver's tap in selectPhrase does not focus).
	alt := func(k fyne.KeyName) {
		u.win.Canvas().Focus(f.question)
		f.question.TypedShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: altKey})
	}
	selectPhrase(t, &f.question.Entry, "round")
	alt(fyne.KeyA)
	selectPhrase(t, &f.question.Entry, "on the table")
	alt(fyne.KeyP)
	selectPhrase(t, &f.question.Entry, "closest")
	alt(fyne.KeyR)
	if want := "Which <ATT>round</ATT> object <POS>on the table</POS> is <REL>closest</REL> to the door?"; ws.cur.QuestionTag != want || f.question.Text != q || ws.cur.Question != q {
		t.Fatalf("after Alt+A, Alt+P, Alt+R: tagged %q, question %q", ws.cur.QuestionTag, f.question.Text)
	}
	if got := checkedCats(f); len(got) != 3 || ws.cur.Hop != 3 {
		t.Fatalf("ticked %v, hop %d", got, ws.cur.Hop)
	}
	// A bare letter in the question is typed, nothing else.
	before := ws.cur.QuestionTag
	f.question.TypedRune('a')
	if ws.cur.Question == q || strings.Count(ws.cur.QuestionTag, "<") != strings.Count(before, "<") {
		t.Fatalf("typing a: question %q, tags %q", ws.cur.Question, ws.cur.QuestionTag)
	}
	f.question.SetText(q)

	// Alt+U untags the phrase at the cursor.
	selectPhrase(t, &f.question.Entry, "closest")
	alt(fyne.KeyU)
	if strings.Contains(ws.cur.QuestionTag, "<REL>") {
		t.Fatalf("Alt+U left %q", ws.cur.QuestionTag)
	}

	// With the focus elsewhere, Alt+R through the window changes nothing.
	u.win.Canvas().Focus(ws.host)
	before = ws.cur.QuestionTag
	shortcut(u, fyne.KeyR, altKey)
	if ws.cur.QuestionTag != before || !strings.Contains(u.status.Text, "Click into the question") {
		t.Fatalf("Alt+R outside the question: tags %q, status %q", ws.cur.QuestionTag, u.status.Text)
	}

	// The viewpoint from anywhere: the window and the question.
	shortcut(u, fyne.KeyE, altKey)
	if ws.cur.View != annotate.ViewEgo || !f.subjectRow.Visible() {
		t.Fatalf("Alt+E: view %q", ws.cur.View)
	}
	u.win.Canvas().Focus(f.question)
	alt(fyne.KeyX)
	if ws.cur.View != annotate.ViewExo {
		t.Fatalf("Alt+X: view %q", ws.cur.View)
	}
}

// The status hint of a tag button pressed without a selection clears once the
// phrase is tagged (issue 27); another status is left alone.
func TestAnnotateTagHintClears(t *testing.T) {
	u, ws, f := newHopQuestion(t, "Which round object on the table is closest to the door?")
	test.Tap(findButton(t, ws.root, "REL"))
	if !strings.Contains(u.status.Text, "Select the phrase that carries rel") || !strings.Contains(u.status.Text, "Alt+R") {
		t.Fatalf("status %q", u.status.Text)
	}
	selectPhrase(t, &f.question.Entry, "closest")
	test.Tap(findButton(t, ws.root, "REL"))
	if !strings.Contains(ws.cur.QuestionTag, "<REL>closest</REL>") || u.status.Text != "" {
		t.Fatalf("tagged %q, status %q", ws.cur.QuestionTag, u.status.Text)
	}
	u.setStatus("Saved.")
	selectPhrase(t, &f.question.Entry, "round")
	test.Tap(findButton(t, ws.root, "ATT"))
	if u.status.Text != "Saved." {
		t.Errorf("an unrelated status was cleared: %q", u.status.Text)
	}
}
