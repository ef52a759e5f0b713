package ui

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"maps"
	"path"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/ui/boxcanvas"
	"github.com/benchwright/benchwright/verify"
)

const (
	autosaveDelay = 700 * time.Millisecond // after the last change
	typingMerge   = 1500 * time.Millisecond
	queuePage     = 100 // queue images, or samples of one part, loaded per page
)

// workspace is the annotation screen: the annotator's queue on the left, the image
// with its box in the centre, and the sample's form, the guideline check and Submit
// on the right. One workspace is made each time the screen is shown.
//
// The sample being edited (cur) is the only source of truth: the form, the canvas
// and the lint panel show it, every change goes through edit (which records an undo
// snapshot, re-lints and schedules the autosave), and undo/redo replace it whole.
//
// A sample has one box (annotate.Sample.Box): the canvas shows it as its only box,
// drawing another one replaces it, N clears it. The canvas's own undo history is not
// used; Ctrl+Z works on the sample (sampleHistory), boxes and text alike.
type workspace struct {
	u    *App
	root fyne.CanvasObject

	// queue
	queue     *queueList
	items     []queueItem
	current   int // index in items of the open item, -1 when none
	allImages *widget.Check
	imgLoaded int
	loaded    map[verify.State]int // samples shown per part of the queue (returned, drafts)
	imgTotal  int
	pageSize  int // images, or samples of one part, per page of the queue

	// the open image and sample
	image    bench.Image
	hasImage bool
	sample   *bench.SampleInfo // nil when an image without a sample is open
	cur      annotate.Sample
	version  int
	history  sampleHistory
	acks     map[string]bool
	findings []annotate.Finding
	reviews  []bench.ReviewRecord // the rejections that returned the open sample
	loading  bool                 // widgets are being set from cur: no edits recorded

	// saving
	dirty         bool
	conflict      bool
	offline       bool          // the last save could not reach the team server; retried until it does
	retrying      bool          // a retryOffline is scheduled
	queued        *queuedSubmit // a submit pressed while offline, sent when the server is back
	saveGen       int
	queueWaiting  []func()                                       // what waits for the queue being read (reloadQueueThen)
	saving        bool                                           // a save is under way (one at a time: each needs the last one's version)
	saveAgain     bool                                           // a save was asked for while one was under way
	afterSave     []afterSave                                    // what flushes wait for: run when a save leaves nothing unsaved
	submitting    bool                                           // a submit (or the save before it) is under way
	stopSave      func() bool                                    // stops the pending autosave
	after         func(time.Duration, func()) (stop func() bool) // the timers: afterOnUI
	autosaveDelay time.Duration
	now           func() time.Time
	lastKind      annotate.Kind

	// widgets
	canvas    *boxcanvas.Canvas
	host      *canvasHost
	readout   *widget.Label // the pixel under the pointer, or the box's size
	boxFields *boxFields    // the box's x1 y1 x2 y2, typed or shown
	imageInfo *widget.Label
	right     *fyne.Container
	title     *widget.Label
	saveState *widget.Label
	banner    *fyne.Container
	form      sampleForm
	lint      *lintPanel
	saveBtn   *widget.Button
	submitBtn *widget.Button
	submitWhy *widget.Label

	formScroll *container.Scroll
	formMin    fyne.Size // the form's size when last laid out

	newSampleChoice *widget.RadioGroup // the kind chooser of an image without a sample
	newSampleButton *widget.Button
	againButton     *widget.Button // "<kind> again", when a kind was made before

	// Deleting drafts, and returned samples (samples_annotate.go).
	deleteBtn   *widget.Button
	undoBtn     *widget.Button
	deleted     *annotate.Sample // the last deleted draft, for Undo
	returnedRev *annotate.Sample // the revision a returned sample came back with

	seq seqView // the open sample's sequence of images (annotate_sequence.go)
}

type queueKind int

const (
	qHeader queueKind = iota
	qSample
	qImage
	qMore
)

type queueItem struct {
	kind          queueKind
	title, detail string
	returned      bool
	submitted     bool         // in review or done: opened read-only (samples_annotate.go)
	more          verify.State // qMore: the part it extends ("" for images)
	sample        bench.SampleInfo
	image         bench.Image
}

// lastWorkspace is the Annotate screen last made for each main window, so that a new
// one first saves what the previous one still holds (its autosave may be pending when
// the annotator comes back within the debounce). Touched on the UI goroutine only.
var lastWorkspace = map[*App]*workspace{}

// annotateScreen is the annotation workspace.
func (u *App) annotateScreen() fyne.CanvasObject {
	prev := lastWorkspace[u]
	ws := newWorkspace(u)
	lastWorkspace[u] = ws
	u.onOthersChanged = ws.othersChanged
	fill := func() {
		ws.reloadQueueThen(func() { // the queue is read off the UI goroutine
			ws.selectFirst()
			ws.openRequested()
		})
	}
	if prev == nil {
		fill()
	} else {
		// The new screen opens the sample again, with its undo steps, once the
		// previous one's save is in: opened before, its version would be stale.
		prev.keepHistory()
		prev.flushOr(fill, fill)
	}
	return ws.root
}

func newWorkspace(u *App) *workspace {
	ws := &workspace{u: u, current: -1, acks: map[string]bool{}, autosaveDelay: autosaveDelay, now: time.Now, after: afterOnUI, pageSize: queuePage,
		loaded:   map[verify.State]int{},
		lastKind: annotate.KindHopQA}
	ws.history.coalesce = typingMerge

	// Left: the queue.
	ws.queue = newQueueList(ws)
	ws.queue.OnSelected = func(id widget.ListItemID) { ws.openIndex(id) }
	ws.allImages = widget.NewCheck("Show all images", func(bool) {
		ws.imgLoaded = 0
		ws.reloadQueue()
	})
	help := widget.NewButtonWithIcon("Shortcuts", theme.HelpIcon(), ws.showShortcuts)
	left := container.NewBorder(container.NewVBox(heading("Your queue"), ws.allImages), container.NewHBox(help), nil, nil, ws.queue)

	// Centre: the image and its box.
	ws.canvas = boxcanvas.New(nil, 1, 1)
	ws.canvas.ReadOnly = true
	ws.canvas.OnChanged = ws.boxesChanged
	ws.readout = widget.NewLabel("")
	ws.readout.Truncation = fyne.TextTruncateEllipsis
	ws.boxFields = newBoxFields(ws)
	ws.canvas.OnReadout = func(string) { ws.showReadout() }
	ws.host = newCanvasHost(ws.canvas, ws)
	ws.imageInfo = widget.NewLabel("")
	ws.imageInfo.Truncation = fyne.TextTruncateEllipsis
	tool := func(icon fyne.Resource, f func()) *widget.Button {
		b := widget.NewButtonWithIcon("", icon, f)
		b.Importance = widget.LowImportance
		return b
	}
	tools := container.NewHBox(
		widget.NewButtonWithIcon("New box (N)", theme.ContentClearIcon(), ws.newBox),
		tool(theme.ZoomInIcon(), ws.zoomIn), tool(theme.ZoomOutIcon(), ws.zoomOut),
		tool(theme.ZoomFitIcon(), ws.fit),
		zoomButton(ws.canvas),
	)
	backdrop := canvas.NewRectangle(color.NRGBA{R: 0x30, G: 0x30, B: 0x33, A: 0xff})
	ws.initSequence(container.NewStack(backdrop, ws.canvas, ws.host))
	imageArea := container.NewBorder(ws.imageInfo, container.NewVBox(ws.seq.area, container.NewBorder(nil, nil, tools, nil, ws.readout), ws.boxFields.row), nil, nil,
		ws.seq.view)
	ws.seq.outer = imageArea
	ws.lint = newLintPanel(ws)
	centre := container.NewVSplit(imageArea, ws.lint.obj)
	centre.Offset = 0.7

	// Right: the form.
	ws.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	ws.title.Truncation = fyne.TextTruncateEllipsis
	ws.saveState = caption("")
	ws.banner = container.NewVBox()
	ws.saveBtn = widget.NewButtonWithIcon("Save (Ctrl+S)", theme.DocumentSaveIcon(), func() { ws.saveNow() })
	ws.submitBtn = widget.NewButtonWithIcon("Submit (Ctrl+Enter)", theme.MailSendIcon(), ws.submit)
	ws.submitBtn.Importance = widget.HighImportance
	ws.submitWhy = caption("")
	ws.right = container.NewStack()

	split := container.NewHSplit(centre, ws.right)
	split.Offset = 0.55
	outer := container.NewHSplit(left, split)
	outer.Offset = 0.19
	ws.root = outer
	ws.showNothing()
	ws.installKeys()
	return ws
}

// active reports whether this workspace is the screen on show, with no dialog over it.
func (ws *workspace) active() bool {
	u := ws.u
	if u.content == nil || len(u.content.Objects) != 1 || u.content.Objects[0] != ws.root {
		return false
	}
	return u.win.Canvas().Overlays().Top() == nil
}

// installKeys registers the window-level keys. Ctrl shortcuts are the workspace's
// wherever the focus is (the form's entries pass them on too). Letter keys, and the
// keys that edit the box (arrows, Delete), act only when the image area or the
// queue list has the keyboard, which a click on them gives: typed with nothing
// focused (a click that landed beside a field) they do nothing but say so, so that
// a sentence typed there never clears a box or changes an answer (issue 27).
// Registering again (the screen is rebuilt on every visit) replaces the previous
// workspace's handlers.
func (ws *workspace) installKeys() {
	c := ws.u.win.Canvas()
	ctrl := fyne.KeyModifierShortcutDefault
	for _, s := range []fyne.Shortcut{
		&fyne.ShortcutUndo{}, &fyne.ShortcutRedo{},
		&desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: ctrl | fyne.KeyModifierShift},
		&desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: ctrl},
		&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: ctrl},
		&desktop.CustomShortcut{KeyName: fyne.KeyEnter, Modifier: ctrl},
		&desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: ctrl},
		&desktop.CustomShortcut{KeyName: fyne.KeyEqual, Modifier: ctrl | fyne.KeyModifierShift}, // Ctrl++ on most layouts
		&desktop.CustomShortcut{KeyName: fyne.KeyPlus, Modifier: ctrl},                          // keypad +
		&desktop.CustomShortcut{KeyName: fyne.KeyPlus, Modifier: ctrl | fyne.KeyModifierShift},
		&desktop.CustomShortcut{KeyName: fyne.KeyMinus, Modifier: ctrl},
		&desktop.CustomShortcut{KeyName: fyne.Key0, Modifier: ctrl},
	} {
		c.AddShortcut(s, func(s fyne.Shortcut) {
			if ws.active() {
				ws.shortcut(s)
			}
		})
	}
	if dc, ok := c.(desktop.Canvas); ok {
		// With no widget focused, Space and Shift reach the window, not the box
		// canvas: pass them on, so that Space+drag pans even before the canvas was
		// clicked (before, it drew a box). Holding a key changes nothing stored.
		dc.SetOnKeyDown(ws.keyDown)
		dc.SetOnKeyUp(ws.keyUp)
	}
	c.SetOnTypedRune(ws.strayRune)
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) { ws.typedKey(ev) }) // F1 only: Delete and the arrows need the image's focus
	ws.u.fyne.Lifecycle().SetOnExitedForeground(func() { ws.flush(nil) })
}

// strayRune is a letter typed with nothing focused: it is no shortcut (the click
// before it may have missed a field by a few pixels); the status line says where
// the keys go.
func (ws *workspace) strayRune(r rune) {
	if !ws.active() || r == ' ' {
		return
	}
	if ws.submitting && ws.sample != nil {
		ws.u.setStatus("Submitting %s: what you type now would not be in it. Type again once the next item opens.", ws.sample.ID)
		return
	}
	ws.u.setStatus("Nothing has the keyboard: click a field to type, or the image or the queue to use letter keys.")
}

// keyDown and keyUp hand key presses that reached the window to the box canvas,
// which tracks Space (pan) and Shift (10 px nudges).
func (ws *workspace) keyDown(ev *fyne.KeyEvent) {
	if ws.active() && ws.host != nil {
		ws.host.KeyDown(ev)
	}
}

func (ws *workspace) keyUp(ev *fyne.KeyEvent) {
	if ws.active() && ws.host != nil {
		ws.host.KeyUp(ev)
	}
}

// shortcut runs a Ctrl shortcut and reports whether it is one of the workspace's.
func (ws *workspace) shortcut(s fyne.Shortcut) bool {
	if ws.tagShortcut(s) { // Alt keys of the tags and the view (annotate_tags.go)
		return true
	}
	switch sc := s.(type) {
	case *fyne.ShortcutUndo:
		ws.undo()
		return true
	case *fyne.ShortcutRedo:
		ws.redo()
		return true
	case *desktop.CustomShortcut:
		ctrl := fyne.KeyModifierShortcutDefault
		switch {
		case sc.Modifier == ctrl|fyne.KeyModifierShift && sc.KeyName == fyne.KeyZ:
			ws.redo()
		case sc.Modifier == ctrl|fyne.KeyModifierShift && (sc.KeyName == fyne.KeyEqual || sc.KeyName == fyne.KeyPlus):
			ws.zoomIn() // Ctrl++ typed with Shift
		case sc.Modifier != ctrl:
			return false
		case sc.KeyName == fyne.KeyS:
			ws.saveNow()
		case sc.KeyName == fyne.KeyReturn || sc.KeyName == fyne.KeyEnter:
			ws.submit()
		case sc.KeyName == fyne.KeyEqual || sc.KeyName == fyne.KeyPlus:
			ws.zoomIn()
		case sc.KeyName == fyne.KeyMinus:
			ws.zoomOut()
		case sc.KeyName == fyne.Key0:
			ws.fit()
		default:
			return false
		}
		return true
	}
	return false
}

// typedRune runs a letter shortcut. Only the image area (canvasHost) and the queue
// list call it, when they have the keyboard.
func (ws *workspace) typedRune(r rune) {
	if !ws.active() {
		return
	}
	switch r {
	case 'n', 'N', 'r', 'R':
		ws.newBox()
	case 'a', 'A':
		ws.move(-1)
	case 'd', 'D':
		ws.move(1)
	case '1', '2', '3', '4', '5', '6':
		ws.pickAnswer(int(r - '1'))
	case '[':
		ws.stepImage(-1)
	case ']':
		ws.stepImage(1)
	case '{':
		ws.moveShown(-1)
	case '}':
		ws.moveShown(1)
	case 'g', 'G':
		ws.toggleGrid()
	case '?':
		ws.showShortcuts()
	}
}

// typedKey handles F1 and reports whether it did.
func (ws *workspace) typedKey(ev *fyne.KeyEvent) bool {
	if ev.Name == fyne.KeyF1 && ws.active() {
		ws.showShortcuts()
		return true
	}
	return false
}

var shortcutHelp = [][2]string{
	{"Drag on the image", "draw the box (a new box replaces the old one)"},
	{"Drag the box / its handles", "move / resize it"},
	{"Arrows, Shift+arrows", "nudge the selected box 1 px / 10 px"},
	{"N or R", "new box: clear the box, then drag to draw"},
	{"A / D", "previous / next queue item"},
	{"1 – 4 (1 – 6)", "mark the correct option (judgment: 1 yes, 2 no)"},
	{"[ / ]", "previous / next image of a sample's sequence (the box goes on the image shown)"},
	{"{ / } (Shift+[ / Shift+])", "move the image shown earlier / later in the sequence"},
	{"G", "grid of the whole sequence (zoom and pan move every cell); again: one image"},
	{"Alt+A / Alt+P / Alt+R", "in the question: tag the selected phrase ATT / POS / REL (Alt+U untags)"},
	{"Alt+E / Alt+X", "hop question: ego / exo viewpoint"},
	{"Ctrl+S", "save the draft (it also saves itself while you work)"},
	{"Ctrl+Enter", "submit for review and open the next image without a sample"},
	{"Ctrl+Z / Ctrl+Shift+Z", "undo / redo box and text edits"},
	{"Ctrl+= / Ctrl+- / Ctrl+0", "zoom in / out / fit; wheel zooms at the pointer"},
	{"Space+drag, middle drag", "pan"},
	{"Esc", "leave a text field; click the image or the queue for letter keys"},
	{"F1 or ?", "this help"},
}

// showShortcuts shows shortcutHelp in a dialog that fits the window: the rows
// wrap to its width and scroll when they are taller than it (at 1024×700 they
// were 856 px tall, and fyne squeezed the dialog into the window, cutting off
// its foot and Close).
func (ws *workspace) showShortcuts() {
	grid := container.New(layout.NewFormLayout())
	for _, h := range shortcutHelp {
		grid.Add(widget.NewLabelWithStyle(h[0], fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		what := widget.NewLabel(h[1])
		what.Wrapping = fyne.TextWrapWord
		grid.Add(what)
	}
	note := caption("Letter keys work while the image or the queue has the keyboard (click it); they do nothing in a text field or when nothing is clicked. Ctrl+Z undoes a cleared box or a changed answer, also after coming back to the sample.")
	body := container.NewVBox(grid, note)
	scroll := container.NewVScroll(body)
	// The dialog's title, Close and padding take about 130 px; the window's edges 40.
	win := ws.u.win.Canvas().Size()
	w := min(float32(780), win.Width-80)
	h := min(heightAt(body, w), win.Height-170)
	scroll.SetMinSize(fyne.NewSize(w, h))
	dialog.ShowCustom("Keyboard shortcuts", "Close", scroll, ws.u.win)
}

// heightAt is the height box takes laid out w wide (its wrapped labels' rows).
func heightAt(box *fyne.Container, w float32) float32 {
	box.Resize(fyne.NewSize(w, box.MinSize().Height))
	return box.MinSize().Height
}

// ---- queue ----

// reloadQueue lists the annotator's returned samples (with reasons: first), drafts,
// then the images without a sample (or all images), one page at a time. It reads
// them off the UI goroutine (load); the open item stays selected.
func (ws *workspace) reloadQueue() { ws.reloadQueueThen(nil) }

// reloadQueueThen is reloadQueue, running then once the queue shown is the one read
// (or a newer one: a later reload's result replaces this one's, and runs then too).
func (ws *workspace) reloadQueueThen(then func()) {
	if then != nil {
		ws.queueWaiting = append(ws.queueWaiting, then)
	}
	if len(ws.items) == 0 { // the first read: say so, rather than show an empty queue
		ws.showQueue([]queueItem{{kind: qHeader, detail: "Reading your queue…"}})
	}
	q := queueQuery{sess: ws.u.sess, ctx: ws.u.ctx(), user: ws.u.user, pid: ws.u.project.ID, page: ws.pageSize,
		all: ws.allImages.Checked, imgLoaded: ws.imgLoaded, loaded: maps.Clone(ws.loaded)}
	load(ws.u, "annotate.queue", func() (queueData, error) { return q.readQueue(), nil }, func(d queueData, _ error) {
		if d.err != nil {
			// A read, not an action: said in the status bar and in the queue,
			// which is read again when the server answers (watchChanges).
			ws.u.setStatus("Your queue could not be read: %s", bench.Message(d.err))
		}
		ws.loaded, ws.imgLoaded, ws.imgTotal = d.loaded, d.imgLoaded, d.imgTotal
		ws.showQueue(d.items)
		waiting := ws.queueWaiting
		ws.queueWaiting = nil
		for _, f := range waiting {
			f()
		}
	})
}

// queueQuery is what a reading of the queue needs, copied on the UI goroutine.
type queueQuery struct {
	sess      bench.Session
	ctx       context.Context
	user      bench.User // whose drafts are theirs
	pid       int64
	page      int
	all       bool // all images, not only those without a sample
	imgLoaded int
	loaded    map[verify.State]int
}

// queueData is what a reading of the queue found.
type queueData struct {
	items               []queueItem
	loaded              map[verify.State]int
	imgLoaded, imgTotal int
	err                 error // the first error, shown
}

// readQueue reads the queue's rows. Its reads are independent, so they all run at
// once: on a team server the queue costs one round trip, not one per read (16
// of them, half a minute on a link that adds two seconds a request).
//
//bw:background
func (q queueQuery) readQueue() queueData {
	d := queueData{loaded: q.loaded}
	keep := func(err error) {
		if err != nil && d.err == nil {
			d.err = err
		}
	}
	mine := func(st verify.State) bench.SampleFilter { return bench.SampleFilter{Status: st, AuthorID: q.user.ID} }
	var returned, drafts sampleSection
	submitted := make([]sampleSection, len(submittedStates))
	nSubmitted := max(q.loaded[verify.StateAccepted], q.page)
	var ims []bench.Image
	var imsErr error
	n := max(q.imgLoaded, q.page)
	reads := []func(){
		func() {
			returned = q.readSection(mine(verify.StateReturned), max(q.loaded[verify.StateReturned], q.page))
		},
		func() { drafts = q.readSection(mine(verify.StateDraft), max(q.loaded[verify.StateDraft], q.page)) },
		func() {
			if q.all {
				d.imgTotal, _ = q.sess.CountImages(q.ctx, q.pid)
			} else {
				d.imgTotal, _ = q.sess.CountImagesWithoutSamples(q.ctx, q.pid)
			}
		},
		func() {
			if q.all {
				ims, imsErr = q.sess.Images(q.ctx, q.pid, 0, n)
			} else {
				ims, imsErr = q.sess.ImagesWithoutSamples(q.ctx, q.pid, 0, n)
			}
		},
	}
	for i, st := range submittedStates {
		reads = append(reads, func() { submitted[i] = q.readSection(mine(st), nSubmitted) })
	}
	together(reads...)

	var items []queueItem
	for _, part := range []struct {
		state    verify.State
		title    string
		returned bool
		sec      sampleSection
	}{{verify.StateReturned, "Returned to you", true, returned}, {verify.StateDraft, "Your drafts", false, drafts}} {
		keep(part.sec.err)
		total, ss := part.sec.total, part.sec.rows
		if part.sec.err != nil {
			items = append(items, queueItem{kind: qHeader, title: part.title, detail: "Not read: " + bench.Message(part.sec.err)})
			continue
		}
		if total == 0 && part.returned {
			continue
		}
		d.loaded[part.state] = len(ss)
		items = append(items, queueItem{kind: qHeader, title: fmt.Sprintf("%s · %d", part.title, total)})
		for _, s := range ss {
			items = append(items, queueItem{kind: qSample, returned: part.returned, sample: s,
				title: fmt.Sprintf("%s · %s", s.ID, kindTitle(s.Kind)), detail: questionLine(s.Content.Question)})
		}
		if len(ss) < total {
			items = append(items, queueItem{kind: qMore, more: part.state,
				title: fmt.Sprintf("Load %d more…", min(q.page, total-len(ss)))})
		}
	}
	for _, sec := range submitted {
		keep(sec.err)
	}
	items = append(items, q.submittedItems(submitted, nSubmitted, d.loaded)...)
	keep(imsErr)
	title := "Images without samples"
	if q.all {
		title = "All images"
	}
	if imsErr != nil {
		d.items = append(items, queueItem{kind: qHeader, title: title, detail: "Not read: " + bench.Message(imsErr)})
		return d
	}
	d.imgLoaded = len(ims)
	items = append(items, queueItem{kind: qHeader, title: fmt.Sprintf("%s · %d", title, d.imgTotal)})
	for _, im := range ims {
		items = append(items, queueItem{kind: qImage, image: im, title: path.Base(im.RelPath),
			detail: fmt.Sprintf("%s · %d×%d", path.Dir(im.RelPath), im.Width, im.Height)})
	}
	if d.imgLoaded < d.imgTotal {
		items = append(items, queueItem{kind: qMore, title: fmt.Sprintf("Load %d more images…", min(q.page, d.imgTotal-d.imgLoaded))})
	}
	if len(ims) == 0 && !q.all {
		items = append(items, queueItem{kind: qHeader, title: "", detail: "All have one: see “Show all images”."})
	}
	d.items = items
	return d
}

// sampleSection is a count of the annotator's samples in one filter and the
// first rows of them.
type sampleSection struct {
	total int
	rows  []bench.SampleInfo
	err   error
}

// readSection reads the count and the first n rows of filter f at once.
//
//bw:background
func (q queueQuery) readSection(f bench.SampleFilter, n int) sampleSection {
	var sec sampleSection
	var countErr error
	together(
		func() { sec.total, countErr = q.sess.CountSamples(q.ctx, q.pid, f) },
		func() { sec.rows, sec.err = q.sess.Samples(q.ctx, q.pid, f, 0, n) },
	)
	sec.err = cmp.Or(countErr, sec.err)
	return sec
}

// together runs fs at once and returns when all have returned.
func together(fs ...func()) {
	var wg sync.WaitGroup
	for _, f := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
}

// showQueue shows the queue's rows, the open item selected.
func (ws *workspace) showQueue(items []queueItem) {
	ws.items = items
	ws.current = -1
	ws.quietly(ws.queue.UnselectAll)
	for i, it := range items { // keep the open item selected
		if (ws.sample != nil && it.kind == qSample && it.sample.ID == ws.sample.ID) ||
			(ws.sample == nil && ws.hasImage && it.kind == qImage && it.image.ID == ws.image.ID) {
			ws.current = i
			ws.quietly(func() { ws.queue.Select(i) })
			break
		}
	}
	// Headers take one line, items two.
	one := widget.NewLabel("Xy").MinSize().Height
	two := queueRow().MinSize().Height
	for i, it := range items {
		if it.kind == qHeader && it.detail == "" || it.kind == qMore {
			ws.queue.SetItemHeight(i, one)
		} else {
			ws.queue.SetItemHeight(i, two)
		}
	}
	ws.queue.Refresh()
}

// othersChanged reads the queue again when someone else acted (the change poll,
// connect.go), so that its counts and rows follow others' work; the open sample,
// its form and the focus are left alone.
func (ws *workspace) othersChanged() {
	if !ws.active() || ws.loading {
		return
	}
	ws.reloadQueue()
}

// queueRow is the template of a queue row: icon, title and a detail line.
func queueRow() fyne.CanvasObject {
	title := widget.NewLabel("")
	title.Truncation = fyne.TextTruncateEllipsis
	detail := small("")
	detail.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(nil, nil, widget.NewIcon(nil), nil, container.NewVBox(title, detail))
}

func (ws *workspace) updateQueueRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id < 0 || id >= len(ws.items) {
		return
	}
	it := ws.items[id]
	row := o.(*fyne.Container)
	texts := row.Objects[0].(*fyne.Container)
	icon := row.Objects[1].(*widget.Icon)
	title, detail := texts.Objects[0].(*widget.Label), texts.Objects[1].(*widget.Label)
	title.TextStyle.Bold = it.kind == qHeader
	title.Importance = widget.MediumImportance
	switch it.kind {
	case qHeader:
		icon.SetResource(nil)
	case qSample:
		icon.SetResource(theme.DocumentCreateIcon())
		if it.submitted {
			icon.SetResource(theme.VisibilityIcon()) // read-only
		}
		if it.returned {
			icon.SetResource(theme.MailReplyIcon())
			title.Importance = widget.WarningImportance
		}
	case qImage:
		icon.SetResource(theme.FileImageIcon())
	case qMore:
		icon.SetResource(theme.MoreHorizontalIcon())
		title.Importance = widget.HighImportance
	}
	title.SetText(it.title)
	detail.SetText(it.detail)
	if it.detail == "" {
		detail.Hide()
	} else {
		detail.Show()
	}
}

func questionLine(q string) string {
	if q = strings.TrimSpace(q); q == "" {
		return "(no question yet)"
	}
	return q
}

func selectable(it queueItem) bool { return it.kind == qSample || it.kind == qImage }

// selectFirst opens the first sample or image of the queue.
func (ws *workspace) selectFirst() {
	for i, it := range ws.items {
		if selectable(it) {
			ws.queue.Select(i)
			return
		}
	}
}

// move opens the previous (−1) or next (+1) item of the queue.
func (ws *workspace) move(delta int) {
	for i := ws.current + delta; i >= 0 && i < len(ws.items); i += delta {
		if selectable(ws.items[i]) {
			ws.queue.Select(i)
			ws.queue.ScrollTo(i)
			return
		}
		if ws.items[i].kind == qMore && delta > 0 {
			ws.loadMore(ws.items[i].more)
			ws.move(delta)
			return
		}
	}
}

// loadMore adds the next page of a part of the queue: of images (part ""), or of
// the annotator's samples in that state.
func (ws *workspace) loadMore(part verify.State) {
	if part == "" {
		ws.imgLoaded += ws.pageSize
	} else {
		ws.loaded[part] += ws.pageSize
	}
	ws.reloadQueue() // keeps the open item selected
}

// openIndex opens queue item i; the current draft is saved first, and if that fails
// (a conflict) the current item stays open so that nothing typed is lost.
func (ws *workspace) openIndex(i int) {
	if ws.loading || i == ws.current {
		return
	}
	if i < 0 || i >= len(ws.items) {
		return
	}
	it := ws.items[i]
	if !selectable(it) {
		ws.reselect()
		if it.kind == qMore {
			ws.loadMore(it.more)
		}
		return
	}
	ws.flushOr(func() {
		if i >= len(ws.items) || !sameItem(ws.items[i], it) { // the queue was reloaded meanwhile
			ws.reselect()
			return
		}
		ws.current = i
		switch {
		case it.kind == qSample && it.submitted:
			ws.showSubmitted(it.sample)
		case it.kind == qSample:
			ws.openSample(it.sample.ID)
		case it.kind == qImage:
			ws.openImage(it.image)
		}
		ws.host.takeFocus()
	}, ws.reselect)
}

// sameItem tells whether two queue items are the same sample or image.
func sameItem(a, b queueItem) bool {
	return a.kind == b.kind && a.sample.ID == b.sample.ID && a.image.RelPath == b.image.RelPath
}

// reselect puts the list selection back on the open item.
func (ws *workspace) reselect() {
	ws.quietly(func() {
		if ws.current >= 0 {
			ws.queue.Select(ws.current)
		} else {
			ws.queue.UnselectAll()
		}
	})
}

// queueList is the queue's list: with the keyboard (Tab, or a click on it), it
// takes the letter keys as the image area does.
type queueList struct {
	widget.List
	ws *workspace
}

func newQueueList(ws *workspace) *queueList {
	l := &queueList{ws: ws}
	l.Length = func() int { return len(ws.items) }
	l.CreateItem = queueRow
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) { ws.updateQueueRow(id, o) }
	l.ExtendBaseWidget(l)
	return l
}

func (l *queueList) TypedRune(r rune) {
	if r == ' ' {
		l.List.TypedRune(r)
		return
	}
	l.ws.typedRune(r)
}
