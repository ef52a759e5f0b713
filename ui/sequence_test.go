package ui

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/ui/boxcanvas"
	"github.com/benchwright/benchwright/verify"
)

// demoPaths are the demo project's image paths, in the gallery's order.
func demoPaths(t *testing.T, u *App) []string {
	t.Helper()
	ims, err := u.db.As(bench.Owner()).Images(context.Background(), u.project.ID, 0, 100)
	if err != nil || len(ims) < 5 {
		t.Fatalf("demo images: %d, %v", len(ims), err)
	}
	var out []string
	for _, im := range ims {
		out = append(out, im.RelPath)
	}
	return out
}

// sequenceDraft makes ann1's draft hop question of paths and opens it in the editor.
func sequenceDraft(t *testing.T, u *App, ws *workspace, paths []string) {
	t.Helper()
	ctx := context.Background()
	ann1, err := u.db.(*store.DB).Authenticate(ctx, "ann1", "demo")
	if err != nil {
		t.Fatal(err)
	}
	s := newSampleOf(annotate.KindHopQA, bench.Image{RelPath: paths[0]})
	s.SetImages(paths)
	si, err := u.db.As(ann1).CreateSample(ctx, u.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	ws.reloadQueue()
	for i, it := range ws.items {
		if it.kind == qSample && it.sample.ID == si.ID {
			ws.queue.Select(i)
		}
	}
	if ws.sample == nil || ws.sample.ID != si.ID {
		t.Fatalf("the sequence draft %s did not open", si.ID)
	}
	if got := len(ws.seq.strip.cells); got < len(paths) || !ws.seq.area.Visible() {
		t.Fatalf("the filmstrip shows %d cells (visible %v), want %d", got, ws.seq.area.Visible(), len(paths))
	}
}

// stripLabels are the labels and names the filmstrip shows, in order.
func stripNames(ws *workspace) []string {
	var out []string
	for _, fr := range ws.seq.strip.frames {
		out = append(out, fr.path)
	}
	return out
}

// galleryCell finds the gallery cell of image path.
func galleryCell(t *testing.T, u *App, path string) *tapImage {
	t.Helper()
	for _, o := range test.LaidOutObjects(u.content) {
		if c, ok := o.(*tapImage); ok {
			for _, x := range test.LaidOutObjects(c) {
				if l, ok := x.(*widget.Label); ok && l.Text == path {
					return c
				}
			}
		}
	}
	t.Fatalf("no gallery cell for %s", path)
	return nil
}

// tapWith taps a gallery cell with modifier keys held, as the desktop driver sends it.
func tapWith(cell *tapImage, mod fyne.KeyModifier) {
	cell.MouseDown(&desktop.MouseEvent{Modifier: mod})
	test.Tap(cell)
}

func findLabelPrefix(t *testing.T, o fyne.CanvasObject, prefix string) *widget.Label {
	t.Helper()
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok && strings.HasPrefix(l.Text, prefix) && l.Visible() {
			return l
		}
	}
	t.Fatalf("no label starting %q", prefix)
	return nil
}

// Several images chosen in the gallery (click, Ctrl+click, Space on the focused one,
// Shift+click for a range) become one sample, in the order chosen.
func TestGalleryMultiSelectMakesSequenceSample(t *testing.T) {
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "ann1", "demo")
	u.win.Resize(fyne.NewSize(1280, 800))
	u.nav.Select(0) // Images
	paths := demoPaths(t, u)

	tapWith(galleryCell(t, u, paths[3]), 0)
	tapWith(galleryCell(t, u, paths[0]), fyne.KeyModifierControl)
	// Space on a focused cell selects it in the grid: it adds, as Ctrl+click does.
	var grid *widget.GridWrap
	for _, o := range test.LaidOutObjects(u.content) {
		if g, ok := o.(*widget.GridWrap); ok {
			grid = g
		}
	}
	grid.Select(2)
	want := []string{paths[3], paths[0], paths[2]}
	findLabelPrefix(t, u.content, "3 images chosen, in this order: A ")
	// Ctrl+click on a chosen image takes it out; Shift+click adds a range from the last.
	tapWith(galleryCell(t, u, paths[0]), fyne.KeyModifierControl)
	findLabelPrefix(t, u.content, "2 images chosen")
	tapWith(galleryCell(t, u, paths[0]), fyne.KeyModifierControl)
	tapWith(galleryCell(t, u, paths[1]), fyne.KeyModifierShift) // paths[0] → paths[1]: adds paths[1]
	want = []string{paths[3], paths[2], paths[0], paths[1]}     // in the order chosen
	findLabelPrefix(t, u.content, "4 images chosen")

	test.Tap(findButton(t, u.content, "New sample of 4 images"))
	ws := lastWorkspace[u]
	if ws == nil || ws.newSampleChoice == nil || !slices.Equal(ws.seq.newOnes, want) {
		t.Fatalf("the Annotate screen does not offer a sample of %v: ws %v choice %v newOnes %v status %q", want, ws != nil, ws != nil && ws.newSampleChoice != nil, ws.seq.newOnes, u.status.Text)
	}
	if got := stripNames(ws); !slices.Equal(got, want) {
		t.Fatalf("the strip shows %v before creating, want %v", got, want)
	}
	ws.newSampleChoice.SetSelected(kindTitle(annotate.KindHopQA))
	test.Tap(ws.newSampleButton)
	if ws.sample == nil {
		t.Fatal("no sample created")
	}
	if got := storedSample(t, u, ws.sample.ID).Content.AllImages(); !slices.Equal(got, want) {
		t.Fatalf("stored images %v, want %v", got, want)
	}
	if got := stripNames(ws); !slices.Equal(got, want) {
		t.Fatalf("the editor's strip shows %v, want %v", got, want)
	}
}

// { and } move the image shown; dragging a cell of the strip moves its image; the
// labels stay in place (A, B, C…) and the order is saved.
func TestSequenceReorderByKeysAndDrag(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	paths := demoPaths(t, u)[:4]
	sequenceDraft(t, u, ws, paths)
	test.Type(ws.host, "]") // show B
	if ws.seq.shown != 1 || ws.image.RelPath != paths[1] {
		t.Fatalf("] shows image %d (%s), want 1", ws.seq.shown, ws.image.RelPath)
	}
	test.Type(ws.host, "}") // B moves after C
	want := []string{paths[0], paths[2], paths[1], paths[3]}
	if got := ws.cur.AllImages(); !slices.Equal(got, want) || ws.seq.shown != 2 || ws.image.RelPath != paths[1] {
		t.Fatalf("after }: %v showing %d, want %v showing 2", got, ws.seq.shown, want)
	}
	test.Type(ws.host, "{{") // and back to the front
	want = []string{paths[1], paths[0], paths[2], paths[3]}
	if got := ws.cur.AllImages(); !slices.Equal(got, want) || ws.seq.shown != 0 {
		t.Fatalf("after {{: %v showing %d, want %v showing 0", got, ws.seq.shown, want)
	}
	// Drag the first cell two cells to the right.
	cell := ws.seq.strip.cells[0]
	inset, _ := u.win.Canvas().InteractiveArea()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(cell).Add(inset).AddXY(10, 10)
	test.Drag(u.win.Canvas(), at, 2*ws.seq.strip.pitch()+5, 0)
	want = []string{paths[0], paths[2], paths[1], paths[3]}
	if got := ws.cur.AllImages(); !slices.Equal(got, want) {
		t.Fatalf("after dragging the first cell 2 places: %v, want %v", got, want)
	}
	if got := stripNames(ws); !slices.Equal(got, want) {
		t.Fatalf("strip %v, want %v", got, want)
	}
	if l := ws.seq.strip.cells[0].label.Text; l != "A" {
		t.Errorf("the first cell is labelled %q, want A", l)
	}
	shortcut(u, fyne.KeyS, ctrl)
	if got := storedSample(t, u, ws.sample.ID).Content.AllImages(); !slices.Equal(got, want) {
		t.Fatalf("stored %v, want %v", got, want)
	}
}

// Remove takes the image shown out (Ctrl+Z puts it back); Add… appends a project image.
func TestSequenceRemoveAndAdd(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	all := demoPaths(t, u)
	paths := all[:3]
	sequenceDraft(t, u, ws, paths)
	test.Type(ws.host, "]")
	test.Tap(ws.seq.buttons[2]) // remove B
	want := []string{paths[0], paths[2]}
	if got := ws.cur.AllImages(); !slices.Equal(got, want) || ws.image.RelPath != paths[2] {
		t.Fatalf("after removing B: %v showing %s, want %v showing %s", got, ws.image.RelPath, want, paths[2])
	}
	shortcut(u, fyne.KeyZ, ctrl)
	u.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	if got := ws.cur.AllImages(); !slices.Equal(got, paths) {
		t.Fatalf("undo: %v, want %v", got, paths)
	}
	test.Tap(ws.seq.buttons[3]) // Add…
	top := u.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("Add… opened no dialog")
	}
	var list *widget.List
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.List); ok {
			list = l
		}
	}
	if list == nil {
		t.Fatal("the Add dialog has no list")
	}
	list.Select(slices.Index(all, all[4]))
	want = append(slices.Clone(paths), all[4])
	if got := ws.cur.AllImages(); !slices.Equal(got, want) || ws.seq.shown != 3 || ws.image.RelPath != all[4] {
		t.Fatalf("after adding %s: %v showing %d, want %v showing 3", all[4], got, ws.seq.shown, want)
	}
	shortcut(u, fyne.KeyS, ctrl)
	if got := storedSample(t, u, ws.sample.ID).Content.AllImages(); !slices.Equal(got, want) {
		t.Fatalf("stored %v, want %v", got, want)
	}
}

// A box drawn on the third image is saved with box_image 2; other images show no box.
func TestSequenceBoxOnThirdImage(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	paths := demoPaths(t, u)[:4]
	sequenceDraft(t, u, ws, paths)
	test.Type(ws.host, "]]")
	if ws.seq.shown != 2 || ws.image.RelPath != paths[2] {
		t.Fatalf("]] shows %d (%s), want the third image", ws.seq.shown, ws.image.RelPath)
	}
	a, b := imagePos(ws, 60, 50), imagePos(ws, 200, 160)
	test.Drag(u.win.Canvas(), hostPos(ws, a), b.X-a.X, b.Y-a.Y)
	if ws.cur.Box == nil || ws.cur.BoxImage != 2 {
		t.Fatalf("box %v on image %d, want one on image 2", ws.cur.Box, ws.cur.BoxImage)
	}
	drawn := *ws.cur.Box
	shortcut(u, fyne.KeyS, ctrl)
	if got := storedSample(t, u, ws.sample.ID).Content; got.Box == nil || *got.Box != drawn || got.BoxImage != 2 {
		t.Fatalf("stored box %v on image %d, want %v on 2", got.Box, got.BoxImage, drawn)
	}
	test.Type(ws.host, "[")
	if n := len(ws.canvas.Boxes()); n != 0 {
		t.Fatalf("the second image shows %d boxes, want none", n)
	}
	test.Type(ws.host, "]")
	if bs := ws.canvas.Boxes(); len(bs) != 1 || bs[0] != drawn {
		t.Fatalf("back on the third image: boxes %v, want %v", bs, drawn)
	}
	if !ws.seq.strip.frames[2].hasBox || ws.seq.strip.frames[0].hasBox {
		t.Errorf("the strip marks the box on %v", ws.seq.strip.frames)
	}
}

// relZoom is a grid cell's zoom relative to its fit.
func relZoom(c *boxcanvas.Canvas) float32 {
	v := c.View()
	return v.Zoom / v.Fit(c.ViewSize()).Zoom
}

// In the grid, zooming one cell zooms every cell, and panning pans them all.
func TestSequenceGridZoomInOneCellZoomsAll(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	paths := demoPaths(t, u)[:5]
	sequenceDraft(t, u, ws, paths)
	test.Type(ws.host, "g")
	g := ws.seq.grid
	if !ws.seq.gridOn || g == nil || len(g.cells) != 5 {
		t.Fatalf("g: grid %v with %d cells, want 5", ws.seq.gridOn, len(g.cells))
	}
	for _, c := range g.cells {
		if c.ViewSize().Width <= 0 {
			t.Fatal("a grid cell is not laid out")
		}
	}
	test.Scroll(u.win.Canvas(), cellPos(u, g.cells[3]).AddXY(20, 20), 0, 50) // the wheel doubles the zoom of cell D
	want := relZoom(g.cells[3])
	if want < 1.9 {
		t.Fatalf("the wheel zoomed cell D to %g× its fit", want)
	}
	for i, c := range g.cells {
		if got := relZoom(c); math.Abs(float64(got-want)) > 1e-3 {
			t.Errorf("cell %d at %g× its fit, want %g×", i, got, want)
		}
	}
	// Pan cell A: the others follow (the same point of each image at each centre).
	test.Drag(u.win.Canvas(), cellPos(u, g.cells[0]).AddXY(30, 30), 25, -15)
	centre := func(k int) (float64, float64) {
		c := g.cells[k]
		s := c.ViewSize()
		x, y := c.View().ToImage(fyne.NewPos(s.Width/2, s.Height/2))
		v := c.View()
		return x / float64(v.ImageW), y / float64(v.ImageH)
	}
	ax, ay := centre(0)
	for k := 1; k < len(g.cells); k++ {
		if x, y := centre(k); math.Abs(x-ax) > 1e-3 || math.Abs(y-ay) > 1e-3 {
			t.Errorf("cell %d centred on (%.3f,%.3f), cell A on (%.3f,%.3f)", k, x, y, ax, ay)
		}
	}
	test.Type(ws.host, "g")
	if ws.seq.gridOn || ws.seq.view.Objects[0] != ws.seq.single {
		t.Fatal("g again did not bring the canvas back")
	}
}

func cellPos(u *App, o fyne.CanvasObject) fyne.Position {
	inset, _ := u.win.Canvas().InteractiveArea()
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Add(inset)
}

// A verifier sees the sequence in the annotator's order, read-only: dragging a cell
// moves nothing; [ and ] step through it with the box on its image, g shows the grid.
func TestVerifierSeesReadOnlyFilmstrip(t *testing.T) {
	u, db := demoApp(t)
	si, paths, box := submittedSequence(t, db)
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, si.ID)
	if o.seq == nil {
		t.Fatal("the verifier sees no filmstrip")
	}
	f := o.seq.strip
	var got []string
	for _, fr := range f.frames {
		got = append(got, fr.path)
	}
	if !slices.Equal(got, paths) || !f.readOnly {
		t.Fatalf("the verifier's strip shows %v (read-only %v), want %v read-only", got, f.readOnly, paths)
	}
	test.Drag(u.win.Canvas(), cellPos(u, f.cells[0]).AddXY(10, 10), 2*f.pitch()+5, 0)
	got = got[:0]
	for _, fr := range f.frames {
		got = append(got, fr.path)
	}
	if !slices.Equal(got, paths) || !slices.Equal(storedSample(t, u, si.ID).Content.AllImages(), paths) {
		t.Fatalf("a drag on the verifier's strip reordered it: %v", got)
	}
	if n := len(o.canvas.Boxes()); n != 0 {
		t.Fatalf("image A shows %d boxes; the box is on C", n)
	}
	press(u, "]]")
	if o.seq.shown != 2 || o.image.path != paths[2] {
		t.Fatalf("]] shows %d (%s), want C", o.seq.shown, o.image.path)
	}
	if bs := o.canvas.Boxes(); len(bs) != 1 || bs[0] != box {
		t.Fatalf("image C shows boxes %v, want %v", bs, box)
	}
	press(u, "g")
	if !o.seq.gridOn || len(o.seq.grid.cells) != 3 || len(o.seq.grid.cells[2].Boxes()) != 1 || len(o.seq.grid.cells[0].Boxes()) != 0 {
		t.Fatal("g: the grid does not show the three images with the box on C")
	}
	_ = verify.StateRound1
}

// TestCorrectionOfASequenceKeepsTheBoxOnItsImage: a verifier correcting a sequence
// while image A is shown sees no box there (it is on C) and is told so; the
// correction keeps the box on C.
func TestCorrectionOfASequenceKeepsTheBoxOnItsImage(t *testing.T) {
	u, db := demoApp(t)
	u.win.Resize(fyne.NewSize(1280, 800))
	si, _, box := submittedSequence(t, db)
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, si.ID)
	if o.seq == nil || o.seq.shown != 0 {
		t.Fatal("the sequence is not shown from A")
	}
	test.Tap(o.correctBtn)
	e := v.editor
	if e == nil {
		t.Fatal("Correct opened no editor")
	}
	if n := len(e.canvas.Boxes()); n != 0 {
		t.Errorf("the editor shows %d boxes on A; the box is on C", n)
	}
	e.question.SetText("")
	test.Type(e.question, "Is the chair in C left of the table in A?")
	test.Type(e.comment, "Shorter question.")
	test.Tap(e.save)
	got := storedSample(t, u, si.ID).Content
	if got.Question != "Is the chair in C left of the table in A?" || got.Box == nil || *got.Box != box || got.BoxImage != 2 {
		t.Errorf("after the correction: %q, box %v on image %d; want the box kept on C (editor: %q)", got.Question, got.Box, got.BoxImage, e.message.Text)
	}
}

// submittedSequence submits, as ann1, a hop question on three demo images (the
// project's fifth, second and third) whose box is on the third, and returns it
// with its images and box.
func submittedSequence(t *testing.T, db *store.DB) (bench.SampleInfo, []string, annotate.Box) {
	t.Helper()
	ctx := context.Background()
	ann1, err := db.Authenticate(ctx, "ann1", "demo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, ann1, "demo")
	if err != nil {
		t.Fatal(err)
	}
	ims, _ := db.Images(ctx, ann1, p.ID, 0, 10)
	paths := []string{ims[4].RelPath, ims[1].RelPath, ims[2].RelPath}
	s := newSampleOf(annotate.KindHopQA, ims[4])
	s.SetImages(paths)
	s.Question = "Is the chair in image C to the left of the table in image A?"
	s.Options = []string{"yes", "no", "only in B", "cannot tell"}
	s.AnswerIndex = 0
	s.Categories = []annotate.Category{annotate.CatPos}
	s.Hop = 1
	box := annotate.Box{10, 20, 110, 120}
	s.Box, s.BoxImage = &box, 2
	si, err := db.CreateSample(ctx, ann1, p.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	var acks []string
	for _, f := range annotate.Lint(s, annotate.LintEnv{}) {
		acks = append(acks, f.Rule)
	}
	if si, err = db.Submit(ctx, ann1, si.ID, si.Version, acks); err != nil {
		t.Fatalf("submit: %v", err)
	}
	return si, paths, box
}

// TestManagerPreviewShowsTheBoxImage: the lead's sample manager previews a
// sequence on the image its box is on, and lists the images in order.
func TestManagerPreviewShowsTheBoxImage(t *testing.T) {
	u, db := demoApp(t)
	si, paths, _ := submittedSequence(t, db)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "lead", demo.DemoPassword)
	delete(lastSamples, u)
	u.openSamples(bench.SampleQuery{Desc: true})
	v := samplesOf(t, u)
	v.openRow(si.ID)
	d := v.open
	if d == nil {
		t.Fatalf("%s did not open: %q", si.ID, v.message.Text)
	}
	if d.shown != paths[2] {
		t.Errorf("the preview shows %s, want the box's image %s", d.shown, paths[2])
	}
}
