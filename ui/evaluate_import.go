package ui

import (
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// Importing a model's predictions from the Evaluate screen, as bwctl predictions
// import does: a lead names the model and chooses its files (a JSON Lines file of
// raw responses, or VLMEvalKit's result files for the release's vlmevalkit export,
// one per dataset); package score reads them (score.ReadPredictions) and the store
// keeps them (store.ImportPredictions), both off the UI goroutine. What the store
// left out — predictions for samples outside the release, second predictions for
// a sample — and the samples left without one are then said in words above the
// model runs.

// evalImport is the Import predictions dialog on one release.
type evalImport struct {
	v        *evaluateView
	rel      bench.Release
	model    *widget.Entry
	blind    *widget.Check // a blind run: the model answered without the images
	base     *widget.Entry // a blind run's text-only base LLM, for ML (optional)
	form     *widget.Form
	files    []fyne.URI
	fileList *widget.Label
	add      *widget.Button
	clear    *widget.Button
	run      *widget.Button
	cancel   *widget.Button
	message  *widget.Label
	dlg      *dialog.CustomDialog
	running  bool
}

// evalPredLoc is where a prediction was read: a file and the line its record starts on.
type evalPredLoc struct {
	file string
	line int
}

func (l evalPredLoc) String() string { return fmt.Sprintf("%s line %d", l.file, l.line) }

// openImport shows the Import predictions dialog on the chosen release.
func (v *evaluateView) openImport() *evalImport {
	rel, ok := v.selectedRelease()
	if !ok {
		return nil
	}
	imp := &evalImport{v: v, rel: rel}
	imp.model = widget.NewEntry()
	imp.model.SetPlaceHolder("Qwen/Qwen2.5-VL-7B-Instruct")
	imp.model.OnChanged = func(string) { imp.update() }
	imp.blind = widget.NewCheck("Answered without the images (a blind run, for MMStar's MG and ML)", func(bool) { imp.update() })
	imp.base = widget.NewEntry()
	imp.base.SetPlaceHolder("the text-only LLM the model is built on, for ML (optional)")
	imp.fileList = widget.NewLabel("")
	imp.fileList.Wrapping = fyne.TextWrapWord
	imp.add = widget.NewButtonWithIcon("Add file…", theme.FolderOpenIcon(), imp.chooseFile)
	imp.clear = widget.NewButton("Clear", func() {
		imp.files = nil
		imp.update()
	})
	imp.message = widget.NewLabel("")
	imp.message.Wrapping = fyne.TextWrapWord
	imp.run = widget.NewButtonWithIcon("Import", theme.DownloadIcon(), imp.start)
	imp.run.Importance = widget.HighImportance
	imp.cancel = widget.NewButton("Cancel", func() { imp.dlg.Hide() })
	hint := widget.NewLabel("A JSON Lines file with one {\"id\": …, \"response\": \"the model's raw text\"} per line, " +
		"or the VLMEvalKit result files (PRED_FORMAT=tsv) of this release's vlmevalkit export — one per dataset: add each. " +
		"Importing a model's name again replaces its predictions. Hop answers' " + bench.BoxScales + "; the import warns of boxes that look like pixels.")
	hint.Wrapping = fyne.TextWrapWord
	hint.Importance = widget.LowImportance
	imp.form = widget.NewForm(
		widget.NewFormItem("Model", imp.model),
		widget.NewFormItem("Files", container.NewBorder(nil, nil, nil, container.NewHBox(imp.add, imp.clear), imp.fileList)),
		widget.NewFormItem("Run", imp.blind),
		widget.NewFormItem("Base LLM", imp.base),
	)
	imp.dlg = dialog.NewCustomWithoutButtons("Import predictions for "+rel.Ref(), container.NewVBox(imp.form, hint, imp.message), v.u.win)
	imp.dlg.SetButtons([]fyne.CanvasObject{imp.cancel, imp.run})
	imp.dlg.Resize(fyne.NewSize(620, 420))
	imp.update()
	imp.dlg.Show()
	v.imp = imp
	return imp
}

// update shows the chosen files and enables Import once a model and a file are given.
func (imp *evalImport) update() {
	var names []string
	for _, f := range imp.files {
		names = append(names, f.Name())
	}
	if len(names) == 0 {
		imp.fileList.SetText("No file chosen")
	} else {
		imp.fileList.SetText(strings.Join(names, ", "))
	}
	if imp.running || imp.model.Text == "" || len(imp.files) == 0 {
		imp.run.Disable()
	} else {
		imp.run.Enable()
	}
	if imp.running {
		imp.add.Disable()
		imp.clear.Disable()
		imp.model.Disable()
		imp.blind.Disable()
	} else {
		imp.add.Enable()
		imp.clear.Enable()
		imp.model.Enable()
		imp.blind.Enable()
	}
	if base := !imp.running && imp.blind.Checked; base == imp.base.Disabled() { // only a blind run has a base LLM
		if base {
			imp.base.Enable()
		} else {
			imp.base.Disable()
		}
		if imp.form != nil {
			imp.form.Refresh() // the form greys the label of a disabled field when it refreshes
		}
	}
}

// chooseFile asks for a predictions file and adds it.
func (imp *evalImport) chooseFile() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			imp.message.SetText(err.Error())
			return
		}
		if r == nil {
			return // cancelled
		}
		r.Close() // read when importing, off the UI goroutine
		imp.addFile(r.URI())
	}, imp.v.u.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".jsonl", ".json", ".ndjson", ".tsv"}))
	d.Show()
}

// addFile adds a chosen file; a JSON Lines file's name without its ending names
// the model while none is typed (VLMEvalKit's result files are named after the
// model and the dataset: the lead types the model).
func (imp *evalImport) addFile(u fyne.URI) {
	imp.files = append(imp.files, u)
	if ext := strings.ToLower(u.Extension()); imp.model.Text == "" && ext != ".tsv" {
		imp.model.SetText(strings.TrimSuffix(u.Name(), u.Extension()))
	}
	imp.message.SetText("")
	imp.update()
}

// start reads the files and imports them, off the UI goroutine.
func (imp *evalImport) start() {
	if imp.running || imp.model.Text == "" || len(imp.files) == 0 {
		return
	}
	imp.running = true
	imp.update()
	imp.message.SetText("Reading " + imp.fileList.Text + "…")
	v, model, files, rel := imp.v, imp.model.Text, append([]fyne.URI(nil), imp.files...), imp.rel
	run := bench.PredictionRun{Blind: imp.blind.Checked}
	if run.Blind {
		run.Base = strings.TrimSpace(imp.base.Text)
	}
	sess, ctx := v.u.sess, v.u.ctx()
	inBackground(func() { // the tests run it in place: a run's fyne.Do would race their taps
		var preds []score.Prediction
		var locs []evalPredLoc
		var names []string
		for _, f := range files {
			data, err := readPredictionURI(f)
			var ps []score.Prediction
			var lines []int
			if err == nil {
				ps, lines, err = score.ReadPredictions(f.Name(), data, score.PredictionsAuto)
			}
			if err != nil {
				fyne.Do(func() { imp.finish(err.Error() + ". Nothing was imported.") })
				return
			}
			preds = append(preds, ps...)
			for _, l := range lines {
				locs = append(locs, evalPredLoc{f.Name(), l})
			}
			names = append(names, f.Name())
		}
		fyne.Do(func() {
			imp.message.SetText(fmt.Sprintf("Importing %s of %s…", annotate.Plural(len(preds), "prediction"), model))
		})
		res, err := sess.ImportPredictions(ctx, evalRef(rel), model, preds, strings.Join(names, ", "), run)
		fyne.Do(func() {
			if err != nil {
				imp.finish(bench.Message(err))
				return
			}
			imp.finish("")
			imp.dlg.Hide()
			v.showImportReport(evalImportReport(res, strings.Join(names, ", "), preds, locs))
		})
	})
}

// finish ends a run, showing msg in the dialog.
func (imp *evalImport) finish(msg string) {
	imp.running = false
	imp.message.SetText(msg)
	imp.update()
}

// readPredictionURI reads a chosen file whole, stopping just past the most
// score.ReadPredictions takes (it refuses the file then).
func readPredictionURI(u fyne.URI) ([]byte, error) {
	r, err := storage.Reader(u)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened: %w", u.Name(), err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, score.MaxPredictionFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", u.Name(), err)
	}
	return data, nil
}

// showImportReport shows an import's report above the model runs, on the
// Leaderboard tab, and scores the release again with the new model.
func (v *evaluateView) showImportReport(text string) {
	v.importNote.SetText(text)
	v.importNote.Show()
	v.tabs.SelectIndex(0)
	v.reload()
}

// evalImportReport says in words what an import did: how many predictions were
// stored, the run they replaced, and — with the file and line each was read at —
// the predictions left out for samples outside the release or for a sample
// already answered, and the release's samples left without a prediction.
func evalImportReport(res bench.ImportPredictionsResult, source string, preds []score.Prediction, locs []evalPredLoc) string {
	ref := res.Release.Ref()
	where := map[string][]evalPredLoc{} // sample id → where its predictions were read, in input order
	for i, p := range preds {
		where[p.SampleID] = append(where[p.SampleID], locs[i])
	}
	more := func(s bench.SomeIDs) string {
		if n := s.Count - len(s.IDs); n > 0 {
			return fmt.Sprintf(" and %d more", n)
		}
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Imported %s of %s for %s from %s.", annotate.Plural(res.Imported, "prediction"), bench.RunName(res.Model, res.Run.Blind), ref, source)
	if r := res.Replaced; r != nil {
		fmt.Fprintf(&b, " They replace the %s imported by %s at %s from %s.", annotate.Plural(r.Predictions, "prediction"), r.ImportedBy, evalTime(r.ImportedAt), r.Source)
	}
	if u := res.Unknown; u.Count > 0 {
		var ids []string
		for _, id := range u.IDs {
			ids = append(ids, fmt.Sprintf("%s (%s)", id, where[id][0]))
		}
		fmt.Fprintf(&b, "\n%s for samples that are not in %s %s left out: %s%s.", annotate.Plural(u.Count, "prediction"), ref,
			isAre(u.Count, "was", "were"), strings.Join(ids, ", "), more(u))
	}
	if d := res.Duplicate; d.Count > 0 {
		var ids []string
		nth := map[string]int{}
		for _, id := range d.IDs {
			nth[id]++
			if w := where[id]; nth[id] < len(w) {
				ids = append(ids, fmt.Sprintf("%s (%s; the first at %s)", id, w[nth[id]], w[0]))
			}
		}
		fmt.Fprintf(&b, "\n%s for a sample already answered %s left out, the first answer kept: %s%s.", annotate.Plural(d.Count, "prediction"),
			isAre(d.Count, "was", "were"), strings.Join(ids, ", "), more(d))
	}
	if m := res.Missing; m.Count > 0 {
		fmt.Fprintf(&b, "\n%s of %s %s no prediction and %s scored as %s: %s%s.", annotate.Plural(m.Count, "sample"), ref,
			isAre(m.Count, "has", "have"), isAre(m.Count, "is", "are"), isAre(m.Count, "an empty answer", "empty answers"), strings.Join(m.IDs, ", "), more(m))
	}
	if res.PixelBoxes.Count > 0 {
		b.WriteString("\nWarning: " + bench.PixelBoxesWarning(res.PixelBoxes) + ".")
	}
	if res.Unknown.Count+res.Duplicate.Count+res.Missing.Count == 0 {
		fmt.Fprintf(&b, " Every sample of %s has exactly one.", ref)
	}
	return b.String()
}

// isAre picks the verb for a count: one for 1, many otherwise.
func isAre(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// evalImportHint is how the screen's empty states point to the import.
func (u *App) evalImportHint() string {
	if u.may(verify.ActionImportPredictions) {
		return "Import each model's answers with Import predictions… above."
	}
	return "A lead imports each model's answers on this screen (Import predictions…)."
}
