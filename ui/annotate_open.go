package ui

import (
	"context"
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Opening a queue item: an image (with the choice of a new sample) or a sample.

// loadImage shows image im on the canvas: its decoded preview when the cache
// has it, else at once a placeholder of its proportions (boxes can be drawn and
// shown on it) and the preview when it has been read and decoded, off the UI
// goroutine (on a team server the file may first have to be fetched).
func (ws *workspace) loadImage(im bench.Image) {
	sess, ctx := ws.u.sess, ws.u.ctx()
	where := ws.u.where() // names the project's file or server, without asking it
	if img, ok := previews.get(previewKey(where, im.SHA256)); ok {
		ws.showPicture(im, img, nil)
		return
	}
	ws.showPicture(im, placeholder(im), nil)
	ws.imageInfo.SetText(ws.imageInfo.Text + " · reading the preview…")
	load(ws.u, "annotate.picture", func() (image.Image, error) {
		return previewOf(ctx, sess, where, im)
	}, func(img image.Image, err error) {
		if !ws.hasImage || ws.image.SHA256 != im.SHA256 || ws.image.RelPath != im.RelPath {
			return // another image is shown by now
		}
		ws.showInfo(im, err)
		ws.canvas.ReplacePicture(img)
	})
}

// showPicture shows image im on the canvas as picture img (its preview, or a
// placeholder and why: err).
func (ws *workspace) showPicture(im bench.Image, img image.Image, err error) {
	ws.image, ws.hasImage = im, true
	ws.showInfo(im, err)
	ws.canvas.SetImage(img, im.Width, im.Height)
	ws.prefetchNeighbours()
}

// showInfo says which image is shown, and why its preview is missing (err) or
// its file is not what was imported.
func (ws *workspace) showInfo(im bench.Image, err error) {
	info := fmt.Sprintf("%s · %d×%d px · scene %s", im.RelPath, im.Width, im.Height, im.Scene)
	ws.imageInfo.Importance = widget.MediumImportance
	if err != nil {
		info += " · preview unavailable: " + err.Error()
		ws.imageInfo.Importance = widget.WarningImportance
	} else if ferr := imageFileProblem(im, ws.u.onServer()); ferr != nil {
		info += " · " + bench.Message(ferr)
		ws.imageInfo.Importance = widget.WarningImportance
	}
	ws.imageInfo.SetText(info)
}

// previewOf is im's decoded preview from the cache, or decoded now (reading the
// file from the project, through its server on a team server); if it cannot be
// had, a placeholder of its proportions and why.
func previewOf(ctx context.Context, sess bench.Session, where string, im bench.Image) (image.Image, error) {
	img, err := previews.load(previewKey(where, im.SHA256), func() (image.Image, error) { return decodePreview(ctx, sess, im.SHA256) })
	if err != nil {
		return placeholder(im), err
	}
	return img, nil
}

// placeholder is a grey picture of the image's proportions, so boxes still work.
func placeholder(im bench.Image) image.Image {
	w, h := max(im.Width, 1), max(im.Height, 1)
	s := 64.0 / float64(max(w, h))
	img := image.NewGray(image.Rect(0, 0, max(int(float64(w)*s), 1), max(int(float64(h)*s), 1)))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	return img
}

// openImage shows an image without opening a sample, with the choice of a new one.
func (ws *workspace) openImage(im bench.Image) {
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
		ws.againButton = again
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
	if _, ok := lastKinds[ws.u]; !ok {
		ws.againButton = nil
	}
}

// createSample starts a draft of kind on the open image and opens it.
func (ws *workspace) createSample(kind annotate.Kind) {
	if !ws.hasImage {
		return
	}
	ws.flush(func() { ws.createSampleNow(kind) })
}

// createSampleNow creates the draft, all saved before.
func (ws *workspace) createSampleNow(kind annotate.Kind) {
	if !ws.hasImage {
		return
	}
	ws.lastKind = kind
	lastKinds[ws.u] = kind
	s := newSampleOf(kind, ws.image)
	u := ws.u
	sess, ctx, pid, seq := u.sess, u.ctx(), u.project.ID, ws.seq.newOnes
	ws.newSampleBusy(true)
	load(u, "", func() (bench.SampleInfo, error) {
		if len(seq) > 1 {
			s = newSequenceSample(ctx, sess, pid, s, seq)
		}
		return sess.CreateSample(ctx, pid, s)
	}, func(si bench.SampleInfo, err error) {
		ws.newSampleBusy(false)
		if err != nil {
			u.showError(err)
			return
		}
		ws.seq.newOnes = nil
		u.refreshStatus()
		ws.openCreated(si.ID)
	})
}

// newSampleBusy disables the buttons that create a sample while one is created.
func (ws *workspace) newSampleBusy(busy bool) {
	for _, b := range []*widget.Button{ws.newSampleButton, ws.againButton} {
		if b == nil {
			continue
		}
		if busy {
			b.Disable()
		} else if b != ws.newSampleButton || ws.newSampleChoice == nil || ws.newSampleChoice.Selected != "" {
			b.Enable()
		}
	}
}

// openCreated reads the queue again and opens sample id in it (or alone, should it
// not be listed).
func (ws *workspace) openCreated(id string) {
	ws.reloadQueueThen(func() {
		for i, it := range ws.items {
			if it.kind == qSample && it.sample.ID == id {
				ws.queue.Select(i)
				ws.queue.ScrollTo(i)
				return
			}
		}
		ws.openSample(id) // not in the queue (should not happen): open it anyway
	})
}

// lastKinds is, per main window, the kind of the sample the annotator made last in
// this session: an image without a sample offers it again by name (the chooser
// itself still waits for a choice). UI goroutine only.
var lastKinds = map[*App]annotate.Kind{}

// newSampleOf is the empty sample a new draft of kind starts from.
func newSampleOf(kind annotate.Kind, im bench.Image) annotate.Sample {
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

// openedSample is what opening a sample reads from the store.
type openedSample struct {
	si             bench.SampleInfo
	im             bench.Image
	imErr          error
	pic            image.Image // im's preview (or a placeholder: picErr)
	picErr         error
	reviews        []bench.ReviewRecord // of a returned sample
	revs           []bench.RevisionInfo // of a sample submitted before
	revsErr        error
	hasIm, hasRevs bool
}

// readSample reads sample id and what its editor shows with it.
//
//bw:background
func readSample(ctx context.Context, sess bench.Session, pid int64, where, id string) (openedSample, error) {
	var o openedSample
	si, err := sess.Sample(ctx, id)
	if err != nil {
		return o, err
	}
	o.si = si
	if si.ImagePath != "" {
		o.im, o.imErr = sess.ImageByPath(ctx, pid, si.ImagePath)
		if o.imErr == nil {
			o.hasIm = true
			o.pic, o.picErr = previewOf(ctx, sess, where, o.im)
		}
	}
	if si.Status == verify.StateReturned {
		if rs, err := sess.Reviews(ctx, si.ID); err == nil {
			for _, r := range rs {
				if r.Revision == si.Revision && r.Decision == verify.DecisionReject {
					o.reviews = append(o.reviews, r)
				}
			}
		}
	}
	if si.Revision > 0 || si.Status == verify.StateReturned {
		o.revs, o.revsErr = sess.SampleRevisions(ctx, si.ID)
		o.hasRevs = true
	}
	return o, nil
}

// openSample loads sample id into the editor, reading it off the UI goroutine:
// the editor says it is opening it meanwhile (the caller has saved the sample
// open before, which is closed now, so nothing is typed into it meanwhile).
func (ws *workspace) openSample(id string) {
	u := ws.u
	sess, ctx, pid, where := u.sess, u.ctx(), u.project.ID, u.where()
	if ws.sample != nil && ws.sample.ID != id && !ws.dirty {
		ws.closeSample()
		ws.setRight(container.NewCenter(widget.NewLabel(fmt.Sprintf("Opening %s…", id))))
	}
	load(u, "annotate.open", func() (openedSample, error) { return readSample(ctx, sess, pid, where, id) }, func(o openedSample, err error) {
		if err != nil {
			u.showError(err)
			return
		}
		ws.showSample(o)
	})
}

// showSample shows a sample just read in the editor.
func (ws *workspace) showSample(o openedSample) {
	si := o.si
	ws.closeSample()
	if si.ImagePath != "" {
		if o.hasIm {
			ws.showPicture(o.im, o.pic, o.picErr)
		} else {
			ws.imageInfo.SetText(bench.Message(o.imErr))
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
	ws.loadReturned(si, o.revs, o.revsErr)
	ws.reviews = o.reviews
	ws.canvas.ReadOnly = false
	ws.openSequence()
	ws.syncCanvas()
	ws.form = newSampleForm(ws, si.Kind)
	ws.quietly(func() { ws.form.show(ws.cur) })
	ws.title.SetText(fmt.Sprintf("%s · %s · %s", si.ID, kindTitle(si.Kind), si.Status))
	ws.setSaved(fmt.Sprintf("Revision %d · version %d · saved", si.Revision, si.Version))
	ws.setRight(ws.editor())
	ws.acks = ws.acksFor(si, o.revs, o.revsErr) // the warnings acknowledged before (annotate_lint.go)
	ws.relint()
	if ws.offline { // still away (a queued submit, say): say so here too
		ws.showOffline()
	}
}

// closeSample forgets the open sample (the caller has saved it).
func (ws *workspace) closeSample() {
	if ws.stopSave != nil {
		ws.stopSave()
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
	ws.hasImage, ws.image = false, bench.Image{}
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
