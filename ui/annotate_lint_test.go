package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// openItem opens the queue item of sample id, or of image path when id is "".
func openQueueSample(t *testing.T, ws *workspace, id string) {
	t.Helper()
	for i, it := range ws.items {
		if it.kind == qSample && it.sample.ID == id {
			ws.queue.Select(i)
			if ws.sample == nil || ws.sample.ID != id {
				t.Fatalf("%s did not open", id)
			}
			return
		}
	}
	t.Fatalf("%s is not in the queue", id)
}

// openOther opens another sample or image of the queue than the one open.
func openAnotherItem(t *testing.T, ws *workspace) {
	t.Helper()
	for i, it := range ws.items {
		if selectable(it) && i != ws.current {
			ws.queue.Select(i)
			return
		}
	}
	t.Fatal("nothing else in the queue")
}

// backToAnnotate leaves the Annotate screen for the first screen and comes back:
// a new workspace.
func leaveAndReturn(t *testing.T, u *App) *workspace {
	t.Helper()
	u.nav.Select(0)
	for i, s := range u.screens {
		if s.title == "Annotate" {
			u.nav.Select(i)
		}
	}
	return findWorkspace(t, u)
}

func findingOnField(ws *workspace, field string) (annotate.Finding, bool) {
	i := slices.IndexFunc(ws.findings, func(f annotate.Finding) bool { return f.Field == field })
	if i < 0 {
		return annotate.Finding{}, false
	}
	return ws.findings[i], true
}

// An open answer's tolerance that is not a number is a lint error in the panel,
// not a note beside the field: Submit waits, and the text typed is saved with the
// draft and still there (with its error) on coming back; "1,5" is no numeric
// answer (issue 27).
func TestAnnotateOpenAnswerNumbersAreLint(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0002-kitchen-1/img_001.jpg", annotate.KindOpen)
	id := ws.sample.ID
	o := ws.form.(*openForm)
	test.Type(o.question, "How far is the kettle from the apple, in metres?")
	test.Type(o.answer, "2.5")
	test.Tap(o.numeric)
	test.Type(o.tolerance, "1,5")
	f, ok := findingOnField(ws, "tolerance")
	if !ok || f.Severity != annotate.SeverityError {
		t.Fatalf("no error on the tolerance: %+v", ws.findings)
	}
	panel := labelTexts(ws.lint.obj)
	for _, want := range []string{"ERROR  the tolerance", `the tolerance "1,5" is not a number`, "Fix: write it as 1.5"} {
		if !strings.Contains(panel, want) {
			t.Errorf("the guideline check does not say %q:\n%s", want, panel)
		}
	}
	if form := labelTexts(ws.form.object()); strings.Contains(form, "not a number") {
		t.Errorf("the form says it itself:\n%s", form)
	}
	if !ws.submitBtn.Disabled() {
		t.Fatalf("Submit enabled with an invalid tolerance: %q", ws.submitWhy.Text)
	}
	shortcut(u, fyne.KeyReturn, ctrl)
	if si := storedSample(t, u, id); si.Status != verify.StateDraft {
		t.Fatalf("submitted with an invalid tolerance: %s", si.Status)
	}
	if ws.saveNow(); ws.dirty {
		t.Fatal("the draft was not saved")
	}
	if si := storedSample(t, u, id); si.Content.ToleranceText != "1,5" || si.Content.Tolerance != nil {
		t.Fatalf("the draft keeps tolerance %v / %q, want the text typed", si.Content.Tolerance, si.Content.ToleranceText)
	}

	// Away and back: the field shows what was typed, the error is still there.
	openAnotherItem(t, ws)
	openQueueSample(t, ws, id)
	o = ws.form.(*openForm)
	if o.tolerance.Text != "1,5" || !o.numeric.Checked {
		t.Fatalf("back: tolerance %q, numeric %v", o.tolerance.Text, o.numeric.Checked)
	}
	if _, ok := findingOnField(ws, "tolerance"); !ok || !ws.submitBtn.Disabled() {
		t.Fatalf("back: findings %+v, submit enabled %v", ws.findings, !ws.submitBtn.Disabled())
	}

	// A number for the tolerance, "1,5" for the answer: an error on the answer.
	o.tolerance.SetText("0.5")
	o.answer.SetText("1,5")
	if f, ok := findingOnField(ws, "answer"); !ok || f.Severity != annotate.SeverityError || !strings.Contains(f.Hint, "write it as 1.5") {
		t.Fatalf("answer 1,5: findings %+v", ws.findings)
	}
	if !ws.submitBtn.Disabled() {
		t.Fatal("Submit enabled with answer 1,5")
	}
	o.answer.SetText("1.5")
	if ws.submitBtn.Disabled() {
		t.Fatalf("Submit refused: %s; %+v", ws.submitWhy.Text, ws.findings)
	}
	test.Tap(ws.submitBtn)
	si := storedSample(t, u, id)
	if si.Status != verify.StateRound1 || si.Content.AnswerText != "1.5" || si.Content.Tolerance == nil || *si.Content.Tolerance != 0.5 || si.Content.ToleranceText != "" {
		t.Fatalf("stored %s %+v", si.Status, si.Content)
	}
}

// Warnings do not block Submit, and a warning acknowledged stays acknowledged
// when the annotator opens another item and comes back, or leaves the screen
// and comes back (issue 27); the submit records it.
func TestAnnotateAcknowledgementSurvivesComingBack(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id := ws.sample.ID
	f := ws.form.(*hopForm)
	f.question.SetText("From the perspective of the cat, " + strings.ToLower(f.question.Text[:1]) + f.question.Text[1:])
	i := slices.IndexFunc(ws.lint.findings, func(f annotate.Finding) bool { return f.Rule == annotate.RuleExoPhrase })
	if i < 0 || annotate.HasErrors(ws.findings) {
		t.Fatalf("want only warnings, among them exo-phrase: %+v", ws.findings)
	}
	if ws.submitBtn.Disabled() {
		t.Fatalf("a warning blocks Submit: %q", ws.submitWhy.Text)
	}
	test.Tap(ws.lint.acks[i])
	acknowledged := func(ws *workspace) bool {
		i := slices.IndexFunc(ws.lint.findings, func(f annotate.Finding) bool { return f.Rule == annotate.RuleExoPhrase })
		return i >= 0 && ws.lint.acks[i] != nil && ws.lint.acks[i].Text == "Acknowledged — undo" && !strings.Contains(ws.submitWhy.Text, "Submitting acknowledges")
	}
	if !acknowledged(ws) {
		t.Fatalf("not acknowledged: %q", ws.submitWhy.Text)
	}

	openAnotherItem(t, ws)
	openQueueSample(t, ws, id)
	if !acknowledged(ws) {
		t.Fatalf("after another item: not acknowledged (%q)", ws.submitWhy.Text)
	}
	ws = leaveAndReturn(t, u)
	openQueueSample(t, ws, id)
	if !acknowledged(ws) {
		t.Fatalf("after another screen: not acknowledged (%q)", ws.submitWhy.Text)
	}
	test.Tap(ws.submitBtn)
	revs, err := u.db.As(u.user).SampleRevisions(context.Background(), id)
	if err != nil || len(revs) != 1 || !slices.Contains(revs[0].Acknowledged, annotate.RuleExoPhrase) {
		t.Fatalf("revisions %+v, %v", revs, err)
	}

	// A sample submitted before starts from what its submit acknowledged (a
	// returned sample, in another session).
	delete(sessionAcks, u)
	si := storedSample(t, u, id)
	revs, err = u.db.As(u.user).SampleRevisions(context.Background(), id)
	if acks := ws.acksFor(si, revs, err); !acks[annotate.RuleExoPhrase] {
		t.Errorf("a new session starts from %v", acks)
	}
}

// A warning left open does not stop Submit: the submit acknowledges it, as the
// line above Submit said it would.
func TestAnnotateSubmitWithAnOpenWarning(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id := ws.sample.ID
	f := ws.form.(*hopForm)
	f.question.SetText("From the perspective of the cat, " + strings.ToLower(f.question.Text[:1]) + f.question.Text[1:])
	if !strings.Contains(ws.submitWhy.Text, "Submitting acknowledges 1 warning: the question: an exo question starts with a subject phrase") {
		t.Fatalf("line above Submit: %q", ws.submitWhy.Text)
	}
	shortcut(u, fyne.KeyReturn, ctrl)
	si := storedSample(t, u, id)
	revs, err := u.db.As(u.user).SampleRevisions(context.Background(), id)
	if si.Status != verify.StateRound1 || err != nil || len(revs) != 1 || !slices.Equal(revs[0].Acknowledged, []string{annotate.RuleExoPhrase}) {
		t.Fatalf("stored %s, revisions %+v %v", si.Status, revs, err)
	}
}

// A new hop question's guideline check says what to do in the editor: tick the
// categories, not set a hop field it does not have (issue 27).
func TestAnnotateLintSaysWhatToDo(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0002-kitchen-1/img_001.jpg", annotate.KindHopQA)
	panel := labelTexts(ws.lint.obj)
	if !strings.Contains(panel, "no reasoning category is chosen") || !strings.Contains(panel, "tick the categories the question uses") {
		t.Errorf("the check does not say to tick the categories:\n%s", panel)
	}
	for _, raw := range []string{"hop is missing", "set hop", "the hop", "categories is missing"} {
		if strings.Contains(panel, raw) {
			t.Errorf("the check says %q:\n%s", raw, panel)
		}
	}
}
