package store_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

// scoreRelease freezes "bench@1": five accepted samples, one of each kind, on the
// fixture's 64×48 images. By sample id: hq-1 (hop_qa, answer B, box [10,10,40,30]
// on 0001-office-1/a.jpg), mc-1 (mcq, answer B), op-1 (open, "2"), sg-1 (a step
// graph of two steps and one precondition), yn-1 (judgment, "no").
func scoreRelease(t *testing.T) relFixture {
	t.Helper()
	f := newRelFixture(t)
	f.setBalance(t)
	f.accept(t, relHop("hq-1", "0001-office-1/a.jpg", "Which object is closest to the camera?"))
	f.accept(t, annotate.Sample{ID: "mc-1", Kind: annotate.KindMCQ, Image: "0001-office-1/b.jpg",
		Question: "Where is the mug relative to the lamp?", Options: []string{"left", "right", "behind"}, AnswerIndex: 1})
	f.accept(t, annotate.Sample{ID: "op-1", Kind: annotate.KindOpen, Image: "0002-kitchen-1/c.jpg",
		Question: "How many mugs stand on the counter?", AnswerText: "2"})
	f.accept(t, annotate.Sample{ID: "sg-1", Kind: annotate.KindStepGraph, Image: "0001-office-1/a.jpg", Scene: "0001-office-1",
		Question: "Pick up the laptop", Steps: []annotate.Step{
			{ID: "step1", Content: "Remove the book from the laptop", Precondition: []string{}},
			{ID: "step2", Content: "Pick up the laptop", Precondition: []string{"step1"}}}})
	f.accept(t, annotate.Sample{ID: "yn-1", Kind: annotate.KindJudgment, Image: "0002-kitchen-1/d.jpg",
		Question: "Is the mug left of the lamp?", AnswerText: "no"})
	if _, err := f.db.Freeze(context.Background(), f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "bench", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// perfectPredictions answer every sample of scoreRelease right. The box is the
// gold box on the 0–1 scale: [10/64, 10/48, 40/64, 30/48].
func perfectPredictions() []score.Prediction {
	return []score.Prediction{
		{SampleID: "hq-1", Response: "Answer: (b) the lamp\nBounding Box: [0.15625, 0.20833333333333334, 0.625, 0.625]"},
		{SampleID: "mc-1", Response: "B"},
		{SampleID: "op-1", Response: "<answer>2</answer>"},
		{SampleID: "sg-1", Response: `<ans>{"step1": {"content": "Remove the book from the laptop", "precondition": []}, ` +
			`"step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}</ans>`},
		{SampleID: "yn-1", Response: "No."},
	}
}

// checkFigures compares a report's overall figures with want: name → {value, n}.
// Every figure present must be wanted and every wanted one present.
func checkFigures(t *testing.T, rep *score.Report, want map[string][2]float64) {
	t.Helper()
	for _, name := range score.MetricNames {
		m := rep.Overall.Metric(name)
		w, ok := want[name]
		switch {
		case m == nil && ok:
			t.Errorf("%s: no %s figure, want %v", rep.Model, name, w)
		case m != nil && !ok:
			t.Errorf("%s: unexpected %s figure %+v", rep.Model, name, *m)
		case m != nil && (math.Abs(m.Value-w[0]) > 1e-9 || float64(m.N) != w[1]):
			t.Errorf("%s: %s = %v (n %d), want %v (n %v)", rep.Model, name, m.Value, m.N, w[0], w[1])
		}
	}
}

func TestImportPredictionsAndScorePerfect(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	res, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "oracle", perfectPredictions(), "oracle.jsonl", bench.PredictionRun{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 5 || res.Replaced != nil || res.Unknown.Count+res.Duplicate.Count+res.Missing.Count != 0 ||
		res.Release.Ref() != "bench@1" || res.Model != "oracle" {
		t.Errorf("result %+v", res)
	}
	reports, err := f.db.Score(ctx, f.ver, "bench@1", nil, score.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 1 || reports[0].Model != "oracle" || reports[0].N != 5 {
		t.Fatalf("reports %+v", reports)
	}
	// By hand: every sample right. The 2 option questions are hq-1 and mc-1; the
	// only hop question hq-1 has IoU 1; one judgment, one open answer (a number:
	// MRA 1), one step graph with 2 steps and 1 precondition all found.
	checkFigures(t, reports[0], map[string][2]float64{
		"parsed": {100, 5}, "mcq_acc": {100, 2}, "mcq_acc_parsed_denominator": {100, 2}, "acc50iou": {100, 1},
		"acc50iou_parsed_denominator": {100, 1}, "mean_iou": {100, 1}, "judgment_acc": {100, 1}, "strict_acc": {100, 1},
		"relaxed_acc": {100, 1}, "mra": {100, 1}, "content_p": {100, 1}, "content_r": {100, 1}, "content_f1": {100, 1},
		"precond_p": {100, 1}, "precond_r": {100, 1}, "precond_f1": {100, 1},
	})
	// Every sample answered right: every resample scores 100 on the figures that
	// divide by all samples. (The others' resamples may hold no sample of their
	// kind, which package score counts as 0, so their intervals reach down.)
	for _, name := range score.MetricNames {
		m := reports[0].Overall.Metric(name)
		if m == nil && name == "lrr_score" { // the release's judgment has no task: no lrr_score
			continue
		}
		if m.CI == nil || m.CI[1] != 100 || name == "parsed" && m.CI[0] != 100 {
			t.Errorf("%s interval %v, want [100 100] (parsed) or [x 100]", name, m.CI)
		}
	}
	if n := auditCount(t, f.db.Path(), "predictions.import"); n != 1 {
		t.Errorf("import audited %d times", n)
	}
}

func TestImportPredictionsReportsUnknownDuplicateMissing(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	raw := "  Answer: (b)\r\n\tthe lamp — ランプ  " // kept byte for byte
	preds := []score.Prediction{
		{SampleID: "hq-1", Response: raw},
		{SampleID: "ghost-1", Response: "A"},
		{SampleID: "hq-1", Response: "Answer: (a)"},
		{SampleID: "yn-1", Response: "no"},
	}
	for i := 2; i <= 7; i++ {
		preds = append(preds, score.Prediction{SampleID: "ghost-" + string(rune('0'+i)), Response: "A"})
	}
	preds = append(preds, score.Prediction{SampleID: "yn-1", Response: "yes"}, score.Prediction{SampleID: "yn-1", Response: "yes"})
	res, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "sloppy", preds, "sloppy.jsonl", bench.PredictionRun{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 2 {
		t.Errorf("imported %d, want 2", res.Imported)
	}
	want := []struct {
		name string
		got  bench.SomeIDs
		n    int
		ids  []string
	}{
		{"unknown", res.Unknown, 7, []string{"ghost-1", "ghost-2", "ghost-3", "ghost-4", "ghost-5"}},
		{"duplicate", res.Duplicate, 3, []string{"hq-1", "yn-1", "yn-1"}},
		{"missing", res.Missing, 3, []string{"mc-1", "op-1", "sg-1"}},
	}
	for _, w := range want {
		if w.got.Count != w.n || !slices.Equal(w.got.IDs, w.ids) {
			t.Errorf("%s: %+v, want %d: %v", w.name, w.got, w.n, w.ids)
		}
	}
	got, err := f.db.Predictions(ctx, f.lead, "bench@1", "sloppy")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].SampleID != "hq-1" || got[0].Response != raw || got[1].SampleID != "yn-1" || got[1].Response != "no" {
		t.Errorf("stored %+v; want the first prediction of each sample, text unchanged", got)
	}
	runs, err := f.db.Models(ctx, f.ver, "bench@1")
	if err != nil || len(runs) != 1 || runs[0].Model != "sloppy" || runs[0].Predictions != 2 || runs[0].Missing != 3 ||
		runs[0].Source != "sloppy.jsonl" || runs[0].ImportedBy != "lead" || runs[0].Release != "bench@1" {
		t.Errorf("models %+v %v", runs, err)
	}

	// Missing samples are scored as empty responses. By hand: of the 5 samples
	// only hq-1 (letter B read, no box) and yn-1 (no) are answered, both right.
	reports, err := f.db.Score(ctx, f.lead, "bench@1", []string{"sloppy"}, score.Options{Draws: -1})
	if err != nil {
		t.Fatal(err)
	}
	checkFigures(t, reports[0], map[string][2]float64{
		"parsed": {40, 5}, "mcq_acc": {50, 2}, "mcq_acc_parsed_denominator": {100, 1}, "acc50iou": {0, 1},
		"acc50iou_parsed_denominator": {0, 1}, "mean_iou": {0, 0}, "judgment_acc": {100, 1}, "strict_acc": {0, 1},
		"relaxed_acc": {0, 1}, "mra": {0, 1}, "content_p": {0, 1}, "content_r": {0, 1}, "content_f1": {0, 1},
		"precond_p": {0, 1}, "precond_r": {0, 1}, "precond_f1": {0, 1},
	})
	// The other denominator divides mcq_acc by the 1 sample whose letter was read.
	reports, err = f.db.Score(ctx, f.lead, "bench@1", []string{"sloppy"}, score.Options{Draws: -1, Denominator: score.DenomParsed})
	if err != nil {
		t.Fatal(err)
	}
	if m := reports[0].Overall.MCQAcc; m.Value != 100 || m.N != 1 {
		t.Errorf("mcq_acc over the parsed samples: %+v", *m)
	}

	// Nothing for the release: refused, nothing written.
	_, err = f.db.ImportPredictions(ctx, f.lead, "bench@1", "lost", []score.Prediction{{SampleID: "x-1"}, {SampleID: "x-2"}}, "lost.jsonl", bench.PredictionRun{})
	if !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), `none of the 2 predictions is for a sample of bench@1 (sample ids such as "x-1", "x-2")`) {
		t.Errorf("an import for another release: %v", err)
	}
	if runs, _ := f.db.Models(ctx, f.lead, "bench@1"); len(runs) != 1 {
		t.Errorf("models after the refusal: %+v", runs)
	}
}

func TestImportPredictionsReplaces(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "m", perfectPredictions(), "run1.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	second := []score.Prediction{{SampleID: "mc-1", Response: "A"}, {SampleID: "yn-1", Response: "Yes"}}
	res, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "m", second, "run2.jsonl", bench.PredictionRun{})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Replaced; r == nil || r.Predictions != 5 || r.Source != "run1.jsonl" || r.ImportedBy != "lead" || r.Model != "m" {
		t.Errorf("replaced %+v", r)
	}
	if res.Imported != 2 || res.Missing.Count != 3 {
		t.Errorf("result %+v", res)
	}
	got, err := f.db.Predictions(ctx, f.lead, "bench@1", "m")
	if err != nil || len(got) != 2 || got[0].Response != "A" || got[1].Response != "Yes" {
		t.Errorf("after the replacement: %+v %v", got, err)
	}
	reports, err := f.db.Score(ctx, f.lead, "bench@1", []string{"m"}, score.Options{Draws: -1})
	if err != nil {
		t.Fatal(err)
	}
	if o := reports[0].Overall; o.MCQAcc.Value != 0 || o.JudgmentAcc.Value != 0 || o.StrictAcc.Value != 0 {
		t.Errorf("the replaced predictions still count: %+v", o)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["predictions.import"] != 1 || counts["predictions.replace"] != 1 {
		t.Errorf("audit counts %v", counts)
	}
}

func TestPredictionsPermissions(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	preds := perfectPredictions()
	for _, u := range []bench.User{f.ann, f.ver} {
		_, err := f.db.ImportPredictions(ctx, u, "bench@1", "m", preds, "m.jsonl", bench.PredictionRun{})
		if !errors.Is(err, bench.ErrForbidden) || !strings.Contains(err.Error(), "only leads may import model predictions") {
			t.Errorf("%s imports: %v", u.Name, err)
		}
	}
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "m", preds, "m.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Score(ctx, f.ann, "bench@1", nil, score.Options{}); !errors.Is(err, bench.ErrForbidden) ||
		!strings.Contains(err.Error(), "ann is an annotator, and only verifiers or leads may see model scores") {
		t.Errorf("an annotator scores: %v", err)
	}
	if _, err := f.db.Models(ctx, f.ann, "bench@1"); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator lists models: %v", err)
	}
	for _, u := range []bench.User{f.ann, f.ver} {
		if _, err := f.db.Predictions(ctx, u, "bench@1", "m"); !errors.Is(err, bench.ErrForbidden) ||
			!strings.Contains(err.Error(), "only leads may read model predictions") {
			t.Errorf("%s reads predictions: %v", u.Name, err)
		}
	}
	if _, err := f.db.Score(ctx, f.ver, "bench@1", []string{"m"}, score.Options{Draws: -1}); err != nil {
		t.Errorf("a verifier scores: %v", err)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["denied:predictions.import"] != 2 || counts["denied:scores.read"] != 2 || counts["denied:predictions.read"] != 2 ||
		counts["predictions.import"] != 1 {
		t.Errorf("audit counts %v", counts)
	}
}

func TestPredictionsRefusals(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "m", perfectPredictions(), "m.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	badMatch := perfectPredictions()
	badMatch[3].StepMatch = [][]int{{1, 0}, {0, 2}}
	shortMatch := perfectPredictions()
	shortMatch[3].StepMatch = [][]int{{1}}
	notUTF8 := perfectPredictions()
	notUTF8[1].Response = "B\xff"
	imports := []struct {
		name, release, model string
		preds                []score.Prediction
		want                 error
		text                 string
	}{
		{"unknown release", "bench@2", "x", perfectPredictions(), bench.ErrNotFound, "bench@2"},
		{"release without version", "bench", "x", perfectPredictions(), bench.ErrInvalid, "NAME@VERSION"},
		{"empty model", "bench@1", "", perfectPredictions(), bench.ErrInvalid, "model name is empty"},
		{"model with a space at its end", "bench@1", "gpt ", perfectPredictions(), bench.ErrInvalid, "starts or ends with a space"},
		{"model with a newline", "bench@1", "a\nb", perfectPredictions(), bench.ErrInvalid, "control character"},
		{"model name too long", "bench@1", strings.Repeat("m", 129), perfectPredictions(), bench.ErrInvalid, "longer than 128"},
		{"no predictions", "bench@1", "x", nil, bench.ErrInvalid, "no predictions"},
		{"step match cell 2", "bench@1", "x", badMatch, bench.ErrInvalid, "sample sg-1: step match matrix entry (1, 1) is 2"},
		{"step match of another shape", "bench@1", "x", shortMatch, bench.ErrInvalid, "sg-1"},
		{"response not UTF-8", "bench@1", "x", notUTF8, bench.ErrInvalid, "the response to mc-1 is not UTF-8"},
	}
	for _, tt := range imports {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.db.ImportPredictions(ctx, f.lead, tt.release, tt.model, tt.preds, "x.jsonl", bench.PredictionRun{})
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("got %v, want %v naming %q", err, tt.want, tt.text)
			}
		})
	}
	if runs, _ := f.db.Models(ctx, f.lead, "bench@1"); len(runs) != 1 || runs[0].Model != "m" {
		t.Errorf("models after the refusals: %+v", runs)
	}
	scores := []struct {
		name   string
		models []string
		opt    score.Options
		want   error
		text   string
	}{
		{"unknown model", []string{"m", "nobody"}, score.Options{}, bench.ErrNotFound, "model nobody"},
		{"model twice", []string{"m", "m"}, score.Options{}, bench.ErrInvalid, "model m is named twice"},
		{"bad denominator", []string{"m"}, score.Options{Denominator: "half"}, bench.ErrInvalid, `unknown denominator "half"`},
	}
	for _, tt := range scores {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.db.Score(ctx, f.lead, "bench@1", tt.models, tt.opt)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("got %v, want %v naming %q", err, tt.want, tt.text)
			}
		})
	}
	if _, err := f.db.Predictions(ctx, f.lead, "bench@1", "nobody"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("predictions of an unknown model: %v", err)
	}
	// A release nobody ran a model on.
	if _, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "bench", Version: "2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Score(ctx, f.lead, "bench@2", nil, score.Options{}); !errors.Is(err, bench.ErrNotFound) ||
		!strings.Contains(err.Error(), "no model has predictions on bench@2") {
		t.Errorf("scoring a release without models: %v", err)
	}
	if runs, err := f.db.Models(ctx, f.lead, "bench@2"); err != nil || len(runs) != 0 {
		t.Errorf("models of bench@2: %+v %v", runs, err)
	}
}

// A model that answers boxes in pixels is imported and scored as the toolkits read
// it (0–1000: an IoU near 0), and the import says so (issue 27 item 16).
func TestImportPredictionsWarnsOfPixelBoxes(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	for _, tc := range []struct {
		name string
		box  string
		n    int
	}{
		{"pixels", "[10, 10, 40, 30]", 1},
		{"the 0-1 scale", "[0.15625, 0.20833333333333334, 0.625, 0.625]", 0},
		{"the 0-1000 scale", "[156, 208, 625, 625]", 0},
	} {
		preds := perfectPredictions()
		preds[0].Response = "Answer: (b) the lamp\nBounding Box: " + tc.box
		res, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "m-"+tc.name, preds, "p.jsonl", bench.PredictionRun{})
		if err != nil {
			t.Fatal(err)
		}
		if res.PixelBoxes.Count != tc.n || tc.n == 1 && !slices.Equal(res.PixelBoxes.IDs, []string{"hq-1"}) {
			t.Errorf("%s: pixel boxes %+v, want %d", tc.name, res.PixelBoxes, tc.n)
		}
		if tc.n == 1 && !strings.Contains(bench.PixelBoxesWarning(res.PixelBoxes), "1 box looks like pixel coordinates (hq-1); boxes are read as 0–1, or as 0–1000") {
			t.Errorf("warning %q", bench.PixelBoxesWarning(res.PixelBoxes))
		}
	}
}
