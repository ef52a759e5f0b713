package ui

import (
	"context"
	"fmt"
	"image"
	"path"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// The Annotate screen's sequence of images (issue 26): a filmstrip under the canvas
// shows the open sample's images with their labels; the canvas shows one of them
// (ws.shown) and the box is drawn on the image shown (the sample records it as
// box_image). [ and ] show the previous and next image, { and } move the image shown
// earlier and later, G switches to the grid of the whole sequence. The images'
// records (size, content hash) and thumbnails are read off the UI goroutine.

// seqView is the part of the workspace that shows the sequence.
type seqView struct {
	shown  int                    // index in cur.AllImages() of the image on the canvas
	images map[string]bench.Image // the sequence's images by path, as read
	thumbs map[string]string      // thumbnail files by content hash
	gen    int                    // which sample's sequence a background read is for
	sig    string                 // what the strip shows, to skip redundant refreshes

	strip   *filmstrip
	info    *widget.Label
	buttons []*widget.Button // earlier, later, remove, add, grid
	area    *fyne.Container
	view    *fyne.Container // the single canvas or the grid
	single  fyne.CanvasObject
	grid    *seqGrid
	gridOn  bool
	newOnes []string        // the images a new sample is offered on (from the gallery)
	outer   *fyne.Container // the image area, laid out again when the strip comes or goes
}

// setAreaVisible shows or hides the strip and lays the image area out again.
func (sv *seqView) setAreaVisible(on bool) {
	if sv.area.Visible() == on {
		return
	}
	if on {
		sv.area.Show()
	} else {
		sv.area.Hide()
	}
	sv.relayout()
}

// relayout lays the strip and the image area out again after a part came or went.
// Only the layouts run: a container's Refresh would refresh every widget below it,
// and every thumbnail would be read and decoded again.
func (sv *seqView) relayout() {
	layoutOnly(sv.area)
	if sv.outer != nil {
		layoutOnly(sv.outer)
	}
}

// layoutOnly lays c's objects out again in its size, without refreshing them.
func layoutOnly(c *fyne.Container) {
	if c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	canvas.Refresh(c)
}

// initSequence makes the filmstrip and its buttons; single is the canvas stack.
func (ws *workspace) initSequence(single fyne.CanvasObject) {
	sv := &ws.seq
	sv.images, sv.thumbs = map[string]bench.Image{}, map[string]string{}
	sv.single = single
	sv.view = container.NewStack(single)
	sv.strip = newFilmstrip(false)
	sv.strip.onPick = func(i int) {
		ws.showImage(i)
		ws.host.takeFocus()
	}
	sv.strip.onMove = func(from, to int) {
		ws.moveImage(from, to)
		ws.host.takeFocus()
	}
	sv.info = caption("")
	sv.info.Truncation = fyne.TextTruncateEllipsis
	btn := func(label string, icon fyne.Resource, f func()) *widget.Button {
		b := widget.NewButtonWithIcon(label, icon, func() {
			f()
			ws.host.takeFocus()
		})
		b.Importance = widget.LowImportance
		return b
	}
	sv.buttons = []*widget.Button{
		btn("", theme.NavigateBackIcon(), func() { ws.moveShown(-1) }),
		btn("", theme.NavigateNextIcon(), func() { ws.moveShown(1) }),
		btn("", theme.ContentRemoveIcon(), ws.removeShown),
		btn("Add…", theme.ContentAddIcon(), ws.askAddImage),
		btn("", theme.GridIcon(), ws.toggleGrid), // G
	}
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(toObjects(sv.buttons)...), sv.info)
	sv.area = container.NewVBox(bar)
	sv.area.Hide()
}

func toObjects[T fyne.CanvasObject](xs []T) []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// editable reports whether the sequence of cur may be changed: a draft is open.
func (ws *workspace) editable() bool { return ws.sample != nil && !ws.canvas.ReadOnly }

// openSequence starts showing cur's sequence from its first image (ws.image, loaded
// already) and reads the other images' records and thumbnails in the background.
func (ws *workspace) openSequence() {
	sv := &ws.seq
	sv.gen++
	sv.shown, sv.sig = 0, ""
	sv.gridOn = false
	sv.view.Objects = []fyne.CanvasObject{sv.single}
	sv.view.Refresh()
	if ws.hasImage {
		sv.images[ws.image.RelPath] = ws.image
	}
	ws.readSequence(ws.cur.AllImages())
	ws.refreshStrip()
}

// readSequence reads the records and thumbnails of the paths not read yet, off the
// UI goroutine, and shows them when they arrive (if the same sample is still open).
func (ws *workspace) readSequence(paths []string) {
	sv := &ws.seq
	var want []string
	for _, p := range paths {
		if im, ok := sv.images[p]; !ok || sv.thumbs[im.SHA256] == "" {
			want = append(want, p)
		}
	}
	if len(paths) < 2 || len(want) == 0 {
		return
	}
	gen := sv.gen
	sess, pid, ctx := ws.u.sess, ws.u.project.ID, ws.u.ctx()
	type read struct {
		ims    map[string]bench.Image
		thumbs map[string]string
	}
	load(ws.u, "", func() (read, error) {
		ims, err := sess.ImagesByPaths(ctx, pid, want)
		thumbs := map[string]string{}
		for _, im := range ims {
			if p, err := sess.ImageFile(ctx, im.SHA256, bench.ImageThumb); err == nil {
				thumbs[im.SHA256] = p
			}
		}
		return read{ims, thumbs}, err
	}, func(r read, err error) {
		ims, thumbs := r.ims, r.thumbs
		if err != nil {
			ws.u.setStatus("The sequence's images cannot be read: %s", bench.Message(err))
		}
		for p, im := range ims {
			sv.images[p] = im
		}
		for k, v := range thumbs {
			sv.thumbs[k] = v
		}
		if gen == sv.gen {
			sv.sig = ""
			ws.refreshStrip()
			ws.prefetchSequence()
		}
	})
}

// refreshStrip shows cur's sequence in the strip, the image shown highlighted.
func (ws *workspace) refreshStrip() {
	sv := &ws.seq
	paths := ws.cur.AllImages()
	n := len(paths)
	sv.shown = max(0, min(sv.shown, n-1))
	if n == 0 || (n == 1 && !ws.editable()) {
		sv.setAreaVisible(false)
		sv.sig = ""
		return
	}
	labels := ws.cur.Labels()
	frames := make([]filmFrame, n)
	var sig strings.Builder
	for i, p := range paths {
		fr := filmFrame{path: p, label: labels[i], hasBox: ws.cur.Box != nil && ws.cur.BoxImage == i}
		if im, ok := sv.images[p]; ok {
			fr.thumb = sv.thumbs[im.SHA256]
		}
		frames[i] = fr
		fmt.Fprintf(&sig, "%s\x00%s\x00%s\x00%v\x01", p, fr.label, fr.thumb, fr.hasBox)
	}
	fmt.Fprintf(&sig, "%d %v %v", sv.shown, ws.editable(), sv.gridOn)
	sv.setAreaVisible(true)
	if sig.String() == sv.sig {
		return
	}
	sv.sig = sig.String()
	sv.strip.readOnly = !ws.editable()
	// The strip joins and leaves the area as an object, never by Show/Hide: a Show
	// refreshes every cell, and every thumbnail would be read and decoded again.
	if n > 1 {
		sv.strip.set(frames, sv.shown)
		if len(sv.area.Objects) == 1 {
			sv.area.Objects = append(sv.area.Objects, sv.strip.scroll)
			sv.relayout()
		}
	} else {
		sv.strip.set(nil, -1)
		if len(sv.area.Objects) == 2 {
			sv.area.Objects = sv.area.Objects[:1]
			sv.relayout()
		}
	}
	what := "images"
	if ws.cur.Modality() == annotate.ModalityVideo {
		what = "frames of a video"
	}
	switch {
	case n == 1:
		sv.info.SetText("One image · Add… for a sequence")
	default:
		sv.info.SetText(fmt.Sprintf("%s: %d of %d %s · [ ] previous/next · { } move", labels[sv.shown], sv.shown+1, n, what))
	}
	edit := ws.editable()
	for i, b := range sv.buttons {
		visible, enabled := edit && n > 1, true
		switch i {
		case 0:
			enabled = sv.shown > 0
		case 1:
			enabled = sv.shown < n-1
		case 3: // Add…
			visible = edit
		case 4: // Grid
			visible = n > 1
		}
		if enabled {
			b.Enable()
		} else {
			b.Disable()
		}
		if visible != b.Visible() {
			if visible {
				b.Show()
			} else {
				b.Hide()
			}
		}
	}
}

// showImage puts image i of the sequence on the canvas, with the box when it is
// drawn on that image.
func (ws *workspace) showImage(i int) {
	sv := &ws.seq
	paths := ws.cur.AllImages()
	if i < 0 || i >= len(paths) {
		return
	}
	im, ok := sv.images[paths[i]]
	if !ok {
		ws.u.setStatus("%s is still being read; try again in a moment.", paths[i])
		return
	}
	sv.shown = i
	if sv.gridOn {
		ws.toggleGrid() // a cell asked to be shown alone
	}
	if !ws.hasImage || ws.image.RelPath != im.RelPath {
		ws.loadImage(im)
	}
	ws.syncCanvas()
	ws.refreshStrip()
	ws.prefetchSequence()
}

// stepImage shows the previous (−1) or next (+1) image of the sequence.
func (ws *workspace) stepImage(d int) {
	if ws.cur.NumImages() < 2 {
		return
	}
	ws.showImage(ws.seq.shown + d)
}

// moveShown moves the image shown one place earlier (−1) or later (+1).
func (ws *workspace) moveShown(d int) {
	ws.moveImage(ws.seq.shown, ws.seq.shown+d)
}

// moveImage moves image from to place to; the image shown stays shown.
func (ws *workspace) moveImage(from, to int) {
	n := ws.cur.NumImages()
	if !ws.editable() || from < 0 || to < 0 || from >= n || to >= n || from == to {
		return
	}
	ws.edit("", func(s *annotate.Sample) { s.MoveImage(from, to) })
	ws.seq.shown = annotate.MovedIndex(ws.seq.shown, from, to)
	ws.refreshStrip()
}

// removeShown takes the image shown out of the sequence (Ctrl+Z brings it back).
func (ws *workspace) removeShown() {
	if !ws.editable() || ws.cur.NumImages() < 2 {
		return
	}
	i := ws.seq.shown
	gone := ws.cur.AllImages()[i]
	ws.edit("", func(s *annotate.Sample) { s.RemoveImage(i) })
	ws.syncCanvas()
	ws.u.setStatus("Removed %s from the sequence (Ctrl+Z puts it back).", path.Base(gone))
}

// addImage appends a project image to the sequence and shows it.
func (ws *workspace) addImage(im bench.Image) {
	if !ws.editable() {
		return
	}
	if slices.Contains(ws.cur.AllImages(), im.RelPath) {
		ws.u.setStatus("%s is in the sequence already.", im.RelPath)
		return
	}
	ws.seq.images[im.RelPath] = im
	ws.edit("", func(s *annotate.Sample) { s.AddImages(im.RelPath) })
	ws.readSequence(ws.cur.AllImages())
	ws.showImage(ws.cur.NumImages() - 1)
}

// askAddImage lets the annotator choose a project image to add: the project's
// images are read off the UI goroutine, and a filter narrows them by path.
func (ws *workspace) askAddImage() {
	if !ws.editable() {
		return
	}
	var all, shown []bench.Image
	list := widget.NewList(func() int { return len(shown) },
		func() fyne.CanvasObject { return widget.NewLabel("0000-scene/image.jpg") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(shown) {
				o.(*widget.Label).SetText(shown[i].RelPath)
			}
		})
	filter := widget.NewEntry()
	filter.SetPlaceHolder("Filter by path")
	apply := func(q string) {
		shown = shown[:0]
		for _, im := range all {
			if q == "" || strings.Contains(strings.ToLower(im.RelPath), strings.ToLower(q)) {
				shown = append(shown, im)
			}
		}
		list.UnselectAll()
		list.Refresh()
	}
	filter.OnChanged = apply
	var d dialog.Dialog
	list.OnSelected = func(i widget.ListItemID) {
		if i < len(shown) {
			im := shown[i]
			d.Hide()
			ws.addImage(im)
		}
	}
	d = dialog.NewCustom("Add an image to the sequence", "Cancel",
		container.NewBorder(filter, nil, nil, nil, list), ws.u.win)
	d.Resize(fyne.NewSize(480, 420))
	d.Show()
	sess, pid, ctx := ws.u.sess, ws.u.project.ID, ws.u.ctx()
	load(ws.u, "", func() ([]bench.Image, error) { return sess.Images(ctx, pid, 0, 5000) }, func(ims []bench.Image, err error) {
		if err != nil {
			ws.u.showError(err)
			return
		}
		all = ims
		apply(filter.Text)
	})
}

// prefetchSequence decodes the previews of the images next to the one shown.
func (ws *workspace) prefetchSequence() {
	paths := ws.cur.AllImages()
	var targets []prefetchTarget
	for _, d := range []int{1, -1} {
		if j := ws.seq.shown + d; j >= 0 && j < len(paths) {
			if im, ok := ws.seq.images[paths[j]]; ok {
				targets = append(targets, prefetchTarget{sha: im.SHA256})
			}
		}
	}
	prefetchPreviews(ws.u.ctx(), ws.u.sess, ws.u.where(), ws.u.project.ID, previews, targets)
}

// toggleGrid switches between the canvas and the grid of the sequence's images (the
// page of 16 holding the image shown).
func (ws *workspace) toggleGrid() {
	sv := &ws.seq
	if sv.gridOn {
		sv.gridOn, sv.grid = false, nil
		sv.view.Objects = []fyne.CanvasObject{sv.single}
		sv.view.Refresh()
		ws.refreshStrip()
		return
	}
	paths := ws.cur.AllImages()
	if len(paths) < 2 {
		return
	}
	first, count := gridPage(len(paths), sv.shown)
	labels := ws.cur.Labels()
	cells := make([]gridCell, count)
	var ims []bench.Image
	for k := range cells {
		i := first + k
		im := sv.images[paths[i]]
		ims = append(ims, im)
		cells[k] = gridCell{width: im.Width, height: im.Height, label: labels[i], path: paths[i]}
		if ws.cur.Box != nil && ws.cur.BoxImage == i {
			b := *ws.cur.Box
			cells[k].box = &b
		}
	}
	g := newSeqGrid(cells, first, len(paths), ws.showImage)
	sv.grid, sv.gridOn = g, true
	sv.view.Objects = []fyne.CanvasObject{g.obj}
	sv.view.Refresh()
	ws.refreshStrip()
	ws.loadGridPreviews(g, ims, cells)
}

// loadGridPreviews decodes the grid's previews off the UI goroutine (the prefetch
// cache first) and gives each cell its picture.
func (ws *workspace) loadGridPreviews(g *seqGrid, ims []bench.Image, cells []gridCell) {
	sess, ctx, where := ws.u.sess, ws.u.ctx(), ws.u.where()
	load(ws.u, "", func() ([]image.Image, error) {
		pics := make([]image.Image, len(ims))
		for k, im := range ims {
			if im.SHA256 != "" {
				pics[k], _ = previewOf(ctx, sess, where, im) // a placeholder when it cannot be had
			}
		}
		return pics, nil
	}, func(pics []image.Image, _ error) {
		if ws.seq.grid != g {
			return
		}
		for k, img := range pics {
			if img != nil {
				g.setImage(k, img, ims[k].Width, ims[k].Height, cells[k].box)
			}
		}
	})
}

// zoomIn, zoomOut and fit act on the grid when it is shown, else on the canvas.
func (ws *workspace) zoomIn() {
	if ws.seq.gridOn {
		ws.seq.grid.zoomIn()
		return
	}
	ws.canvas.ZoomIn()
}

func (ws *workspace) zoomOut() {
	if ws.seq.gridOn {
		ws.seq.grid.zoomOut()
		return
	}
	ws.canvas.ZoomOut()
}

func (ws *workspace) fit() {
	if ws.seq.gridOn {
		ws.seq.grid.fit()
		return
	}
	ws.canvas.FitToWindow()
}

// closeSequence forgets the open sample's sequence: background reads for it are
// dropped, and the canvas comes back from the grid.
func (ws *workspace) closeSequence() {
	sv := &ws.seq
	sv.gen++
	sv.shown, sv.sig = 0, ""
	if sv.gridOn {
		sv.gridOn, sv.grid = false, nil
		sv.view.Objects = []fyne.CanvasObject{sv.single}
		sv.view.Refresh()
	}
	// The strip stays until the next item says what it shows (refreshStrip): hiding
	// and showing it again would refresh every cell.
}

// openImages shows the images chosen in the gallery, in order, with the choice of
// the kind of a new sample of all of them.
func (ws *workspace) openImages(ims []bench.Image) {
	if len(ims) == 1 {
		ws.openImage(ims[0])
		return
	}
	ws.openImage(ims[0])
	paths := make([]string, len(ims))
	for i, im := range ims {
		paths[i] = im.RelPath
		ws.seq.images[im.RelPath] = im
	}
	ws.seq.newOnes = paths
	ws.cur.SetImages(paths) // shown in the strip before the sample exists
	ws.openSequence()
	title := fmt.Sprintf("New sample of these %d images", len(ims))
	ws.setRight(container.NewVBox(
		heading(title),
		caption("In this order (the strip under the image); after creating it, reorder, add or remove images there."),
		widget.NewLabel("Kind of sample:"),
		ws.newSampleChoice,
		container.NewHBox(ws.newSampleButton),
	))
}

// newSequenceSample makes s a sample of paths, in order; when every one is a frame
// of the same video (as bwctl import-video and "Import video…" record them), the
// frames go with them, so that the sample is a video sample.
//
//bw:background
func newSequenceSample(ctx context.Context, sess bench.Session, pid int64, s annotate.Sample, paths []string) annotate.Sample {
	s.SetImages(paths)
	fs, err := sess.VideoFrames(ctx, pid, paths)
	if err != nil || len(fs) != len(paths) {
		return s
	}
	byPath := map[string]annotate.Frame{}
	for _, f := range fs {
		byPath[f.Path] = f.Frame
	}
	frames := make([]annotate.Frame, len(paths))
	for i, p := range paths {
		f, ok := byPath[p]
		if !ok || f.Video != byPath[paths[0]].Video || f.VideoSHA256 != byPath[paths[0]].VideoSHA256 {
			return s
		}
		frames[i] = f
	}
	s.Frames = frames
	return s
}
