package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
)

// boardHeads reads the leaderboard table's header as drawn.
func boardHeads(t *testing.T, v *evaluateView) []string {
	t.Helper()
	tbl, ok := v.boardBox.Objects[0].(*widget.Table)
	if !ok {
		t.Fatalf("the leaderboard is a %T", v.boardBox.Objects[0])
	}
	_, cols := tbl.Length()
	var heads []string
	for c := range cols {
		o := tbl.CreateCell()
		tbl.UpdateCell(widget.TableCellID{Row: 0, Col: c}, o)
		heads = append(heads, o.(*widget.Label).Text)
	}
	return heads
}

// The leaderboard shows MMStar's MG and ML once a model has a blind run, and
// not before; blind runs are listed, not ranked; the Samples tab lists what a
// blind run got right, and a sample's comparison marks the blind answer.
//
// perfect's blind run answers as half does, naming unparseable as its base; the
// blind run of unparseable answers as it does. On mcq_acc (by hand): perfect
// S_v = 100, S_wv = 66.7 (half), S_t = 0: MG 33.3, ML 66.7; unparseable MG
// 0 − 0 = 0 and no ML (no base); half has no blind run.
func TestEvaluateBlindRuns(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	v.rankBy.SetSelected("mcq_acc")
	if heads := boardHeads(t, v); slices.Contains(heads, "MG") || slices.Contains(heads, "ML") || len(v.boardRows[0]) != 2+len(v.cols) {
		t.Errorf("without blind runs the leaderboard has %q", heads)
	}
	if v.sampleFilter.blind.Visible() {
		t.Error("without blind runs the Samples tab offers right blind only")
	}
	ctx := context.Background()
	for _, imp := range []struct {
		model, as string
		base      string
	}{{"perfect", "half", "unparseable"}, {"unparseable", "unparseable", ""}} {
		if _, err := u.db.As(u.user).ImportPredictions(ctx, "bench@1.0", imp.model, evalPredictions[imp.as], imp.as+".jsonl",
			bench.PredictionRun{Blind: true, Base: imp.base}); err != nil {
			t.Fatal(err)
		}
	}
	n := v.loads.Load()
	test.Tap(v.refresh)
	waitFor(t, "the scores", func() bool { return v.loads.Load() > n })
	if v.rankBy.Selected != "mcq_acc" {
		t.Fatalf("ranked by %q", v.rankBy.Selected)
	}

	heads := boardHeads(t, v)
	if got := heads[len(heads)-2:]; !slices.Equal(got, []string{"MG", "ML"}) {
		t.Errorf("the leaderboard's last columns are %q, want MG, ML", got)
	}
	gains := map[string][]string{}
	for _, row := range v.boardRows {
		gains[row[1]] = row[len(row)-2:]
	}
	want := map[string][]string{"perfect": {"33.3", "66.7"}, "half": {"–", "–"}, "unparseable": {"0.0", "–"}}
	if len(v.boardRows) != 3 || !mapsEqual(gains, want) {
		t.Errorf("ranked %d rows, MG and ML %q; want %q", len(v.boardRows), gains, want)
	}
	if !strings.Contains(v.boardNote.Text, "MG and ML on mcq_acc") || !strings.Contains(v.boardNote.Text, "arXiv 2403.20330") {
		t.Errorf("the note does not say what MG and ML are: %s", v.boardNote.Text)
	}
	var names []string
	for _, r := range v.runsRows {
		names = append(names, r[0])
	}
	if want := []string{"half", "perfect", "perfect (blind), base unparseable", "unparseable", "unparseable (blind)"}; !slices.Equal(names, want) {
		t.Errorf("model runs %q, want %q", names, want)
	}

	// Samples: what perfect's blind run (half's answers) got right.
	f := v.sampleFilter
	if !f.blind.Visible() {
		t.Fatal("right blind only is not offered")
	}
	if got := v.sampleLine(v.items[slices.IndexFunc(v.items, func(it bench.ReleaseItem) bool { return it.SampleID == "demo-mc-001" })]); !strings.HasSuffix(got, " · right blind: perfect") {
		t.Errorf("demo-mc-001's line: %q", got)
	}
	test.Tap(f.blind)
	if got := listed(v); !slices.Equal(got, []string{"demo-hq-001", "demo-mc-001"}) {
		t.Errorf("right blind only lists %q", got)
	}
	test.Tap(f.blind)

	c := showSample(t, v, "demo-mc-001")
	var rows []string
	for _, r := range c.rows {
		rows = append(rows, r[0])
	}
	if want := []string{"half", "perfect", "perfect (blind)", "unparseable", "unparseable (blind)"}; !slices.Equal(rows, want) {
		t.Errorf("demo-mc-001's answers by %q, want %q", rows, want)
	}
}

func mapsEqual(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// The Import predictions dialog imports a blind run, with its base LLM, and the
// report names it as a blind run; the base is only asked for a blind run.
func TestEvaluateImportBlindRun(t *testing.T) {
	_, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	test.Tap(v.importBtn)
	imp := v.imp
	if imp.blind.Checked || !imp.base.Disabled() {
		t.Fatalf("a new dialog: blind %v, base disabled %v", imp.blind.Checked, imp.base.Disabled())
	}
	var b strings.Builder
	for _, p := range evalPredictions["half"] {
		fmt.Fprintf(&b, "{\"id\": %q, \"response\": %q}\n", p.SampleID, p.Response)
	}
	imp.addFile(writeFile(t, t.TempDir(), "perfect.jsonl", b.String()))
	test.Tap(imp.blind)
	if imp.base.Disabled() {
		t.Fatal("a blind run's base LLM cannot be typed")
	}
	test.Type(imp.base, " unparseable ")
	runImport(t, v, imp)
	if got := v.importNote.Text; !strings.HasPrefix(got, "Imported 6 predictions of perfect (blind) for bench@1.0 from perfect.jsonl.") {
		t.Errorf("the report of a blind import: %q", got)
	}
	var blind, sighted int
	for _, r := range v.runs {
		if r.Model == "perfect" && r.Blind {
			blind++
			if r.Base != "unparseable" {
				t.Errorf("the blind run's base is %q, want unparseable", r.Base)
			}
		} else if r.Model == "perfect" {
			sighted++
		}
	}
	if blind != 1 || sighted != 1 {
		t.Errorf("perfect has %d blind and %d sighted runs, want 1 and 1 (runs %+v)", blind, sighted, v.runs)
	}
	if heads := boardHeads(t, v); !slices.Contains(heads, "MG") {
		t.Errorf("after a blind import the leaderboard has no MG: %q", heads)
	}
}
