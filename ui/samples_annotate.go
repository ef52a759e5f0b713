package ui

import (
	"fmt"
	"image"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// The annotator's side of managing samples: deleting their own drafts (with undo),
// choosing the kind of every new sample, the samples they submitted, and not
// sending a returned sample back unchanged.

// askKind leaves a new sample's kind unchosen: Create waits for a choice, so that a
// new sample is never silently of the kind the last one had.
func askKind(choice *widget.RadioGroup, create *widget.Button) {
	choice.Required = true
	create.Disable()
	prev := choice.OnChanged
	choice.OnChanged = func(s string) {
		if s == "" {
			create.Disable()
		} else {
			create.Enable()
		}
		if prev != nil {
			prev(s)
		}
	}
}

// deleteButton is the editor's Delete draft button, shown for drafts never submitted.
func (ws *workspace) deleteButton() fyne.CanvasObject {
	b := widget.NewButtonWithIcon("Delete draft", theme.DeleteIcon(), ws.deleteDraft)
	b.Importance = widget.DangerImportance
	if ws.sample == nil || !verify.DraftDeletable(ws.sample.Status, ws.sample.Revision) {
		b.Hide()
	}
	ws.deleteBtn = b
	return b
}

// deleteDraft deletes the open draft and offers to undo it: the store hands the
// content back, and Undo creates it again under the same id.
func (ws *workspace) deleteDraft() {
	if ws.sample == nil {
		return
	}
	ws.flush(ws.deleteDraftNow)
}

// deleteDraftNow deletes the open draft, all saved before.
func (ws *workspace) deleteDraftNow() {
	if ws.sample == nil {
		return
	}
	u, id, version := ws.u, ws.sample.ID, ws.version
	sess, ctx, sample := u.sess, u.ctx(), ws.sample
	ws.deleteBtn.Disable() // not twice
	load(u, "", func() (annotate.Sample, error) { return sess.DeleteDraft(ctx, id, version) }, func(gone annotate.Sample, err error) {
		ws.deleteBtn.Enable()
		if ws.sample != sample {
			return
		}
		if err != nil {
			ws.saveFailed(err)
			return
		}
		ws.closeSample()
		ws.reloadQueue()
		u.refreshStatus()
		ws.deleted = &gone
		undo := widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), ws.undoDelete)
		undo.Importance = widget.HighImportance
		ws.undoBtn = undo
		ws.setRight(container.NewVBox(heading("Draft deleted"),
			widget.NewLabel(fmt.Sprintf("%s is deleted. Undo brings it back as it was.", id)),
			container.NewHBox(undo)))
		u.setStatus("Deleted draft %s.", id)
	})
}

// undoDelete creates the last deleted draft again and opens it.
func (ws *workspace) undoDelete() {
	if ws.deleted == nil {
		return
	}
	u, s := ws.u, *ws.deleted
	sess, ctx, pid := u.sess, u.ctx(), u.project.ID
	undo := ws.undoBtn
	undo.Disable() // not twice
	load(u, "", func() (bench.SampleInfo, error) { return sess.CreateSample(ctx, pid, s) }, func(si bench.SampleInfo, err error) {
		undo.Enable()
		if err != nil {
			u.showError(err)
			return
		}
		ws.deleted = nil
		u.refreshStatus()
		ws.openCreated(si.ID)
	})
}

// loadReturned keeps the revision a returned sample came back with, to tell whether
// it changed since.
// revs are its revisions as read with it (err: why not).
func (ws *workspace) loadReturned(si bench.SampleInfo, revs []bench.RevisionInfo, err error) {
	ws.returnedRev = nil
	if si.Status != verify.StateReturned {
		return
	}
	if err != nil || len(revs) == 0 {
		return
	}
	ws.returnedRev = &revs[len(revs)-1].Content
}

// resubmitProblem is annotate.CheckResubmit on the open returned sample, as the
// store would see it.
func (ws *workspace) resubmitProblem() error {
	if ws.returnedRev == nil || ws.sample == nil {
		return nil
	}
	return annotate.CheckResubmit(*ws.returnedRev, annotate.TidyText(cloneSample(ws.cur)))
}

// submittedStates are the states of the annotator's "Submitted" section.
var submittedStates = []verify.State{verify.StateRound1, verify.StateRound2, verify.StateRound3, verify.StateAccepted, verify.StateWithdrawn}

// submittedItems is the queue's "Submitted" section made of what was read of each
// of submittedStates (secs): the annotator's samples in review or done, newest
// change first, the first n of them, each with its state. loaded counts the
// samples it lists (under StateAccepted).
func (q queueQuery) submittedItems(secs []sampleSection, n int, loaded map[verify.State]int) []queueItem {
	total := 0
	var all []bench.SampleInfo
	for _, sec := range secs {
		if sec.err != nil {
			return []queueItem{{kind: qHeader, title: "Submitted", detail: "Not read: " + bench.Message(sec.err)}}
		}
		if sec.total == 0 {
			continue
		}
		total += sec.total
		all = append(all, sec.rows...)
	}
	if total == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b bench.SampleInfo) int { return -strings.Compare(a.UpdatedAt, b.UpdatedAt) })
	all = all[:min(len(all), n)]
	loaded[verify.StateAccepted] = len(all)
	items := []queueItem{{kind: qHeader, title: fmt.Sprintf("Submitted · %d", total)}}
	for _, s := range all {
		items = append(items, queueItem{kind: qSample, submitted: true, sample: s,
			title:  fmt.Sprintf("%s · %s", s.ID, stateTitle(s.Status)),
			detail: questionLine(s.Content.Question)})
	}
	if len(all) < total {
		items = append(items, queueItem{kind: qMore, more: verify.StateAccepted,
			title: fmt.Sprintf("Load %d more…", min(q.page, total-len(all)))})
	}
	return items
}

// showSubmitted shows a submitted sample read-only: its state, content and the
// reviews the author may see (the store keeps an open round 3 blind).
func (ws *workspace) showSubmitted(si bench.SampleInfo) {
	u := ws.u
	sess, ctx, pid, where := u.sess, u.ctx(), u.project.ID, u.where()
	ws.closeSample()
	ws.setRight(container.NewCenter(widget.NewLabel(fmt.Sprintf("Opening %s…", si.ID))))
	type read struct {
		im      bench.Image
		imErr   error
		pic     image.Image
		picErr  error
		reviews []bench.ReviewRecord
		revErr  error
	}
	load(u, "annotate.open", func() (read, error) {
		var r read
		if si.ImagePath != "" {
			if r.im, r.imErr = sess.ImageByPath(ctx, pid, si.ImagePath); r.imErr == nil {
				r.pic, r.picErr = previewOf(ctx, sess, where, r.im)
			}
		}
		r.reviews, r.revErr = sess.Reviews(ctx, si.ID)
		return r, nil
	}, func(r read, _ error) {
		if si.ImagePath != "" && r.imErr == nil {
			ws.showPicture(r.im, r.pic, r.picErr)
		}
		ws.canvas.ReadOnly = true
		ws.cur = cloneSample(si.Content) // read-only: no sample is open for edits
		ws.openSequence()
		ws.syncCanvas()
		body := container.NewVBox(heading(fmt.Sprintf("%s · %s · %s", si.ID, kindTitle(si.Kind), stateTitle(si.Status))),
			reviewNote(fmt.Sprintf("Revision %d. Submitted samples are read-only; a returned one comes back to “Returned to you”.", si.Revision)))
		for _, o := range sampleBody(si.Kind, si.Content) {
			body.Add(o)
		}
		if r.revErr == nil && len(r.reviews) > 0 {
			body.Add(heading("Reviews"))
			for _, rv := range r.reviews {
				body.Add(reviewText(reviewLine(si.Kind, rv), fyne.TextStyle{}))
			}
		}
		ws.setRight(container.NewVScroll(container.NewPadded(body)))
	})
}
