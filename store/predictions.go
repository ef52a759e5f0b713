package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
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

func init() { afterMigration[31] = addBlindRuns }

// addBlindRuns is migration 31's Go part on SQLite (the SQL file says why): it
// adds model_runs.blind and model_runs.base_model. Re-runnable; on PostgreSQL the
// SQL file does it.
func addBlindRuns(d *DB, ctx context.Context, tx *sql.Tx) error {
	if d.pg {
		return nil
	}
	for _, c := range []struct{ name, decl string }{
		{"blind", "INTEGER NOT NULL DEFAULT 0"},
		{"base_model", "TEXT"},
	} {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('model_runs') WHERE name = ?`, c.name).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, `ALTER TABLE model_runs ADD COLUMN `+c.name+` `+c.decl); err != nil {
				return fmt.Errorf("add model_runs.%s: %w", c.name, err)
			}
		}
	}
	return nil
}

// blindKeySuffix follows a model's name in the key of its blind run's rows
// (model_runs.model, predictions.model): a unit separator, which score.CheckModelName
// refuses in a name, so no model's name is the key of another's blind run.
const blindKeySuffix = "\x1fblind"

// runKey is the key of a model's run in model_runs and predictions.
func runKey(model string, blind bool) string {
	if blind {
		return model + blindKeySuffix
	}
	return model
}

// Limits of an import (score.CheckModelName and score.CheckPrediction hold
// the model's and the responses').
const (
	maxSourceLen   = 512 // characters of the file name(s) recorded
	maxReportedIDs = 5   // ids listed per kind of problem in an ImportPredictionsResult
)

// validModelName is score.CheckModelName, refused as invalid input.
func validModelName(s string) error {
	if err := score.CheckModelName(s); err != nil {
		return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	return nil
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
//
// run says whether the model answered without the images (run.Blind: a blind run,
// stored beside the model's run with images; importing one replaces only the
// model's earlier blind run) and, for a blind run, which text-only LLM the model
// is built on (run.Base, a model name; not the model itself). A base without
// Blind is ErrInvalid.
func (d *DB) ImportPredictions(ctx context.Context, actor bench.User, releaseRef, model string, preds []score.Prediction, source string, run bench.PredictionRun) (bench.ImportPredictionsResult, error) {
	res, err := d.importPredictions(ctx, actor, releaseRef, model, preds, source, run)
	if err != nil {
		return bench.ImportPredictionsResult{}, fmt.Errorf("import predictions of %s for %s: %w", bench.RunName(model, run.Blind), d.releaseWords(ctx, actor, releaseRef), err)
	}
	return res, nil
}

func (d *DB) importPredictions(ctx context.Context, actor bench.User, releaseRef, model string, preds []score.Prediction, source string, run bench.PredictionRun) (bench.ImportPredictionsResult, error) {
	var res bench.ImportPredictionsResult
	key := runKey(model, run.Blind)
	err := d.act(ctx, actor, "predictions.import", func(tx *sql.Tx) error {
		res = bench.ImportPredictionsResult{Model: model, Run: run}
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
		if run.Base != "" {
			if !run.Blind {
				return fmt.Errorf("%w: only a blind run names a base model (the text-only LLM it is built on)", bench.ErrInvalid)
			}
			if err := validModelName(run.Base); err != nil {
				return fmt.Errorf("the base model: %w", err)
			}
			if run.Base == model {
				return fmt.Errorf("%w: model %s cannot be its own base model", bench.ErrInvalid, model)
			}
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
		gs := bench.Golds(items)
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
				if err := score.CheckPrediction(p); err != nil {
					return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
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

		runs, err := queryRuns(ctx, tx, rel, key)
		if err != nil {
			return err
		}
		action := "predictions.import"
		if len(runs) == 1 {
			res.Replaced = &runs[0]
			action = "predictions.replace"
			if _, err := tx.ExecContext(ctx, `DELETE FROM predictions WHERE release_id = ? AND model = ?`, rel.ID, key); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM model_runs WHERE release_id = ? AND model = ?`, rel.ID, key); err != nil {
				return err
			}
		}
		now := d.now()
		var base any
		if run.Base != "" {
			base = run.Base
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO model_runs (release_id, model, created_at, created_by, blind, base_model) VALUES (?, ?, ?, ?, ?, ?)`,
			rel.ID, key, now, a.ID, run.Blind, base); err != nil {
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
			if _, err := ins.ExecContext(ctx, rel.ID, key, p.SampleID, p.Response, match, now, a.ID, source); err != nil {
				return err
			}
		}
		res.Imported = len(kept)
		what := "model " + model
		if run.Blind {
			what += " blind (without images)"
			if run.Base != "" {
				what += ", base " + run.Base
			}
		}
		detail := fmt.Sprintf("%s: %d predictions from %s; %d for unknown samples, %d duplicates, %d samples missing",
			what, len(kept), source, res.Unknown.Count, res.Duplicate.Count, res.Missing.Count)
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

// modelRuns lists the release's model runs with images in name order, or only
// model's when model is not empty. Blind runs are left out (allRuns has them).
func modelRuns(ctx context.Context, tx *sql.Tx, rel bench.Release, model string) ([]bench.ModelRun, error) {
	if model != "" {
		return queryRuns(ctx, tx, rel, runKey(model, false))
	}
	runs, err := queryRuns(ctx, tx, rel, "")
	return slices.DeleteFunc(runs, func(r bench.ModelRun) bool { return r.Blind }), err
}

// allRuns lists every run on the release, blind ones too, by model name, a
// model's run with images before its blind run.
func allRuns(ctx context.Context, tx *sql.Tx, rel bench.Release) ([]bench.ModelRun, error) {
	return queryRuns(ctx, tx, rel, "")
}

// queryRuns reads the release's runs (the one keyed key, when key is not empty)
// by model name, a model's run with images before its blind run.
func queryRuns(ctx context.Context, tx *sql.Tx, rel bench.Release, key string) ([]bench.ModelRun, error) {
	q := `SELECT r.model, r.blind, COALESCE(r.base_model, ''), r.created_at, u.name, count(p.sample_id), COALESCE(max(p.source), '')
		FROM model_runs r JOIN users u ON u.id = r.created_by
		LEFT JOIN predictions p ON p.release_id = r.release_id AND p.model = r.model
		WHERE r.release_id = ?`
	args := []any{rel.ID}
	if key != "" {
		q += ` AND r.model = ?`
		args = append(args, key)
	}
	q += ` GROUP BY r.model, r.blind, r.base_model, r.created_at, u.name`
	runs, err := queryAll(ctx, tx, func(r scanner) (bench.ModelRun, error) {
		m := bench.ModelRun{Release: rel.Ref()}
		err := r.Scan(&m.Model, &m.Blind, &m.Base, &m.ImportedAt, &m.ImportedBy, &m.Predictions, &m.Source)
		if m.Blind {
			m.Model = strings.TrimSuffix(m.Model, blindKeySuffix)
		}
		m.Missing = rel.Samples - m.Predictions
		return m, err
	}, q, args...)
	slices.SortFunc(runs, func(a, b bench.ModelRun) int {
		return cmp.Or(strings.Compare(a.Model, b.Model), cmp.Compare(boolInt(a.Blind), boolInt(b.Blind)))
	})
	return runs, err
}

// Models lists the model runs on a release, by name, a model's run with images
// before its blind run (ModelRun.Blind). Verifiers and leads may
// (verify.ActionSeeScores); a refusal is audited.
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
		runs, err = allRuns(ctx, tx, rel)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("models of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return runs, nil
}

// modelPredictions reads one model's predictions on a release (of its run with
// images), by sample id; a model without a run is ErrNotFound.
func modelPredictions(ctx context.Context, tx *sql.Tx, rel bench.Release, model string) ([]score.Prediction, error) {
	return runPredictions(ctx, tx, rel, model, false)
}

// runPredictions reads the predictions of a model's run with images, or of its
// blind run, by sample id; a run that is not there is ErrNotFound.
func runPredictions(ctx context.Context, tx *sql.Tx, rel bench.Release, model string, blind bool) ([]score.Prediction, error) {
	key := runKey(model, blind)
	runs, err := queryRuns(ctx, tx, rel, key)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("model %s: %w among the predictions of %s", bench.RunName(model, blind), bench.ErrNotFound, rel.Ref())
	}
	return queryAll(ctx, tx, scanPrediction(model),
		`SELECT sample_id, response, step_match FROM predictions WHERE release_id = ? AND model = ? ORDER BY sample_id`, rel.ID, key)
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
// model's blind run is read by its name for people, "M (blind)" (bench.RunName),
// unless a model is called that. A model without predictions on the release is
// ErrNotFound.
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
		if blindOf, ok := bench.BlindRunOf(model); ok && errors.Is(err, bench.ErrNotFound) {
			// No model is named "M (blind)": the blind run of M, as the runs are listed.
			preds, err = runPredictions(ctx, tx, rel, blindOf, true)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("predictions of %s for %s: %w", model, d.releaseWords(ctx, actor, releaseRef), err)
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
//
// A model's blind run (ModelRun.Blind) is scored too: its report, marked
// Report.Blind (with Report.Base, the base LLM it named), follows the report of
// the model's run with images, or stands alone for a model with only a blind run
// (a text-only LLM). Naming a model asks for both of its runs.
func (d *DB) Score(ctx context.Context, actor bench.User, releaseRef string, models []string, opt score.Options) ([]*score.Report, error) {
	reports, err := d.score(ctx, actor, releaseRef, models, opt)
	if err != nil {
		return nil, fmt.Errorf("score %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return reports, nil
}

func (d *DB) score(ctx context.Context, actor bench.User, releaseRef string, models []string, opt score.Options) ([]*score.Report, error) {
	var (
		gs    []score.Gold
		runs  []bench.ModelRun
		preds [][]score.Prediction
	)
	err := d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		var rel bench.Release
		var err error
		if rel, gs, runs, preds, err = scoreInputs(ctx, tx, actor, releaseRef, models, false); err != nil {
			return err
		}
		opt, err = withLRRWeights(ctx, tx, rel.ProjectID, opt) // store/settings.go
		return err
	})
	if err != nil {
		return nil, err
	}
	reports := make([]*score.Report, len(runs))
	for i, r := range runs {
		rep, _, err := score.Evaluate(ctx, r.Model, gs, preds[i], opt)
		if err != nil {
			return nil, fmt.Errorf("model %s: %w", bench.RunName(r.Model, r.Blind), scoreError(ctx, err))
		}
		rep.Blind, rep.Base = r.Blind, r.Base
		reports[i] = rep
	}
	return reports, nil
}

// scoreInputs reads, for someone who may see scores (verify.ActionSeeScores), a
// release's samples as package score takes them and the runs (with their
// predictions) of the models named, or of every model run on the release when
// models is empty: a model's run with images, then its blind run. A release
// without models is ErrNotFound unless noModels is true; a model named twice is
// ErrInvalid, a model named without a run ErrNotFound.
func scoreInputs(ctx context.Context, tx *sql.Tx, actor bench.User, releaseRef string, models []string, noModels bool) (bench.Release, []score.Gold, []bench.ModelRun, [][]score.Prediction, error) {
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
	all, err := allRuns(ctx, tx, rel)
	if err != nil {
		return bench.Release{}, nil, nil, nil, err
	}
	have := make([]string, len(all))
	for i, r := range all {
		have[i] = r.Model
	}
	chosen, err := bench.ChooseModels(rel.Ref(), models, have, noModels)
	if err != nil {
		return bench.Release{}, nil, nil, nil, err
	}
	var runs []bench.ModelRun // each chosen model's runs, with images first
	for _, m := range chosen {
		for _, r := range all {
			if r.Model == m {
				runs = append(runs, r)
			}
		}
	}
	var preds [][]score.Prediction
	for _, r := range runs {
		ps, err := runPredictions(ctx, tx, rel, r.Model, r.Blind)
		if err != nil {
			return bench.Release{}, nil, nil, nil, err
		}
		preds = append(preds, ps)
	}
	return rel, bench.Golds(items), runs, preds, nil
}
