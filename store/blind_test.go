package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

// TestBlindRuns: a model's blind run is kept beside its run with images (same
// name, one of each), replaced on its own, scored after it, marked in the
// per-sample results, and the samples it got right are listed per sample.
func TestBlindRuns(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	imp := func(model string, preds []score.Prediction, run bench.PredictionRun) bench.ImportPredictionsResult {
		t.Helper()
		res, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", model, preds, model+".jsonl", run)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	imp("m", perfectPredictions(), bench.PredictionRun{})
	// Blind, m answers the mcq and the yes/no right, the hop question wrong.
	first := imp("m", []score.Prediction{{SampleID: "mc-1", Response: "A"}}, bench.PredictionRun{Blind: true, Base: "llm"})
	if first.Replaced != nil {
		t.Errorf("the first blind run replaced %+v: the run with images is another run", *first.Replaced)
	}
	blind := imp("m", []score.Prediction{{SampleID: "mc-1", Response: "B"}, {SampleID: "yn-1", Response: "No."}, {SampleID: "hq-1", Response: "Answer: (a)"}},
		bench.PredictionRun{Blind: true, Base: "llm"})
	if blind.Replaced == nil || blind.Replaced.Predictions != 1 || !blind.Replaced.Blind {
		t.Errorf("the second blind run replaced %+v, want the first blind run (1 prediction)", blind.Replaced)
	}
	imp("llm", []score.Prediction{{SampleID: "mc-1", Response: "B"}, {SampleID: "yn-1", Response: "Yes."}}, bench.PredictionRun{Blind: true})

	runs, err := f.db.Models(ctx, f.lead, "bench@1")
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		model       string
		blind       bool
		base        string
		predictions int
	}
	var got []run
	for _, r := range runs {
		got = append(got, run{r.Model, r.Blind, r.Base, r.Predictions})
	}
	if want := []run{{"llm", true, "", 2}, {"m", false, "", 5}, {"m", true, "llm", 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("runs %+v, want %+v", got, want)
	}
	// The raw predictions of m are those of its run with images.
	if preds, err := f.db.Predictions(ctx, f.lead, "bench@1", "m"); err != nil || len(preds) != 5 {
		t.Errorf("Predictions(m) = %d predictions, %v; want the 5 of the run with images", len(preds), err)
	}
	// Its blind run is read by the name the runs are listed under.
	if preds, err := f.db.Predictions(ctx, f.lead, "bench@1", "m (blind)"); err != nil || len(preds) != 3 || preds[0].SampleID != "hq-1" || preds[0].Response != "Answer: (a)" {
		t.Errorf("Predictions(m (blind)) = %+v, %v; want the 3 of the blind run", preds, err)
	}
	if _, err := f.db.Predictions(ctx, f.lead, "bench@1", "llm2 (blind)"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("Predictions(llm2 (blind)) = %v, want ErrNotFound", err)
	}

	reports, err := f.db.Score(ctx, f.lead, "bench@1", nil, score.Options{Draws: -1})
	if err != nil {
		t.Fatal(err)
	}
	type rep struct {
		model  string
		blind  bool
		base   string
		mcqAcc float64
	}
	var reps []rep
	for _, r := range reports {
		reps = append(reps, rep{r.Model, r.Blind, r.Base, r.Overall.MCQAcc.Value})
	}
	// mcq_acc is over hq-1 and mc-1: m 2/2, m blind 1/2 (hq-1 wrong), llm 1/2.
	if want := []rep{{"llm", true, "", 50}, {"m", false, "", 100}, {"m", true, "llm", 50}}; !reflect.DeepEqual(reps, want) {
		t.Errorf("reports %+v, want %+v", reps, want)
	}
	named, err := f.db.Score(ctx, f.lead, "bench@1", []string{"m"}, score.Options{Draws: -1})
	if err != nil || len(named) != 2 || named[0].Blind || !named[1].Blind {
		t.Errorf("Score(m): %d reports, %v; want m's run with images, then its blind run", len(named), err)
	}
	gains, err := score.MultiModalGains(reports)
	if err != nil {
		t.Fatal(err)
	}
	// MG = 100 − 50 = 50, ML = max(0, 50 − 50) = 0 on mcq_acc.
	if g := score.GainOn(gains["m"], "mcq_acc"); g == nil || g.MG != 50 || g.ML == nil || *g.ML != 0 {
		t.Errorf("m's gain on mcq_acc = %+v, want MG 50, ML 0", g)
	}

	outcomes, err := f.db.ReleaseOutcomes(ctx, f.lead, "bench@1")
	if err != nil {
		t.Fatal(err)
	}
	right := map[string][]string{}
	for _, o := range outcomes {
		if o.Models != 1 || len(o.Wrong) != 0 {
			t.Errorf("%s: %d models, wrong %v; want the one run with images, right", o.SampleID, o.Models, o.Wrong)
		}
		if o.BlindRight != nil {
			right[o.SampleID] = o.BlindRight
		}
	}
	if want := map[string][]string{"mc-1": {"llm", "m"}, "yn-1": {"m"}}; !reflect.DeepEqual(right, want) {
		t.Errorf("right without the images %v, want %v", right, want)
	}

	_, results, err := f.db.SampleScores(ctx, f.lead, "bench@1", "mc-1")
	if err != nil {
		t.Fatal(err)
	}
	type res struct {
		model    string
		blind    bool
		response string
		correct  bool
	}
	var rs []res
	for _, r := range results {
		rs = append(rs, res{r.Model, r.Blind, r.Response, r.Result.Correct})
	}
	if want := []res{{"llm", true, "B", true}, {"m", false, "B", true}, {"m", true, "B", true}}; !reflect.DeepEqual(rs, want) {
		t.Errorf("SampleScores(mc-1) = %+v, want %+v", rs, want)
	}
}

func TestBlindRunRefusals(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	tests := []struct {
		name  string
		model string
		run   bench.PredictionRun
	}{
		{"a base without --blind", "m", bench.PredictionRun{Base: "llm"}},
		{"its own base", "m", bench.PredictionRun{Blind: true, Base: "m"}},
		{"a base that is no name", "m", bench.PredictionRun{Blind: true, Base: " llm"}},
		{"the blind key as a name", "m\x1fblind", bench.PredictionRun{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", tt.model, perfectPredictions(), "x.jsonl", tt.run)
			if !errors.Is(err, bench.ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
	runs, err := f.db.Models(ctx, f.lead, "bench@1")
	if err != nil || len(runs) != 0 {
		t.Errorf("runs after refusals: %+v, %v", runs, err)
	}
}
