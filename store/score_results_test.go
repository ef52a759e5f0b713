package store_test

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

func TestSampleScores(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "oracle", perfectPredictions(), "oracle.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	// partial answers hq-1 with the wrong letter and a box off the gold one, and the
	// step graph with its step match; it has no prediction for mc-1.
	partial := []score.Prediction{
		{SampleID: "hq-1", Response: "Answer: (a)\nBounding Box: [0, 0, 0.15625, 0.20833333333333334]"},
		{SampleID: "op-1", Response: "<answer>3</answer>"},
		{SampleID: "sg-1", Response: `<ans>{"step1": {"content": "Lift the book", "precondition": []}, ` +
			`"step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}</ans>`, StepMatch: [][]int{{1, 0}, {0, 1}}},
		{SampleID: "yn-1", Response: "Yes."},
	}
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "partial", partial, "partial.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}

	gold, res, err := f.db.SampleScores(ctx, f.lead, "bench@1", "hq-1")
	if err != nil {
		t.Fatal(err)
	}
	if gold.Sample.ID != "hq-1" || gold.Width != 64 || gold.Height != 48 || gold.Sample.Box == nil {
		t.Errorf("gold %+v", gold)
	}
	if len(res) != 2 || res[0].Model != "oracle" || res[1].Model != "partial" {
		t.Fatalf("results %+v", res)
	}
	o, p := res[0], res[1]
	if !o.Result.Correct || o.Result.Answer != "B" || o.Result.IoU == nil || math.Abs(*o.Result.IoU-1) > 1e-9 ||
		o.Result.Box == nil || o.Response != perfectPredictions()[0].Response {
		t.Errorf("oracle on hq-1: %+v %q", o.Result, o.Response)
	}
	if p.Result.Correct || p.Result.Answer != "A" || p.Result.Box == nil || p.Response != partial[0].Response {
		t.Errorf("partial on hq-1: %+v %q", p.Result, p.Response)
	}

	// A model without a prediction for the sample is scored as an empty response.
	_, res, err = f.db.SampleScores(ctx, f.lead, "bench@1", "mc-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || !res[1].Result.Missing || res[1].Result.Correct || res[1].Response != "" || res[0].Result.Missing {
		t.Errorf("mc-1: %+v", res)
	}

	// Each sample's results are the ones Score summarizes: the same as scoring the
	// model's whole run, sample by sample.
	items, err := f.db.ReleaseItems(ctx, bench.Owner(), mustRelease(t, f, "bench@1").ID)
	if err != nil {
		t.Fatal(err)
	}
	var golds []score.Gold
	for _, it := range items {
		golds = append(golds, score.Gold{Sample: it.Content, Width: it.Width, Height: it.Height})
	}
	for _, m := range []string{"oracle", "partial"} {
		preds, err := f.db.Predictions(ctx, f.lead, "bench@1", m)
		if err != nil {
			t.Fatal(err)
		}
		all, err := score.ScoreAll(ctx, golds, preds, score.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range items {
			_, res, err := f.db.SampleScores(ctx, f.lead, "bench@1", it.SampleID)
			if err != nil {
				t.Fatal(err)
			}
			got := res[0]
			if m == "partial" {
				got = res[1]
			}
			if !reflect.DeepEqual(got.Result, all[i]) {
				t.Errorf("%s on %s: %+v, the whole run gives %+v", m, it.SampleID, got.Result, all[i])
			}
		}
	}

	// A verifier gets the results without the raw text; an annotator nothing.
	_, vres, err := f.db.SampleScores(ctx, f.ver, "bench@1", "hq-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(vres) != 2 || vres[0].Response != "" || vres[1].Response != "" || !reflect.DeepEqual(vres[0].Result, o.Result) {
		t.Errorf("a verifier's results: %+v", vres)
	}
	if _, _, err := f.db.SampleScores(ctx, f.ann, "bench@1", "hq-1"); !errors.Is(err, bench.ErrForbidden) ||
		!strings.Contains(err.Error(), "only verifiers or leads may see model scores") {
		t.Errorf("an annotator: %v", err)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["denied:scores.read"] != 1 {
		t.Errorf("audit counts %v", counts)
	}

	if _, _, err := f.db.SampleScores(ctx, f.lead, "bench@1", "ghost-1"); !errors.Is(err, bench.ErrNotFound) ||
		!strings.Contains(err.Error(), "sample ghost-1: not found in release bench@1") {
		t.Errorf("a sample outside the release: %v", err)
	}
	if _, _, err := f.db.SampleScores(ctx, f.lead, "bench@2", "hq-1"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("an unknown release: %v", err)
	}
}

func TestSampleScoresWithoutModels(t *testing.T) {
	f := scoreRelease(t)
	gold, res, err := f.db.SampleScores(context.Background(), f.ver, "bench@1", "yn-1")
	if err != nil || gold.Sample.ID != "yn-1" || len(res) != 0 {
		t.Errorf("no models: %+v %+v %v", gold, res, err)
	}
}

func mustRelease(t *testing.T, f relFixture, ref string) bench.Release {
	t.Helper()
	rel, err := f.db.ReleaseByRef(context.Background(), bench.Owner(), f.project.ID, ref)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// ReleaseOutcomes names, per sample, the models that did not get it right: the
// results SampleScores gives, for the whole release at once.
func TestReleaseOutcomes(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	out, err := f.db.ReleaseOutcomes(ctx, f.ver, "bench@1")
	if err != nil || len(out) != 5 || out[0].Models != 0 || len(out[0].Wrong) != 0 {
		t.Fatalf("no models: %+v %v", out, err)
	}
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "oracle", perfectPredictions(), "oracle.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	wrong := perfectPredictions()
	wrong[1].Response = "A" // mc-1
	wrong = wrong[:4]       // no prediction for yn-1: a missing answer is wrong
	if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", "sloppy", wrong, "sloppy.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	out, err = f.db.ReleaseOutcomes(ctx, f.ver, "bench@1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, o := range out {
		if o.Models != 2 {
			t.Errorf("%s: %d models", o.SampleID, o.Models)
		}
		got[o.SampleID] = o.Wrong
	}
	want := map[string][]string{"hq-1": nil, "mc-1": {"sloppy"}, "op-1": nil, "sg-1": nil, "yn-1": {"sloppy"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("wrong by: %v, want %v", got, want)
	}
	// Each agrees with SampleScores.
	for _, o := range out {
		_, res, err := f.db.SampleScores(ctx, f.lead, "bench@1", o.SampleID)
		if err != nil {
			t.Fatal(err)
		}
		var w []string
		for _, r := range res {
			if !r.Result.Correct {
				w = append(w, r.Model)
			}
		}
		if !reflect.DeepEqual(w, o.Wrong) {
			t.Errorf("%s: SampleScores says wrong by %v, ReleaseOutcomes %v", o.SampleID, w, o.Wrong)
		}
	}
	// An annotator may not; the refusal is audited.
	if _, err := f.db.ReleaseOutcomes(ctx, f.ann, "bench@1"); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator: %v", err)
	}
	if counts, _ := f.db.AuditCounts(ctx); counts["denied:scores.read"] != 1 {
		t.Errorf("audit counts %v", counts)
	}
}
