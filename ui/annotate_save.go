package ui

import (
	"errors"
	"fmt"
	"reflect"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// afterOnUI runs f on the UI goroutine once d has passed, unless the returned stop
// is called first: the workspace's timers (autosave, offline retry), which a test
// replaces (ws.after) to fire them itself, as the test driver's fyne.Do would run
// f on the timer's goroutine, racing the test.
func afterOnUI(d time.Duration, f func()) (stop func() bool) {
	return time.AfterFunc(d, func() { fyne.Do(f) }).Stop
}

// offlineRetry is how soon a save that could not reach the team server is tried
// again.
var offlineRetry = 3 * time.Second

// Saving (debounced autosave, Ctrl+S, on leaving), conflicts, and submitting.

func (ws *workspace) setSaved(text string) {
	ws.saveState.SetText(text)
}

// scheduleSave saves the draft autosaveDelay after the last change.
func (ws *workspace) scheduleSave() {
	ws.dirty = true
	ws.setSaved("Unsaved changes…")
	if ws.conflict {
		return
	}
	ws.saveGen++
	gen := ws.saveGen
	if ws.stopSave != nil {
		ws.stopSave()
	}
	ws.stopSave = ws.after(ws.autosaveDelay, func() { ws.autosave(gen) })
}

// autosave is the debounce timer's save, for the changes of generation gen: a
// later change has its own timer. It writes the draft and touches nothing the
// annotator types in: no entry's text or caret is set from what was saved.
func (ws *workspace) autosave(gen int) {
	if gen == ws.saveGen {
		ws.saveNow()
	}
}

// flush saves pending changes now and runs then once nothing is left unsaved:
// at once when nothing is, else when the save returns (and after any save the
// annotator's typing meanwhile needed). A save that fails keeps everything typed
// and never runs then; a caller that moved the queue's selection puts it back
// (orElse).
func (ws *workspace) flush(then func()) {
	ws.flushOr(then, nil)
}

// flushOr is flush with orElse run when the save fails, is in conflict or cannot
// reach the team server.
func (ws *workspace) flushOr(then, orElse func()) {
	if ws.sample == nil || (!ws.dirty && !ws.saving) {
		if then != nil {
			then()
		}
		return
	}
	ws.afterSave = append(ws.afterSave, afterSave{then, orElse})
	if !ws.saving {
		ws.saveNow()
	} // else it runs when the save under way returns (saving again what was typed since)
}

// afterSave is what a flush does once its save returns.
type afterSave struct{ then, orElse func() }

// saveNow writes the draft with its version token, off the UI goroutine (act).
// What is sent is a copy of the sample as it is now; the annotator types on while
// it is under way, and nothing the save returns touches the form: no entry's text
// or caret is set from what was saved. One save is under way at a time (each
// needs the version the last returned): a save asked for meanwhile is sent when
// it returns, with what is typed by then. A conflict keeps everything typed in the
// form and offers to overwrite or to reload.
func (ws *workspace) saveNow() {
	if ws.sample == nil {
		ws.runAfterSave(true)
		return
	}
	if ws.stopSave != nil {
		ws.stopSave()
	}
	if ws.saving {
		ws.saveAgain = true
		return
	}
	if !ws.dirty {
		ws.setSaved(fmt.Sprintf("All changes saved · version %d", ws.version))
		ws.runAfterSave(true)
		return
	}
	if ws.conflict {
		ws.runAfterSave(false)
		return
	}
	sess, ctx := ws.u.sess, ws.u.ctx()
	sample, id, version, offline, gen := ws.sample, ws.sample.ID, ws.version, ws.offline, ws.saveGen
	content := cloneSample(ws.cur)
	ws.saving, ws.saveAgain = true, false
	ws.saveBtn.Disable()
	ws.setSaved("Saving…")
	load(ws.u, "", func() (int, error) {
		v, err := sess.SaveDraft(ctx, id, version, content)
		if err != nil && offline && errors.Is(err, bench.ErrConflict) {
			// A save sent before the connection dropped may have arrived: if the
			// stored draft is what was sent here, it is saved, not in conflict.
			if si, gerr := sess.Sample(ctx, id); gerr == nil && reflect.DeepEqual(si.Content, annotate.TidyText(content)) {
				v, err = si.Version, nil
			}
		}
		return v, err
	}, func(v int, err error) {
		ws.saving = false
		ws.saveBtn.Enable()
		if ws.sample != sample { // closed meanwhile
			if err != nil {
				ws.u.setStatus("%s was not saved: %s", id, bench.Message(err))
			}
			ws.runAfterSave(err == nil)
			return
		}
		if err != nil {
			ws.saveFailed(err)
			ws.runAfterSave(false)
			return
		}
		ws.version, ws.offline = v, false
		ws.dirty = ws.saveGen != gen // typed on while it was under way: saved next
		ws.banner.RemoveAll()
		if i := ws.current; i >= 0 && i < len(ws.items) && ws.items[i].kind == qSample {
			ws.items[i].detail = questionLine(content.Question)
			ws.queue.RefreshItem(i)
		}
		if ws.dirty {
			ws.setSaved(fmt.Sprintf("Saved at %s · version %d · unsaved changes since", ws.now().Format("15:04:05"), v))
			if ws.saveAgain || len(ws.afterSave) > 0 {
				ws.saveNow()
			}
			return
		}
		ws.setSaved(fmt.Sprintf("Saved at %s · version %d", ws.now().Format("15:04:05"), v))
		ws.runAfterSave(true)
	})
}

// runAfterSave runs (ok) or gives up (not ok) what flushes waited for.
func (ws *workspace) runAfterSave(ok bool) {
	waiting := ws.afterSave
	ws.afterSave = nil
	for _, a := range waiting {
		if ok && a.then != nil {
			a.then()
		} else if !ok && a.orElse != nil {
			a.orElse()
		}
	}
}

func (ws *workspace) saveFailed(err error) {
	ws.banner.RemoveAll()
	if errors.Is(err, bench.ErrOffline) {
		ws.wentOffline()
		return
	}
	var msg string
	var actions []fyne.CanvasObject
	if errors.Is(err, bench.ErrConflict) {
		ws.conflict = true
		msg = "Not saved: this sample was changed elsewhere since you opened it. Everything you typed is still here."
		actions = append(actions,
			widget.NewButton("Save mine over it", ws.overwrite),
			widget.NewButton("Discard mine and reload", func() {
				dialog.ShowConfirm("Discard your changes?", "Your edits since the last save are lost and the stored version is shown.", func(ok bool) {
					if ok {
						ws.dirty, ws.conflict = false, false
						ws.openSample(ws.sample.ID)
					}
				}, ws.u.win)
			}))
	} else {
		msg = "Not saved: " + bench.Message(err) + " Everything you typed is still here."
	}
	l := widget.NewLabel(msg)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.DangerImportance
	ws.banner.Add(l)
	if len(actions) > 0 {
		ws.banner.Add(container.NewHBox(actions...))
	}
	ws.setSaved("Not saved")
	ws.updateGate()
}

// overwrite saves the form's content over a newer stored version.
func (ws *workspace) overwrite() {
	if ws.sample == nil {
		return
	}
	sess, ctx, sample := ws.u.sess, ws.u.ctx(), ws.sample
	load(ws.u, "", func() (bench.SampleInfo, error) { return sess.Sample(ctx, sample.ID) }, func(si bench.SampleInfo, err error) {
		if ws.sample != sample {
			return
		}
		if err != nil {
			ws.u.showError(err)
			return
		}
		ws.version, ws.conflict, ws.dirty = si.Version, false, true
		ws.flush(ws.updateGate)
	})
}

// wentOffline says the team server cannot be reached, and tries again every
// offlineRetry (retryOffline) until it can.
func (ws *workspace) wentOffline() {
	ws.offline = true
	ws.showOffline()
	ws.scheduleRetry()
}

func (ws *workspace) showOffline() {
	ws.banner.RemoveAll()
	text := "The team server cannot be reached. Everything you typed is kept here and saved as soon as it is back."
	state := "Offline — saving when reconnected"
	if q := ws.queued; q != nil {
		text = fmt.Sprintf("The team server cannot be reached. Your submit of %s is queued: it is sent, with everything you typed, as soon as the server is back.", q.id)
		state = "Offline — submit queued"
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.WarningImportance
	ws.banner.Add(l)
	ws.setSaved(state)
}

// scheduleRetry runs retryOffline after offlineRetry, once however often it is asked.
func (ws *workspace) scheduleRetry() {
	if ws.retrying {
		return
	}
	ws.retrying = true
	ws.after(offlineRetry, ws.retryOffline)
}

// retryOffline tries again what the team server could not take: the unsaved
// draft, then a queued submit; with neither, it asks the server whether it is
// back, so that the Offline banner clears within one retry of its return.
func (ws *workspace) retryOffline() {
	ws.retrying = false
	if !ws.offline {
		return
	}
	if ws.sample != nil && ws.dirty && !ws.conflict {
		// Still offline, the save fails and saveFailed asks for another retry.
		ws.flush(func() {
			if ws.queued != nil {
				ws.sendQueued()
			}
		})
		return
	}
	if ws.queued != nil {
		ws.sendQueued()
		return
	}
	ctx, lastChange := ws.u.ctx(), ws.u.lastChange()
	act(ws.u, "", func() error { _, err := lastChange(ctx); return err }, func(err error) {
		if !ws.offline {
			return
		}
		if err != nil {
			ws.scheduleRetry()
			return
		}
		ws.offline = false
		ws.banner.RemoveAll()
		if ws.sample != nil {
			ws.setSaved(fmt.Sprintf("Back online · all changes saved · version %d", ws.version))
		}
	})
}

// queuedSubmit is a submit pressed while the team server could not be reached.
type queuedSubmit struct {
	id      string
	version int // the saved version, for when the sample is no longer open
	acks    []string
}

// queueSubmit keeps the open sample's submit for when the server is back.
func (ws *workspace) queueSubmit() {
	ws.queued = &queuedSubmit{id: ws.sample.ID, version: ws.version, acks: ws.submitAcks()}
	ws.offline = true
	ws.showOffline()
	ws.u.setStatus("Submit of %s queued: the team server cannot be reached; it is sent as soon as it is back.", ws.sample.ID)
	ws.scheduleRetry()
}

// sendQueued sends the queued submit, with the open sample's latest saved version
// and acknowledgements when it is still open.
func (ws *workspace) sendQueued() {
	q := ws.queued
	if q == nil || ws.submitting {
		return
	}
	open := ws.sample != nil && ws.sample.ID == q.id
	version, acks := q.version, q.acks
	if open {
		if why := ws.submitBlocker(); why != "" { // edited since, and no longer ready
			ws.queued = nil
			ws.offline = false
			ws.banner.RemoveAll()
			ws.u.setStatus("The queued submit of %s was not sent: %s", q.id, why)
			return
		}
		version, acks = ws.version, ws.submitAcks()
	}
	ws.sendSubmit(q.id, version, acks, func(si bench.SampleInfo, err error) {
		if errors.Is(err, bench.ErrOffline) {
			ws.wentOffline()
			return
		}
		open := ws.sample != nil && ws.sample.ID == q.id
		ws.queued, ws.offline = nil, false
		ws.banner.RemoveAll()
		if err != nil {
			if open {
				ws.saveFailed(err)
			} else {
				ws.u.setStatus("The queued submit of %s failed: %s", q.id, bench.Message(err))
			}
			return
		}
		if open {
			ws.submitted(si)
			return
		}
		ws.u.refreshStatus()
		ws.reloadQueue()
		ws.u.setStatus("Submitted %s (queued while offline) as revision %d; it waits for round 1.", si.ID, si.Revision)
	})
}

// submit saves, then turns the draft into a revision for round 1 with the
// acknowledged warnings, and opens the next queue item. With the team server
// unreachable, the submit is queued and sent when it is back (retryOffline).
// Submit is disabled while the save and the submit are under way.
func (ws *workspace) submit() {
	if ws.sample == nil || ws.submitting {
		return
	}
	if why := ws.submitBlocker(); why != "" {
		ws.u.setStatus("%s", why)
		return
	}
	sample := ws.sample
	ws.submitting = true // Submit disabled until the submit returns, or the save before it fails
	ws.updateGate()
	// What is typed from here on would not be in the revision submitted, and the
	// next item opens when the submit returns: the fields let go of the keyboard
	// (strayRune says why), rather than take text that would be lost.
	ws.u.win.Canvas().Unfocus()
	ws.flushOr(func() {
		if ws.sample != sample {
			ws.submitting = false
			return
		}
		ws.sendSubmit(sample.ID, ws.version, ws.submitAcks(), func(si bench.SampleInfo, err error) {
			if errors.Is(err, bench.ErrOffline) {
				ws.queueSubmit()
				return
			}
			if err != nil {
				ws.saveFailed(err)
				return
			}
			ws.submitted(si)
		})
	}, func() {
		ws.submitting = false
		if ws.sample != nil {
			ws.updateGate()
		}
		if ws.offline && ws.sample == sample {
			ws.queueSubmit()
		}
	})
}

// sendSubmit submits revision version of sample id off the UI goroutine, with
// Submit disabled until it returns, and hands the result to done.
func (ws *workspace) sendSubmit(id string, version int, acks []string, done func(bench.SampleInfo, error)) {
	sess, ctx := ws.u.sess, ws.u.ctx()
	ws.submitting = true
	ws.updateGate()
	load(ws.u, "", func() (bench.SampleInfo, error) { return sess.Submit(ctx, id, version, acks) }, func(si bench.SampleInfo, err error) {
		ws.submitting = false
		if ws.sample != nil {
			ws.updateGate()
		}
		done(si, err)
	})
}

// submitted closes the sample just submitted and opens the next image without
// a sample (after the sample's own image when every image is listed), else the
// next draft or returned sample, as Ctrl+Enter's hint says.
func (ws *workspace) submitted(si bench.SampleInfo) {
	ws.closeSample()
	ws.u.refreshStatus()
	ws.u.setStatus("Submitted %s as revision %d; it waits for round 1.", si.ID, si.Revision)
	ws.showNothing() // until the queue is read again
	ws.reloadQueueThen(func() {
		if ws.sample != nil || ws.current >= 0 { // something was opened meanwhile
			return
		}
		if i := ws.nextAfterSubmit(si.ImagePath); i >= 0 {
			ws.queue.Select(i)
			ws.queue.ScrollTo(i)
		}
	})
}

// nextAfterSubmit is the queue index to open after submitting a sample on image
// path, or -1.
func (ws *workspace) nextAfterSubmit(path string) int {
	first, after, seen := -1, -1, false
	for i, it := range ws.items {
		if it.kind != qImage {
			continue
		}
		if first < 0 {
			first = i
		}
		if seen && after < 0 {
			after = i
		}
		seen = seen || it.image.RelPath == path
	}
	switch {
	case ws.allImages.Checked && after >= 0:
		return after
	case first >= 0:
		return first
	}
	for i, it := range ws.items { // no image left: the next sample to work on
		if it.kind == qSample && !it.submitted {
			return i
		}
	}
	return -1
}
