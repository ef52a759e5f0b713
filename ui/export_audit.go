package ui

import (
	"context"
	"errors"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
)

// auditRun is a running audit's progress dialog: a bar with the images hashed so
// far out of all, and a Cancel (re-hashing a big project's images takes minutes).
type auditRun struct {
	bar    *widget.ProgressBar
	label  *widget.Label
	cancel context.CancelFunc
	dlg    dialog.Dialog
	done   bool
}

// runAudit audits, in the background, what the freeze form describes (its kinds,
// and its split or none when the box is unticked), with a progress dialog, and lists
// the findings. Through a team server the store's Audit runs instead: it takes no
// progress callback and audits every accepted sample with its own split.
func (v *exportView) runAudit() {
	in, err := v.freezeInput()
	if err != nil {
		v.auditSummary.SetText("The audit checks what the freeze form describes: " + err.Error())
		return
	}
	v.auditBtn.Disable()
	v.lastAudit = nil
	ctx, cancel := context.WithCancel(v.u.ctx())
	run := &auditRun{bar: widget.NewProgressBar(), label: widget.NewLabel("Reading the accepted samples…"), cancel: cancel}
	run.dlg = dialog.NewCustomWithoutButtons("Auditing before a freeze",
		container.NewVBox(run.bar, run.label, widget.NewButton("Cancel", cancel)), v.u.win)
	run.dlg.Resize(fyne.NewSize(520, 180))
	run.dlg.Show()
	v.auditRun = run
	v.auditSummary.SetText("Auditing: re-hashing every image…")
	db, user := v.u.db, v.u.user // read here, not on the goroutine
	go func() {
		defer cancel()
		rep, err := db.AuditFreeze(ctx, user, in, auditProgress(run))
		fyne.Do(func() {
			run.dlg.Hide()
			run.done = true
			v.auditDone(rep, err)
		})
	}()
}

// auditProgress shows the hashing progress on run's bar, at most about 200 updates
// whatever the number of images.
func auditProgress(run *auditRun) func(done, total int) {
	return func(done, total int) {
		if total > 200 && done%(total/200) != 0 && done != total {
			return
		}
		fyne.Do(func() {
			if total == 0 {
				run.bar.SetValue(1)
				run.label.SetText("No image to re-hash")
				return
			}
			if done < int(run.bar.Value*float64(total)) { // an earlier update arriving late
				return
			}
			run.bar.SetValue(float64(done) / float64(total))
			run.label.SetText(fmt.Sprintf("Re-hashing images: %d of %d", done, total))
		})
	}
}

// auditDone lists an audit's findings, or says why there are none.
func (v *exportView) auditDone(rep store.AuditReport, err error) {
	v.auditBtn.Enable()
	switch {
	case errors.Is(err, context.Canceled):
		v.auditSummary.SetText("Audit cancelled: nothing was checked. Run it again before freezing.")
		v.findings = nil
	case err != nil:
		v.auditSummary.SetText(store.Message(err))
		v.findings = nil
	default:
		text := rep.Summary() + "."
		if rep.Errors() == 0 {
			text += " Nothing blocks a freeze."
		} else {
			text += " Errors block a freeze."
		}
		v.auditSummary.SetText(text)
		v.findings = rep.Findings
	}
	v.showOpenErrors()
	v.findingList.Refresh()
	v.lastAudit = &rep
}
