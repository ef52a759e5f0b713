package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/verify"
)

// exportView is the Export screen. Leads run the integrity audit, freeze releases
// and export them; everyone else sees the releases, read-only. The audit, the freeze
// (which re-hashes every image) and exports run off the UI goroutine and report back
// through fyne.Do.
type exportView struct {
	u    *App
	root fyne.CanvasObject

	// The audit (leads).
	auditBtn     *widget.Button
	auditSummary *widget.Label
	findings     []bench.AuditFinding
	findingList  *widget.List
	lastAudit    *bench.AuditReport // the last finished audit, for tests
	auditRun     *auditRun          // the running or last audit's progress (export_audit.go)
	openErrors   *widget.Button     // the samples the errors name, in the sample manager (samples_links.go)

	// The freeze form (leads).
	name, version, ratio, seed *widget.Entry
	kinds                      *widget.CheckGroup
	split                      *widget.Check
	freezeBtn                  *widget.Button
	freezeMsg                  *widget.Label
	freezeOpen                 *widget.Button // the samples a refused freeze's errors name
	freezeFindings             []bench.AuditFinding
	freezing                   bool                           // a freeze is running, for tests
	freezeDialog               dialog.Dialog                  // the freeze's confirmation while it shows
	afterAudit                 func(bench.AuditReport, error) // what a freeze does once its audit ended

	releases    []bench.Release
	releaseList *widget.List
	lastExport  *exportRun // the last export started, for tests
}

func (u *App) exportScreen() fyne.CanvasObject { return u.newExportView().root }

func (u *App) newExportView() *exportView {
	v := &exportView{u: u}
	v.releaseList = widget.NewList(
		func() int { return len(v.releases) },
		func() fyne.CanvasObject {
			ref := widget.NewLabelWithStyle("release@version", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			what, when := widget.NewLabel("0000 samples · train 0000, test 0000"), widget.NewLabel("frozen by someone")
			what.Truncation, when.Truncation = fyne.TextTruncateEllipsis, fyne.TextTruncateEllipsis
			when.Importance = widget.LowImportance
			b := widget.NewButton("Export…", nil)
			return container.NewBorder(nil, nil, nil, container.NewCenter(b), container.NewVBox(ref, what, when))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := o.(*fyne.Container)
			lines := c.Objects[0].(*fyne.Container).Objects
			b := c.Objects[1].(*fyne.Container).Objects[0].(*widget.Button)
			rel := v.releases[i]
			what, when := releaseDetails(rel)
			lines[0].(*widget.Label).SetText(rel.Ref())
			lines[1].(*widget.Label).SetText(what)
			lines[2].(*widget.Label).SetText(when)
			b.OnTapped = func() { v.showExportDialog(rel) }
			if u.may(verify.ActionExport) {
				b.Show()
			} else {
				b.Hide()
			}
		},
	)
	v.loadReleases()
	releases := container.NewBorder(heading("Frozen releases"), nil, nil, nil, v.releaseList)
	if !u.may(verify.ActionFreeze) {
		note := widget.NewLabel("Leads audit and freeze releases; choose Export… on a release to write it in a toolkit's format.")
		note.Importance = widget.LowImportance
		v.root = container.NewBorder(nil, note, nil, nil, releases)
		return v
	}

	v.auditSummary = widget.NewLabel("Checks every accepted sample before a freeze: lint, image files and their hashes, duplicate questions, the verification trail, the split, the balance targets, and shortcuts (answer letters, option lengths, images that look alike).")
	v.auditSummary.Wrapping = fyne.TextWrapWord
	v.auditBtn = widget.NewButton("Run audit", v.runAudit)
	v.findingList = widget.NewList(
		func() int { return len(v.findings) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("warning · balance · hop QA, 1-hop, ego: 0 of 750 accepted")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			f := v.findings[i]
			l := o.(*widget.Label)
			where := f.SampleID
			if where == "" {
				where = f.Image
			}
			parts := []string{f.Severity, f.Check}
			if where != "" {
				parts = append(parts, where)
			}
			l.SetText(strings.Join(append(parts, f.Message), " · "))
			l.Importance = widget.MediumImportance
			if f.Severity == bench.SeverityError {
				l.Importance = widget.DangerImportance
			}
			l.Refresh()
		},
	)
	v.linkFindings()
	audit := container.NewBorder(container.NewVBox(container.NewHBox(heading("Integrity audit"), layout.NewSpacer(), v.openErrors, v.auditBtn), v.auditSummary),
		nil, nil, nil, v.findingList)

	v.name, v.version = widget.NewEntry(), widget.NewEntry()
	// Hints read as hints, not as values already filled in.
	v.name.SetPlaceHolder("required, e.g. " + u.project.Name + "-bench")
	v.version.SetPlaceHolder("required, e.g. 1.0")
	var kindNames []string
	for _, k := range annotate.Kinds {
		kindNames = append(kindNames, string(k))
	}
	v.kinds = widget.NewCheckGroup(kindNames, nil)
	v.kinds.Horizontal = true
	v.ratio, v.seed = widget.NewEntry(), widget.NewEntry()
	v.ratio.SetText("0.2")
	v.seed.SetText("1")
	v.split = widget.NewCheck("train/test by image, stratified by hop × view (other kinds: task)", func(on bool) {
		if on {
			v.ratio.Enable()
			v.seed.Enable()
		} else {
			v.ratio.Disable()
			v.seed.Disable()
		}
	})
	v.ratio.Disable()
	v.seed.Disable()
	v.freezeBtn = widget.NewButton("Freeze release", v.runFreeze)
	v.freezeBtn.Importance = widget.HighImportance
	v.freezeMsg = widget.NewLabel("A release records which revision of each accepted sample went in; later edits never change it. No kind ticked takes them all.")
	v.freezeMsg.Wrapping = fyne.TextWrapWord
	title := heading("Freeze a release of the accepted samples")
	sess, ctx, projectID := u.sess, u.ctx(), u.project.ID
	load(u, "export.counts", func() (map[verify.State]int, error) { return sess.StatusCounts(ctx, projectID) },
		func(counts map[verify.State]int, err error) {
			if err != nil {
				u.showError(err)
				return
			}
			title.SetText(fmt.Sprintf("Freeze a release of the %s", annotate.Plural(counts[verify.StateAccepted], "accepted sample")))
		})
	names := container.NewGridWithColumns(2, widget.NewForm(widget.NewFormItem("Name", v.name)),
		widget.NewForm(widget.NewFormItem("Version", v.version)))
	splitRow := container.NewHBox(v.split, widget.NewLabel("test ratio"), container.NewGridWrap(fyne.NewSize(80, v.ratio.MinSize().Height), v.ratio),
		widget.NewLabel("seed"), container.NewGridWrap(fyne.NewSize(110, v.seed.MinSize().Height), v.seed))
	freeze := container.NewVBox(title, names,
		widget.NewForm(widget.NewFormItem("Kinds", v.kinds), widget.NewFormItem("Split", splitRow)),
		container.NewBorder(nil, nil, container.NewVBox(v.freezeBtn), v.freezeOpen, v.freezeMsg))

	split := container.NewHSplit(releases, audit)
	split.Offset = 0.45
	v.root = container.NewBorder(freeze, nil, nil, nil, split)
	return v
}

// releaseLine describes a release in one line: its ref and releaseDetails.
func releaseLine(r bench.Release) string {
	what, when := releaseDetails(r)
	return r.Ref() + " · " + what + " · " + when
}

// releaseDetails describes a release's content (samples, split counts, kinds) and
// its making (who froze it when, the split's ratio and seed).
func releaseDetails(r bench.Release) (what, when string) {
	parts := []string{annotate.Plural(r.Samples, "sample")}
	if r.Split != nil {
		parts = append(parts, fmt.Sprintf("train %d, test %d", r.SplitCounts[annotate.SplitTrain], r.SplitCounts[annotate.SplitTest]))
	}
	if len(r.Kinds) > 0 {
		var ks []string
		for _, k := range r.Kinds {
			ks = append(ks, string(k))
		}
		parts = append(parts, strings.Join(ks, "+"))
	}
	at := r.CreatedAt
	if len(at) >= 16 {
		at = strings.Replace(at[:16], "T", " ", 1)
	}
	when = "frozen by " + r.CreatedBy + " " + at
	if r.Split != nil {
		when += fmt.Sprintf(" · test ratio %g, seed %d", r.Split.TestRatio, r.Split.Seed)
	}
	return strings.Join(parts, " · "), when
}

func (v *exportView) loadReleases() {
	sess, ctx, projectID := v.u.sess, v.u.ctx(), v.u.project.ID
	load(v.u, "export.releases", func() ([]bench.Release, error) { return sess.Releases(ctx, projectID) },
		func(rels []bench.Release, err error) {
			if err != nil {
				v.u.showError(err)
			}
			v.releases = rels
			v.releaseList.Refresh()
		})
}

// freezeInput reads the freeze form.
func (v *exportView) freezeInput() (bench.FreezeInput, error) {
	in := bench.FreezeInput{ProjectID: v.u.project.ID, Name: strings.TrimSpace(v.name.Text), Version: strings.TrimSpace(v.version.Text)}
	for _, k := range v.kinds.Selected {
		in.Kinds = append(in.Kinds, annotate.Kind(k))
	}
	if v.split.Checked {
		r, err := strconv.ParseFloat(strings.TrimSpace(v.ratio.Text), 64)
		if err != nil || !(r > 0 && r < 1) {
			return in, fmt.Errorf("the test ratio %q is not a number between 0 and 1", v.ratio.Text)
		}
		seed, err := strconv.ParseUint(strings.TrimSpace(v.seed.Text), 10, 64)
		if err != nil {
			return in, fmt.Errorf("the seed %q is not a whole number ≥ 0", v.seed.Text)
		}
		in.Split = &annotate.SplitSpec{TestRatio: r, Seed: seed}
	} else {
		in.NoSplit = true // the box unticked: the release carries no split (export_audit.go)
	}
	return in, nil
}

// runFreeze audits what the form describes (the progress dialog of Run audit),
// then asks the lead to confirm with what the freeze will record: its samples
// and the shortcuts the model-free checks found (confirmFreeze). An audit with
// errors stops there: the freeze would be refused for them.
func (v *exportView) runFreeze() {
	in, err := v.freezeInput()
	if err != nil {
		v.freezeMsg.SetText(err.Error())
		return
	}
	v.freezeBtn.Disable()
	v.freezing = true
	v.freezeMsg.SetText("Auditing " + in.Name + "@" + in.Version + " before the freeze…")
	v.afterAudit = func(rep bench.AuditReport, err error) {
		switch {
		case errors.Is(err, context.Canceled):
			v.freezeEnded("Not frozen: the audit was cancelled.")
		case err != nil:
			v.freezeEnded(bench.Message(err))
		case rep.Errors() > 0:
			var errs []bench.AuditFinding
			for _, f := range rep.Findings {
				if f.Severity == bench.SeverityError {
					errs = append(errs, f)
				}
			}
			v.freezeRefused(bench.AuditErrorsOf(errs, ""))
			v.freezeEnded(fmt.Sprintf("Not frozen: the audit found %s, listed below; a freeze is refused until they are fixed.",
				annotate.Plural(len(errs), "error")))
		default:
			v.confirmFreeze(in, rep)
		}
	}
	v.runAudit()
}

// freezeEnded ends a freeze that did not happen, saying why.
func (v *exportView) freezeEnded(msg string) {
	v.freezeBtn.Enable()
	v.freezing = false
	v.freezeMsg.SetText(msg)
}

// confirmFreeze shows what the freeze of in will record — the samples audited,
// and the shortcut findings (bench.AuditReport.Shortcuts), which MANIFEST.json
// records too — and freezes when the lead confirms.
func (v *exportView) confirmFreeze(in bench.FreezeInput, rep bench.AuditReport) {
	text := fmt.Sprintf("%s@%s will hold %s (%s). A release never changes once frozen.\n\n",
		in.Name, in.Version, annotate.Plural(rep.Samples, "accepted sample"), annotate.Plural(rep.Images, "image"))
	if cuts := rep.Shortcuts(); len(cuts) == 0 {
		text += "Shortcuts: none found by the model-free checks (answer letters and option lengths in each task of 20 or more samples; images that look alike)."
	} else {
		text += "Shortcuts a model could use without looking (MANIFEST.json records them):"
		for i, f := range cuts {
			if i == 8 {
				text += fmt.Sprintf("\n  … and %d more (Run audit lists them all)", len(cuts)-i)
				break
			}
			text += "\n  • " + f.Message
		}
	}
	if w := len(rep.Findings) - rep.Errors() - len(rep.Shortcuts()); w > 0 {
		text += fmt.Sprintf("\n\nOther warnings: %d, listed under Integrity audit (balance targets and the like).", w)
	}
	body := widget.NewLabel(text)
	body.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Freeze "+in.Name+"@"+in.Version+"?", "Freeze", "Cancel",
		container.NewGridWrap(fyne.NewSize(560, 260), container.NewVScroll(body)), func(ok bool) {
			v.freezeDialog = nil
			if !ok {
				v.freezeEnded("Not frozen.")
				return
			}
			v.freeze(in)
		}, v.u.win)
	v.freezeDialog = d
	v.freezeMsg.SetText("Audited: freeze " + in.Name + "@" + in.Version + ", or cancel.")
	d.Show()
}

// freeze freezes in in the background (its audit re-hashes the images).
func (v *exportView) freeze(in bench.FreezeInput) {
	v.freezeMsg.SetText("Freezing " + in.Name + "@" + in.Version + "…")
	sess := v.u.sess // read here, not on the goroutine
	// inBackground runs it in place in the tests, as every load (connect.go).
	inBackground(func() {
		rel, err := sess.Freeze(context.Background(), in)
		fyne.Do(func() {
			v.freezeRefused(err)
			if err != nil {
				v.freezeEnded(bench.Message(err))
				return
			}
			v.freezeEnded("Froze " + releaseLine(rel) + ".")
			v.loadReleases()
		})
	})
}

// everyFormat is the export dialog's choice that writes the release in every
// format, each into a folder of its own.
const everyFormat = "every format"

// showExportDialog asks for a format (or every format) and a folder, then exports.
func (v *exportView) showExportDialog(rel bench.Release) {
	var names []string
	for _, f := range release.Formats() {
		names = append(names, f.Name())
	}
	layoutText := widget.NewLabel("")
	layoutText.Wrapping = fyne.TextWrapWord
	folder := widget.NewLabel("No folder chosen yet.")
	folder.Wrapping = fyne.TextWrapWord
	var dir string
	showInto := func(f string) {
		switch {
		case dir == "":
		case f == everyFormat:
			folder.SetText("Into " + exportDir(dir, rel, "FORMAT") + ", one folder per format")
		default:
			folder.SetText("Into " + exportDir(dir, rel, f))
		}
	}
	format := widget.NewSelect(append(slices.Clone(names), everyFormat), func(s string) {
		if s == everyFormat {
			layoutText.SetText("Writes the release once in each format (" + strings.Join(names, ", ") +
				"), each into a folder of its own, one after the other; formats that cannot hold some kinds leave them out and say so.")
		} else if f, err := release.Lookup(s); err == nil {
			layoutText.SetText(f.Layout() + ".")
		}
		showInto(s)
	})
	format.SetSelected(names[0]) // native
	choose := widget.NewButton("Choose folder…", func() {
		dialog.ShowFolderOpen(func(uri fyne.ListableURI, err error) {
			if err != nil || uri == nil {
				return
			}
			dir = uri.Path()
			showInto(format.Selected)
		}, v.u.win)
	})
	form := widget.NewForm(widget.NewFormItem("Format", format), widget.NewFormItem("Folder", container.NewVBox(choose, folder)))
	// The layout text of some formats runs to a paragraph: it scrolls in the space
	// the dialog has, rather than pushing the buttons over it.
	body := container.NewBorder(form, nil, nil, nil, container.NewVScroll(layoutText))
	d := dialog.NewCustomConfirm("Export "+rel.Ref(), "Export", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		if dir == "" {
			v.u.showError(errors.New("choose a folder to export into"))
			return
		}
		formats := []string{format.Selected}
		if format.Selected == everyFormat {
			formats = names
		}
		v.startExports(v.u.ctx(), rel, formats, dir)
	}, v.u.win)
	d.Resize(fyne.NewSize(600, 440))
	d.Show()
}

// exportDir is the new folder an export in format f (its name) into parent is written to.
func exportDir(parent string, rel bench.Release, f string) string {
	return filepath.Join(parent, rel.Name+"-"+rel.Version+"-"+f)
}

// exportRun is a running export's progress dialog and, once done, its outcome:
// of one format, or of several one after the other.
type exportRun struct {
	bar      *widget.ProgressBar
	label    *widget.Label
	cancel   context.CancelFunc
	dlg      dialog.Dialog
	done     bool
	outcomes []exportOutcome // one per format started, in order
	result   bench.ExportResult
	err      error  // the last format's (the only one's, for one format)
	updates  int    // progress reports shown, for tests
	summary  string // what the closing dialog said
	open     string // the folder "Open folder" opens
}

// exportOutcome is what the export in one format did.
type exportOutcome struct {
	format string
	dir    string
	result bench.ExportResult
	err    error
}

// openFolder shows dir in the system's file manager; tests replace it.
var openFolder = func(a fyne.App, dir string) error {
	return a.OpenURL(&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)})
}

// startExport exports rel in format f (its name) into a new folder inside parent, with a
// progress bar and a Cancel button, then says what was written.
func (v *exportView) startExport(ctx context.Context, rel bench.Release, f, parent string) *exportRun {
	return v.startExports(ctx, rel, []string{f}, parent)
}

// startExports exports rel in each of formats in turn, each into a new folder inside
// parent, with one progress dialog and a Cancel button that stops them all, then says
// what each wrote and offers to open the folder. A format that fails does not stop
// the next; a cancel does.
//
// The progress reports go through a pacer: at most one per progressEvery reaches the
// UI goroutine, whose drawing of every record's report made the app's export of a
// 5,775-sample release ~15× slower than bwctl's (BenchmarkExportScreen).
func (v *exportView) startExports(ctx context.Context, rel bench.Release, formats []string, parent string) *exportRun {
	ctx, cancel := context.WithCancel(ctx)
	run := &exportRun{bar: widget.NewProgressBar(), label: widget.NewLabel("Starting…"), cancel: cancel}
	title := "Exporting " + rel.Ref() + " as " + formats[0]
	if len(formats) > 1 {
		title = "Exporting " + rel.Ref() + " in " + annotate.Plural(len(formats), "format")
	}
	run.dlg = dialog.NewCustomWithoutButtons(title, container.NewVBox(run.bar, run.label, widget.NewButton("Cancel", cancel)), v.u.win)
	run.dlg.Resize(fyne.NewSize(520, 180))
	run.dlg.Show()
	v.lastExport = run
	sess := v.u.sess // read here, not on the goroutine
	// inBackground runs it in place in the tests, as every load (connect.go).
	inBackground(func() {
		defer cancel()
		var outcomes []exportOutcome
		for k, f := range formats {
			if ctx.Err() != nil && k > 0 {
				break
			}
			out := exportDir(parent, rel, f)
			in := bench.ExportInput{Release: strconv.FormatInt(rel.ID, 10), ProjectID: rel.ProjectID, Format: f, OutDir: out}
			which := ""
			if len(formats) > 1 {
				which = fmt.Sprintf("%s (%d of %d): ", f, k+1, len(formats))
			}
			pace := newPacer()
			res, err := sess.Export(ctx, in, func(done, total int) {
				if !pace.due(done, total) {
					return
				}
				fyne.Do(func() {
					run.updates++
					if total <= 0 { // from a team server: files arrive, their number unknown in advance
						run.label.SetText(fmt.Sprintf("%sexported on the server; %d files received", which, done))
						return
					}
					run.bar.SetValue((float64(k) + float64(done)/float64(total)) / float64(len(formats)))
					run.label.SetText(fmt.Sprintf("%s%d of %d samples", which, min(done, total-1), total-1))
				})
			})
			outcomes = append(outcomes, exportOutcome{format: f, dir: out, result: res, err: err})
		}
		fyne.Do(func() {
			run.dlg.Hide()
			run.outcomes = outcomes
			last := outcomes[len(outcomes)-1]
			run.result, run.err = last.result, last.err
			v.exportDone(run, rel, parent)
			run.done = true
		})
	})
	return run
}

// exportDone says what each format's export wrote (or why not) and offers to open
// the folder written (for several formats, the folder holding them).
func (v *exportView) exportDone(run *exportRun, rel bench.Release, parent string) {
	var parts []string
	failed, cancelled := 0, false
	for _, o := range run.outcomes {
		switch {
		case errors.Is(o.err, context.Canceled):
			cancelled = true
			parts = append(parts, "The export as "+o.format+" was cancelled; nothing was written to "+o.dir+".")
		case o.err != nil:
			failed++
			parts = append(parts, bench.Message(o.err))
		default:
			m := o.result.Manifest
			text := fmt.Sprintf("Exported %s as %s to\n%s\n%s, %s.", rel.Ref(), o.format, o.result.Dir,
				annotate.Plural(m.Counts.Samples, "sample"), annotate.Plural(len(m.Files)+1, "file"))
			var left []string
			for _, k := range annotate.Kinds {
				if n := m.Skipped[string(k)]; n > 0 {
					left = append(left, fmt.Sprintf("%d %s", n, k))
				}
			}
			if len(left) > 0 {
				text += "\nLeft out, as " + o.format + " cannot hold them: " + strings.Join(left, ", ") + "."
			}
			parts = append(parts, text)
			run.open = o.result.Dir
		}
	}
	title := "Export done"
	switch {
	case cancelled && len(run.outcomes) == 1:
		title = "Export cancelled"
	case cancelled:
		title = "Export cancelled after " + annotate.Plural(len(run.outcomes)-1, "format")
	case failed == len(run.outcomes):
		title = "Export failed"
	case failed > 0:
		title = fmt.Sprintf("Export done; %d of %d formats failed", failed, len(run.outcomes))
	}
	if len(run.outcomes) > 1 && run.open != "" {
		run.open = parent
	}
	run.summary = strings.Join(parts, "\n\n")
	if run.open != "" {
		run.summary += "\n\nMANIFEST.json in each folder lists the SHA-256 of every file; bwctl verify-release checks them."
	}
	l := widget.NewLabel(run.summary)
	l.Wrapping = fyne.TextWrapWord
	body := container.NewVScroll(l)
	var d dialog.Dialog
	if run.open != "" {
		dir := run.open
		d = dialog.NewCustomConfirm(title, "Open folder", "Close", body, func(open bool) {
			if open {
				if err := openFolder(v.u.fyne, dir); err != nil {
					v.u.showError(fmt.Errorf("open %s: %w", dir, err))
				}
			}
		}, v.u.win)
	} else {
		d = dialog.NewCustom(title, "Close", body, v.u.win)
	}
	d.Resize(fyne.NewSize(560, min(520, 200+float32(len(run.outcomes))*90)))
	d.Show()
}
