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
// release is ErrNotFound.
func (d *DB) SampleScores(ctx context.Context, actor bench.User, releaseRef string, sampleID string) (score.Gold, []bench.ModelResult, error) {
	g, res, err := d.sampleScores(ctx, actor, releaseRef, sampleID)
	if err != nil {
		return score.Gold{}, nil, fmt.Errorf("scores of sample %s in %s: %w", sampleID, releaseRef, err)
	}
	return g, res, nil
}

func (d *DB) sampleScores(ctx context.Context, actor bench.User, releaseRef string, sampleID string) (score.Gold, []bench.ModelResult, error) {
	var (
		gold  score.Gold
		runs  []bench.ModelRun
		preds map[string]score.Prediction // by model; absent when the model gave none
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
		gold = golds([]bench.ReleaseItem{it})[0]
		if runs, err = modelRuns(ctx, tx, rel, ""); err != nil {
			return err
		}
		for _, r := range runs {
			p, ok, err := samplePrediction(ctx, tx, rel, r.Model, sampleID)
			if err != nil {
				return err
			}
			if ok {
				preds[r.Model] = p
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
		if p, ok := preds[r.Model]; ok {
			ps = []score.Prediction{p}
		}
		// ScoreAll rather than ScoreSample: it marks a missing prediction as Score does.
		results, err := score.ScoreAll(ctx, []score.Gold{gold}, ps, score.Options{Draws: -1, Workers: 1})
		if err != nil {
			return score.Gold{}, nil, fmt.Errorf("model %s: %w", r.Model, scoreError(ctx, err))
		}
		mr := bench.ModelResult{Model: r.Model, Result: results[0]}
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

// samplePrediction reads model's prediction for one sample; ok is false when it has none.
func samplePrediction(ctx context.Context, tx *sql.Tx, rel bench.Release, model, sampleID string) (score.Prediction, bool, error) {
	preds, err := queryAll(ctx, tx, scanPrediction(model),
		`SELECT sample_id, response, step_match FROM predictions WHERE release_id = ? AND model = ? AND sample_id = ?`, rel.ID, model, sampleID)
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
// every sample with no model.
func (d *DB) ReleaseOutcomes(ctx context.Context, actor bench.User, releaseRef string) ([]bench.SampleOutcome, error) {
	var (
		gs    []score.Gold
		names []string
		preds [][]score.Prediction
	)
	err := d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		var err error
		_, gs, names, preds, err = scoreInputs(ctx, tx, actor, releaseRef, nil, true) // store/predictions.go
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("outcomes of %s: %w", releaseRef, err)
	}
	out := make([]bench.SampleOutcome, len(gs))
	for i, g := range gs {
		out[i] = bench.SampleOutcome{SampleID: g.Sample.ID, Models: len(names)}
	}
	for k, m := range names {
		results, err := score.ScoreAll(ctx, gs, preds[k], score.Options{Draws: -1})
		if err != nil {
			return nil, fmt.Errorf("outcomes of %s: model %s: %w", releaseRef, m, scoreError(ctx, err))
		}
		for i, res := range results {
			if !res.Correct {
				out[i].Wrong = append(out[i].Wrong, m)
			}
		}
	}
	return out, nil
}
