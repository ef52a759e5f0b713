package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// holdLoads makes loads wait until the test runs them (run(i)), as a slow team
// server would; it returns how many wait and the runner.
func holdLoads(t *testing.T) (waiting func() int, run func(i int)) {
	t.Helper()
	var pending []func()
	inBackground = func(f func()) { pending = append(pending, f) }
	t.Cleanup(func() { inBackground = func(f func()) { f() } })
	waiting = func() int {
		n := 0
		for _, f := range pending {
			if f != nil {
				n++
			}
		}
		return n
	}
	run = func(i int) {
		f := pending[i]
		pending[i] = nil
		f()
	}
	return waiting, run
}

// With the queue read off the UI goroutine, the screen opens its first item once
// the queue arrives (it opened nothing when it looked before the queue was read).
func TestAnnotateOpensTheFirstItemWhenTheQueueArrives(t *testing.T) {
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "ann1", "demo")
	u.win.Resize(fyne.NewSize(1024, 700))
	var pending []func()
	inBackground = func(f func()) { pending = append(pending, f) }
	t.Cleanup(func() { inBackground = func(f func()) { f() } })
	for i, s := range u.screens {
		if s.title == "Annotate" {
			u.nav.Select(i)
		}
	}
	ws := findWorkspace(t, u)
	if len(pending) == 0 {
		t.Fatal("the queue was read on the UI goroutine")
	}
	for len(pending) > 0 {
		f := pending[0]
		pending = pending[1:]
		f()
	}
	if ws.sample == nil || ws.current < 0 {
		t.Fatalf("after the queue arrived: nothing open (%d items)", len(ws.items))
	}
}

// A save runs off the UI goroutine with a copy of the sample: what is typed while
// it is under way stays in the field as typed (the save returning sets no text),
// is not sent a second time by a save asked for meanwhile (one save at a time:
// each needs the last one's version, or it is refused as a conflict), and is saved
// by the next one. Save is disabled while a save runs.
func TestAnnotateTypingDuringASaveIsKeptAndSavedNext(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	c := u.win.Canvas()
	id := ws.sample.ID
	waiting, run := holdLoads(t)

	clickOn(f.question)
	f.question.SetText("")
	typeKeys(c, "Which blue")
	ws.saveNow()
	if waiting() != 1 || !ws.saveBtn.Disabled() {
		t.Fatalf("a save: %d loads waiting, Save disabled %v", waiting(), ws.saveBtn.Disabled())
	}
	typeKeys(c, " ball is nearest?")
	ws.saveNow() // Ctrl+S while the first is under way
	if waiting() != 1 {
		t.Fatalf("%d saves under way at once: the second would send a stale version", waiting())
	}
	run(0) // the first save returns
	const typed = "Which blue ball is nearest?"
	if f.question.Text != typed || ws.cur.Question != typed {
		t.Fatalf("after the first save returned: the field has %q, the sample %q", f.question.Text, ws.cur.Question)
	}
	if !ws.dirty || waiting() != 1 {
		t.Fatalf("what was typed during the save: dirty %v, %d saves under way", ws.dirty, waiting())
	}
	run(1)
	if ws.dirty || ws.conflict || ws.saveBtn.Disabled() {
		t.Fatalf("after the second save: dirty %v, conflict %v, Save disabled %v (%s)", ws.dirty, ws.conflict, ws.saveBtn.Disabled(), ws.saveState.Text)
	}
	if got := storedSample(t, u, id).Content.Question; got != typed {
		t.Fatalf("stored %q, want %q", got, typed)
	}
}

// Submit is disabled from the press until the submit returns: pressed twice, it
// is sent once.
func TestAnnotateSubmitDisabledWhileItRuns(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	id := ws.sample.ID
	if ws.submitBtn.Disabled() {
		t.Fatalf("the first draft is not ready: %s", ws.submitWhy.Text)
	}
	waiting, run := holdLoads(t)
	test.Tap(ws.submitBtn)
	if waiting() != 1 || !ws.submitBtn.Disabled() {
		t.Fatalf("a submit: %d loads waiting, Submit disabled %v", waiting(), ws.submitBtn.Disabled())
	}
	ws.updateGate() // an edit's re-lint meanwhile leaves it disabled
	shortcut(u, fyne.KeyReturn, ctrl)
	if waiting() != 1 || !ws.submitBtn.Disabled() {
		t.Fatalf("pressed again: %d loads waiting, Submit disabled %v", waiting(), ws.submitBtn.Disabled())
	}
	run(0)
	if st := storedSample(t, u, id).Status; st != verify.StateRound1 {
		t.Fatalf("%s is %s after its submit returned", id, st)
	}
}

// Text typed after Submit was pressed is not taken into a field (it would not be
// in the revision submitted, and the next item opens when the submit returns):
// the fields let go of the keyboard and the status bar says why.
func TestAnnotateTypingAfterSubmitIsNotTaken(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	c := u.win.Canvas()
	before := f.question.Text
	clickOn(f.question)
	waiting, run := holdLoads(t)
	shortcut(u, fyne.KeyReturn, ctrl) // Ctrl+Enter from the question field
	if waiting() != 1 {
		t.Fatalf("%d loads waiting after Ctrl+Enter", waiting())
	}
	typeKeys(c, " and more")
	if f.question.Text != before || ws.dirty {
		t.Fatalf("typed during the submit: the field has %q (dirty %v)", f.question.Text, ws.dirty)
	}
	if !strings.HasPrefix(u.status.Text, "Submitting ") {
		t.Errorf("the status bar says %q", u.status.Text)
	}
	run(0)
}

// In a multiple-choice option row, Tab goes from the field to the correct mark and
// on to the next row's field, never to the row's remove button: Tab then Space from
// a field does not delete its row (issue 27 item 1). The pointer still removes it.
func TestAnnotateOptionRemoveIsNoTabStop(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0002-kitchen-1/img_001.jpg", annotate.KindMCQ)
	f := ws.form.(*optionsForm)
	c := u.win.Canvas()
	c.Focus(f.options.entries[0])
	for stop := range 2 * len(f.options.entries) {
		c.FocusNext()
		got := c.Focused()
		for i, rm := range f.options.removes {
			if fo, ok := any(rm).(fyne.Focusable); ok && got == fo {
				t.Fatalf("Tab stop %d is option %c's remove button", stop+1, 'A'+i)
			}
		}
	}
	for i := range f.options.entries[:2] { // Tab, Space from a field; then Tab, Tab, Space
		c.Focus(f.options.entries[i])
		for range 2 {
			c.FocusNext()
			if e, ok := c.Focused().(*wsEntry); ok && slices.Contains(f.options.entries, e) {
				break // on the next row's field: Space would type
			}
			c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		}
	}
	if len(f.options.entries) != 4 || len(ws.cur.Options) != 4 {
		t.Fatalf("Tab and Space from the fields left %d rows (%d options), want 4", len(f.options.entries), len(ws.cur.Options))
	}
	test.Tap(f.options.removes[3])
	if len(f.options.entries) != 3 {
		t.Fatalf("a tap on remove left %d rows", len(f.options.entries))
	}
}

// The shortcut help fits the window at 1024×700 and 1400×900: its rows scroll
// inside the dialog rather than push it past the window's edges (fyne squeezes a
// pop-up larger than the window into it, cutting off its foot and Close).
func TestAnnotateShortcutHelpFitsTheWindow(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 1400, Height: 900}} {
		u, ws := openAnnotate(t, "ann1")
		u.win.Resize(size)
		c := u.win.Canvas()
		ws.showShortcuts()
		top, ok := c.Overlays().Top().(*widget.PopUp)
		if !ok {
			t.Fatalf("%v: no dialog shown (%T)", size, c.Overlays().Top())
		}
		pos, box := top.Content.Position(), top.Content.Size()
		if cs := c.Size(); cs.Width > size.Width || cs.Height > size.Height {
			t.Fatalf("%v: the help widened the window to %v", size, cs)
		}
		if min := top.Content.MinSize(); box.Width < min.Width || box.Height < min.Height {
			t.Fatalf("%v: the help needs %v and is squeezed into %v: its foot (Close) is cut off", size, min, box)
		}
		if pos.X < 0 || pos.Y < 0 || pos.X+box.Width > size.Width || pos.Y+box.Height > size.Height {
			t.Fatalf("%v: the help lies at %v, %v: outside the window", size, pos, box)
		}
		top.Hide()
	}
}

// An image whose preview is not decoded yet shows at once as a placeholder of its
// proportions, without a read on the UI goroutine; the preview replaces it when
// read, and what was drawn meanwhile stays. A preview arriving after another image
// was opened is dropped.
func TestAnnotatePreviewArrivesOffTheUIGoroutine(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	im := ws.image
	previews.clear()
	waiting, run := holdLoads(t)

	ws.loadImage(im)
	if waiting() != 1 {
		t.Fatalf("%d loads waiting: the preview was read on the UI goroutine", waiting())
	}
	if b := ws.canvas.Picture().Bounds(); max(b.Dx(), b.Dy()) > 64 || !ws.hasImage || ws.image.SHA256 != im.SHA256 {
		t.Fatalf("before the preview is read: a picture of %v (want the placeholder), image %q", b, ws.image.RelPath)
	}
	box := annotate.Box{100, 100, 400, 500}
	ws.canvas.SetBoxes([]annotate.Box{box})
	run(0)
	if b := ws.canvas.Picture().Bounds(); max(b.Dx(), b.Dy()) <= 64 {
		t.Fatalf("after the preview was read: a picture of %v, still the placeholder", b)
	}
	if got := ws.canvas.Boxes(); len(got) != 1 || got[0] != box {
		t.Fatalf("the box drawn before the preview arrived: %v", got)
	}

	// Stale: the preview of an image left before it arrived is not shown.
	previews.clear()
	ws.loadImage(im)
	other := im
	other.SHA256, other.RelPath = "0000", "elsewhere.jpg"
	ws.showPicture(other, placeholder(other), nil)
	run(1)
	if b := ws.canvas.Picture().Bounds(); max(b.Dx(), b.Dy()) > 64 || ws.image.RelPath != "elsewhere.jpg" {
		t.Fatalf("a stale preview was shown over %q: %v", ws.image.RelPath, b)
	}
}

// barrierService holds each read of the annotator's queue until want reads are
// under way at once (or a second has passed), and records the most at once.
type barrierService struct {
	bench.Service
	want     int
	mu       sync.Mutex
	inFlight int
	peak     int
	all      chan struct{}
}

func (b *barrierService) enter() {
	b.mu.Lock()
	b.inFlight++
	b.peak = max(b.peak, b.inFlight)
	if b.inFlight == b.want {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.all:
	case <-time.After(time.Second):
	}
	b.mu.Lock()
	b.inFlight--
	b.mu.Unlock()
}

// As is the Session of u with its queue reads held at the barrier.
func (b *barrierService) As(u bench.User) bench.Session { return barrierSession{b.Service.As(u), b} }

// barrierSession is the Session barrierService.As gives: its overrides, the rest u's.
type barrierSession struct {
	bench.Session
	b *barrierService
}

func (w barrierSession) CountSamples(ctx context.Context, pid int64, f bench.SampleFilter) (int, error) {
	w.b.enter()
	return w.Session.CountSamples(ctx, pid, f)
}

func (w barrierSession) Samples(ctx context.Context, pid int64, f bench.SampleFilter, offset, limit int) ([]bench.SampleInfo, error) {
	w.b.enter()
	return w.Session.Samples(ctx, pid, f, offset, limit)
}

func (w barrierSession) CountImagesWithoutSamples(ctx context.Context, pid int64) (int, error) {
	w.b.enter()
	return w.Session.CountImagesWithoutSamples(ctx, pid)
}

func (w barrierSession) ImagesWithoutSamples(ctx context.Context, pid int64, offset, limit int) ([]bench.Image, error) {
	w.b.enter()
	return w.Session.ImagesWithoutSamples(ctx, pid, offset, limit)
}

// The queue's reads are made at once: on a team server the queue costs one round
// trip, not one per read. Its rows are those the reads one after another give.
func TestAnnotateQueueReadsAtOnce(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	q := queueQuery{sess: u.sess, ctx: u.ctx(), user: u.user, pid: u.project.ID, page: ws.pageSize, loaded: map[verify.State]int{}}
	want := q.readQueue()
	reads := 2*2 + 2*len(submittedStates) + 2 // returned, drafts, each submitted state: count and rows; images: count and rows
	b := &barrierService{Service: u.db, want: reads, all: make(chan struct{})}
	q.sess, q.loaded = b.As(u.user), map[verify.State]int{}
	got := q.readQueue()
	if b.peak != reads {
		t.Errorf("at most %d of the queue's %d reads were under way at once", b.peak, reads)
	}
	if got.err != nil || len(got.items) != len(want.items) || len(got.items) < 4 {
		t.Fatalf("read at once: %d rows (%v), one after another %d", len(got.items), got.err, len(want.items))
	}
	for i := range want.items {
		if got.items[i].title != want.items[i].title || got.items[i].detail != want.items[i].detail {
			t.Errorf("row %d: %q / %q, want %q / %q", i, got.items[i].title, got.items[i].detail, want.items[i].title, want.items[i].detail)
		}
	}
}
