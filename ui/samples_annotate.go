package ui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
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
	if ws.sample == nil || ws.sample.Status != verify.StateDraft || ws.sample.Revision > 0 {
		b.Hide()
	}
	ws.deleteBtn = b
	return b
}

// deleteDraft deletes the open draft and offers to undo it: the store hands the
// content back, and Undo creates it again under the same id.
func (ws *workspace) deleteDraft() {
	if ws.sample == nil || !ws.flush() {
		return
	}
	u, id := ws.u, ws.sample.ID
	gone, err := u.db.DeleteDraft(u.ctx(), u.user, id, ws.version)
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
}

// undoDelete creates the last deleted draft again and opens it.
func (ws *workspace) undoDelete() {
	if ws.deleted == nil {
		return
	}
	u, s := ws.u, *ws.deleted
	si, err := u.db.CreateSample(u.ctx(), u.user, u.project.ID, s)
	if err != nil {
		u.showError(err)
		return
	}
	ws.deleted = nil
	ws.reloadQueue()
	u.refreshStatus()
	for i, it := range ws.items {
		if it.kind == qSample && it.sample.ID == si.ID {
			ws.queue.Select(i)
			return
		}
	}
	ws.openSample(si.ID)
}

// loadReturned keeps the revision a returned sample came back with, to tell whether
// it changed since.
func (ws *workspace) loadReturned(si store.SampleInfo) {
	ws.returnedRev = nil
	if si.Status != verify.StateReturned {
		return
	}
	revs, err := ws.u.db.SampleRevisions(ws.u.ctx(), ws.u.user, si.ID)
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

// submittedItems is the queue's "Submitted" section: the annotator's samples in
// review or done, newest change first, each with its state.
func (ws *workspace) submittedItems() []queueItem {
	u := ws.u
	total := 0
	var all []store.SampleInfo
	n := max(ws.loaded[verify.StateAccepted], ws.pageSize)
	for _, st := range submittedStates {
		f := store.SampleFilter{Status: st, AuthorID: u.user.ID}
		c, err := u.db.CountSamples(u.ctx(), u.user, u.project.ID, f)
		if err != nil || c == 0 {
			continue
		}
		total += c
		ss, err := u.db.Samples(u.ctx(), u.user, u.project.ID, f, 0, n)
		if err == nil {
			all = append(all, ss...)
		}
	}
	if total == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b store.SampleInfo) int { return -strings.Compare(a.UpdatedAt, b.UpdatedAt) })
	all = all[:min(len(all), n)]
	ws.loaded[verify.StateAccepted] = len(all)
	items := []queueItem{{kind: qHeader, title: fmt.Sprintf("Submitted · %d", total)}}
	for _, s := range all {
		items = append(items, queueItem{kind: qSample, submitted: true, sample: s,
			title:  fmt.Sprintf("%s · %s", s.ID, stateTitle(s.Status)),
			detail: questionLine(s.Content.Question)})
	}
	if len(all) < total {
		items = append(items, queueItem{kind: qMore, more: verify.StateAccepted,
			title: fmt.Sprintf("Load %d more…", min(ws.pageSize, total-len(all)))})
	}
	return items
}

// showSubmitted shows a submitted sample read-only: its state, content and the
// reviews the author may see (the store keeps an open round 3 blind).
func (ws *workspace) showSubmitted(si store.SampleInfo) {
	u := ws.u
	ws.closeSample()
	if si.ImagePath != "" {
		if im, err := u.db.ImageByPath(u.ctx(), u.user, u.project.ID, si.ImagePath); err == nil {
			ws.loadImage(im)
		}
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
	if rs, err := u.db.Reviews(u.ctx(), u.user, si.ID); err == nil && len(rs) > 0 {
		body.Add(heading("Reviews"))
		for _, r := range rs {
			body.Add(reviewText(reviewLine(si.Kind, r), fyne.TextStyle{}))
		}
	}
	ws.setRight(container.NewVScroll(container.NewPadded(body)))
}
