package ui

import (
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// Opening a queue item: an image (with the choice of a new sample) or a sample.

// loadImage shows image im on the canvas, from its cached preview.
func (ws *workspace) loadImage(im store.Image) {
	ws.image, ws.hasImage = im, true
	img, err := ws.preview(im)
	info := fmt.Sprintf("%s · %d×%d px · scene %s", im.RelPath, im.Width, im.Height, im.Scene)
	ws.imageInfo.Importance = widget.MediumImportance
	if err != nil {
		info += " · preview unavailable: " + err.Error()
		ws.imageInfo.Importance = widget.WarningImportance
	} else if ferr := imageFileProblem(im, ws.u.onServer()); ferr != nil {
		info += " · " + store.Message(ferr)
		ws.imageInfo.Importance = widget.WarningImportance
	}
	ws.imageInfo.SetText(info)
	ws.canvas.SetImage(img, im.Width, im.Height)
	ws.prefetchNeighbours()
}

// preview is the decoded cached downscaled copy, from the prefetch cache (see
// imagecache.go) or decoded now.
func (ws *workspace) preview(im store.Image) (image.Image, error) {
	db, user := ws.u.db, ws.u.user
	img, err := previews.load(previewKey(db.Where(), im.SHA256), func() (image.Image, error) { return decodePreview(ws.u.ctx(), db, user, im.SHA256) })
	if err != nil {
		return placeholder(im), err
	}
	return img, nil
}

// placeholder is a grey picture of the image's proportions, so boxes still work.
func placeholder(im store.Image) image.Image {
	w, h := max(im.Width, 1), max(im.Height, 1)
	s := 64.0 / float64(max(w, h))
	img := image.NewGray(image.Rect(0, 0, max(int(float64(w)*s), 1), max(int(float64(h)*s), 1)))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	return img
}

// openImage shows an image without opening a sample, with the choice of a new one.
func (ws *workspace) openImage(im store.Image) {
	ws.closeSample()
	ws.seq.newOnes = nil
	ws.refreshStrip() // no sample: no strip
	ws.loadImage(im)
	ws.canvas.ReadOnly = true
	kinds := make([]string, len(annotate.Kinds))
	for i, k := range annotate.Kinds {
		kinds[i] = kindTitle(k)
	}
	choice := widget.NewRadioGroup(kinds, nil)
	create := widget.NewButtonWithIcon("Create sample", theme.ContentAddIcon(), func() {
		for _, k := range annotate.Kinds {
			if kindTitle(k) == choice.Selected {
				ws.createSample(k)
			}
		}
	})
	create.Importance = widget.HighImportance
	askKind(choice, create) // no kind until one is chosen (samples_annotate.go)
	buttons := container.NewVBox(container.NewHBox(create))
	if last, ok := lastKinds[ws.u]; ok { // the kind made last: one click, still a choice
		again := widget.NewButtonWithIcon(kindTitle(last)+" again", theme.ContentAddIcon(), func() { ws.createSample(last) })
		buttons.Add(container.NewHBox(again)) // its own row: beside Create it widened a 1024-px window's panel
	}
	ws.setRight(container.NewVBox(
		heading("New sample on this image"),
		caption(im.RelPath),
		widget.NewLabel("Kind of sample:"),
		choice,
		buttons,
	))
	ws.newSampleChoice, ws.newSampleButton = choice, create
}

// createSample starts a draft of kind on the open image and opens it.
func (ws *workspace) createSample(kind annotate.Kind) {
	if !ws.hasImage || !ws.flush() {
		return
	}
	ws.lastKind = kind
	lastKinds[ws.u] = kind
	s := newSampleOf(kind, ws.image)
	if len(ws.seq.newOnes) > 1 {
		s = ws.newSequenceSample(s, ws.seq.newOnes)
	}
	si, err := ws.u.db.CreateSample(ws.u.ctx(), ws.u.user, ws.u.project.ID, s)
	if err != nil {
		ws.u.showError(err)
		return
	}
	ws.seq.newOnes = nil
	ws.u.refreshStatus()
	ws.reloadQueue()
	for i, it := range ws.items {
		if it.kind == qSample && it.sample.ID == si.ID {
			ws.queue.Select(i)
			ws.queue.ScrollTo(i)
			return
		}
	}
	ws.openSample(si.ID) // not in the queue (should not happen): open it anyway
}

// lastKinds is, per main window, the kind of the sample the annotator made last in
// this session: an image without a sample offers it again by name (the chooser
// itself still waits for a choice). UI goroutine only.
var lastKinds = map[*App]annotate.Kind{}

// newSampleOf is the empty sample a new draft of kind starts from.
func newSampleOf(kind annotate.Kind, im store.Image) annotate.Sample {
	s := annotate.Sample{Kind: kind, Image: im.RelPath, AnswerIndex: -1}
	switch kind {
	case annotate.KindHopQA:
		s.Options = make([]string, 4)
		s.View = annotate.ViewExo
	case annotate.KindMCQ:
		s.Options = make([]string, 4)
	case annotate.KindStepGraph:
		s.Scene = im.Scene
		s.Steps = []annotate.Step{{ID: "step1", Precondition: []string{}}, {ID: "step2", Precondition: []string{"step1"}}}
	}
	return s
}

// openSample loads sample id into the editor.
func (ws *workspace) openSample(id string) {
	u := ws.u
	si, err := u.db.Sample(u.ctx(), u.user, id)
	if err != nil {
		u.showError(err)
		return
	}
	ws.closeSample()
	if si.ImagePath != "" {
		if im, err := u.db.ImageByPath(u.ctx(), u.user, u.project.ID, si.ImagePath); err == nil {
			ws.loadImage(im)
		} else {
			ws.imageInfo.SetText(store.Message(err))
		}
	}
	ws.sample = &si
	ws.version = si.Version
	ws.cur = cloneSample(si.Content)
	ws.cur.ID, ws.cur.Kind = si.ID, si.Kind
	if ws.cur.Kind.Valid() && (ws.cur.Kind == annotate.KindHopQA || ws.cur.Kind == annotate.KindMCQ) && len(ws.cur.Options) == 0 {
		ws.cur.AnswerIndex = -1
	}
	ws.restoreHistory()
	ws.loadReturned(si)
	if si.Status == verify.StateReturned {
		if rs, err := u.db.Reviews(u.ctx(), u.user, si.ID); err == nil {
			for _, r := range rs {
				if r.Revision == si.Revision && r.Decision == verify.DecisionReject {
					ws.reviews = append(ws.reviews, r)
				}
			}
		}
	}
	ws.canvas.ReadOnly = false
	ws.openSequence()
	ws.syncCanvas()
	ws.form = newSampleForm(ws, si.Kind)
	ws.quietly(func() { ws.form.show(ws.cur) })
	ws.title.SetText(fmt.Sprintf("%s · %s · %s", si.ID, kindTitle(si.Kind), si.Status))
	ws.setSaved(fmt.Sprintf("Revision %d · version %d · saved", si.Revision, si.Version))
	ws.setRight(ws.editor())
	ws.acks = ws.acksFor(si) // the warnings acknowledged before (annotate_lint.go)
	ws.relint()
	if ws.offline { // still away (a queued submit, say): say so here too
		ws.showOffline()
	}
}

// closeSample forgets the open sample (the caller has saved it).
func (ws *workspace) closeSample() {
	if ws.timer != nil {
		ws.timer.Stop()
	}
	ws.saveGen++
	ws.keepHistory()
	if q := ws.queued; q != nil && ws.sample != nil && q.id == ws.sample.ID { // sent later, as saved now
		q.version, q.acks = ws.version, ws.submitAcks()
	}
	ws.sample, ws.form, ws.reviews, ws.findings = nil, nil, nil, nil
	ws.cur = annotate.Sample{}
	ws.dirty, ws.conflict = false, false
	ws.history.reset()
	ws.closeSequence()
	ws.acks = map[string]bool{} // the sample's own are remembered (acksFor)
	ws.banner.RemoveAll()
	ws.lint.clear()
}

// showNothing empties the editor and the image area.
func (ws *workspace) showNothing() {
	ws.lint.clear()
	if ws.seq.area != nil {
		ws.cur = annotate.Sample{}
		ws.refreshStrip()
	}
	ws.hasImage, ws.image = false, store.Image{}
	ws.canvas.ReadOnly = true
	ws.canvas.SetImage(nil, 1, 1)
	ws.imageInfo.Importance = widget.MediumImportance
	ws.imageInfo.SetText("Choose an item of the queue.")
	ws.setRight(container.NewCenter(widget.NewLabel("Nothing open: pick a draft or an image.")))
}

func (ws *workspace) setRight(o fyne.CanvasObject) {
	ws.right.Objects = []fyne.CanvasObject{o}
	ws.right.Refresh()
}

// editor lays out the open sample's form, lint panel and buttons.
func (ws *workspace) editor() fyne.CanvasObject {
	newSample := widget.NewButtonWithIcon("New sample…", theme.ContentAddIcon(), ws.askNewSample)
	newSample.Importance = widget.LowImportance
	top := container.NewVBox(container.NewBorder(nil, nil, nil, newSample, ws.title), ws.saveState, ws.returnedBanner(), ws.banner)
	bottom := container.NewVBox(widget.NewSeparator(), ws.submitWhy, container.NewHBox(ws.saveBtn, ws.submitBtn),
		container.NewHBox(layout.NewSpacer(), ws.deleteButton())) // two rows: one would widen the window past 1024 px
	ws.formScroll = container.NewVScroll(container.New(layout.NewCustomPaddedLayout(0, 0, 0, theme.Padding()*2), ws.form.object()))
	ws.formMin = ws.form.object().MinSize()
	return container.NewBorder(top, bottom, nil, nil, ws.formScroll)
}

// askNewSample starts another sample on the open image, asking its kind.
func (ws *workspace) askNewSample() {
	kinds := make([]string, len(annotate.Kinds))
	for i, k := range annotate.Kinds {
		kinds[i] = kindTitle(k)
	}
	choice := widget.NewRadioGroup(kinds, nil)
	dialog.ShowCustomConfirm("New sample on "+ws.image.RelPath, "Create", "Cancel", choice, func(ok bool) {
		if !ok || choice.Selected == "" {
			ws.u.setStatus("No sample created: choose its kind first.")
			return
		}
		for _, k := range annotate.Kinds {
			if kindTitle(k) == choice.Selected {
				ws.createSample(k)
			}
		}
	}, ws.u.win)
}
