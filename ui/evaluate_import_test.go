package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/ui/boxcanvas"
	"github.com/benchwright/benchwright/verify"
)

// writeFile writes a file under dir and returns its URI.
func writeFile(t *testing.T, dir, name, content string) fyne.URI {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return storage.NewFileURI(p)
}

// runImport taps Import in the dialog and waits for the dialog's run to end
// (and, when it imported, for the scores of the new model).
func runImport(t *testing.T, v *evaluateView, imp *evalImport) {
	t.Helper()
	n := v.loads.Load()
	note := v.importNote.Text
	test.Tap(imp.run)
	waitFor(t, "the import", func() bool { return !imp.running })
	if v.importNote.Text != note {
		waitFor(t, "the scores of the imported model", func() bool { return v.loads.Load() > n })
	}
}

func evalLabels(o fyne.CanvasObject) []string {
	var out []string
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok && l.Visible() {
			out = append(out, l.Text)
		}
	}
	return out
}

func TestEvaluateImportPredictions(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	dir := t.TempDir()
	if v.importBtn == nil {
		t.Fatal("a lead has no Import predictions button")
	}
	test.Tap(v.importBtn)
	imp := v.imp
	if imp == nil || imp.rel.Ref() != "bench@1.0" || !imp.run.Disabled() {
		t.Fatalf("the dialog: %+v", imp)
	}
	// Add file… asks for a file.
	overlays := len(u.win.Canvas().Overlays().List())
	test.Tap(imp.add)
	if len(u.win.Canvas().Overlays().List()) != overlays+1 {
		t.Fatal("Add file… opens no file dialog")
	}
	u.win.Canvas().Overlays().Remove(u.win.Canvas().Overlays().Top())

	// A file that cannot be read is named with its line, and nothing is imported.
	imp.addFile(writeFile(t, dir, "broken.jsonl", `{"id": "demo-yn-001", "response": "Yes"}`+"\n[1]\n"))
	if imp.model.Text != "broken" || imp.run.Disabled() {
		t.Errorf("after adding broken.jsonl: model %q, Import disabled %v", imp.model.Text, imp.run.Disabled())
	}
	runImport(t, v, imp)
	if imp.message.Text != "broken.jsonl:2: not a JSON object. Nothing was imported." || len(v.runs) != 3 {
		t.Errorf("a broken file: %q, %d models", imp.message.Text, len(v.runs))
	}
	// The store's refusal is shown in words; the dialog stays open.
	test.Tap(imp.clear)
	if !imp.run.Disabled() || imp.fileList.Text != "No file chosen" {
		t.Errorf("after Clear: %q", imp.fileList.Text)
	}
	imp.addFile(writeFile(t, dir, "nothing.jsonl", `{"id": "x-1", "response": "A"}`))
	imp.model.SetText("nothing ")
	runImport(t, v, imp)
	if !strings.Contains(imp.message.Text, `Import predictions of nothing  for bench@1.0: the model name "nothing " starts or ends with a space.`) {
		t.Errorf("a name with a space: %q", imp.message.Text)
	}
	imp.model.SetText("nothing")
	runImport(t, v, imp)
	if !strings.Contains(imp.message.Text, `none of the 1 predictions is for a sample of bench@1.0 (sample ids such as "x-1")`) {
		t.Errorf("no prediction for the release: %q", imp.message.Text)
	}

	// A file with a sample outside the release, a second answer and missing samples:
	// imported, and each said with its line.
	test.Tap(imp.clear)
	imp.model.SetText("")
	imp.addFile(writeFile(t, dir, "sloppy.jsonl", strings.Join([]string{
		`{"id": "demo-yn-001", "response": "Yes."}`,
		`{"id": "demo-mc-001", "response": "A"}`,
		`{"id": "demo-zz-404", "response": "B"}`,
		`{"id": "demo-yn-001", "response": "No."}`,
	}, "\n")))
	if imp.model.Text != "sloppy" {
		t.Errorf("model %q", imp.model.Text)
	}
	runImport(t, v, imp)
	if u.win.Canvas().Overlays().Top() != nil || imp.message.Text != "" {
		t.Errorf("the dialog stays after an import: %q", imp.message.Text)
	}
	want := "Imported 2 predictions of sloppy for bench@1.0 from sloppy.jsonl.\n" +
		"1 prediction for samples that are not in bench@1.0 was left out: demo-zz-404 (sloppy.jsonl line 3).\n" +
		"1 prediction for a sample already answered was left out, the first answer kept: demo-yn-001 (sloppy.jsonl line 4; the first at sloppy.jsonl line 1).\n" +
		"4 samples of bench@1.0 have no prediction and are scored as empty answers: demo-hq-001, demo-hq-002, demo-op-002, demo-sg-001."
	if v.importNote.Text != want || !v.importNote.Visible() {
		t.Errorf("the report:\n%s\nwant\n%s", v.importNote.Text, want)
	}
	if i := slices.IndexFunc(v.runsRows, func(r []string) bool { return r[0] == "sloppy" }); i < 0 ||
		!slices.Equal(v.runsRows[i][:4], []string{"sloppy", "2", "4", "sloppy.jsonl"}) || len(v.boardRows) != 4 {
		t.Errorf("model runs %q, %d leaderboard rows", v.runsRows, len(v.boardRows))
	}
	if v.tabs.SelectedIndex() != 0 {
		t.Error("the report is not on the tab shown")
	}

	// VLMEvalKit's result files, one per dataset, in one import that replaces sloppy's.
	test.Tap(v.importBtn)
	imp = v.imp
	mcq := writeFile(t, dir, "sloppy_bench_MCQ.tsv", "index\tquestion\tid\tprediction\n0\tWhich?\tdemo-mc-001\t\"The answer\tis A\"\n")
	yn := writeFile(t, dir, "sloppy_bench_YN.tsv", "index\tquestion\tid\tprediction\n0\tIs it?\tdemo-yn-001\tYes\n")
	imp.addFile(mcq)
	imp.addFile(yn)
	if imp.model.Text != "" || !imp.run.Disabled() || imp.fileList.Text != "sloppy_bench_MCQ.tsv, sloppy_bench_YN.tsv" {
		t.Errorf("TSVs chosen: model %q, files %q", imp.model.Text, imp.fileList.Text)
	}
	test.Type(imp.model, "sloppy")
	runImport(t, v, imp)
	if got := v.importNote.Text; !strings.HasPrefix(got, "Imported 2 predictions of sloppy for bench@1.0 from sloppy_bench_MCQ.tsv, sloppy_bench_YN.tsv. "+
		"They replace the 2 predictions imported by lead at 2026-04-01 09:30 from sloppy.jsonl.\n4 samples") {
		t.Errorf("the report of a replacing import: %q", got)
	}
	preds, err := u.db.As(u.user).Predictions(context.Background(), "bench@1.0", "sloppy")
	if err != nil || len(preds) != 2 || preds[0].Response != "The answer\tis A" && preds[1].Response != "The answer\tis A" {
		t.Errorf("stored: %+v %v", preds, err)
	}

	// Every sample answered once: said so.
	var b strings.Builder
	for _, p := range evalPredictions["perfect"] {
		b.WriteString(`{"id": "` + p.SampleID + `", "response": "A"}` + "\n")
	}
	test.Tap(v.importBtn)
	v.imp.addFile(writeFile(t, dir, "allA.jsonl", b.String()))
	runImport(t, v, v.imp)
	if got := v.importNote.Text; got != "Imported 6 predictions of allA for bench@1.0 from allA.jsonl. Every sample of bench@1.0 has exactly one." {
		t.Errorf("a complete import: %q", got)
	}
}

// The screen points to the Import predictions button where no model has answers;
// a verifier has none, and is told a lead imports them.
func TestEvaluateEmptyStatePointsToImport(t *testing.T) {
	for _, tc := range []struct{ who, want string }{
		{"lead", "No model has answers on bench@2.0 yet. Import each model's answers with Import predictions… above."},
		{"ver1", "No model has answers on bench@2.0 yet. A lead imports each model's answers on this screen (Import predictions…)."},
	} {
		t.Run(tc.who, func(t *testing.T) {
			u, v := openEvaluate(t, tc.who, fyne.NewSize(1024, 700))
			if (v.importBtn != nil) != (tc.who == "lead") {
				t.Errorf("%s has an Import predictions button: %v", tc.who, v.importBtn != nil)
			}
			lead, err := u.db.As(bench.Owner()).UserByName(context.Background(), "lead")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := u.db.As(lead).Freeze(context.Background(), bench.FreezeInput{ProjectID: u.project.ID, Name: "bench", Version: "2.0"}); err != nil {
				t.Fatal(err)
			}
			n := v.loads.Load()
			test.Tap(v.refresh)
			waitFor(t, "the refresh", func() bool { return v.loads.Load() > n })
			n = v.loads.Load()
			v.release.SetSelected("bench@2.0")
			waitFor(t, "bench@2.0", func() bool { return v.loads.Load() > n })
			if got := evalLabels(v.boardBox); !slices.Contains(got, tc.want) {
				t.Errorf("the leaderboard says %q", got)
			}
		})
	}
	// Without a release.
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "lead", demo.DemoPassword)
	u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Evaluate" }))
	v := u.content.Objects[0].(*evaluateView)
	if got := strings.Join(evalLabels(v.root), "\n"); !strings.Contains(got, "imports each model's answers to it here, with Import predictions…") ||
		strings.Contains(got, "bwctl") {
		t.Errorf("without a release: %q", got)
	}
}

// stepRelease takes demo-sg-002 to acceptance, freezes bench@1.1 (bench@1.0 and
// it) and imports two models: stepper answers demo-sg-001 right and demo-sg-002
// with one right step and one wrong, blank nothing readable.
func stepRelease(t *testing.T, db bench.Service, lead bench.User, projectID int64) {
	t.Helper()
	ctx := context.Background()
	si, err := db.As(bench.Owner()).Sample(ctx, "demo-sg-002")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		round int
		who   []string
	}{{1, []string{"ver1"}}, {2, []string{"ver3"}}, {3, []string{"ver5", "ver2", "ver4"}}} {
		for _, w := range step.who {
			u, err := db.As(bench.Owner()).UserByName(ctx, w)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.As(u).SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: step.round, BasedOn: si.Revision, Seconds: 30,
				Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(annotate.KindStepGraph, step.round)}}); err != nil {
				t.Fatalf("round %d by %s: %v", step.round, w, err)
			}
		}
	}
	if rel, err := db.As(lead).Freeze(ctx, bench.FreezeInput{ProjectID: projectID, Name: "bench", Version: "1.1"}); err != nil || rel.Samples != 7 {
		t.Fatalf("freeze: %+v %v", rel, err)
	}
	stepper := []score.Prediction{
		{SampleID: "demo-sg-001", Response: evalPredictions["perfect"][4].Response},
		{SampleID: "demo-sg-002", Response: `<ans>{"step1": {"content": "Move the phone away from the keyboard", "precondition": []}, ` +
			`"step2": {"content": "Open the drawer", "precondition": []}}</ans>`},
	}
	blank := []score.Prediction{{SampleID: "demo-sg-001", Response: "I cannot tell."}, {SampleID: "demo-sg-002", Response: "No idea."}}
	for m, ps := range map[string][]score.Prediction{"stepper": stepper, "blank": blank} {
		if _, err := db.As(lead).ImportPredictions(ctx, "bench@1.1", m, ps, m+".jsonl", bench.PredictionRun{}); err != nil {
			t.Fatal(err)
		}
	}
}

// The step options score the step graphs again: micro pools the counts (stepper
// TP 3, FP 1, FN 2: F1 2·0.75·0.6/1.35 = 66.7), macro averages the samples'
// F1 (1 and 2·0.5·⅓/(0.5+⅓) = 0.4: 70.0); leaving out unread answers leaves
// blank no sample to divide by.
func TestEvaluateStepOptions(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	stepRelease(t, u.db, u.user, u.project.ID)
	n := v.loads.Load()
	test.Tap(v.refresh)
	waitFor(t, "the refresh", func() bool { return v.loads.Load() > n })
	choose := func(s *widget.Select, opt string) {
		t.Helper()
		n := v.loads.Load()
		s.SetSelected(opt)
		waitFor(t, "the scores with "+opt, func() bool { return v.loads.Load() > n })
	}
	choose(v.release, "bench@1.1")
	cell := func(model, fig string) string {
		t.Helper()
		i := slices.Index(v.cols, fig)
		for _, r := range v.boardRows {
			if r[1] == model && i >= 0 {
				return r[i+2]
			}
		}
		t.Fatalf("no %s of %s in %q (columns %q)", fig, model, v.boardRows, v.cols)
		return ""
	}
	if v.stepMode.Selected != "micro" || v.stepSkip.Selected != "count as all missed" {
		t.Errorf("the defaults: %q, %q", v.stepMode.Selected, v.stepSkip.Selected)
	}
	if got := cell("stepper", "content_f1"); !strings.HasPrefix(got, "66.7 [") {
		t.Errorf("micro content_f1 %q", got)
	}
	if got := cell("blank", "content_f1"); !strings.HasPrefix(got, "0.0 [") {
		t.Errorf("blank's content_f1 counting unread answers %q", got)
	}
	if !strings.Contains(v.boardNote.Text, "Step graphs micro (counts pooled over the samples), answers not read: count as all missed.") {
		t.Errorf("note %q", v.boardNote.Text)
	}
	choose(v.stepMode, "macro")
	if got := cell("stepper", "content_f1"); !strings.HasPrefix(got, "70.0 [") {
		t.Errorf("macro content_f1 %q", got)
	}
	if !strings.Contains(v.boardNote.Text, "Step graphs macro (figures per sample, averaged)") {
		t.Errorf("note %q", v.boardNote.Text)
	}
	choose(v.stepSkip, "leave out")
	if got := cell("blank", "content_f1"); got != "–" { // no sample left: no figure
		t.Errorf("blank's content_f1 leaving out unread answers %q", got)
	}
	if got := cell("stepper", "content_f1"); !strings.HasPrefix(got, "70.0 [") {
		t.Errorf("stepper's content_f1 leaving out unread answers %q", got)
	}
	if !strings.Contains(v.boardNote.Text, "answers not read: leave out.") {
		t.Errorf("note %q", v.boardNote.Text)
	}
	// The options stay when another release is chosen.
	choose(v.release, "bench@1.0")
	if r := v.reports[0]; r.StepMode != score.StepMacro || r.StepSkip != score.SkipUnparsed {
		t.Errorf("bench@1.0 scored with %q, %q", r.StepMode, r.StepSkip)
	}
}

// The comparison draws the gold box and each model's in its own colour — a
// model's that of its bars on the charts — labelled, with a legend.
func TestEvaluateComparisonColours(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	// A fourth model whose box lies apart from the gold one.
	if _, err := u.db.As(u.user).ImportPredictions(context.Background(), "bench@1.0", "shifted", []score.Prediction{
		{SampleID: "demo-hq-002", Response: "Answer: (a) the plant\nBounding Box: [0.30, 0.40, 0.45, 0.60]"}}, "shifted.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	n := v.loads.Load()
	test.Tap(v.refresh)
	waitFor(t, "the refresh", func() bool { return v.loads.Load() > n })
	c := showSample(t, v, "demo-hq-002")
	models := []string{}
	for _, r := range v.reports {
		models = append(models, r.Model)
	}
	if !slices.Equal(models, []string{"half", "perfect", "shifted", "unparseable"}) {
		t.Fatalf("reports of %q", models)
	}
	want := []boxcanvas.Style{{Color: evalGoldColor, Label: "gold"}, {Color: ChartPalette(0), Label: "half"}, {Color: ChartPalette(1), Label: "perfect"},
		{Color: ChartPalette(2), Label: "shifted"}}
	if got := c.canvas.Styles(); !slices.Equal(got, want) {
		t.Errorf("styles %+v, want %+v", got, want)
	}
	var legend []string
	for _, item := range c.legend {
		legend = append(legend, evalLabels(item)...)
	}
	if !slices.Equal(legend, []string{"gold", "half", "perfect", "shifted", "unparseable (no box)"}) {
		t.Errorf("legend %q", legend)
	}
	assertGolden(t, "evaluate_compare_1280.png", u.win)
	// Choosing a row picks out its box (drawn thicker) and keeps the colours.
	c.table.Select(widget.TableCellID{Row: 2, Col: 0})
	if c.canvas.Selected() != 2 || !slices.Equal(c.canvas.Styles(), want) {
		t.Errorf("perfect chosen: box %d, styles %+v", c.canvas.Selected(), c.canvas.Styles())
	}
	// A sample without boxes has no legend.
	if c = showSample(t, v, "demo-yn-001"); len(c.legend) != 0 {
		t.Errorf("a judgment's legend: %d items", len(c.legend))
	}
}

// Boxes in pixels are imported as the toolkits read them, and the import says so;
// the dialog says how boxes are read (issue 27 item 16).
func TestEvaluateImportWarnsOfPixelBoxes(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	test.Tap(v.importBtn)
	imp := v.imp
	if labels := strings.Join(evalLabels(u.win.Canvas().Overlays().Top()), "\n"); !strings.Contains(labels, bench.BoxScales) {
		t.Errorf("the dialog does not say how boxes are read: %q", labels)
	}
	// demo-hq-002's gold box in pixels of its 960×640 image.
	imp.addFile(writeFile(t, t.TempDir(), "pixels.jsonl", `{"id": "demo-hq-002", "response": "Answer: (A) Bounding Box: [160, 280, 230, 360]"}`+"\n"))
	runImport(t, v, imp)
	if got := v.importNote.Text; !strings.Contains(got, "Warning: 1 box looks like pixel coordinates (demo-hq-002); boxes are read as 0–1, or as 0–1000") {
		t.Errorf("the import's note: %q", got)
	}
}
