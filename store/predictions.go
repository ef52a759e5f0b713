package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// Models are evaluated on a frozen release: a lead imports each model's raw
// responses (ImportPredictions), and Score reads them back with the release's
// frozen samples and hands both to package score, which owns every scoring rule.
// Only the raw text is stored, so a score can be computed again with other
// options or after a rule is refined.

// Limits of an import.
const (
	maxModelNameLen     = 128     // characters
	maxSourceLen        = 512     // characters of the file name(s) recorded
	maxResponseBytes    = 1 << 20 // one response; reasoning traces run to a few hundred kilobytes
	maxReportedIDs      = 5       // ids listed per kind of problem in an ImportPredictionsResult
	maxStepMatchEntries = 1 << 16 // cells of one step match matrix
)

// validModelName checks a model's name: 1–128 characters of UTF-8 text without
// control characters or spaces at its ends. Slashes, dots and the like are
// allowed: "Qwen/Qwen2.5-VL-7B-Instruct" is a name.
func validModelName(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%w: the model name is empty", bench.ErrInvalid)
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: the model name is not UTF-8 text", bench.ErrInvalid)
	case utf8.RuneCountInString(s) > maxModelNameLen:
		return fmt.Errorf("%w: the model name is longer than %d characters", bench.ErrInvalid, maxModelNameLen)
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("%w: the model name %q starts or ends with a space", bench.ErrInvalid, s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		return fmt.Errorf("%w: the model name %q holds a control character", bench.ErrInvalid, s)
	}
	return nil
}

// checkPrediction refuses a prediction the store cannot keep as it is.
func checkPrediction(p score.Prediction) error {
	switch {
	case !utf8.ValidString(p.Response):
		return fmt.Errorf("%w: the response to %s is not UTF-8 text", bench.ErrInvalid, p.SampleID)
	case len(p.Response) > maxResponseBytes:
		return fmt.Errorf("%w: the response to %s is longer than %d MiB", bench.ErrInvalid, p.SampleID, maxResponseBytes>>20)
	}
	for k, c := range p.Copies {
		switch {
		case !utf8.ValidString(c):
			return fmt.Errorf("%w: the response to copy %d of %s is not UTF-8 text", bench.ErrInvalid, k+1, p.SampleID)
		case len(c) > maxResponseBytes:
			return fmt.Errorf("%w: the response to copy %d of %s is longer than %d MiB", bench.ErrInvalid, k+1, p.SampleID, maxResponseBytes>>20)
		}
	}
	n := 0
	for _, row := range p.StepMatch {
		n += len(row)
	}
	if n > maxStepMatchEntries {
		return fmt.Errorf("%w: the step match matrix of %s has more than %d entries", bench.ErrInvalid, p.SampleID, maxStepMatchEntries)
	}
	return nil
}

// golds are a release's frozen samples as package score takes them.
func golds(items []bench.ReleaseItem) []score.Gold {
	gs := make([]score.Gold, len(items))
	for i, it := range items {
		gs[i] = score.Gold{Sample: it.Content, Width: it.Width, Height: it.Height}
	}
	return gs
}

// scoreError turns an error of package score about the caller's input into
// ErrInvalid; a cancelled context stays what it is.
func scoreError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w: %s", bench.ErrInvalid, strings.TrimPrefix(err.Error(), "score: "))
}

// ImportPredictions stores a model's raw responses to the samples of a frozen
// release (releaseRef is NAME@VERSION, or the release's id when two projects hold
// the same NAME@VERSION). source names the file they came from. Only a lead may
// (verify.ActionImportPredictions); a refusal is audited.
//
// Every prediction whose sample id is a sample of the release is stored with its
// text unchanged (so scoring can be run again) and its step match matrix, if any.
// Predictions for ids outside the release and second predictions for one sample
// are not stored; they, and the release's samples left without a prediction, are
// counted in the result with their first ids. Importing a model the release has
// predictions of replaces them all (the result's Replaced says which run); the
// import is audited as predictions.import, or predictions.replace. An import in
// which no prediction names a sample of the release is ErrInvalid, as is a
// prediction package score cannot score (a step match matrix of another shape, a
// cell other than 0 or 1), a response over 1 MiB or one that is not UTF-8: then
// nothing is written.
func (d *DB) ImportPredictions(ctx context.Context, actor bench.User, releaseRef, model string, preds []score.Prediction, source string) (bench.ImportPredictionsResult, error) {
	res, err := d.importPredictions(ctx, actor, releaseRef, model, preds, source)
	if err != nil {
		name := releaseRef // named as the caller did, or as NAME@VERSION once found (the screens pass ids)
		if res.Release.ID != 0 {
			name = res.Release.Ref()
		}
		return bench.ImportPredictionsResult{}, fmt.Errorf("import predictions of %s for %s: %w", model, name, err)
	}
	return res, nil
}

func (d *DB) importPredictions(ctx context.Context, actor bench.User, releaseRef, model string, preds []score.Prediction, source string) (bench.ImportPredictionsResult, error) {
	var res bench.ImportPredictionsResult
	err := d.act(ctx, actor, "predictions.import", func(tx *sql.Tx) error {
		res = bench.ImportPredictionsResult{Model: model}
		a, err := requireAction(ctx, tx, actor, verify.ActionImportPredictions)
		if err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionImportPredictions)
		if err != nil {
			return err
		}
		res.Release = rel
		if err := validModelName(model); err != nil {
			return err
		}
		if !utf8.ValidString(source) || utf8.RuneCountInString(source) > maxSourceLen {
			return fmt.Errorf("%w: the source file name is not UTF-8 text of at most %d characters", bench.ErrInvalid, maxSourceLen)
		}
		if len(preds) == 0 {
			return fmt.Errorf("%w: there are no predictions to import", bench.ErrInvalid)
		}
		items, err := releaseItems(ctx, tx, rel.ID)
		if err != nil {
			return err
		}
		gs := golds(items)
		inRelease := make(map[string]bool, len(gs))
		for _, g := range gs {
			inRelease[g.Sample.ID] = true
		}
		seen := make(map[string]bool, len(preds))
		kept := make([]score.Prediction, 0, min(len(preds), len(gs)))
		for _, p := range preds {
			switch {
			case !inRelease[p.SampleID]:
				res.Unknown.Add(p.SampleID)
			case seen[p.SampleID]:
				res.Duplicate.Add(p.SampleID)
			default:
				if err := checkPrediction(p); err != nil {
					return err
				}
				seen[p.SampleID] = true
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 {
			return fmt.Errorf("%w: none of the %d predictions is for a sample of %s (sample ids such as %s)",
				bench.ErrInvalid, len(preds), rel.Ref(), quoteIDs(res.Unknown.IDs))
		}
		for _, g := range gs {
			if !seen[g.Sample.ID] {
				res.Missing.Add(g.Sample.ID)
			}
		}
		for _, id := range score.PixelBoxes(gs, kept) {
			res.PixelBoxes.Add(id)
		}
		// Whatever package score would refuse when scoring is refused now.
		if _, err := score.ScoreAll(ctx, gs, kept, score.Options{}); err != nil {
			return scoreError(ctx, err)
		}

		runs, err := modelRuns(ctx, tx, rel, model)
		if err != nil {
			return err
		}
		action := "predictions.import"
		if len(runs) == 1 {
			res.Replaced = &runs[0]
			action = "predictions.replace"
			if _, err := tx.ExecContext(ctx, `DELETE FROM predictions WHERE release_id = ? AND model = ?`, rel.ID, model); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM model_runs WHERE release_id = ? AND model = ?`, rel.ID, model); err != nil {
				return err
			}
		}
		now := d.now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO model_runs (release_id, model, created_at, created_by) VALUES (?, ?, ?, ?)`,
			rel.ID, model, now, a.ID); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO predictions (release_id, model, sample_id, response, step_match, imported_at, imported_by, source)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, p := range kept {
			match, err := predictionExtra(p)
			if err != nil {
				return err
			}
			if _, err := ins.ExecContext(ctx, rel.ID, model, p.SampleID, p.Response, match, now, a.ID, source); err != nil {
				return err
			}
		}
		res.Imported = len(kept)
		detail := fmt.Sprintf("model %s: %d predictions from %s; %d for unknown samples, %d duplicates, %d samples missing",
			model, len(kept), source, res.Unknown.Count, res.Duplicate.Count, res.Missing.Count)
		if n := res.PixelBoxes.Count; n > 0 {
			detail += fmt.Sprintf("; %d boxes look like pixel coordinates", n)
		}
		if r := res.Replaced; r != nil {
			detail += fmt.Sprintf("; replaced %d predictions imported by %s at %s from %s", r.Predictions, r.ImportedBy, r.ImportedAt, r.Source)
		}
		return d.audit(ctx, tx, a.ID, action, "release", rel.Ref(), detail)
	})
	return res, err
}

// quoteIDs writes ids quoted and comma-separated.
func quoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// modelRuns lists the release's model runs in name order, or only model's when
// model is not empty.
func modelRuns(ctx context.Context, tx *sql.Tx, rel bench.Release, model string) ([]bench.ModelRun, error) {
	q := `SELECT r.model, r.created_at, u.name, count(p.sample_id), COALESCE(max(p.source), '')
		FROM model_runs r JOIN users u ON u.id = r.created_by
		LEFT JOIN predictions p ON p.release_id = r.release_id AND p.model = r.model
		WHERE r.release_id = ?`
	args := []any{rel.ID}
	if model != "" {
		q += ` AND r.model = ?`
		args = append(args, model)
	}
	q += ` GROUP BY r.model, r.created_at, u.name ORDER BY r.model`
	return queryAll(ctx, tx, func(r scanner) (bench.ModelRun, error) {
		m := bench.ModelRun{Release: rel.Ref()}
		err := r.Scan(&m.Model, &m.ImportedAt, &m.ImportedBy, &m.Predictions, &m.Source)
		m.Missing = rel.Samples - m.Predictions
		return m, err
	}, q, args...)
}

// Models lists the models with predictions on a release, by name. Verifiers and
// leads may (verify.ActionSeeScores); a refusal is audited.
func (d *DB) Models(ctx context.Context, actor bench.User, releaseRef string) ([]bench.ModelRun, error) {
	var runs []bench.ModelRun
	err := d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		if _, err := requireAction(ctx, tx, actor, verify.ActionSeeScores); err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionSeeScores)
		if err != nil {
			return err
		}
		runs, err = modelRuns(ctx, tx, rel, "")
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("models of %s: %w", releaseRef, err)
	}
	return runs, nil
}

// modelPredictions reads one model's predictions on a release, by sample id; a
// model without a run is ErrNotFound.
func modelPredictions(ctx context.Context, tx *sql.Tx, rel bench.Release, model string) ([]score.Prediction, error) {
	runs, err := modelRuns(ctx, tx, rel, model)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("model %s: %w among the predictions of %s", model, bench.ErrNotFound, rel.Ref())
	}
	return queryAll(ctx, tx, scanPrediction(model),
		`SELECT sample_id, response, step_match FROM predictions WHERE release_id = ? AND model = ? ORDER BY sample_id`, rel.ID, model)
}

// scanPrediction reads one of model's predictions: sample_id, response, step_match.
func scanPrediction(model string) func(r scanner) (score.Prediction, error) {
	return func(r scanner) (score.Prediction, error) {
		var p score.Prediction
		var match sql.NullString
		if err := r.Scan(&p.SampleID, &p.Response, &match); err != nil {
			return p, err
		}
		if match.Valid && strings.HasPrefix(match.String, "{") {
			var c circularColumn
			if err := json.Unmarshal([]byte(match.String), &c); err != nil {
				return p, fmt.Errorf("model %s, sample %s: circular copies: %w", model, p.SampleID, err)
			}
			p.Circular, p.StepMatch = true, c.StepMatch
			if len(c.Copies) > 0 {
				p.Copies = c.Copies
			}
		} else if match.Valid {
			if err := json.Unmarshal([]byte(match.String), &p.StepMatch); err != nil {
				return p, fmt.Errorf("model %s, sample %s: step match: %w", model, p.SampleID, err)
			}
		}
		return p, nil
	}
}

// circularColumn is what the step_match column holds for a circular prediction
// (score.Prediction.Circular; score/circular.go): its rotated copies' responses
// (and a step match, which a circular run of option questions does not have).
// The column's other content, a step graph's matrix, is a JSON array, so an
// object tells the two apart without a column of its own (no migration).
type circularColumn struct {
	Copies    []string `json:"circular"`
	StepMatch [][]int  `json:"step_match,omitempty"`
}

// predictionExtra is the step_match column of p: NULL, its step match matrix, or
// for a circular prediction a circularColumn.
func predictionExtra(p score.Prediction) (any, error) {
	var v any
	switch {
	case p.Circular:
		v = circularColumn{Copies: append([]string{}, p.Copies...), StepMatch: p.StepMatch}
	case p.StepMatch != nil:
		v = p.StepMatch
	default:
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// Predictions returns a model's raw predictions on a release, by sample id. Only
// leads may read them (verify.ActionReadPredictions); a refusal is audited. A
// model without predictions on the release is ErrNotFound.
func (d *DB) Predictions(ctx context.Context, actor bench.User, releaseRef, model string) ([]score.Prediction, error) {
	var preds []score.Prediction
	err := d.readAs(ctx, actor, "predictions.read", func(tx *sql.Tx) error {
		if _, err := requireAction(ctx, tx, actor, verify.ActionReadPredictions); err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionReadPredictions)
		if err != nil {
			return err
		}
		preds, err = modelPredictions(ctx, tx, rel, model)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("predictions of %s for %s: %w", model, releaseRef, err)
	}
	return preds, nil
}

// Score evaluates models on a frozen release: it reads the release's frozen
// samples (each with its image's size, for the boxes) and each model's stored
// predictions in one read transaction, then calls score.Evaluate per model with
// opt. models names the models, in the order the reports are returned; none means
// every model with predictions on the release, by name. A release sample without
// a prediction is scored as an empty response (score.ScoreAll). Verifiers and
// leads may (verify.ActionSeeScores); a refusal is audited. A model without
// predictions on the release, or named twice, and a release no model was run on
// are errors, as are options package score refuses (ErrInvalid).
func (d *DB) Score(ctx context.Context, actor bench.User, releaseRef string, models []string, opt score.Options) ([]*score.Report, error) {
	reports, err := d.score(ctx, actor, releaseRef, models, opt)
	if err != nil {
		return nil, fmt.Errorf("score %s: %w", releaseRef, err)
	}
	return reports, nil
}

func (d *DB) score(ctx context.Context, actor bench.User, releaseRef string, models []string, opt score.Options) ([]*score.Report, error) {
	var (
		gs    []score.Gold
		names []string
		preds [][]score.Prediction
	)
	err := d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		var rel bench.Release
		var err error
		if rel, gs, names, preds, err = scoreInputs(ctx, tx, actor, releaseRef, models, false); err != nil {
			return err
		}
		opt, err = withLRRWeights(ctx, tx, rel.ProjectID, opt) // store/settings.go
		return err
	})
	if err != nil {
		return nil, err
	}
	reports := make([]*score.Report, len(names))
	for i, m := range names {
		rep, _, err := score.Evaluate(ctx, m, gs, preds[i], opt)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", m, scoreError(ctx, err))
		}
		reports[i] = rep
	}
	return reports, nil
}

// scoreInputs reads, for someone who may see scores (verify.ActionSeeScores), a
// release's samples as package score takes them and the predictions of the models
// named, or of every model run on the release when models is empty. A release
// without models is ErrNotFound unless noModels is true; a model named twice is
// ErrInvalid.
func scoreInputs(ctx context.Context, tx *sql.Tx, actor bench.User, releaseRef string, models []string, noModels bool) (bench.Release, []score.Gold, []string, [][]score.Prediction, error) {
	if _, err := requireAction(ctx, tx, actor, verify.ActionSeeScores); err != nil {
		return bench.Release{}, nil, nil, nil, err
	}
	_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionSeeScores)
	if err != nil {
		return bench.Release{}, nil, nil, nil, err
	}
	items, err := releaseItems(ctx, tx, rel.ID)
	if err != nil {
		return bench.Release{}, nil, nil, nil, err
	}
	names := models
	if len(names) == 0 {
		runs, err := modelRuns(ctx, tx, rel, "")
		if err != nil {
			return bench.Release{}, nil, nil, nil, err
		}
		if len(runs) == 0 && !noModels {
			return bench.Release{}, nil, nil, nil, fmt.Errorf("%w: no model has predictions on %s", bench.ErrNotFound, rel.Ref())
		}
		for _, r := range runs {
			names = append(names, r.Model)
		}
	}
	var preds [][]score.Prediction
	seen := map[string]bool{}
	for _, m := range names {
		if seen[m] {
			return bench.Release{}, nil, nil, nil, fmt.Errorf("%w: model %s is named twice", bench.ErrInvalid, m)
		}
		seen[m] = true
		ps, err := modelPredictions(ctx, tx, rel, m)
		if err != nil {
			return bench.Release{}, nil, nil, nil, err
		}
		preds = append(preds, ps)
	}
	return rel, golds(items), names, preds, nil
}
