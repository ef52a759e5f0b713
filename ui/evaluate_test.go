package ui

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// evalPredictions are three models' answers to bench@1.0 (evalRelease), as in
// cmd/bwctl/testdata/score: perfect answers everything right (the boxes are the
// gold boxes on the 0–1 scale), half gets demo-hq-002's letter, the open number,
// the second step and the judgment wrong, and unparseable answers nothing readable.
var evalPredictions = map[string][]score.Prediction{
	"perfect": {
		{SampleID: "demo-hq-001", Response: "Answer: (a) the lamp\nBounding Box: [0.7291666666666666, 0.34375, 0.7916666666666666, 0.5625]"},
		{SampleID: "demo-hq-002", Response: "Answer: (a) the plant\nBounding Box: [0.16666666666666666, 0.4375, 0.23958333333333334, 0.5625]"},
		{SampleID: "demo-mc-001", Response: "A"},
		{SampleID: "demo-op-002", Response: "<think>four things</think><answer>4</answer>"},
		{SampleID: "demo-sg-001", Response: `<ans>{"step1": {"content": "Remove the book from the top of the laptop", "precondition": []}, "step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}</ans>`},
		{SampleID: "demo-yn-001", Response: "Yes."},
	},
	"half": {
		{SampleID: "demo-hq-001", Response: "Answer: (a) the lamp\nBounding Box: [0.7291666666666666, 0.34375, 0.7916666666666666, 0.5625]"},
		{SampleID: "demo-hq-002", Response: "Answer: (b) the mug\nBounding Box: [0.16666666666666666, 0.4375, 0.23958333333333334, 0.5625]"},
		{SampleID: "demo-mc-001", Response: "The answer is A."},
		{SampleID: "demo-op-002", Response: "<answer>4.9</answer>"},
		{SampleID: "demo-sg-001", Response: `<ans>{"step1": {"content": "Remove the book from the top of the laptop", "precondition": []}, "step2": {"content": "Open the laptop", "precondition": ["step1"]}}</ans>`,
			StepMatch: [][]int{{1, 0}, {0, 0}}},
		{SampleID: "demo-yn-001", Response: "No."},
	},
}

func init() {
	for _, p := range evalPredictions["perfect"] {
		evalPredictions["unparseable"] = append(evalPredictions["unparseable"], score.Prediction{SampleID: p.SampleID, Response: "I cannot tell."})
	}
}

// evalRelease takes three more demo samples to acceptance (as cmd/bwctl's
// benchRelease does), freezes bench@1.0 (six samples, one or two of each kind) and
// imports evalPredictions' three models, all as the store's API does it.
func evalRelease(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	user := func(name string) bench.User {
		u, err := db.UserByName(ctx, bench.Owner(), name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	approve := func(id string, round int, who ...string) {
		t.Helper()
		si, err := db.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range who {
			if _, err := db.SubmitReview(ctx, user(w), bench.ReviewInput{SampleID: id, Round: round, BasedOn: si.Revision, Seconds: 30,
				Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, round)}}); err != nil {
				t.Fatalf("%s round %d by %s: %v", id, round, w, err)
			}
		}
	}
	approve("demo-mc-001", 2, "ver3")
	approve("demo-mc-001", 3, "ver5", "ver2", "ver4")
	approve("demo-hq-002", 3, "ver2", "ver4")
	p, err := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	ann := user("ann1")
	si, err := db.CreateSample(ctx, ann, p.ID, annotate.Sample{ID: "demo-op-002", Kind: annotate.KindOpen,
		Image: "0001-office-1/img_002.jpg", Question: "How many objects stand on the desk?", AnswerText: "4", AnswerNumber: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	approve("demo-op-002", 1, "ver1")
	approve("demo-op-002", 2, "ver3")
	approve("demo-op-002", 3, "ver5", "ver2", "ver4")
	lead := user("lead")
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "bench", Version: "1.0"})
	if err != nil || rel.Samples != 6 {
		t.Fatalf("freeze: %+v %v", rel, err)
	}
	for _, m := range []string{"perfect", "half", "unparseable"} {
		if _, err := db.ImportPredictions(ctx, lead, "bench@1.0", m, evalPredictions[m], m+".jsonl", bench.PredictionRun{}); err != nil {
			t.Fatal(err)
		}
	}
}

// openEvaluate signs name in on the demo project with bench@1.0 scored (times
// fixed, for goldens), in a window of the given size, and shows the Evaluate
// screen once it has loaded.
func openEvaluate(t *testing.T, name string, size fyne.Size) (*App, *evaluateView) {
	t.Helper()
	u, db := demoApp(t)
	db.Now = func() time.Time { return time.Date(2026, 4, 1, 9, 30, 0, 0, time.UTC) }
	evalRelease(t, db)
	u.win.Resize(size)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, name, demo.DemoPassword)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Evaluate" })
	if i < 0 {
		t.Fatalf("%s has no Evaluate screen", name)
	}
	u.nav.Select(i)
	v, ok := u.content.Objects[0].(*evaluateView)
	if !ok {
		t.Fatalf("the Evaluate screen is a %T", u.content.Objects[0])
	}
	waitFor(t, "the scores", func() bool { return v.loads.Load() >= 1 })
	return u, v
}

// showSample chooses sample id on the Samples tab and waits for its comparison.
func showSample(t *testing.T, v *evaluateView, id string) *evalComparison {
	t.Helper()
	v.tabs.SelectIndex(slices.IndexFunc(v.tabs.Items, func(ti *container.TabItem) bool { return ti.Text == evalTabSamples }))
	i := slices.IndexFunc(v.shown, func(k int) bool { return v.items[k].SampleID == id })
	if i < 0 {
		t.Fatalf("%s is not listed", id)
	}
	n := v.sampleLoads.Load()
	v.sampleList.Select(i)
	waitFor(t, "the sample's scores", func() bool { return v.sampleLoads.Load() > n })
	if v.cmp == nil || v.cmp.gold.Sample.ID != id {
		t.Fatalf("no comparison of %s", id)
	}
	return v.cmp
}

func TestEvaluateLeaderboard(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	if got := v.release.Selected; got != "bench@1.0" {
		t.Errorf("release %q chosen", got)
	}
	if !strings.Contains(v.status.Text, "bench@1.0: 6 samples · 3 models") {
		t.Errorf("status %q", v.status.Text)
	}
	wantRuns := [][]string{
		{"half", "6", "0", "half.jsonl", "lead", "2026-04-01 09:30"},
		{"perfect", "6", "0", "perfect.jsonl", "lead", "2026-04-01 09:30"},
		{"unparseable", "6", "0", "unparseable.jsonl", "lead", "2026-04-01 09:30"},
	}
	if !slices.EqualFunc(v.runsRows, wantRuns, slices.Equal) {
		t.Errorf("model runs %q", v.runsRows)
	}
	wantCols := []string{"mcq_acc", "acc50iou", "mean_iou", "judgment_acc", "strict_acc", "mra", "content_f1", "precond_f1", "parsed"}
	if !slices.Equal(v.cols, wantCols) || v.rankBy.Selected != "mcq_acc" {
		t.Fatalf("columns %q, ranked by %q", v.cols, v.rankBy.Selected)
	}
	// Ranked by mcq_acc (3 option questions), as bwctl score ranks them: perfect's
	// interval is [100, 100], half's [0, 100], unparseable's [0, 0]; perfect and
	// half touch, half and unparseable too, and only perfect lies wholly above
	// unparseable. Unparseable's mean_iou divides by no sample.
	want := [][]string{
		{"1*", "perfect", "100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]",
			"100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]", "100.0 [100.0, 100.0]"},
		{"1*", "half", "66.7 [0.0, 100.0]", "50.0 [0.0, 100.0]", "100.0 [", "0.0 [0.0, 0.0]", "0.0 [0.0, 0.0]", "60.0 [60.0, 60.0]",
			"50.0 [50.0, 50.0]", "0.0 [0.0, 0.0]", "100.0 [100.0, 100.0]"},
		{"2*", "unparseable", "0.0 [0.0, 0.0]", "0.0 [0.0, 0.0]", "– (n 0)", "0.0 [0.0, 0.0]", "0.0 [0.0, 0.0]", "0.0 [0.0, 0.0]",
			"0.0 [0.0, 0.0]", "0.0 [0.0, 0.0]", "16.7 ["},
	}
	checkRows(t, "leaderboard by mcq_acc", v.boardRows, want)
	note := v.boardNote.Text
	for _, s := range []string{"Percentages on bench@1.0 (6 samples) with the 95 % percentile bootstrap interval (1000 draws, seed 0)",
		"Denominator all: mcq_acc and acc50iou divide by all their samples", "Ranked by mcq_acc",
		"* tied (the intervals overlap): perfect with half; half with perfect, unparseable; unparseable with half."} {
		if !strings.Contains(note, s) {
			t.Errorf("the note lacks %q: %q", s, note)
		}
	}
	assertGolden(t, "evaluate_board_1280.png", u.win)

	// The ranks are score.Leaderboard's on the chosen figure.
	v.rankBy.SetSelected("judgment_acc")
	if got := [][]string{v.boardRows[0][:2], v.boardRows[1][:2], v.boardRows[2][:2]}; !slices.EqualFunc(got,
		[][]string{{"1", "perfect"}, {"2*", "half"}, {"2*", "unparseable"}}, slices.Equal) {
		t.Errorf("ranked by judgment_acc: %q", got)
	}
	if !strings.Contains(v.boardNote.Text, "Ranked by judgment_acc") || !strings.Contains(v.boardNote.Text, "half with unparseable; unparseable with half") {
		t.Errorf("note %q", v.boardNote.Text)
	}

	// The CSV holds the rows as ranked, the figures written exactly.
	var b bytes.Buffer
	if err := (evalCSV{board: v.board, cols: v.cols, reports: v.reports}).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "rank,model,tied_with,mcq_acc,mcq_acc_ci_low,mcq_acc_ci_high,mcq_acc_n,acc50iou,") ||
		!strings.HasPrefix(lines[1], "1,perfect,,100,100,100,3,100,100,100,2,") ||
		!strings.HasPrefix(lines[2], "2,half,unparseable,66.66666666666") || !strings.HasPrefix(lines[3], "2,unparseable,half,0,0,0,3,") {
		t.Errorf("CSV:\n%s", b.String())
	}

	// Export CSV… asks for a file.
	test.Tap(v.exportBtn)
	if u.win.Canvas().Overlays().Top() == nil {
		t.Error("Export CSV… opens no file dialog")
	} else {
		u.win.Canvas().Overlays().Remove(u.win.Canvas().Overlays().Top())
	}

	// The parsed denominator scores again and says so.
	n := v.loads.Load()
	v.denom.SetSelected(string(score.DenomParsed))
	waitFor(t, "the scores again", func() bool { return v.loads.Load() > n })
	if v.rankBy.Selected != "judgment_acc" || !strings.Contains(v.boardNote.Text, "Denominator parsed: mcq_acc and acc50iou divide by the samples whose answer letter was read") {
		t.Errorf("after choosing the parsed denominator: ranked by %q, %q", v.rankBy.Selected, v.boardNote.Text)
	}
	if i := slices.Index(v.cols, "mcq_acc"); v.boardRows[2][1] != "unparseable" || v.boardRows[2][i+2] != "– (n 0)" {
		// No letter read: nothing to divide by.
		t.Errorf("unparseable's mcq_acc over the parsed samples: %q", v.boardRows[2])
	}

	// Refresh lists a release frozen since, newest first, and keeps the chosen one;
	// a release no model was run on says so.
	lead := u.user
	if _, err := u.db.As(lead).Freeze(context.Background(), bench.FreezeInput{ProjectID: u.project.ID, Name: "bench", Version: "2.0"}); err != nil {
		t.Fatal(err)
	}
	n = v.loads.Load()
	test.Tap(v.refresh)
	waitFor(t, "the refresh", func() bool { return v.loads.Load() > n })
	if !slices.Equal(v.release.Options, []string{"bench@2.0", "bench@1.0"}) || v.release.Selected != "bench@1.0" || len(v.boardRows) != 3 {
		t.Fatalf("after a refresh: %q, %q chosen, %d rows", v.release.Options, v.release.Selected, len(v.boardRows))
	}
	n = v.loads.Load()
	v.release.SetSelected("bench@2.0")
	waitFor(t, "the new release", func() bool { return v.loads.Load() > n })
	if len(v.boardRows) != 0 || len(v.items) != 6 || !strings.Contains(v.status.Text, "bench@2.0: 6 samples · 0 models") ||
		!v.exportBtn.Disabled() {
		t.Errorf("a release without models: %d rows, %d samples, %q", len(v.boardRows), len(v.items), v.status.Text)
	}
	found := false
	for _, o := range test.LaidOutObjects(v.boardBox) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "No model has answers on bench@2.0 yet") {
			found = true
		}
	}
	if !found {
		t.Error("the leaderboard of a release without models does not say so")
	}
	c := showSample(t, v, "demo-yn-001")
	if len(c.results) != 0 || len(c.rows) != 0 {
		t.Errorf("results without models: %+v", c.results)
	}
}

// checkRows compares table rows with want, a cell matching when it starts with the
// wanted text.
func checkRows(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d: %q", what, len(got), len(want), got)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Errorf("%s row %d: %q, want %q", what, i, got[i], want[i])
			continue
		}
		for j := range want[i] {
			if !strings.HasPrefix(got[i][j], want[i][j]) {
				t.Errorf("%s row %d column %d: %q, want %q", what, i, j, got[i][j], want[i][j])
			}
		}
	}
}

func TestEvaluateChartAndSamples(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	if v.chartFig.Selected != "mcq_acc" || !slices.Equal(v.chartModel.Selected, []string{"half", "perfect", "unparseable"}) {
		t.Errorf("chart of %q for %q", v.chartFig.Selected, v.chartModel.Selected)
	}
	v.chartModel.SetSelected([]string{"half", "perfect"})
	v.tabs.SelectIndex(1)
	assertGolden(t, "evaluate_chart_1280.png", u.win)

	// demo-hq-002: perfect right, half the wrong letter with the gold box, unparseable nothing.
	c := showSample(t, v, "demo-hq-002")
	checkRows(t, "demo-hq-002", c.rows, [][]string{
		{"half", "B", "✗ wrong", "1.00", "box 160,280 – 230,360", "Answer: (b) the mug Bounding Box: [0.1666"},
		{"perfect", "A", "✓ correct", "1.00", "box 160,280 – 230,360 · hit at IoU 0.5", "Answer: (a) the plant Bounding Box"},
		{"unparseable", "–", "✗ wrong", "–", "", "I cannot tell."},
	})
	if got := c.canvas.Boxes(); len(got) != 3 || c.boxOwner[0] != "gold" || got[1] != *c.gold.Sample.Box {
		t.Errorf("boxes %v of %q", got, c.boxOwner)
	}
	if !strings.Contains(c.detail.Text, "Choose a model's row") {
		t.Errorf("detail %q", c.detail.Text)
	}
	c.table.Select(widget.TableCellID{Row: 1, Col: 0}) // half's row, as a tap on it does
	if c.selected != 0 || c.canvas.Selected() != 1 || !strings.HasPrefix(c.detail.Text, "half:\nAnswer: (b) the mug\nBounding Box:") ||
		c.readout.Text != "the box of half" {
		t.Errorf("half chosen: result %d, box %d, %q, %q", c.selected, c.canvas.Selected(), c.detail.Text, c.readout.Text)
	}
	assertGolden(t, "evaluate_samples_1280.png", u.win)
	// Choosing a box on the picture chooses its model's row; the gold box none.
	c.canvas.Select(2)
	if c.selected != 1 || !strings.HasPrefix(c.detail.Text, "perfect:\nAnswer: (a) the plant") || c.readout.Text != "the box of perfect" {
		t.Errorf("perfect's box chosen: result %d, %q, %q", c.selected, c.detail.Text, c.readout.Text)
	}
	c.canvas.Select(0)
	if c.selected != -1 || c.readout.Text != "the gold box" {
		t.Errorf("the gold box chosen: result %d, %q", c.selected, c.readout.Text)
	}

	// A step graph and an open answer: the counts and the number score read.
	c = showSample(t, v, "demo-sg-001")
	checkRows(t, "demo-sg-001", c.rows, [][]string{
		{"half", "2 steps", "✗ wrong", "–", "steps TP 1 FP 1 FN 1 · preconditions TP 0 FP 1 FN 1", `<ans>{"step1": {"content": "Remove`},
		{"perfect", "2 steps", "✓ correct", "–", "steps TP 2 FP 0 FN 0 · preconditions TP 1 FP 0 FN 0", "<ans>"},
		{"unparseable", "–", "✗ wrong", "–", "no step graph: no JSON object or list in the response · steps TP 0 FP 0 FN 2 · preconditions TP 0 FP 0 FN 1",
			"I cannot tell."},
	})
	c = showSample(t, v, "demo-op-002")
	if r := c.rows[0]; r[0] != "half" || r[1] != "4.9" || r[2] != "✗ wrong" || !strings.Contains(r[4], "number 4.9 · MRA 0.60") {
		t.Errorf("half on demo-op-002: %q", r)
	}
	if got := evalGoldAnswer(c.gold.Sample); got != "4" {
		t.Errorf("gold answer %q", got)
	}
}

func TestEvaluateAt1024(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1024, 700))
	assertGolden(t, "evaluate_board_1024.png", u.win)
	c := showSample(t, v, "demo-hq-001")
	c.table.Select(widget.TableCellID{Row: 2, Col: 0}) // perfect
	assertGolden(t, "evaluate_samples_1024.png", u.win)
}

func TestEvaluateVerifierSeesNoRawAnswers(t *testing.T) {
	u, v := openEvaluate(t, "ver1", fyne.NewSize(1024, 700))
	if len(v.boardRows) != 3 || v.boardRows[0][1] != "perfect" {
		t.Fatalf("a verifier's leaderboard %q", v.boardRows)
	}
	c := showSample(t, v, "demo-hq-002")
	if c.raw || len(c.rows[0]) != 5 || !strings.Contains(c.detail.Text, "Raw answers are shown to leads") {
		t.Errorf("a verifier sees raw answers: %q, %q", c.rows[0], c.detail.Text)
	}
	for _, r := range c.results {
		if r.Response != "" {
			t.Errorf("%s's raw answer reached a verifier", r.Model)
		}
	}
	c.table.Select(widget.TableCellID{Row: 1, Col: 0})
	if !strings.Contains(c.detail.Text, "half: raw answers are shown to leads") {
		t.Errorf("detail %q", c.detail.Text)
	}
	assertGolden(t, "evaluate_verifier.png", u.win)
}

func TestEvaluateHiddenFromAnnotators(t *testing.T) {
	u, db := demoApp(t)
	evalRelease(t, db)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "ann1", demo.DemoPassword)
	if u.project.Name != demo.DemoProject {
		t.Fatalf("project %q", u.project.Name)
	}
	if slices.ContainsFunc(u.screens, func(s screen) bool { return s.title == "Evaluate" }) {
		t.Error("an annotator sees the Evaluate screen")
	}
	// The store refuses what the screen hides.
	if _, err := db.Models(context.Background(), u.user, "bench@1.0"); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator lists models: %v", err)
	}
	if _, _, err := db.SampleScores(context.Background(), u.user, "bench@1.0", "demo-hq-001"); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator reads a sample's scores: %v", err)
	}
}

func TestEvaluateWithoutRelease(t *testing.T) {
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "ver1", demo.DemoPassword)
	u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Evaluate" }))
	v := u.content.Objects[0].(*evaluateView)
	if v.release != nil {
		t.Fatal("a release picker without releases")
	}
	found := false
	for _, o := range test.LaidOutObjects(v.root) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "No release is frozen yet") {
			found = true
		}
	}
	if !found {
		t.Error("the screen does not say that no release is frozen")
	}
}
