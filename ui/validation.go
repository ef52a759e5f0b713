package ui

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/verify"
)

// The Validation screen: sampled validation of generated sets (PCSR-Bench §3.2).
// A lead imports a generated native JSONL file as a batch (store.ImportBatch runs
// the integrity audit; its findings are listed per record), draws a seeded
// stratified sample (store.DrawValidation), watches each stratum's and the batch's
// error rate with its interval as verifiers judge the sampled items in round 1
// (bench.ValidationStatus), and accepts the unsampled rest when the store allows it
// (store.AcceptRest). Verifiers see the same, read-only. Every number, verdict and
// refusal shown is the store's (sampling.CheckAcceptRest); the screen decides none.

// validationScreens is the Validation entry for those who may see batches.
func (u *App) validationScreens() []screen {
	if !u.may(verify.ActionSeeValidation) {
		return nil
	}
	return []screen{{"Validation", u.validationScreen}}
}

type validationView struct {
	widget.BaseWidget
	u    *App
	root fyne.CanvasObject
	lead bool // may import, draw and accept (verify.ActionValidateBatches)

	batches []bench.ValidationBatch
	list    *widget.List
	chosen  string // the batch shown
	message *widget.Label
	detail  *fyne.Container

	st       *bench.ValidationStatus // of the chosen batch, as the store last said
	findings [][]string              // rows shown under "Import audit": line, id, check, message
	rows     [][]string              // the estimate table's rows, for tests
	verdict  *widget.Label
	accept   *widget.Button

	// The draw form (leads, before the rest is accepted).
	stratify  *widget.Select
	sizeBy    *widget.RadioGroup
	perStrat  *widget.Entry
	margin    *widget.Entry
	expected  *widget.Entry
	seed      *widget.Entry
	method    *widget.Select
	threshold *widget.Entry
	draw      *widget.Button

	loads atomic.Int32 // finished loads and actions, for tests
}

func (v *validationView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.root)
}

const (
	sizePerStratum = "Items per stratum"
	sizeMargin     = "Margin of error"
)

// stratifyLabels are the stratifications as people read them.
var stratifyLabels = map[sampling.Stratify]string{sampling.ByTask: "task", sampling.ByKind: "kind", sampling.ByHopView: "hop × view"}

func (u *App) validationScreen() fyne.CanvasObject {
	v := &validationView{u: u, lead: u.may(verify.ActionValidateBatches), message: widget.NewLabel(""), detail: container.NewStack()}
	v.ExtendBaseWidget(v)
	v.message.Wrapping = fyne.TextWrapWord
	v.list = widget.NewList(
		func() int { return len(v.batches) },
		func() fyne.CanvasObject { return widget.NewLabel("pcsr-gen-000 · 20000 items · accepted") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(batchLine(v.batches[i])) },
	)
	v.list.OnSelected = func(i widget.ListItemID) { v.choose(v.batches[i].Name) }
	importBtn := widget.NewButton("Import batch…", v.pickFile)
	importBtn.Importance = widget.HighImportance
	if !v.lead {
		importBtn.Hide()
	}
	left := container.NewBorder(container.NewVBox(heading("Generated batches"), importBtn), nil, nil, nil, v.list)
	v.detail.Objects = []fyne.CanvasObject{widget.NewLabel("Choose a batch, or import a generated set (native JSONL).")}
	split := container.NewHSplit(left, v.detail)
	split.Offset = 0.24
	v.root = container.NewBorder(heading("Sampled validation"), v.message, nil, nil, split)
	v.loadBatches("")
	return v
}

// batchLine is a batch in the list.
func batchLine(b bench.ValidationBatch) string {
	state := "not sampled"
	switch {
	case b.AcceptedAt != "":
		state = fmt.Sprintf("%d accepted by sampling", b.BySampling)
	case b.Sampled > 0:
		state = fmt.Sprintf("%d sampled", b.Sampled)
	}
	return fmt.Sprintf("%s · %s · %s", b.Name, annotate.Plural(b.Items, "item"), state)
}

// loadBatches reads the project's batches off the UI goroutine, then shows
// choose (or the batch shown before).
func (v *validationView) loadBatches(choose string) {
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "validation.batches", func() ([]bench.ValidationBatch, error) { return sess.ValidationBatches(ctx, pid) },
		func(bs []bench.ValidationBatch, err error) {
			defer v.loads.Add(1)
			if err != nil {
				v.message.SetText(bench.Message(err))
				return
			}
			v.batches = bs
			v.list.UnselectAll()
			v.list.Refresh()
			if choose == "" {
				choose = v.chosen
			}
			for i, b := range bs {
				if b.Name == choose {
					v.list.Select(i) // loads its status
				}
			}
		})
}

// choose shows batch name: its status, read off the UI goroutine.
func (v *validationView) choose(name string) {
	if name != v.chosen {
		v.findings = nil // another batch: show its own stored findings
	}
	v.chosen = name
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "validation.status", func() (bench.ValidationStatus, error) { return sess.ValidationStatus(ctx, pid, name) },
		func(st bench.ValidationStatus, err error) {
			defer v.loads.Add(1)
			if err != nil {
				v.message.SetText(bench.Message(err))
				return
			}
			v.show(st)
		})
}

// show fills the detail pane with a batch's status.
func (v *validationView) show(st bench.ValidationStatus) {
	v.st = &st
	b := st.Batch
	if v.findings == nil {
		v.findings = findingRows(b.Findings, nil)
	}
	info := widget.NewLabel(fmt.Sprintf("%s from %s, imported by %s on %s; items become samples of %s. %s, %d sampled, %d accepted by sampling.",
		b.Name, orDash(b.Source), b.ImportedBy, shortTime(b.ImportedAt), b.Author, annotate.Plural(b.Items, "item"), b.Sampled, b.BySampling))
	info.Wrapping = fyne.TextWrapWord
	parts := []fyne.CanvasObject{heading("Batch " + b.Name), info}

	if len(v.findings) > 0 {
		parts = append(parts, widget.NewLabel(fmt.Sprintf("Import audit: %s left out of the batch.", annotate.Plural(len(v.findings), "record"))),
			fittedTable([]string{"Line", "Id", "Check", "Finding"}, v.findings, 5))
	} else {
		parts = append(parts, widget.NewLabel("Import audit: no record of this batch was left out by the store's checks."))
	}

	if b.Stratify != "" {
		policy := fmt.Sprintf("Policy, fixed by the first draw: by %s, seed %d, %s interval at %g %%, threshold %g %%.",
			stratifyLabels[b.Stratify], b.Seed, b.Method, 100*b.Level, 100*b.Threshold)
		var draws []string
		for i, d := range b.Draws {
			rule := fmt.Sprintf("%d per stratum", d.PerStratum)
			if d.PerStratum == 0 {
				rule = fmt.Sprintf("margin ±%g", d.Margin)
			}
			draws = append(draws, fmt.Sprintf("draw %d (%s, by %s): %d added", i+1, rule, d.By, d.Added))
		}
		pl := widget.NewLabel(policy + "\n" + strings.Join(draws, "; "))
		pl.Wrapping = fyne.TextWrapWord
		parts = append(parts, pl)
	}

	level := sampling.Level95
	if b.Level > 0 {
		level = b.Level
	}
	v.rows = nil
	for _, s := range append(append([]bench.ValidationStratum(nil), st.Strata...), st.Overall) {
		v.rows = append(v.rows, stratumRow(s))
	}
	header := []string{"Stratum", "Items", "Sampled", "Pending", "n", "Errors", "Rate", fmt.Sprintf("%g %% interval", 100*level), "Below threshold", "Unsampled"}
	parts = append(parts, heading("Estimates"), fittedTable(header, v.rows, 8))

	v.verdict = widget.NewLabel("")
	v.verdict.Wrapping = fyne.TextWrapWord
	if st.Refusal == "" {
		v.verdict.SetText(fmt.Sprintf("The rest may be accepted by sampling: %s not sampled.", annotate.Plural(st.Overall.Unsampled, "item")))
	} else {
		v.verdict.SetText("The rest cannot be accepted: " + st.Refusal + ".")
	}
	v.accept = widget.NewButton("Accept the rest…", v.confirmAccept)
	v.accept.Importance = widget.HighImportance
	if !v.lead || st.Refusal != "" {
		v.accept.Disable()
	}
	if !v.lead {
		v.accept.Hide()
	}
	parts = append(parts, v.verdict, container.NewHBox(v.accept))
	if v.lead && b.AcceptedAt == "" {
		parts = append(parts, widget.NewSeparator(), v.drawForm(b))
	}
	v.detail.Objects = []fyne.CanvasObject{container.NewVScroll(container.NewVBox(parts...))}
	v.detail.Refresh()
}

// stratumRow is one line of the estimate table.
func stratumRow(s bench.ValidationStratum) []string {
	rate, iv, below := "–", "–", "–"
	if s.N > 0 {
		rate = fmt.Sprintf("%.2f %%", 100*s.Rate)
		iv = fmt.Sprintf("[%.2f %%, %.2f %%]", 100*s.CI.Low, 100*s.CI.High)
		below = "no"
		if s.Below {
			below = "yes"
		}
	}
	return []string{s.Name, strconv.Itoa(s.Items), strconv.Itoa(s.Sampled), strconv.Itoa(s.Pending), strconv.Itoa(s.N),
		strconv.Itoa(s.Errors), rate, iv, below, strconv.Itoa(s.Unsampled)}
}

// findingRows lists the import audit's findings and the records that could not
// be read at all, by line.
func findingRows(fs []bench.AuditFinding, unread []annotate.RecordError) [][]string {
	rows := [][]string{}
	for _, e := range unread {
		rows = append(rows, []string{strconv.Itoa(e.Line), "", annotate.RuleSchema, e.Err.Error()})
	}
	for _, f := range fs {
		line, msg := "", f.Message
		if l, rest, ok := strings.Cut(f.Message, ": "); ok && strings.HasPrefix(l, "line ") {
			line, msg = strings.TrimPrefix(l, "line "), rest
		}
		rows = append(rows, []string{line, f.SampleID, f.Check, msg})
	}
	return rows
}

// drawForm is the lead's draw: the policy (only on the first draw; later draws
// enlarge the sample under it), the size rule, and Draw.
func (v *validationView) drawForm(b bench.ValidationBatch) fyne.CanvasObject {
	var labels []string
	for _, s := range sampling.Stratifications {
		labels = append(labels, stratifyLabels[s])
	}
	v.stratify = widget.NewSelect(labels, nil)
	var methods []string
	for _, m := range sampling.Methods {
		methods = append(methods, string(m))
	}
	v.method = widget.NewSelect(methods, nil)
	v.seed, v.threshold = widget.NewEntry(), widget.NewEntry()
	v.perStrat, v.margin, v.expected = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	v.perStrat.SetText("50")
	v.margin.SetText("0.05")
	v.expected.SetPlaceHolder("0.5 (the safest)")
	v.sizeBy = widget.NewRadioGroup([]string{sizePerStratum, sizeMargin}, func(s string) {
		if s == sizeMargin {
			v.perStrat.Disable()
			v.margin.Enable()
			v.expected.Enable()
		} else {
			v.perStrat.Enable()
			v.margin.Disable()
			v.expected.Disable()
		}
	})
	v.sizeBy.Horizontal = true
	v.sizeBy.SetSelected(sizePerStratum)
	first := b.Stratify == ""
	if first {
		v.stratify.SetSelected(stratifyLabels[sampling.ByTask])
		v.method.SetSelected(string(sampling.Exact))
		v.seed.SetText(strconv.FormatInt(rand.Int64N(1_000_000), 10))
		v.threshold.SetText("0.05")
	} else {
		v.stratify.SetSelected(stratifyLabels[b.Stratify])
		v.method.SetSelected(string(b.Method))
		v.seed.SetText(strconv.FormatInt(b.Seed, 10))
		v.threshold.SetText(strconv.FormatFloat(b.Threshold, 'g', -1, 64))
		for _, w := range []fyne.Disableable{v.stratify, v.method, v.seed, v.threshold} {
			w.Disable()
		}
	}
	title, button := "Draw the validation sample", "Draw"
	if !first {
		title, button = "Enlarge the sample (same seed: every item drawn stays drawn)", "Draw more"
	}
	v.draw = widget.NewButton(button, v.runDraw)
	form := widget.NewForm(
		widget.NewFormItem("Stratify by", v.stratify),
		widget.NewFormItem("Size", v.sizeBy),
		widget.NewFormItem(sizePerStratum, v.perStrat),
		widget.NewFormItem("Margin (± rate)", v.margin),
		widget.NewFormItem("Expected error rate", v.expected),
		widget.NewFormItem("Seed", v.seed),
		widget.NewFormItem("Interval", v.method),
		widget.NewFormItem("Threshold (error rate)", v.threshold),
	)
	return container.NewVBox(heading(title), form, container.NewHBox(v.draw))
}

// drawInput reads the form; the store checks the values (ranges, the fixed policy).
func (v *validationView) drawInput() (bench.DrawInput, error) {
	in := bench.DrawInput{ProjectID: v.u.project.ID, Batch: v.chosen}
	var err error
	if v.sizeBy.Selected == sizeMargin {
		if in.Margin, err = rateField("Margin", v.margin.Text); err != nil {
			return in, err
		}
		if strings.TrimSpace(v.expected.Text) != "" {
			if in.Expected, err = rateField("Expected error rate", v.expected.Text); err != nil {
				return in, err
			}
		}
	} else if in.PerStratum, err = strconv.Atoi(strings.TrimSpace(v.perStrat.Text)); err != nil {
		return in, fmt.Errorf("%s: %q is not a whole number", sizePerStratum, v.perStrat.Text)
	}
	if v.st != nil && v.st.Batch.Stratify != "" {
		return in, nil // the first draw fixed the policy; zero values keep it
	}
	for s, l := range stratifyLabels {
		if l == v.stratify.Selected {
			in.Stratify = s
		}
	}
	in.Method = sampling.Method(v.method.Selected)
	if in.Seed, err = strconv.ParseInt(strings.TrimSpace(v.seed.Text), 10, 64); err != nil {
		return in, fmt.Errorf("Seed: %q is not a whole number", v.seed.Text)
	}
	in.Threshold, err = rateField("Threshold", v.threshold.Text)
	return in, err
}

// rateField reads a rate typed as 0.05 or 5 %.
func rateField(name, text string) (float64, error) {
	t := strings.TrimSpace(text)
	pct := strings.HasSuffix(t, "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a number (0.05 or 5 %%)", name, text)
	}
	if pct {
		x /= 100
	}
	return x, nil
}

// runDraw draws (or enlarges) the sample off the UI goroutine.
func (v *validationView) runDraw() {
	in, err := v.drawInput()
	if err != nil {
		v.message.SetText(err.Error())
		return
	}
	v.draw.Disable()
	v.message.SetText("Drawing…")
	sess, ctx := v.u.sess, v.u.ctx()
	load(v.u, "", func() (bench.ValidationStatus, error) { return sess.DrawValidation(ctx, in) },
		func(st bench.ValidationStatus, err error) {
			defer v.loads.Add(1)
			v.draw.Enable()
			if err != nil {
				v.message.SetText(bench.Message(err))
				return
			}
			d := st.Batch.Draws[len(st.Batch.Draws)-1]
			v.message.SetText(fmt.Sprintf("Draw %d of %s: %s added to round 1; %d of %d sampled.",
				len(st.Batch.Draws), st.Batch.Name, annotate.Plural(d.Added, "item"), st.Overall.Sampled, st.Overall.Items))
			v.loadBatches(st.Batch.Name)
			v.u.refreshStatus()
		})
}

// confirmAccept asks before accepting the rest, with the numbers it rests on.
func (v *validationView) confirmAccept() {
	if v.st == nil {
		return
	}
	st := *v.st
	o := st.Overall
	msg := widget.NewLabel(fmt.Sprintf("%s of batch %s become accepted samples, marked accepted by sampling, on the strength of %d judged items: %d %s, upper bound %.2f %% against the threshold of %g %%.\n\nThe acceptance is audited and recorded in every release that holds these samples.",
		annotate.Plural(o.Unsampled, "unsampled item"), st.Batch.Name, o.N, o.Errors, pluralWord(o.Errors, "error"), 100*o.CI.High, 100*st.Batch.Threshold))
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Accept the rest of "+st.Batch.Name+"?", "Accept the rest", "Cancel",
		container.NewGridWrap(fyne.NewSize(460, 150), msg), func(ok bool) {
			if ok {
				v.runAccept(st.Batch.Name)
			}
		}, v.u.win)
	d.Show()
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// runAccept accepts the rest off the UI goroutine; a refusal is shown with the
// store's numbers.
func (v *validationView) runAccept(batch string) {
	v.accept.Disable()
	v.message.SetText("Accepting the rest…")
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "", func() (bench.AcceptRestResult, error) { return sess.AcceptRest(ctx, pid, batch) },
		func(res bench.AcceptRestResult, err error) {
			defer v.loads.Add(1)
			if err != nil {
				v.message.SetText(bench.Message(err))
				v.verdict.SetText("The rest was not accepted: " + bench.Message(err))
				return
			}
			v.message.SetText(fmt.Sprintf("Batch %s: %s accepted by sampling.", batch, annotate.Plural(len(res.Accepted), "item")))
			v.loadBatches(batch)
			v.u.refreshStatus()
		})
}

// pickFile asks for a generated set (native JSONL) and its batch's name.
func (v *validationView) pickFile() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		v.askName(path)
	}, v.u.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".jsonl", ".json"}))
	d.Show()
}

// askName asks for the batch's name (the file's, as a suggestion) and whose
// samples its items become, then imports.
func (v *validationView) askName(path string) {
	name, author := widget.NewEntry(), widget.NewEntry()
	name.SetText(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	author.SetPlaceHolder(v.u.user.Name + " (you)")
	dialog.ShowForm("Import "+filepath.Base(path)+" as a generated batch", "Import", "Cancel", []*widget.FormItem{
		widget.NewFormItem("Batch name", name),
		widget.NewFormItem("Items become samples of", author),
	}, func(ok bool) {
		if ok {
			v.importFile(path, name.Text, author.Text)
		}
	}, v.u.win)
}

// importFile reads, parses and imports a generated set off the UI goroutine,
// then shows the new batch with the import audit's findings per record.
func (v *validationView) importFile(path, name, author string) {
	v.message.SetText("Importing " + filepath.Base(path) + "…")
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	type imported struct {
		res    bench.ImportBatchResult
		unread []annotate.RecordError
	}
	load(v.u, "", func() (imported, error) {
		var im imported
		f, err := os.Open(path)
		if err != nil {
			return im, err
		}
		defer f.Close()
		var recs []annotate.Imported
		if recs, im.unread, err = annotate.ImportNative(f); err != nil {
			return im, err
		}
		im.res, err = sess.ImportBatch(ctx, bench.ImportBatchInput{ProjectID: pid, Name: name, Source: filepath.Base(path), Author: author, Records: recs})
		return im, err
	}, func(im imported, err error) {
		res, unread := im.res, im.unread
		defer v.loads.Add(1)
		if err != nil {
			v.message.SetText(bench.Message(err))
			return
		}
		v.message.SetText(fmt.Sprintf("Batch %s: %s imported; %s left out by the import audit.",
			res.Batch.Name, annotate.Plural(res.Batch.Items, "item"), annotate.Plural(len(res.Findings)+len(unread), "record")))
		v.chosen = res.Batch.Name
		v.findings = findingRows(res.Findings, unread)
		v.loadBatches(res.Batch.Name)
	})
}

// orDash is s, or "–" when empty.
func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// shortTime is a stored time to the minute.
func shortTime(at string) string {
	if len(at) >= 16 {
		return strings.Replace(at[:16], "T", " ", 1)
	}
	return at
}
