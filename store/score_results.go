package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// SampleScores scores every model run on a release on one of its samples, for
// looking at a sample model by model: the frozen sample as package score takes it
// (with its image's size, for the boxes) and one result per model, by model name.
// A model without a prediction for the sample is scored as an empty response and
// marked Missing, as Score does; results are computed with score's default
// options (they do not depend on the denominator or the step aggregation; see
// score.Options.CollapseUnmatchedEdges for the one option that changes a step
// graph's counts).
//
// Verifiers and leads may (verify.ActionSeeScores), as they may see the scores
// these results add up to; a refusal is audited. Only those who may also read
// predictions (verify.ActionReadPredictions: leads) get each model's raw
// response; for everyone else Response is left empty. The answer score read from
// it (Result.Answer, Result.Steps) is part of the result and is given to both. A
// release without models gives the gold and no results; a sample not in the
// release is ErrNotFound. A model's blind run gives a result of its own, marked
// Blind, after the result of its run with images.
func (d *DB) SampleScores(ctx context.Context, actor bench.User, releaseRef string, sampleID string) (score.Gold, []bench.ModelResult, error) {
	g, res, err := d.sampleScores(ctx, actor, releaseRef, sampleID)
	if err != nil {
		return score.Gold{}, nil, fmt.Errorf("scores of sample %s in %s: %w", sampleID, d.releaseWords(ctx, actor, releaseRef), err)
	}
	return g, res, nil
}

func (d *DB) sampleScores(ctx context.Context, actor bench.User, releaseRef string, sampleID string) (score.Gold, []bench.ModelResult, error) {
	var (
		gold  score.Gold
		runs  []bench.ModelRun
		preds map[string]score.Prediction // by run key; absent when the run gave none
		raw   bool
	)
	err := d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		preds = map[string]score.Prediction{}
		_, err := requireAction(ctx, tx, actor, verify.ActionSeeScores)
		if err != nil {
			return err
		}
		m, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionSeeScores)
		if err != nil {
			return err
		}
		raw = verify.Permit(verify.ActionReadPredictions, vuser(m)) == nil
		it, err := releaseItem(ctx, tx, rel, sampleID)
		if err != nil {
			return err
		}
		gold = it.Gold()
		if runs, err = allRuns(ctx, tx, rel); err != nil {
			return err
		}
		for _, r := range runs {
			key := runKey(r.Model, r.Blind)
			p, ok, err := samplePrediction(ctx, tx, rel, r.Model, key, sampleID)
			if err != nil {
				return err
			}
			if ok {
				preds[key] = p
			}
		}
		return nil
	})
	if err != nil {
		return score.Gold{}, nil, err
	}
	out := make([]bench.ModelResult, 0, len(runs))
	for _, r := range runs {
		var ps []score.Prediction
		if p, ok := preds[runKey(r.Model, r.Blind)]; ok {
			ps = []score.Prediction{p}
		}
		// ScoreAll rather than ScoreSample: it marks a missing prediction as Score does.
		results, err := score.ScoreAll(ctx, []score.Gold{gold}, ps, score.Options{Draws: -1, Workers: 1})
		if err != nil {
			return score.Gold{}, nil, fmt.Errorf("model %s: %w", bench.RunName(r.Model, r.Blind), scoreError(ctx, err))
		}
		mr := bench.ModelResult{Model: r.Model, Blind: r.Blind, Result: results[0]}
		if raw && len(ps) == 1 {
			mr.Response = ps[0].Response
		}
		out = append(out, mr)
	}
	return gold, out, nil
}

// releaseItem reads one sample of a release with its frozen revision.
func releaseItem(ctx context.Context, tx *sql.Tx, rel bench.Release, sampleID string) (bench.ReleaseItem, error) {
	items, err := queryAll(ctx, tx, scanReleaseItem, `SELECT `+releaseItemCols+releaseItemFrom+` WHERE rs.release_id = ? AND rs.sample_id = ?`, rel.ID, sampleID)
	if err != nil {
		return bench.ReleaseItem{}, err
	}
	if len(items) == 0 {
		return bench.ReleaseItem{SampleID: sampleID}, fmt.Errorf("sample %s: %w in release %s", sampleID, bench.ErrNotFound, rel.Ref())
	}
	return items[0], releaseMoreImages(ctx, tx, rel.ID, items)
}

// samplePrediction reads the prediction for one sample of model's run keyed key
// (runKey); ok is false when it has none.
func samplePrediction(ctx context.Context, tx *sql.Tx, rel bench.Release, model, key, sampleID string) (score.Prediction, bool, error) {
	preds, err := queryAll(ctx, tx, scanPrediction(model),
		`SELECT sample_id, response, step_match FROM predictions WHERE release_id = ? AND model = ? AND sample_id = ?`, rel.ID, key, sampleID)
	if err != nil || len(preds) == 0 {
		return score.Prediction{SampleID: sampleID}, false, err
	}
	return preds[0], true, nil
}

// ReleaseOutcomes scores every model run on a release on each of its samples and
// says, per sample in the release's order, which models did not get it right: what
// the Evaluate screen's "wrong only" filter shows. Results are computed as
// SampleScores computes them (score's default options); the same people may
// (verify.ActionSeeScores), and a refusal is audited. A release without models gives
// every sample with no model. Blind runs are not counted among the models: the
// models whose blind run got a sample right are listed in its BlindRight
// (score.RightIDs).
func (d *DB) ReleaseOutcomes(ctx context.Context, actor bench.User, releaseRef string) ([]bench.SampleOutcome, error) {
	var (
		gs    []score.Gold
		runs  []bench.ModelRun
		preds [][]score.Prediction
	)
	err := d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		var err error
		_, gs, runs, preds, err = scoreInputs(ctx, tx, actor, releaseRef, nil, true) // store/predictions.go
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("outcomes of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	results := make([][]score.Result, len(runs))
	for k, r := range runs {
		if results[k], err = score.ScoreAll(ctx, gs, preds[k], score.Options{Draws: -1}); err != nil {
			return nil, fmt.Errorf("outcomes of %s: model %s: %w", d.releaseWords(ctx, actor, releaseRef), bench.RunName(r.Model, r.Blind), scoreError(ctx, err))
		}
	}
	return bench.NewSampleOutcomes(gs, runs, results), nil
}
