package store_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

// TestCircularPredictions: a circular run's copies are stored with each
// prediction (in the step_match column, beside a step graph's matrix of another
// prediction of the same run), read back as imported, and scored the circular way:
// mc-1 (options left, right, behind; answer B) is right only when each copy names
// "right" by its own letter (copy 1: A, copy 2: C); hq-1 (answer B of 4) likewise.
func TestCircularPredictions(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	match := [][]int{{1, 0}, {0, 1}}
	sg := perfectPredictions()[3]
	sg.StepMatch = match
	runs := []struct {
		model        string
		preds        []score.Prediction
		mcqAcc       float64
		mc1Circular  []string
		mc1, hq1Good bool
	}{
		{"every copy right", []score.Prediction{
			{SampleID: "mc-1", Response: "B", Circular: true, Copies: []string{"A", "C"}},
			{SampleID: "hq-1", Response: "Answer: (b)", Circular: true, Copies: []string{"Answer: (a)", "Answer: (d)", "Answer: (c)"}},
			{SampleID: "op-1", Response: "<answer>2</answer>", Circular: true},
			sg,
		}, 100, []string{"B", "B", "B"}, true, true},
		{"the question's letter on every copy", []score.Prediction{
			{SampleID: "mc-1", Response: "B", Circular: true, Copies: []string{"B", "B"}},
			{SampleID: "hq-1", Response: "Answer: (b)", Circular: true, Copies: []string{"Answer: (a)", "Answer: (d)"}}, // copy 3 missing
		}, 0, []string{"B", "C", "A"}, false, false},
	}
	for _, run := range runs {
		if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", run.model, run.preds, "m_bench_circular_MCQ.tsv", bench.PredictionRun{}); err != nil {
			t.Fatalf("%s: %v", run.model, err)
		}
		back, err := f.db.Predictions(ctx, f.lead, "bench@1", run.model)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(run.preds)
		slices.SortFunc(want, func(a, b score.Prediction) int { return strings.Compare(a.SampleID, b.SampleID) })
		if !slices.EqualFunc(back, want, func(a, b score.Prediction) bool {
			return a.SampleID == b.SampleID && a.Response == b.Response && a.Circular == b.Circular &&
				slices.Equal(a.Copies, b.Copies) && slices.EqualFunc(a.StepMatch, b.StepMatch, slices.Equal[[]int])
		}) {
			t.Errorf("%s: read back %+v\nwant %+v", run.model, back, want)
		}
		reps, err := f.db.Score(ctx, f.ver, "bench@1", []string{run.model}, score.Options{Draws: -1})
		if err != nil {
			t.Fatal(err)
		}
		if m := reps[0].Overall.Metric("mcq_acc"); m == nil || m.Value != run.mcqAcc || m.N != 2 {
			t.Errorf("%s: mcq_acc %+v, want %v of 2", run.model, m, run.mcqAcc)
		}
	}
	_, results, err := f.db.SampleScores(ctx, f.ver, "bench@1", "mc-1")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.Model != runs[i].model || r.Result.Correct != runs[i].mc1 || !slices.Equal(r.Result.Circular, runs[i].mc1Circular) {
			t.Errorf("mc-1, %s: correct %v, copies read as %q", r.Model, r.Result.Correct, r.Result.Circular)
		}
	}

	for _, bad := range []struct {
		name string
		p    score.Prediction
	}{
		{"copies of an open answer", score.Prediction{SampleID: "op-1", Response: "2", Circular: true, Copies: []string{"2"}}},
		{"more copies than rotations", score.Prediction{SampleID: "mc-1", Response: "B", Circular: true, Copies: []string{"A", "C", "B"}}},
		{"a copy not UTF-8", score.Prediction{SampleID: "mc-1", Response: "B", Circular: true, Copies: []string{"\xff"}}},
	} {
		if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "bad", []score.Prediction{bad.p}, "bad.tsv", bench.PredictionRun{}); !errors.Is(err, bench.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", bad.name, err)
		}
	}
}
