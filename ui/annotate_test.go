package ui

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// openAnnotate signs name in on the demo project and shows the Annotate screen in a
// 1280×800 window.
func openAnnotate(t *testing.T, name string) (*App, *workspace) {
	t.Helper()
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, name, "demo")
	u.win.Resize(fyne.NewSize(1280, 800))
	for i, s := range u.screens {
		if s.title == "Annotate" {
			u.nav.Select(i)
		}
	}
	ws := findWorkspace(t, u)
	// No autosave timer firing in the middle of a test (the test driver runs its
	// fyne.Do on the timer's goroutine); TestAnnotateAutosaveAfterDebounce sets one.
	ws.autosaveDelay = time.Hour
	return u, ws
}

func findWorkspace(t *testing.T, u *App) *workspace {
	t.Helper()
	for _, o := range test.LaidOutObjects(u.win.Content()) {
		if h, ok := o.(*canvasHost); ok {
			return h.ws
		}
	}
	t.Fatal("the Annotate screen has no canvas")
	return nil
}

// shortcut types a Ctrl shortcut on the window.
func shortcut(u *App, key fyne.KeyName, mod fyne.KeyModifier) {
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: mod})
}

const ctrl = fyne.KeyModifierShortcutDefault

func findButton(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	for _, x := range test.LaidOutObjects(o) {
		if f, ok := x.(*formButton); ok { // a button of a scrolled form (formbutton.go)
			x = &f.Button
		}
		if b, ok := x.(*widget.Button); ok && b.Text == text && b.Visible() {
			return b
		}
	}
	t.Fatalf("no button %q", text)
	return nil
}

// hostPos is the canvas position of point p of the image area (the test driver's
// AbsolutePositionForObject leaves out the canvas inset that test.Drag counts).
func hostPos(ws *workspace, p fyne.Position) fyne.Position {
	inset, _ := ws.u.win.Canvas().InteractiveArea()
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(ws.host).Add(p).Add(inset)
}

// imagePos is the image-area position of image pixel (x, y).
func imagePos(ws *workspace, x, y float64) fyne.Position { return ws.canvas.View().ToScreen(x, y) }

// imageBox is the box the canvas draws for a drag from screen point a to b of the image area.
func imageBox(v interface {
	ToImage(fyne.Position) (float64, float64)
}, a, b fyne.Position) annotate.Box {
	x1, y1 := v.ToImage(a)
	x2, y2 := v.ToImage(b)
	return annotate.Box{math.Round(min(x1, x2)), math.Round(min(y1, y2)), math.Round(max(x1, x2)), math.Round(max(y1, y2))}
}

func storedSample(t *testing.T, u *App, id string) bench.SampleInfo {
	t.Helper()
	si, err := u.db.As(bench.Owner()).Sample(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return si
}

// newSampleOn opens "Show all images", picks the image at path and creates a sample of kind.
func newSampleOn(t *testing.T, ws *workspace, path string, kind annotate.Kind) {
	t.Helper()
	ws.allImages.SetChecked(true)
	for i, it := range ws.items {
		if it.kind == qImage && it.image.RelPath == path {
			ws.queue.Select(i)
		}
	}
	if ws.sample != nil || ws.newSampleChoice == nil || ws.image.RelPath != path {
		t.Fatalf("image %s not open for a new sample", path)
	}
	ws.newSampleChoice.SetSelected(kindTitle(kind))
	test.Tap(ws.newSampleButton)
	if ws.sample == nil || ws.sample.Kind != kind || ws.sample.Status != verify.StateDraft {
		t.Fatalf("no new %s draft open: %+v", kind, ws.sample)
	}
}

func TestAnnotateQueueOrder(t *testing.T) {
	_, ws := openAnnotate(t, "ann2")
	var got []string
	for _, it := range ws.items {
		switch it.kind {
		case qHeader:
			got = append(got, "# "+it.title)
		case qSample:
			got = append(got, it.sample.ID)
		}
	}
	// The submitted samples stay in view with their state, newest change first.
	want := []string{"# Returned to you · 1", "demo-hq-006", "# Your drafts · 0",
		"# Submitted · 5", "demo-op-001", "demo-yn-001", "demo-sg-001", "demo-hq-004", "demo-hq-002",
		"# Images without samples · 0", "# "}
	if !slices.Equal(got, want) {
		t.Fatalf("queue %q, want %q", got, want)
	}
	if ws.sample == nil || ws.sample.ID != "demo-hq-006" {
		t.Fatalf("the returned sample is not opened first: %+v", ws.sample)
	}
	// Every image, paged, once asked for.
	ws.allImages.SetChecked(true)
	n := 0
	for _, it := range ws.items {
		if it.kind == qImage {
			n++
		}
	}
	if n != 8 || ws.imgTotal != 8 {
		t.Errorf("all images: %d listed of %d, want 8", n, ws.imgTotal)
	}
}

func TestAnnotateDrawMoveResizeBox(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	if ws.sample == nil || ws.sample.ID != "demo-hq-005" {
		t.Fatalf("ann1's draft is not open: %+v", ws.sample)
	}
	c := u.win.Canvas()
	test.Type(ws.host, "n") // new box: clears it
	if ws.cur.Box != nil || len(ws.canvas.Boxes()) != 0 {
		t.Fatalf("n left the box %v", ws.cur.Box)
	}
	v := ws.canvas.View()
	a, b := imagePos(ws, 100, 80), imagePos(ws, 350, 260)
	test.Drag(c, hostPos(ws, a), b.X-a.X, b.Y-a.Y)
	drawn := imageBox(v, a, b)
	if ws.cur.Box == nil || *ws.cur.Box != drawn {
		t.Fatalf("drawn box %v, want %v", ws.cur.Box, drawn)
	}
	shortcut(u, fyne.KeyS, ctrl)
	if got := storedSample(t, u, ws.sample.ID).Content.Box; got == nil || *got != drawn {
		t.Fatalf("stored box %v, want %v", got, drawn)
	}

	// Move it by dragging its inside.
	mid := fyne.NewPos((a.X+b.X)/2, (a.Y+b.Y)/2)
	test.Drag(c, hostPos(ws, mid), 30, 20)
	x0, y0 := v.ToImage(mid)
	x1, y1 := v.ToImage(mid.AddXY(30, 20))
	dx, dy := math.Round(x1-x0), math.Round(y1-y0)
	moved := annotate.Box{drawn[0] + dx, drawn[1] + dy, drawn[2] + dx, drawn[3] + dy}
	if *ws.cur.Box != moved {
		t.Fatalf("moved box %v, want %v", *ws.cur.Box, moved)
	}
	// Resize by the bottom-right handle.
	br := v.ToScreen(moved[2], moved[3])
	test.Drag(c, hostPos(ws, br), 40, 30)
	x2, y2 := v.ToImage(br.AddXY(40, 30))
	resized := annotate.Box{moved[0], moved[1], math.Round(x2), math.Round(y2)}
	if *ws.cur.Box != resized {
		t.Fatalf("resized box %v, want %v", *ws.cur.Box, resized)
	}
	shortcut(u, fyne.KeyS, ctrl)
	if got := storedSample(t, u, ws.sample.ID).Content.Box; got == nil || *got != resized {
		t.Fatalf("stored box %v, want %v", got, resized)
	}
	// Drawing again outside the box replaces it: hop QA has one box.
	test.Drag(c, hostPos(ws, imagePos(ws, 20, 20)), 30, 30)
	if boxes := ws.canvas.Boxes(); len(boxes) != 1 || *ws.cur.Box != boxes[0] || boxes[0] == resized {
		t.Fatalf("after a second drawing: canvas %v, sample %v", boxes, *ws.cur.Box)
	}
	// One undo goes back to the resized box, on the canvas too.
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if *ws.cur.Box != resized || ws.canvas.Boxes()[0] != resized {
		t.Fatalf("undo: %v / %v, want %v", *ws.cur.Box, ws.canvas.Boxes(), resized)
	}
}

func TestAnnotateHopQuestionSubmit(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0004-office-2/img_001.jpg", annotate.KindHopQA)
	id := ws.sample.ID
	f := ws.form.(*hopForm)
	test.Type(f.question, "Which round object on the desk is closest to him?")
	test.Tap(findButton(t, ws.root, "Ego (first person)"))
	test.Tap(findButton(t, ws.root, "Real person"))
	test.Type(f.who, "the man in the blue shirt")
	test.Tap(f.insert)
	wantQ := "From the perspective of the man in the blue shirt, which round object on the desk is closest to him?"
	if f.question.Text != wantQ {
		t.Fatalf("question after the insert: %q", f.question.Text)
	}
	for _, c := range f.cats {
		test.Tap(c)
	}
	if f.hop.Text != "3-hop (att + pos + rel)" {
		t.Errorf("hop label %q", f.hop.Text)
	}
	// Tag the phrase of each category: select it with the keyboard, press its button.
	for _, tag := range []struct{ phrase, button string }{{"round", "ATT"}, {"on the desk", "POS"}, {"closest to him", "REL"}} {
		selectPhrase(t, &f.question.Entry, tag.phrase)
		test.Tap(findButton(t, ws.root, tag.button))
	}
	wantTags := "From the perspective of the man in the blue shirt, which <ATT>round</ATT> object <POS>on the desk</POS> is <REL>closest to him</REL>?"
	if ws.cur.QuestionTag != wantTags {
		t.Fatalf("tagged question %q, want %q", ws.cur.QuestionTag, wantTags)
	}
	// Typing over a tagged word keeps its tag; a word typed after a space is not
	// taken into the tag before it.
	selectPhrase(t, &f.question.Entry, "round")
	test.Type(f.question, "wooden")
	selectPhrase(t, &f.question.Entry, "wooden")
	f.question.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight}) // to the end of the word
	test.Type(f.question, " tall")
	if want := strings.Replace(wantTags, "<ATT>round</ATT> object", "<ATT>wooden</ATT> tall object", 1); ws.cur.QuestionTag != want {
		t.Fatalf("after typing: %q, want %q", ws.cur.QuestionTag, want)
	}
	for i, o := range []string{"the mug", "the globe", "the clock", "the ball"} {
		test.Type(f.options.entries[i], o)
	}
	test.Type(ws.host, "2") // the correct option is B
	test.Drag(u.win.Canvas(), hostPos(ws, imagePos(ws, 300, 200)), 80, 50)
	if ws.submitBtn.Disabled() {
		t.Fatalf("submit refused: %s; findings %+v", ws.submitWhy.Text, ws.findings)
	}
	shortcut(u, fyne.KeyReturn, ctrl)

	si := storedSample(t, u, id)
	s := si.Content
	if si.Status != verify.StateRound1 || si.Revision != 1 {
		t.Fatalf("after submit: %s revision %d", si.Status, si.Revision)
	}
	if s.Question != annotate.StripTags(s.QuestionTag) || s.QuestionTag != strings.Replace(wantTags, "<ATT>round</ATT> object", "<ATT>wooden</ATT> tall object", 1) ||
		s.View != annotate.ViewEgo || s.EgoSubject != annotate.EgoReal || s.Hop != 3 ||
		!slices.Equal(s.Categories, []annotate.Category{annotate.CatAtt, annotate.CatPos, annotate.CatRel}) ||
		!slices.Equal(s.Options, []string{"the mug", "the globe", "the clock", "the ball"}) || s.AnswerIndex != 1 || s.Box == nil {
		t.Fatalf("stored revision %+v", s)
	}
	if fs := annotate.Lint(s, annotate.LintEnv{HandWritten: true}); len(fs) != 0 {
		t.Errorf("the stored revision has findings %+v", fs)
	}
	// The next queue item is open.
	if ws.sample != nil && ws.sample.ID == id {
		t.Error("the submitted sample is still open")
	}
	if !strings.Contains(u.status.Text, "Submitted "+id) {
		t.Errorf("status %q", u.status.Text)
	}
}

func TestAnnotateStepGraphSubmit(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0001-office-1/img_002.jpg", annotate.KindStepGraph)
	id := ws.sample.ID
	f := ws.form.(*stepForm)
	test.Type(f.question, "Pick up the laptop")
	if f.scene.Text != "0001-office-1" {
		t.Errorf("scene prefilled %q", f.scene.Text)
	}
	for range 3 {
		test.Tap(f.add)
	}
	contents := []string{"Remove the stapler from the top of the book", "Remove the keys from the top of the book",
		"Remove the toilet paper from the top of the laptop", "Remove the book from the top of the laptop", "Pick up the laptop"}
	for i, c := range contents {
		test.Type(f.cards[i].content, c)
	}
	test.Tap(f.cards[1].needs["step1"]) // the new sample starts with step2 needing step1: untick
	for _, n := range []struct {
		step int
		pre  string
	}{{3, "step1"}, {3, "step2"}, {4, "step3"}, {4, "step4"}} {
		test.Tap(f.cards[n.step].needs[n.pre])
	}
	if l := layoutStepGraph(ws.cur.Steps, sgBoxW); len(l.edges) != 4 || l.nodes["step5"].col != 2 {
		t.Errorf("graph drawn with %d edges, step5 in column %d", len(l.edges), l.nodes["step5"].col)
	}
	if ws.submitBtn.Disabled() {
		t.Fatalf("submit refused: %s; %+v", ws.submitWhy.Text, ws.findings)
	}
	test.Tap(ws.submitBtn)
	si := storedSample(t, u, id)
	if si.Status != verify.StateRound1 || si.Revision != 1 {
		t.Fatalf("after submit: %s revision %d", si.Status, si.Revision)
	}
	want := []annotate.Step{
		{ID: "step1", Content: contents[0], Precondition: []string{}},
		{ID: "step2", Content: contents[1], Precondition: []string{}},
		{ID: "step3", Content: contents[2], Precondition: []string{}},
		{ID: "step4", Content: contents[3], Precondition: []string{"step1", "step2"}},
		{ID: "step5", Content: contents[4], Precondition: []string{"step3", "step4"}},
	}
	got := si.Content.Steps
	if len(got) != len(want) {
		t.Fatalf("stored steps %+v", got)
	}
	for i := range want {
		if got[i].ID != want[i].ID || got[i].Content != want[i].Content || !slices.Equal(got[i].Precondition, want[i].Precondition) {
			t.Errorf("step %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if si.Content.Question != "Pick up the laptop" || si.Content.Scene != "0001-office-1" {
		t.Errorf("stored %q in %q", si.Content.Question, si.Content.Scene)
	}
}

func lintRules(ws *workspace) []string {
	var rules []string
	for _, f := range ws.lint.findings {
		rules = append(rules, f.Severity+":"+f.Rule)
	}
	return rules
}

func TestAnnotateLintBlocksAndWarningsAcknowledge(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id := ws.sample.ID // demo-hq-005, a clean draft
	f := ws.form.(*hopForm)
	if len(ws.findings) != 0 || ws.submitBtn.Disabled() {
		t.Fatalf("the demo draft has findings %+v", ws.findings)
	}
	// Break it in every way the form allows.
	test.Tap(findButton(t, ws.root, "Ego (first person)")) // ego without a subject phrase
	for i, c := range f.cats {                             // att alone
		if c.Checked != (i == 0) {
			test.Tap(c)
		}
	}
	f.options.entries[1].SetText("")             // blank
	f.options.entries[3].SetText("The  Remote!") // duplicate of "the remote"
	test.Type(ws.host, "1")                      // unpick the answer (option A was correct)
	test.Type(ws.host, "n")                      // no box
	// The pos tag is now outside the set and att is untagged: category-tags
	// names the tag outside the set and the untagged category.
	want := []string{"error:category-set", "error:category-tags", "error:category-tags", "error:category-tags",
		"error:ego-phrase", "error:option-empty", "error:option-duplicate", "error:answer-range", "error:box-missing"}
	if got := lintRules(ws); !slices.Equal(got, want) {
		t.Fatalf("panel shows %v, want %v", got, want)
	}
	for i, fd := range ws.lint.findings {
		if ws.lint.acks[i] != nil || fd.Message == "" {
			t.Errorf("error %s offers an acknowledgement or has no message", fd.Rule)
		}
	}
	if !ws.submitBtn.Disabled() || !strings.Contains(ws.submitWhy.Text, "fix 9 errors") {
		t.Fatalf("submit %v, reason %q", ws.submitBtn.Disabled(), ws.submitWhy.Text)
	}
	shortcut(u, fyne.KeyReturn, ctrl)
	if si := storedSample(t, u, id); si.Status != verify.StateDraft {
		t.Fatalf("a sample with errors was submitted: %s", si.Status)
	}

	// Fix the errors, leaving two warnings: an exo question with a subject phrase,
	// and a colour in an option while att is a colour.
	test.Tap(findButton(t, ws.root, "Exo (observer)"))
	test.Tap(f.cats[2]) // att+rel
	f.question.SetText("From the perspective of the cat, which red object in front of the armchair is the smallest?")
	selectPhrase(t, &f.question.Entry, "in front of the armchair") // the pos tag moved with its phrase; remove it
	test.Tap(findButton(t, ws.root, "Untag"))
	selectPhrase(t, &f.question.Entry, "red")
	test.Tap(findButton(t, ws.root, "ATT"))
	f.options.entries[1].SetText("the blue cushion")
	f.options.entries[3].SetText("the armchair")
	test.Type(ws.host, "1")
	test.Drag(u.win.Canvas(), hostPos(ws, imagePos(ws, 300, 200)), 50, 40)
	want = []string{"warning:exo-phrase", "warning:colour-in-options"}
	if got := lintRules(ws); !slices.Equal(got, want) {
		t.Fatalf("panel shows %v, want %v", got, want)
	}
	// Warnings do not block Submit (spec §2); the line above it says that
	// submitting acknowledges those still open (issue 27).
	if ws.submitBtn.Disabled() || !strings.Contains(ws.submitWhy.Text, "Submitting acknowledges 2 warnings") {
		t.Fatalf("unacknowledged warnings: submit %v, %q", ws.submitBtn.Disabled(), ws.submitWhy.Text)
	}
	test.Tap(ws.lint.acks[0])
	if ws.submitBtn.Disabled() || !strings.Contains(ws.submitWhy.Text, "Submitting acknowledges 1 warning:") {
		t.Fatalf("one warning left: submit %v, %q", ws.submitBtn.Disabled(), ws.submitWhy.Text)
	}
	test.Tap(ws.lint.acks[1])
	if ws.submitBtn.Disabled() || ws.lint.acks[1].Text != "Acknowledged — undo" {
		t.Fatalf("both acknowledged: submit %v, %q", ws.submitBtn.Disabled(), ws.submitWhy.Text)
	}
	test.Tap(ws.submitBtn)
	revs, err := u.db.As(u.user).SampleRevisions(context.Background(), id)
	if err != nil || len(revs) != 1 {
		t.Fatalf("revisions %v %v", revs, err)
	}
	if !slices.Equal(revs[0].Acknowledged, []string{"exo-phrase", "colour-in-options"}) {
		t.Errorf("acknowledged %v", revs[0].Acknowledged)
	}
}

func TestAnnotateRedundantEdgeRemoval(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0001-office-1/img_002.jpg", annotate.KindStepGraph)
	f := ws.form.(*stepForm)
	test.Tap(f.add)
	test.Tap(f.cards[2].needs["step2"])
	test.Tap(f.cards[2].needs["step1"]) // step1 → step3 is implied by step1 → step2 → step3
	var fix *widget.Button
	for i, fd := range ws.lint.findings {
		if fd.Rule == annotate.RuleStepTransitive {
			fix = ws.lint.fixes[i]
		}
	}
	if fix == nil || fix.Text != "Remove step1 → step3" {
		t.Fatalf("no fix button for the redundant edge: %+v", ws.lint.findings)
	}
	if len(f.fixBtns) != 1 || f.fixBtns[0].Text != fix.Text {
		t.Fatalf("the graph offers %d fixes", len(f.fixBtns))
	}
	test.Tap(fix)
	if p := ws.cur.Steps[2].Precondition; !slices.Equal(p, []string{"step2"}) {
		t.Fatalf("step3 needs %v, want [step2]", p)
	}
	if f.cards[2].needs["step1"].Checked || len(f.fixBtns) != 0 {
		t.Error("the form still shows the removed edge")
	}
	for _, fd := range ws.findings {
		if fd.Rule == annotate.RuleStepTransitive {
			t.Errorf("still reported: %s", fd.Message)
		}
	}
	// Undo brings the edge back.
	ws.undo()
	if !f.cards[2].needs["step1"].Checked {
		t.Error("undo did not restore the edge")
	}
}

func TestAnnotateAutosaveAfterDebounce(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	ws.autosaveDelay = time.Second
	// The test fires the timers itself: the test driver's fyne.Do would run the
	// save on the timer's goroutine, racing the test (go test -race).
	var pending []func()
	ws.after = func(d time.Duration, f func()) func() bool {
		if d != ws.autosaveDelay {
			t.Fatalf("a timer of %v, want the debounce %v", d, ws.autosaveDelay)
		}
		n := len(pending)
		pending = append(pending, f)
		return func() bool { pending[n] = nil; return true }
	}
	id := ws.sample.ID
	f := ws.form.(*hopForm)
	test.Type(f.question, " Really?")
	want := strings.Join(strings.Fields(f.question.Text), " ") // saving tidies spaces
	if got := storedSample(t, u, id).Content.Question; got == want {
		t.Fatal("saved before the debounce")
	}
	live := 0
	for _, p := range pending {
		if p != nil {
			live++
			p()
		}
	}
	if live != 1 {
		t.Fatalf("%d debounce timers left running after %d keys, want the last one", live, len(pending))
	}
	if got := storedSample(t, u, id).Content.Question; got != want {
		t.Fatalf("not saved after the debounce: %q", got)
	}
	if ws.dirty {
		t.Error("still marked unsaved")
	}
}

// Leaving the app (the window loses the focus, or the app quits) saves at once.
func TestAnnotateSavesOnExitedForeground(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	f.question.SetText("Which object is the smallest?")
	if storedSample(t, u, ws.sample.ID).Content.Question == f.question.Text {
		t.Fatal("saved before leaving")
	}
	exited := u.fyne.Lifecycle().(interface{ OnExitedForeground() func() }).OnExitedForeground()
	if exited == nil {
		t.Fatal("no exited-foreground hook")
	}
	exited()
	if got := storedSample(t, u, ws.sample.ID).Content.Question; got != "Which object is the smallest?" || ws.dirty {
		t.Fatalf("after leaving: stored %q, dirty %v", got, ws.dirty)
	}
}

func TestAnnotateSaveConflictKeepsText(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id := ws.sample.ID
	f := ws.form.(*hopForm)
	// Someone saves the same draft elsewhere.
	other := storedSample(t, u, id)
	other.Content.Question = "Changed elsewhere?"
	if _, err := u.db.As(u.user).SaveDraft(context.Background(), id, other.Version, other.Content); err != nil {
		t.Fatal(err)
	}
	f.question.SetText("Mine, typed here?")
	shortcut(u, fyne.KeyS, ctrl)
	if !ws.conflict || f.question.Text != "Mine, typed here?" || len(ws.banner.Objects) == 0 {
		t.Fatalf("conflict %v, question %q", ws.conflict, f.question.Text)
	}
	if !strings.Contains(ws.banner.Objects[0].(*widget.Label).Text, "changed elsewhere") {
		t.Errorf("banner %q", ws.banner.Objects[0].(*widget.Label).Text)
	}
	// Moving on is refused rather than losing the text.
	test.Type(ws.host, "d")
	if ws.sample == nil || ws.sample.ID != id {
		t.Fatal("navigated away from an unsaved conflict")
	}
	test.Tap(findButton(t, ws.root, "Save mine over it"))
	if got := storedSample(t, u, id).Content.Question; got != "Mine, typed here?" || ws.conflict {
		t.Fatalf("after overwrite: stored %q, conflict %v", got, ws.conflict)
	}
}

func TestAnnotateUndoRedoAcrossBoxAndText(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	q0, b0 := ws.cur.Question, *ws.cur.Box
	test.Type(f.question, " Now?") // one typing burst: one undo step
	q1 := f.question.Text
	test.Drag(u.win.Canvas(), hostPos(ws, imagePos(ws, 20, 20)), 40, 40) // replaces the box
	b1 := *ws.cur.Box
	undo := func() { u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{}) }
	// Ctrl+Z typed in the entry reaches the sample history too.
	f.question.TypedShortcut(&fyne.ShortcutUndo{})
	if *ws.cur.Box != b0 || f.question.Text != q1 {
		t.Fatalf("first undo: box %v text %q", *ws.cur.Box, f.question.Text)
	}
	undo()
	if f.question.Text != q0 || ws.cur.Question != q0 {
		t.Fatalf("second undo: %q, want %q", f.question.Text, q0)
	}
	shortcut(u, fyne.KeyZ, ctrl|fyne.KeyModifierShift)
	shortcut(u, fyne.KeyZ, ctrl|fyne.KeyModifierShift)
	if f.question.Text != q1 || *ws.cur.Box != b1 || ws.canvas.Boxes()[0] != b1 {
		t.Fatalf("redo: %q %v", f.question.Text, *ws.cur.Box)
	}
}

func TestAnnotateLetterKeysNotWhileTyping(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	ws.allImages.SetChecked(true)
	ws.queue.Select(1) // the draft
	f := ws.form.(*hopForm)
	start := ws.current
	test.Type(f.question, "d")
	typed := f.question.Text
	if ws.current != start {
		t.Fatal("typing d in the question moved to the next item")
	}
	u.win.Canvas().Unfocus()
	typeKeys(u.win.Canvas(), "d") // with no focus: no shortcut (annotate_keys_test.go)
	if ws.current != start {
		t.Fatal("d with no focus moved to the next item")
	}
	test.Type(ws.host, "d") // the image has the keyboard (clicked)
	if ws.current == start || ws.sample != nil || !ws.hasImage {
		t.Fatalf("d on the image did not open the next item (%d)", ws.current)
	}
	test.Type(ws.host, "a")
	if ws.current != start || ws.sample == nil {
		t.Fatalf("a did not go back (%d)", ws.current)
	}
	if ws.sample.Content.Question != typed || !strings.Contains(typed, "d") {
		t.Error("the typed letter was not saved on leaving")
	}
	// F1 opens the help.
	test.Type(ws.host, "?")
	if u.win.Canvas().Overlays().Top() == nil {
		t.Fatal("? did not open the shortcuts help")
	}
}

func TestAnnotateReturnedReasonsNextToFields(t *testing.T) {
	_, ws := openAnnotate(t, "ann2")
	f := ws.form.(*hopForm)
	_ = f
	var notes []string
	for _, o := range test.LaidOutObjects(ws.form.object()) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "↩") && l.Visible() {
			notes = append(notes, l.Text)
		}
	}
	want := []string{"↩ Box on the answer — ver2, round 1", "↩ Box on the answer — ver2, round 1"} // options+answer, box
	if !slices.Equal(notes, want) {
		t.Fatalf("notes %q, want %q", notes, want)
	}
	found := false
	for _, o := range test.LaidOutObjects(ws.right) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "The box is on the lemon") {
			found = true
		}
	}
	if !found {
		t.Error("the reviewer's comment is not shown")
	}
}

func TestAnnotateGoldens(t *testing.T) {
	u, db := demoApp(t)
	ctx := context.Background()
	// A step-graph draft of ann2's with a redundant edge, made before the screen opens.
	ann2, err := db.Authenticate(ctx, "ann2", "demo")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := db.ProjectByName(ctx, bench.Owner(), "demo")
	sg, err := db.CreateSample(ctx, ann2, p.ID, annotate.Sample{Kind: annotate.KindStepGraph, Image: "0001-office-1/img_002.jpg",
		Scene: "0001-office-1", Question: "Pick up the laptop", Steps: steps(
			[]string{"step1", "Remove the book from the top of the laptop"},
			[]string{"step2", "Move the mug away from the laptop", "step1"},
			[]string{"step3", "Pick up the laptop", "step2", "step1"})})
	if err != nil {
		t.Fatal(err)
	}
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "ann2", "demo")
	// Tall enough for the whole form: the test painter does not clip entries inside
	// a scrolled form (it draws their text below the fold), the real driver does.
	u.win.Resize(fyne.NewSize(1280, 1024))
	u.nav.Select(1)
	ws := findWorkspace(t, u)
	ws.autosaveDelay = time.Hour
	if ws.sample == nil || ws.sample.ID != "demo-hq-006" {
		t.Fatalf("opened %+v", ws.sample)
	}
	assertGolden(t, "annotate_hop.png", u.win)

	for i, it := range ws.items {
		if it.kind == qSample && it.sample.ID == sg.ID {
			ws.queue.Select(i)
		}
	}
	if _, ok := ws.form.(*stepForm); !ok {
		t.Fatalf("%s did not open", sg.ID)
	}
	assertGolden(t, "annotate_steps.png", u.win)
}

func TestSampleHistoryCoalescesTyping(t *testing.T) {
	t0 := time.Unix(0, 0)
	q := func(s string) annotate.Sample { return annotate.Sample{Question: s} }
	tests := []struct {
		name  string
		edits []struct {
			key string
			at  time.Duration
		}
		steps int
	}{
		{"one burst in one field", []struct {
			key string
			at  time.Duration
		}{{"question", 0}, {"question", 500 * time.Millisecond}, {"question", time.Second}}, 1},
		{"a pause splits", []struct {
			key string
			at  time.Duration
		}{{"question", 0}, {"question", 3 * time.Second}}, 2},
		{"another field splits", []struct {
			key string
			at  time.Duration
		}{{"question", 0}, {"options[0]", 100 * time.Millisecond}, {"question", 200 * time.Millisecond}}, 3},
		{"keyless edits never merge", []struct {
			key string
			at  time.Duration
		}{{"", 0}, {"", 0}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := sampleHistory{coalesce: typingMerge}
			cur := q("")
			for i, e := range tt.edits {
				h.record(cur, e.key, t0.Add(e.at))
				cur = q(strings.Repeat("x", i+1))
			}
			n := 0
			for {
				prev, ok := h.undo(cur)
				if !ok {
					break
				}
				cur = prev
				n++
			}
			if n != tt.steps || cur.Question != "" {
				t.Fatalf("%d undo steps back to %q, want %d to \"\"", n, cur.Question, tt.steps)
			}
			for range n {
				cur, _ = h.redo(cur)
			}
			if cur.Question != strings.Repeat("x", len(tt.edits)) {
				t.Errorf("redo ends at %q", cur.Question)
			}
		})
	}
}

func TestStepListEdits(t *testing.T) {
	base := steps([]string{"step1", "a"}, []string{"step2", "b", "step1"}, []string{"step3", "c", "step2", "ghost"})
	ids := func(ss []annotate.Step) string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID+"="+s.Content+"<"+strings.Join(s.Precondition, ","))
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		name string
		got  []annotate.Step
		want string
	}{
		{"add", addStep(base), "step1=a< step2=b<step1 step3=c<step2,ghost step4=<"},
		{"move down renames and rewrites", moveStep(base, 0, 1), "step1=b<step2 step2=a< step3=c<step1,ghost"},
		{"move out of range is a no-op", moveStep(base, 2, 1), "step1=a< step2=b<step1 step3=c<step2,ghost"},
		{"remove drops references", removeStep(base, 1), "step1=a< step2=c<ghost"},
		{"renumber odd ids", renumberSteps(steps([]string{"x", "a"}, []string{"y", "b", "x"})), "step1=a< step2=b<step1"},
	}
	for _, tt := range tests {
		if got := ids(tt.got); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	if ids(base) != "step1=a< step2=b<step1 step3=c<step2,ghost" {
		t.Error("the edits changed their input")
	}
}

func TestWithSubjectPhrase(t *testing.T) {
	tests := []struct {
		q       string
		subject annotate.EgoSubject
		who     string
		want    string
	}{
		{"Which mug is closest?", annotate.EgoReal, "the chef", "From the perspective of the chef, which mug is closest?"},
		{"", annotate.EgoVirtual, "behind the sofa", "When I'm standing behind the sofa and facing the camera, "},
		{"From the perspective of the chef, which TV is on?", annotate.EgoVirtual, "at the door",
			"When I'm standing at the door and facing the camera, which TV is on?"},
		{"TV on the left?", annotate.EgoReal, "the boy", "From the perspective of the boy, TV on the left?"},
	}
	for _, tt := range tests {
		if got := withSubjectPhrase(tt.q, tt.subject, tt.who); got != tt.want {
			t.Errorf("withSubjectPhrase(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// BenchmarkAnnotateKeystroke measures one keystroke in the question of a hop-QA draft:
// the edit, the undo snapshot, the form update, the lint and the autosave timer.
func BenchmarkAnnotateKeystroke(b *testing.B) {
	ws := benchWorkspace(b)
	ws.autosaveDelay = time.Hour
	f := ws.form.(*hopForm)
	q := []string{"Which object in front of the armchair is the smallest?", "Which object in front of the armchair is the smallest!"}
	i := 0
	for b.Loop() {
		i++
		f.question.SetText(q[i%2]) // a one-character change, as typing makes
	}
}

// BenchmarkAnnotateStepGraphToggle measures ticking a precondition in an 8-step graph:
// the edit, the form and graph redraw and the lint with its redundant-edge search.
func BenchmarkAnnotateStepGraphToggle(b *testing.B) {
	ws := benchWorkspace(b)
	ws.autosaveDelay = time.Hour
	ws.openImage(ws.image)
	ws.createSample(annotate.KindStepGraph)
	f := ws.form.(*stepForm)
	for range 6 {
		test.Tap(f.add)
	}
	chk := f.cards[7].needs["step1"]
	b.ResetTimer()
	for b.Loop() {
		test.Tap(chk)
	}
}

// benchWorkspace is the Annotate screen of ann1 on the demo project (demoApp and
// signInAs take a *testing.T).
func benchWorkspace(b *testing.B) *workspace {
	ctx := context.Background()
	dir := b.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "demo.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := demo.Seed(ctx, db, assets.Demo(), filepath.Join(dir, "images")); err != nil {
		b.Fatal(err)
	}
	u := New(test.NewTempApp(b), db, "")
	u.win.Resize(fyne.NewSize(1280, 800))
	user, err := db.Authenticate(ctx, "ann1", "demo")
	if err != nil {
		b.Fatal(err)
	}
	p, _ := db.ProjectByName(ctx, bench.Owner(), "demo")
	asSignedIn(u, user)
	u.openProject(p)
	u.nav.Select(1)
	for _, o := range test.LaidOutObjects(u.win.Content()) {
		if h, ok := o.(*canvasHost); ok {
			return h.ws
		}
	}
	b.Fatal("no Annotate screen")
	return nil
}

func TestAnnotateImagesPaged(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	ws.pageSize = 3
	ws.allImages.SetChecked(true)
	images := func() (n int, more bool) {
		for _, it := range ws.items {
			n += map[bool]int{true: 1}[it.kind == qImage]
			more = more || it.kind == qMore
		}
		return n, more
	}
	if n, more := images(); n != 3 || !more {
		t.Fatalf("first page: %d images, more %v", n, more)
	}
	// d walks into the next page; the open item stays selected across the reload.
	for i, it := range ws.items {
		if it.kind == qImage {
			ws.queue.Select(i)
		}
	}
	last := ws.image.RelPath
	test.Type(ws.host, "d")
	if n, _ := images(); n != 6 || ws.image.RelPath == last || ws.items[ws.current].image.RelPath != ws.image.RelPath {
		t.Fatalf("after d: %d images, open %s (was %s)", n, ws.image.RelPath, last)
	}
	for i, it := range ws.items {
		if it.kind == qMore {
			ws.queue.Select(i)
		}
	}
	if n, more := images(); n != 8 || more {
		t.Fatalf("all pages: %d images, more %v", n, more)
	}
}

// The annotator's drafts come a page at a time too: the header counts them all, a
// "Load more" row brings the next page, and d walks into it.
func TestAnnotateDraftsPaged(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	ctx := context.Background()
	for i := range 5 {
		if _, err := u.db.As(u.user).CreateSample(ctx, u.project.ID, annotate.Sample{Kind: annotate.KindJudgment,
			Image: "0001-office-1/img_001.jpg", Question: fmt.Sprintf("Is chair %d left of the desk?", i), AnswerText: "yes"}); err != nil {
			t.Fatal(err)
		}
	}
	total, err := u.db.As(bench.Owner()).CountSamples(ctx, u.project.ID, bench.SampleFilter{Status: verify.StateDraft, AuthorID: u.user.ID})
	if err != nil || total < 5 {
		t.Fatalf("ann1 has %d drafts (%v)", total, err)
	}
	ws.pageSize = 2
	ws.loaded = map[verify.State]int{}
	ws.reloadQueue()
	drafts := func() (n int, more bool, header string) {
		for _, it := range ws.items {
			switch {
			case it.kind == qSample && !it.returned && !it.submitted:
				n++
			case it.kind == qMore && it.more == verify.StateDraft:
				more = true
			case it.kind == qHeader && strings.HasPrefix(it.title, "Your drafts"):
				header = it.title
			}
		}
		return
	}
	if n, more, header := drafts(); n != 2 || !more || header != fmt.Sprintf("Your drafts · %d", total) {
		t.Fatalf("first page: %d drafts, more %v, header %q (total %d)", n, more, header, total)
	}
	// d from the last draft shown loads the next page and opens its first draft.
	for i, it := range ws.items {
		if it.kind == qSample && !it.returned && !it.submitted {
			ws.queue.Select(i)
		}
	}
	last := ws.sample.ID
	test.Type(ws.host, "d")
	if n, _, _ := drafts(); n != 4 || ws.sample == nil || ws.sample.ID == last {
		t.Fatalf("after d: %d drafts shown, open %v (was %s)", n, ws.sample, last)
	}
	for range total { // at most one page per draft
		if ws.loaded[verify.StateDraft] >= total {
			break
		}
		for i, it := range ws.items {
			if it.kind == qMore && it.more == verify.StateDraft {
				ws.queue.Select(i)
				break
			}
		}
	}
	if n, more, _ := drafts(); n != total || more {
		t.Fatalf("all pages: %d drafts of %d, more %v", n, total, more)
	}
}

func TestAnnotateOtherKinds(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	img := "0002-kitchen-1/img_001.jpg"

	// Multiple choice: 4 option rows to start, one removed, two added (at most 6).
	newSampleOn(t, ws, img, annotate.KindMCQ)
	mcq := ws.sample.ID
	f := ws.form.(*optionsForm)
	test.Type(f.question, "Which object is nearest to the kettle?")
	test.Tap(f.options.removes[3])
	if len(f.options.entries) != 3 {
		t.Fatalf("%d option rows after a removal", len(f.options.entries))
	}
	test.Tap(f.options.add)
	test.Tap(f.options.add)
	test.Tap(f.options.add)
	if len(f.options.entries) != 6 || !f.options.add.Disabled() {
		t.Fatalf("%d option rows, add enabled %v", len(f.options.entries), !f.options.add.Disabled())
	}
	for i, o := range []string{"the apple", "the bowl", "the bottle", "the cup", "the pan", "the lemon"} {
		test.Type(f.options.entries[i], o)
	}
	test.Type(ws.host, "5")
	test.Tap(ws.submitBtn)
	if si := storedSample(t, u, mcq); si.Status != verify.StateRound1 || len(si.Content.Options) != 6 || si.Content.AnswerIndex != 4 {
		t.Fatalf("mcq stored %s %+v", si.Status, si.Content)
	}

	// Judgment: the answer from the keyboard.
	newSampleOn(t, ws, img, annotate.KindJudgment)
	yn := ws.sample.ID
	test.Type(ws.form.(*judgmentForm).question, "Is the kettle to the left of the apple?")
	test.Type(ws.host, "2")
	shortcut(u, fyne.KeyReturn, ctrl)
	if si := storedSample(t, u, yn); si.Status != verify.StateRound1 || si.Content.AnswerText != "no" {
		t.Fatalf("judgment stored %s %q", si.Status, si.Content.AnswerText)
	}

	// Open: a number with a tolerance; a bad tolerance is a lint error (issue 27).
	newSampleOn(t, ws, img, annotate.KindOpen)
	op := ws.sample.ID
	o := ws.form.(*openForm)
	test.Type(o.question, "How far is the kettle from the apple, in metres?")
	test.Type(o.answer, "0.4")
	test.Tap(o.numeric)
	test.Type(o.tolerance, "x")
	if ws.cur.Tolerance != nil || ws.cur.ToleranceText != "x" || !ws.submitBtn.Disabled() {
		t.Fatalf("a tolerance of x: %v %q, submit enabled %v", ws.cur.Tolerance, ws.cur.ToleranceText, !ws.submitBtn.Disabled())
	}
	o.tolerance.SetText("0.1")
	shortcut(u, fyne.KeyReturn, ctrl)
	si := storedSample(t, u, op)
	if si.Status != verify.StateRound1 || si.Content.AnswerText != "0.4" || si.Content.Tolerance == nil || *si.Content.Tolerance != 0.1 {
		t.Fatalf("open stored %s %+v", si.Status, si.Content)
	}
}

// Coming back to Annotate before the autosave fired: the old screen saves first, so
// the new one opens the saved text and its version (no conflict on the next save).
func TestAnnotateLeaveAndComeBackQuickly(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id := ws.sample.ID
	ws.form.(*hopForm).question.SetText("Which object is the smallest one?")
	u.nav.Select(0)
	u.nav.Select(1)
	ws2 := findWorkspace(t, u)
	if ws2 == ws || ws2.sample == nil || ws2.sample.ID != id || ws2.cur.Question != "Which object is the smallest one?" {
		t.Fatalf("reopened %+v", ws2.cur)
	}
	ws2.form.(*hopForm).question.SetText("Which object is the largest one?")
	if ws2.saveNow(); ws2.dirty || ws2.conflict {
		t.Fatal("the second screen could not save")
	}
}

// selectPhrase selects the first occurrence of phrase in e as a person does with
// the keyboard: Home, Right to its start, then Shift+Right over it.
func selectPhrase(t *testing.T, e *widget.Entry, phrase string) {
	t.Helper()
	i := strings.Index(e.Text, phrase)
	if i < 0 {
		t.Fatalf("%q is not in %q", phrase, e.Text)
	}
	test.Tap(e)
	for range strings.Count(e.Text, "\n") + 20 {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
	for range utf8.RuneCountInString(e.Text[:i]) {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	for range utf8.RuneCountInString(phrase) {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if e.SelectedText() != phrase {
		t.Fatalf("selected %q, want %q", e.SelectedText(), phrase)
	}
}

// Space held before the image was ever clicked pans and never draws or edits a
// box: with no widget focused the window passes Space on (ws.keyDown). The pointer
// over the image does not take the keyboard (only a click does: issue 27).
func TestAnnotateSpaceDragPansBeforeTheCanvasIsClicked(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	// Typing in the question: the pointer passing over the image leaves the focus there.
	u.win.Canvas().Focus(f.question)
	test.MoveMouse(u.win.Canvas(), hostPos(ws, imagePos(ws, 10, 10)))
	if u.win.Canvas().Focused() != fyne.Focusable(f.question) {
		t.Fatalf("the pointer over the image took the focus from the question: %T", u.win.Canvas().Focused())
	}
	// Nothing focused: the pointer over the image leaves it so, and Space reaches
	// the image through the window.
	u.win.Canvas().Unfocus()
	test.MoveMouse(u.win.Canvas(), fyne.NewPos(1, 1))
	test.MoveMouse(u.win.Canvas(), hostPos(ws, imagePos(ws, 10, 10)))
	if u.win.Canvas().Focused() != nil {
		t.Fatalf("the pointer over the image took the keyboard: %T", u.win.Canvas().Focused())
	}
	before := *ws.cur.Box
	offset := ws.canvas.View().Offset
	ws.keyDown(&fyne.KeyEvent{Name: fyne.KeySpace}) // the driver's KeyDown with nothing focused
	test.Drag(u.win.Canvas(), hostPos(ws, imagePos(ws, 50, 50)), 60, 40)
	ws.host.KeyUp(&fyne.KeyEvent{Name: fyne.KeySpace}) // the drag gave the image the keyboard
	if boxes := ws.canvas.Boxes(); len(boxes) != 1 || boxes[0] != before || *ws.cur.Box != before {
		t.Fatalf("space+drag edited the box: canvas %v, sample %v, want %v", boxes, *ws.cur.Box, before)
	}
	if ws.canvas.View().Offset == offset {
		t.Error("space+drag did not pan")
	}
	// Without Space the same drag draws (hop QA: it replaces the box).
	test.Drag(u.win.Canvas(), hostPos(ws, imagePos(ws, 50, 50)), 60, 40)
	if *ws.cur.Box == before {
		t.Error("a plain drag did not draw")
	}
}

// Ticking categories changes the hop text but never the width the form needs,
// so the panel does not jump under the pointer.
func TestAnnotateTickingCategoriesKeepsTheWidth(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	width := f.obj.MinSize().Width
	for _, c := range f.cats {
		test.Tap(c)
		if w := f.obj.MinSize().Width; w != width {
			t.Fatalf("after ticking %q the form needs %v wide, before %v (hop text %q)", c.Text, w, width, f.hop.Text)
		}
	}
}

// A long question typed letter by letter arrives exactly as typed, wherever the
// entry wraps it (Fyne 2.7 left the cursor before a space typed at a wrap, and
// the next letter went in front of it).
func TestAnnotateLongQuestionTypedAsTyped(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	text := "Which object on the wooden shelf to the left of the tall green plant beside the window is the closest one to the camera, " +
		"not counting the red mug that stands on the small table in front of the armchair near the door?"
	// The question entry in windows of a range of widths: some space lands
	// exactly where a line wraps.
	for w := float32(160); w <= 420; w += 13 {
		var got string
		e := newWSEntry(ws, true, "", func(s string) { got = s })
		// The verifier's comment and correction fields are typingEntries too.
		plain := newTypingEntry()
		pwin := test.NewTempWindow(t, plain)
		pwin.Resize(fyne.NewSize(w, 200))
		pwin.Canvas().Focus(plain)
		for _, r := range text {
			plain.TypedRune(r)
		}
		if plain.Text != text {
			t.Fatalf("%v px wide, a comment field: typed\n%q\nentry has\n%q", w, text, plain.Text)
		}
		win := test.NewTempWindow(t, e)
		win.Resize(fyne.NewSize(w, 200))
		win.Canvas().Focus(e)
		for _, r := range text {
			e.TypedRune(r) // one letter at a time, as the keyboard sends them
		}
		if e.Text != text || got != text {
			t.Fatalf("%v px wide: typed\n%q\nentry has\n%q\nreported %q", w, text, e.Text, got)
		}
	}
}

// The zoom button says the zoom, and every usual zoom-in key zooms.
func TestAnnotateZoomKeysAndLabel(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	btn := findButton(t, ws.root, zoomText(100*ws.canvas.View().Zoom))
	for _, k := range []struct {
		name fyne.KeyName
		mod  fyne.KeyModifier
	}{
		{fyne.KeyEqual, ctrl}, {fyne.KeyEqual, ctrl | fyne.KeyModifierShift}, {fyne.KeyPlus, ctrl}, {fyne.KeyPlus, ctrl | fyne.KeyModifierShift},
	} {
		before := ws.canvas.View().Zoom
		u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: k.name, Modifier: k.mod})
		after := ws.canvas.View().Zoom
		if after <= before {
			t.Errorf("%v+%s did not zoom in (%v → %v)", k.mod, k.name, before, after)
		}
		if btn.Text != zoomText(100*after) {
			t.Errorf("after %v+%s the zoom button says %q, want %q", k.mod, k.name, btn.Text, zoomText(100*after))
		}
	}
	test.Tap(btn)
	if ws.canvas.View().Zoom != 1 || btn.Text != "100%" {
		t.Errorf("tapping the zoom button: zoom %v, text %q", ws.canvas.View().Zoom, btn.Text)
	}
}
