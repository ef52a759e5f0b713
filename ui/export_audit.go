package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// auditRun is a running audit's progress dialog: a bar with the images hashed so
// far out of all, and a Cancel (re-hashing a big project's images takes minutes).
type auditRun struct {
	bar    *widget.ProgressBar
	label  *widget.Label
	cancel context.CancelFunc
	dlg    dialog.Dialog
	done   bool
	mu     sync.Mutex // the progress updates, one at a time
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
	sess := v.u.sess // read here, not on the goroutine
	inBackground(func() {
		defer cancel()
		rep, err := sess.AuditFreeze(ctx, in, auditProgress(run))
		fyne.Do(func() {
			run.dlg.Hide()
			run.done = true
			v.auditDone(rep, err)
		})
	})
}

// auditProgress shows the hashing progress on run's bar, at most about 200 updates
// whatever the number of images.
func auditProgress(run *auditRun) func(done, total int) {
	return func(done, total int) {
		if total > 200 && done%(total/200) != 0 && done != total {
			return
		}
		fyne.Do(func() {
			// The hashing goroutines call this at once; where fyne.Do runs its
			// function in place (the test driver) they would update the bar together.
			run.mu.Lock()
			defer run.mu.Unlock()
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
func (v *exportView) auditDone(rep bench.AuditReport, err error) {
	v.auditBtn.Enable()
	switch {
	case errors.Is(err, context.Canceled):
		v.auditSummary.SetText("Audit cancelled: nothing was checked. Run it again before freezing.")
		v.findings = nil
	case err != nil:
		v.auditSummary.SetText(bench.Message(err))
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
	v.keepAudit()
	if next := v.afterAudit; next != nil {
		v.afterAudit = nil
		next(rep, err)
	}
}

// keptAudit is the last audit's outcome on a project, as the Export screen showed
// it: the screen is made anew each time it is shown, and a lead who follows a
// finding to its samples comes back to the same findings, not to an empty list
// (issue 27 item 12). Kept per app, project and account; UI goroutine only.
type keptAudit struct {
	project, user int64
	summary       string
	findings      []bench.AuditFinding
	report        *bench.AuditReport
}

var keptAudits = map[*App]keptAudit{}

// keepAudit remembers what the audit part of the screen shows now.
func (v *exportView) keepAudit() {
	keptAudits[v.u] = keptAudit{project: v.u.project.ID, user: v.u.user.ID, summary: v.auditSummary.Text,
		findings: v.findings, report: v.lastAudit}
}

// restoreAudit shows the last audit of this project by this account, if any.
func (v *exportView) restoreAudit() {
	k, ok := keptAudits[v.u]
	if !ok || k.project != v.u.project.ID || k.user != v.u.user.ID || v.findingList == nil {
		return
	}
	v.auditSummary.SetText(k.summary)
	v.findings, v.lastAudit = k.findings, k.report
	v.showOpenErrors()
	v.findingList.Refresh()
}

// offerKeepOne is what a tap on a duplicate-question finding opens: the samples of
// its group, one to keep (the first by default), a reason, and either "keep one,
// withdraw the rest" (store.WithdrawDuplicates, audited) or the group in the
// sample manager.
func (v *exportView) offerKeepOne(f bench.AuditFinding) {
	group := f.Group
	// A few samples are radio buttons; a long group a drop-down, so that the
	// dialog fits a 700-pixel window.
	var keepW fyne.CanvasObject
	var kept func() string
	if len(group) <= 6 {
		r := widget.NewRadioGroup(group, nil)
		r.SetSelected(group[0])
		r.Required = true
		keepW, kept = r, func() string { return r.Selected }
	} else {
		s := widget.NewSelect(group, nil)
		s.SetSelected(group[0])
		keepW, kept = s, func() string { return s.Selected }
	}
	reason := widget.NewEntry()
	reason.SetText("duplicate question")
	what := widget.NewLabel(fmt.Sprintf("%s ask the same question on the same images. Keep one and withdraw the other %s; "+
		"each withdrawal is recorded with the reason.", strings.Join(group, ", "), annotate.Plural(len(group)-1, "sample")))
	what.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	var withdraw *widget.Button
	withdraw = widget.NewButton(fmt.Sprintf("Keep one, withdraw %d", len(group)-1), func() {
		sess, ctx, projectID := v.u.sess, v.u.ctx(), v.u.project.ID
		keep, why := kept(), reason.Text
		withdraw.Disable()
		load(v.u, "", func() (bench.SelectionResult, error) {
			return sess.WithdrawDuplicates(ctx, projectID, keep, why)
		},
			func(res bench.SelectionResult, err error) {
				withdraw.Enable()
				if err != nil {
					v.u.showError(err) // the dialog stays, with the choice and reason
					return
				}
				d.Hide()
				v.duplicatesWithdrawn(group, keep, res)
			})
	})
	withdraw.Importance = widget.DangerImportance
	open := widget.NewButton("Open them in the sample manager", func() {
		d.Hide()
		var fs []bench.AuditFinding
		for _, id := range group {
			fs = append(fs, bench.AuditFinding{Severity: f.Severity, Check: f.Check, SampleID: id})
		}
		v.openFindings(fs)
	})
	cancel := widget.NewButton("Cancel", func() { d.Hide() })
	buttons := container.NewHBox(cancel, open, withdraw)
	rows := []fyne.CanvasObject{what, widget.NewForm(widget.NewFormItem("Keep", keepW), widget.NewFormItem("Reason", reason)), buttons}
	if groups := duplicateGroups(v.findings); len(groups) > 1 {
		// A big project has many groups: one press keeps the first of each.
		all := widget.NewButton(fmt.Sprintf("Keep the first of each of the %d groups, withdraw the rest", len(groups)), func() {
			d.Hide()
			v.keepFirstOfEach(groups, reason.Text)
		})
		rows = append(rows, all)
	}
	body := container.NewVBox(rows...)
	d = dialog.NewCustomWithoutButtons("The same question, "+annotate.Plural(len(group), "time"), body, v.u.win)
	d.Resize(fyne.NewSize(min(560, v.u.win.Canvas().Size().Width-40), body.MinSize().Height+80))
	d.Show()
}

// duplicateGroups are the distinct groups of the duplicate-question findings, in
// the findings' order.
func duplicateGroups(fs []bench.AuditFinding) [][]string {
	var out [][]string
	for _, f := range fs {
		if f.Check == bench.CheckDuplicate && len(f.Group) > 1 &&
			!slices.ContainsFunc(out, func(g []string) bool { return slices.Equal(g, f.Group) }) {
			out = append(out, f.Group)
		}
	}
	return out
}

// keepFirstOfEach keeps the first sample of every group and withdraws the rest,
// a group at a time (store.WithdrawDuplicates), and says what was done.
func (v *exportView) keepFirstOfEach(groups [][]string, reason string) {
	type withdrawn struct {
		res   bench.SelectionResult
		clean [][]string // the groups withdrawn without a refusal
	}
	sess, ctx, projectID := v.u.sess, v.u.ctx(), v.u.project.ID
	load(v.u, "", func() (withdrawn, error) {
		var w withdrawn
		for _, g := range groups {
			r, err := sess.WithdrawDuplicates(ctx, projectID, g[0], reason)
			if err != nil {
				return w, err
			}
			w.res.Done, w.res.Refused = append(w.res.Done, r.Done...), append(w.res.Refused, r.Refused...)
			if len(r.Refused) == 0 {
				w.clean = append(w.clean, g)
			}
		}
		return w, nil
	}, func(w withdrawn, err error) {
		if err != nil {
			v.u.showError(err)
		}
		v.findings = slices.DeleteFunc(slices.Clone(v.findings), func(f bench.AuditFinding) bool {
			return f.Check == bench.CheckDuplicate && slices.ContainsFunc(w.clean, func(g []string) bool { return slices.Equal(f.Group, g) })
		})
		v.summarizeWithdrawn(fmt.Sprintf("Kept the first sample of %s", annotate.Plural(len(groups), "group")), w.res)
	})
}

// duplicatesWithdrawn takes the group's findings off the list (none of its samples
// is a duplicate any more) and says what was done; the freeze audits again.
func (v *exportView) duplicatesWithdrawn(group []string, kept string, res bench.SelectionResult) {
	v.findings = slices.DeleteFunc(slices.Clone(v.findings), func(f bench.AuditFinding) bool {
		return f.Check == bench.CheckDuplicate && slices.Contains(group, f.SampleID) && len(res.Refused) == 0
	})
	v.summarizeWithdrawn("Kept "+kept, res)
}

// summarizeWithdrawn says what a withdrawal of duplicates did and what is left.
func (v *exportView) summarizeWithdrawn(kept string, res bench.SelectionResult) {
	errs := len(errorFindings(v.findings))
	text := fmt.Sprintf("%s; %s.", kept, res.Summary("withdrew"))
	if errs > 0 {
		text += fmt.Sprintf(" %s left; the freeze audits again.", annotate.Plural(errs, "error"))
	} else {
		text += " No error left; the freeze audits again."
	}
	v.auditSummary.SetText(text)
	v.showOpenErrors()
	v.findingList.Refresh()
	v.keepAudit()
}
