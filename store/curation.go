package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// Hard subsets (SpatialScore-Hard): from the models scored on a frozen release,
// a lead proposes the samples at least k of the n models fail, balanced over
// categories to a target count by a seeded draw (score.SelectHard); keeps or
// drops each candidate with a reason; and freezes the kept ones into a new
// release, whose MANIFEST records the parent release, the models, k, n, the
// seed and every decision (release.Curation). The rule lives in package score;
// this file keeps the list and the decisions.
//
// Debiased subsets (issue 29 item 4) go through the same list, decisions and
// freeze: ProposeDebiasedSubset runs the shortcut audit's text-only model and
// its iterative bias pruning (shortcut.Prune) on a frozen release's samples and
// stores the samples it would remove as the candidates, each with its task, the
// shortcut checks that flag it and its bias score; a lead drops (removes) or
// keeps each, and the freeze takes every sample of the parent but the dropped
// ones. Migration 32 says how its settings are kept.

// maxReasonLen bounds a curation reason, in characters.
const maxReasonLen = 500

// ProposeHardSubset scores the models on a frozen release (their stored
// predictions, score's default options), selects the samples at least in.K of
// them fail, balanced over categories to in.Target with in.Seed
// (score.SelectHard), and stores them as a candidate list for a lead to curate.
// Only leads may (verify.ActionCurateHard); a refusal is audited. Settings that
// select nothing, k outside 1…n, a model without predictions on the release and
// a list with the same release, models, k, target, seed and strictness already
// made (ErrConflict, naming it) are refused.
func (d *DB) ProposeHardSubset(ctx context.Context, actor bench.User, releaseRef string, in bench.HardSubsetInput) (bench.HardSubset, error) {
	h, err := d.proposeHardSubset(ctx, actor, releaseRef, in)
	if err != nil {
		return bench.HardSubset{}, fmt.Errorf("propose a hard subset of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return h, nil
}

func (d *DB) proposeHardSubset(ctx context.Context, actor bench.User, releaseRef string, in bench.HardSubsetInput) (bench.HardSubset, error) {
	var h bench.HardSubset
	err := d.act(ctx, actor, "hard.propose", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionCurateHard)
		if err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionCurateHard)
		if err != nil {
			return err
		}
		withImages, err := modelRuns(ctx, tx, rel, "")
		if err != nil {
			return err
		}
		var have []string
		for _, r := range withImages {
			have = append(have, r.Model)
		}
		models, err := bench.ChooseModels(rel.Ref(), in.Models, have, false)
		if err != nil {
			return err
		}
		slices.Sort(models)
		items, err := releaseItems(ctx, tx, rel.ID)
		if err != nil {
			return err
		}
		gs := bench.Golds(items)
		runs := make([]score.ModelResults, len(models))
		for i, m := range models {
			preds, err := modelPredictions(ctx, tx, rel, m)
			if err != nil {
				return err
			}
			results, err := score.ScoreAll(ctx, gs, preds, score.Options{Draws: -1})
			if err != nil {
				return fmt.Errorf("model %s: %w", m, scoreError(ctx, err))
			}
			runs[i] = score.ModelResults{Model: m, Results: results}
		}
		sel, err := score.SelectHard(gs, runs, score.HardSpec{K: in.K, Target: in.Target, Seed: in.Seed, Strict: in.Strict})
		if err != nil {
			return scoreError(ctx, err)
		}
		if len(sel.Candidates) == 0 {
			return fmt.Errorf("%w: no sample of %s is failed by at least %d of the %d models", bench.ErrInvalid, rel.Ref(), in.K, len(models))
		}
		modelsJSON, _ := json.Marshal(models)
		var existing int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM hard_subsets WHERE kind = 'hard' AND release_id = ? AND models = ? AND k = ? AND target = ? AND seed = ? AND strict = ?`,
			rel.ID, string(modelsJSON), in.K, in.Target, in.Seed, in.Strict).Scan(&existing)
		switch {
		case err == nil:
			return fmt.Errorf("%w: hard subset %d of %s has these settings already", bench.ErrConflict, existing, rel.Ref())
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		now := d.now()
		var id int64
		err = tx.QueryRowContext(ctx, `INSERT INTO hard_subsets (release_id, models, k, target, seed, strict, pool, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, rel.ID, string(modelsJSON), in.K, in.Target, in.Seed, in.Strict, sel.Pool, a.ID, now).Scan(&id)
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO hard_candidates (subset_id, sample_id, category, failed_by) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, c := range sel.Candidates {
			by, _ := json.Marshal(c.FailedBy)
			if _, err := ins.ExecContext(ctx, id, c.SampleID, c.Category, string(by)); err != nil {
				return err
			}
		}
		if err := d.audit(ctx, tx, a.ID, "hard.propose", "release", rel.Ref(), fmt.Sprintf("hard subset %d: %s, seed %d", id, sel, in.Seed)); err != nil {
			return err
		}
		h, err = hardSubsetByID(ctx, tx, id)
		return err
	})
	return h, err
}

const hardSubsetCols = `h.id, h.kind, h.pruning, rl.name || '@' || rl.version, h.release_id, h.models, h.k, h.target, h.seed, h.strict, h.pool, u.name, h.created_at,
	COALESCE(fr.name || '@' || fr.version, ''),
	(SELECT count(*) FROM hard_candidates c WHERE c.subset_id = h.id),
	(SELECT count(*) FROM hard_candidates c WHERE c.subset_id = h.id AND c.decision = 'keep'),
	(SELECT count(*) FROM hard_candidates c WHERE c.subset_id = h.id AND c.decision = 'drop')`

const hardSubsetFrom = ` FROM hard_subsets h JOIN releases rl ON rl.id = h.release_id JOIN users u ON u.id = h.created_by
	LEFT JOIN releases fr ON fr.id = h.frozen_release_id`

func scanHardSubset(r scanner) (bench.HardSubset, error) {
	var h bench.HardSubset
	var models, pruning string
	if err := r.Scan(&h.ID, &h.Kind, &pruning, &h.Release, &h.ReleaseID, &models, &h.K, &h.Target, &h.Seed, &h.Strict, &h.Pool, &h.CreatedBy, &h.CreatedAt,
		&h.Frozen, &h.Candidates, &h.Kept, &h.Dropped); err != nil {
		return h, err
	}
	if err := json.Unmarshal([]byte(models), &h.Models); err != nil {
		return h, fmt.Errorf("hard subset %d: models: %w", h.ID, err)
	}
	h.N = len(h.Models)
	if h.Kind == bench.SubsetDebiased {
		// Migration 32: k is the folds, target the margin in hundredths of a point.
		h.Folds, h.Margin, h.K, h.Target = h.K, float64(h.Target)/marginScale, 0, 0
		var p pruningRecord
		if err := json.Unmarshal([]byte(pruning), &p); err != nil {
			return h, fmt.Errorf("debiased subset %d: pruning: %w", h.ID, err)
		}
		h.Done, h.Detail, h.Tasks = p.Done, p.Detail, p.Tasks
	}
	return h, nil
}

// marginScale is how a debiased subset's margin (a share) is kept in
// hard_subsets.target: in hundredths of a point.
const marginScale = 10000

// pruningRecord is hard_subsets.pruning: a debiased proposal's outcome.
type pruningRecord struct {
	Done   bool               `json:"done"`
	Detail string             `json:"detail"`
	Tasks  []bench.DebiasTask `json:"tasks"`
}

func hardSubsetByID(ctx context.Context, tx *sql.Tx, id int64) (bench.HardSubset, error) {
	hs, err := queryAll(ctx, tx, scanHardSubset, `SELECT `+hardSubsetCols+hardSubsetFrom+` WHERE h.id = ?`, id)
	if err != nil {
		return bench.HardSubset{}, err
	}
	if len(hs) == 0 {
		return bench.HardSubset{}, fmt.Errorf("hard subset %d: %w", id, bench.ErrNotFound)
	}
	return hs[0], nil
}

// HardSubsets lists the hard subsets proposed on a release, newest first. Only
// leads may (verify.ActionCurateHard); a refusal is audited.
func (d *DB) HardSubsets(ctx context.Context, actor bench.User, releaseRef string) ([]bench.HardSubset, error) {
	var hs []bench.HardSubset
	err := d.readAs(ctx, actor, "hard.read", func(tx *sql.Tx) error {
		if _, err := requireAction(ctx, tx, actor, verify.ActionCurateHard); err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionCurateHard)
		if err != nil {
			return err
		}
		hs, err = queryAll(ctx, tx, scanHardSubset, `SELECT `+hardSubsetCols+hardSubsetFrom+` WHERE h.release_id = ? ORDER BY h.id DESC`, rel.ID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("hard subsets of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return hs, nil
}

// HardCandidates returns a hard subset and its candidates, by sample id. Only
// leads may (verify.ActionCurateHard); a refusal is audited.
func (d *DB) HardCandidates(ctx context.Context, actor bench.User, subsetID int64) (bench.HardSubset, []bench.HardCandidate, error) {
	var (
		h  bench.HardSubset
		cs []bench.HardCandidate
	)
	err := d.readAs(ctx, actor, "hard.read", func(tx *sql.Tx) error {
		if _, err := requireSubsetAction(ctx, tx, actor, subsetID, verify.ActionCurateHard); err != nil {
			return err
		}
		var err error
		if h, err = hardSubsetByID(ctx, tx, subsetID); err != nil {
			return err
		}
		cs, err = hardCandidates(ctx, tx, h)
		return err
	})
	if err != nil {
		return bench.HardSubset{}, nil, fmt.Errorf("candidates of hard subset %d: %w", subsetID, err)
	}
	return h, cs, nil
}

// hardCandidates are h's candidates by sample id. A debiased subset's
// failed_by holds the shortcut checks that flag the sample (migration 32).
func hardCandidates(ctx context.Context, tx *sql.Tx, h bench.HardSubset) ([]bench.HardCandidate, error) {
	return queryAll(ctx, tx, func(r scanner) (bench.HardCandidate, error) {
		var c bench.HardCandidate
		var by string
		var bias sql.NullFloat64
		if err := r.Scan(&c.SampleID, &c.Category, &by, &c.Decision, &c.Reason, &c.DecidedBy, &c.DecidedAt, &bias, &c.Round); err != nil {
			return c, err
		}
		c.Bias = bias.Float64
		if h.Kind == bench.SubsetDebiased {
			return c, json.Unmarshal([]byte(by), &c.Shortcuts)
		}
		return c, json.Unmarshal([]byte(by), &c.FailedBy)
	}, `SELECT c.sample_id, c.category, c.failed_by, c.decision, c.reason, COALESCE(u.name, ''), COALESCE(c.decided_at, ''), c.bias, c.prune_round
		FROM hard_candidates c LEFT JOIN users u ON u.id = c.decided_by WHERE c.subset_id = ? ORDER BY c.sample_id`, h.ID)
}

// DecideHardCandidates records a lead's keep or drop, with the reason, for
// candidates of an open hard subset; deciding a candidate again replaces its
// decision. Only leads may (verify.ActionCurateHard); a refusal is audited. A
// sample not in the list (ErrNotFound), a decision other than keep or drop, a
// drop without a reason, a reason over 500 characters or not UTF-8 text, and a
// list already frozen (ErrConflict) refuse the whole call.
func (d *DB) DecideHardCandidates(ctx context.Context, actor bench.User, subsetID int64, ds []bench.HardDecision) (bench.HardSubset, error) {
	var h bench.HardSubset
	err := d.act(ctx, actor, "hard.decide", func(tx *sql.Tx) error {
		a, err := requireSubsetAction(ctx, tx, actor, subsetID, verify.ActionCurateHard)
		if err != nil {
			return err
		}
		if h, err = hardSubsetByID(ctx, tx, subsetID); err != nil {
			return err
		}
		if h.Frozen != "" {
			return fmt.Errorf("%w: it was frozen into %s; its decisions are final", bench.ErrConflict, h.Frozen)
		}
		if len(ds) == 0 {
			return fmt.Errorf("%w: no decision given", bench.ErrInvalid)
		}
		now := d.now()
		counts := map[string]int{}
		for _, dec := range ds {
			reason := strings.TrimSpace(dec.Reason)
			switch {
			case dec.Decision != bench.DecisionKeep && dec.Decision != bench.DecisionDrop:
				return fmt.Errorf("%w: sample %s: the decision is %q, not keep or drop", bench.ErrInvalid, dec.SampleID, dec.Decision)
			case dec.Decision == bench.DecisionDrop && reason == "":
				return fmt.Errorf("%w: sample %s: say why it is dropped", bench.ErrInvalid, dec.SampleID)
			case !utf8.ValidString(reason) || utf8.RuneCountInString(reason) > maxReasonLen:
				return fmt.Errorf("%w: sample %s: the reason must be text of at most %d characters", bench.ErrInvalid, dec.SampleID, maxReasonLen)
			}
			res, err := tx.ExecContext(ctx, `UPDATE hard_candidates SET decision = ?, reason = ?, decided_by = ?, decided_at = ?
				WHERE subset_id = ? AND sample_id = ?`, dec.Decision, reason, a.ID, now, subsetID, dec.SampleID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return fmt.Errorf("sample %s: %w among the candidates", dec.SampleID, bench.ErrNotFound)
			}
			counts[dec.Decision]++
		}
		if err := d.audit(ctx, tx, a.ID, "hard.decide", "hard_subset", fmt.Sprint(subsetID),
			fmt.Sprintf("%d kept, %d dropped", counts[bench.DecisionKeep], counts[bench.DecisionDrop])); err != nil {
			return err
		}
		h, err = hardSubsetByID(ctx, tx, subsetID)
		return err
	})
	if err != nil {
		return bench.HardSubset{}, fmt.Errorf("decide on hard subset %d: %w", subsetID, err)
	}
	return h, nil
}

// FreezeHardSubset freezes the kept candidates of a hard subset into a new
// release NAME@VERSION of the parent's project: each sample with the revision,
// split and image the parent release froze (so the subset's gold is the
// parent's), and the parent's filter and split settings. The list then takes
// no change, and the release's exports record its provenance in MANIFEST.json
// (release.Curation: parent, models, k, n, target, seed and every decision).
// Only leads may (verify.ActionCurateHard and verify.ActionFreeze); a refusal is
// audited. A list with undecided candidates or none kept (ErrInvalid), one
// frozen already and a name@version taken (ErrConflict) are refused.
func (d *DB) FreezeHardSubset(ctx context.Context, actor bench.User, subsetID int64, name, version string) (bench.Release, error) {
	var rel bench.Release
	err := d.act(ctx, actor, "release.freeze", func(tx *sql.Tx) error {
		a, err := requireSubsetAction(ctx, tx, actor, subsetID, verify.ActionCurateHard)
		if err != nil {
			return err
		}
		if _, err := requireSubsetAction(ctx, tx, actor, subsetID, verify.ActionFreeze); err != nil {
			return err
		}
		h, err := hardSubsetByID(ctx, tx, subsetID)
		if err != nil {
			return err
		}
		if h.Frozen != "" {
			return fmt.Errorf("%w: it was frozen into %s already", bench.ErrConflict, h.Frozen)
		}
		cs, err := hardCandidates(ctx, tx, h)
		if err != nil {
			return err
		}
		var undecided []string
		kept, dropped := 0, 0
		for _, c := range cs {
			switch c.Decision {
			case bench.DecisionKeep:
				kept++
			case bench.DecisionDrop:
				dropped++
			case "":
				undecided = append(undecided, c.SampleID)
			}
		}
		if len(undecided) > 0 {
			return fmt.Errorf("%w: %d of the %d candidates are undecided (%s); keep or drop each first",
				bench.ErrInvalid, len(undecided), len(cs), quoteIDs(undecided[:min(len(undecided), maxReportedIDs)]))
		}
		debiased := h.Kind == bench.SubsetDebiased
		size := kept // a hard subset is its kept candidates
		switch {
		case debiased && dropped == 0:
			return fmt.Errorf("%w: every candidate was kept; the release would be %s again", bench.ErrInvalid, h.Release)
		case debiased:
			size = h.Pool - dropped // a debiased one is its parent without the dropped
		case kept == 0:
			return fmt.Errorf("%w: every candidate was dropped; there is nothing to freeze", bench.ErrInvalid)
		}
		parent, err := releaseByID(ctx, tx, h.ReleaseID)
		if err != nil {
			return err
		}
		if err := checkFreezeInput(ctx, tx, bench.FreezeInput{ProjectID: parent.ProjectID, Name: name, Version: version}); err != nil {
			return err
		}
		var id int64
		err = tx.QueryRowContext(ctx, `INSERT INTO releases (project_id, name, version, filter, split, sample_count, created_by, created_at, sealed)
			SELECT project_id, ?, ?, filter, split, ?, ?, ?, 0 FROM releases WHERE id = ? RETURNING id`,
			name, version, size, a.ID, d.now(), parent.ID).Scan(&id)
		if err != nil {
			return err
		}
		// The samples taken: a hard subset's kept candidates, a debiased one's
		// parent samples but the dropped candidates.
		taken := `JOIN hard_candidates c ON c.sample_id = x.sample_id WHERE x.release_id = ? AND c.subset_id = ? AND c.decision = 'keep'`
		if debiased {
			taken = `WHERE x.release_id = ? AND NOT EXISTS (SELECT 1 FROM hard_candidates c
				WHERE c.subset_id = ? AND c.sample_id = x.sample_id AND c.decision = 'drop')`
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO release_samples (release_id, sample_id, revision_id, split, image_path, image_sha256, width, height)
			SELECT ?, x.sample_id, x.revision_id, x.split, x.image_path, x.image_sha256, x.width, x.height
			FROM release_samples x `+taken, id, parent.ID, subsetID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO release_images (release_id, sample_id, pos, image_path, image_sha256, width, height)
			SELECT ?, x.sample_id, x.pos, x.image_path, x.image_sha256, x.width, x.height
			FROM release_images x `+taken, id, parent.ID, subsetID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE releases SET sealed = 1 WHERE id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE hard_subsets SET frozen_release_id = ? WHERE id = ?`, id, subsetID); err != nil {
			return err
		}
		detail := fmt.Sprintf("project %d, %d samples: hard subset %d of %s (%d of %d candidates kept; failed by at least %d of %d models, seed %d)",
			parent.ProjectID, size, subsetID, parent.Ref(), kept, len(cs), h.K, h.N, h.Seed)
		if debiased {
			detail = fmt.Sprintf("project %d, %d samples: debiased subset %d of %s (%d of %d proposed removals made; margin %s points, %d folds, seed %d)",
				parent.ProjectID, size, subsetID, parent.Ref(), dropped, len(cs), points(h.Margin), h.Folds, h.Seed)
		}
		if err := d.audit(ctx, tx, a.ID, "release.freeze", "release", name+"@"+version, detail); err != nil {
			return err
		}
		rel, err = releaseByID(ctx, tx, id)
		return err
	})
	if err != nil {
		return bench.Release{}, fmt.Errorf("freeze hard subset %d as %s@%s: %w", subsetID, name, version, err)
	}
	return rel, nil
}

// releaseCuration is the provenance of a release frozen from a hard subset, or
// nil for a release frozen from the project.
func releaseCuration(ctx context.Context, tx *sql.Tx, releaseID int64) (*release.Curation, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM hard_subsets WHERE frozen_release_id = ?`, releaseID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	h, err := hardSubsetByID(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	cs, err := hardCandidates(ctx, tx, h)
	if err != nil {
		return nil, err
	}
	c := &release.Curation{Method: "hard-subset", Parent: h.Release, Models: h.Models, K: h.K, N: h.N, Target: h.Target,
		Seed: h.Seed, Strict: h.Strict, Pool: h.Pool, Candidates: h.Candidates, Kept: h.Kept,
		ProposedBy: h.CreatedBy, ProposedAt: release.Stamp(h.CreatedAt)}
	if h.Kind == bench.SubsetDebiased {
		c.Method, c.Margin, c.Folds, c.Done, c.Detail = bench.SubsetDebiased, h.Margin, h.Folds, h.Done, h.Detail
		for _, t := range h.Tasks {
			c.Tasks = append(c.Tasks, release.CurationTask{Task: t.Task, N: t.N, Left: t.Left, Before: t.Before, After: t.After, Chance: t.Chance})
		}
	}
	for _, x := range cs {
		d := release.CurationDecision{SampleID: x.SampleID, Category: x.Category, FailedBy: x.FailedBy,
			Decision: x.Decision, Reason: x.Reason, DecidedBy: x.DecidedBy, DecidedAt: release.Stamp(x.DecidedAt)}
		if h.Kind == bench.SubsetDebiased {
			bias := x.Bias
			d.Shortcuts, d.Bias, d.Round = x.Shortcuts, &bias, x.Round
		}
		c.Decisions = append(c.Decisions, d)
	}
	return c, nil
}

func init() { afterMigration[32] = addDebiasedSubsets }

// addDebiasedSubsets is migration 32's Go part on SQLite (the SQL files say
// why): it adds hard_subsets.kind and pruning, hard_candidates.bias and
// prune_round, each unless it is there. PostgreSQL's file adds them itself.
func addDebiasedSubsets(d *DB, ctx context.Context, tx *sql.Tx) error {
	if d.pg {
		return nil
	}
	for _, c := range []struct{ table, col, decl string }{
		{"hard_subsets", "kind", `TEXT NOT NULL DEFAULT 'hard'`},
		{"hard_subsets", "pruning", `TEXT NOT NULL DEFAULT ''`},
		{"hard_candidates", "bias", `REAL`},
		{"hard_candidates", "prune_round", `INTEGER NOT NULL DEFAULT 0`},
	} {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('`+c.table+`') WHERE name = ?`, c.col).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, `ALTER TABLE `+c.table+` ADD COLUMN `+c.col+` `+c.decl); err != nil {
				return fmt.Errorf("add %s.%s: %w", c.table, c.col, err)
			}
		}
	}
	return nil
}

// points writes a share as points, as a lead gives them ("10", "7.5").
func points(share float64) string { return strconv.FormatFloat(100*share, 'f', -1, 64) }

// debiasChecks are the shortcut checks whose findings name a candidate's
// shortcut, in the order a candidate lists them.
var debiasChecks = []string{shortcut.CheckTextBaseline, shortcut.CheckOptionLength, shortcut.CheckAnswerPosition}

// ProposeDebiasedSubset runs the shortcut audit's text-only model on a frozen
// release's samples (the revisions it froze) and its iterative bias pruning
// (shortcut.Prune with in's margin, folds and seed), and stores the samples the
// pruning would remove as a debiased subset's candidates: each with its task,
// the shortcut checks whose findings name it (text-baseline when none does: the
// model answered it) and its bias score. The model is fitted outside the
// write, so a large release does not hold the database. Only leads may
// (verify.ActionCurateHard); a refusal is audited. A margin outside 0–100
// points, folds outside 2–20, a negative seed, a release on which no task is
// answerable without the images (nothing to prune) and a proposal with the same
// settings already made (ErrConflict, naming it) are refused.
func (d *DB) ProposeDebiasedSubset(ctx context.Context, actor bench.User, releaseRef string, in bench.DebiasInput) (bench.HardSubset, error) {
	h, err := d.proposeDebiased(ctx, actor, releaseRef, in)
	if err != nil {
		return bench.HardSubset{}, fmt.Errorf("propose a debiased subset of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return h, nil
}

func (d *DB) proposeDebiased(ctx context.Context, actor bench.User, releaseRef string, in bench.DebiasInput) (bench.HardSubset, error) {
	switch {
	case in.Margin < 0 || in.Margin >= 1 || math.IsNaN(in.Margin):
		return bench.HardSubset{}, fmt.Errorf("%w: the margin is %s points; give more than 0 and less than 100", bench.ErrInvalid, points(in.Margin))
	case in.Folds != 0 && (in.Folds < 2 || in.Folds > 20):
		return bench.HardSubset{}, fmt.Errorf("%w: %d folds; give 2 to 20", bench.ErrInvalid, in.Folds)
	case in.Seed < 0:
		return bench.HardSubset{}, fmt.Errorf("%w: the seed is %d; give 0 or more", bench.ErrInvalid, in.Seed)
	}
	if in.Margin == 0 {
		in.Margin = 0.10
	}
	if in.Folds == 0 {
		in.Folds = 5
	}
	in.Margin = math.Round(in.Margin*marginScale) / marginScale // as it is kept
	var (
		rel     bench.Release
		samples []annotate.Sample
	)
	err := d.readAs(ctx, actor, "hard.propose", func(tx *sql.Tx) error {
		var err error
		if _, rel, err = releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionCurateHard); err != nil {
			return err
		}
		items, err := releaseItems(ctx, tx, rel.ID)
		if err != nil {
			return err
		}
		samples = make([]annotate.Sample, len(items))
		for i, it := range items {
			samples[i] = it.Content
		}
		return nil
	})
	if err != nil {
		return bench.HardSubset{}, err
	}
	rep := shortcut.Audit(samples, shortcut.Options{Margin: in.Margin, Folds: in.Folds, Seed: uint64(in.Seed)})
	if err := ctx.Err(); err != nil {
		return bench.HardSubset{}, err
	}
	if len(rep.Prune.Removed) == 0 {
		return bench.HardSubset{}, fmt.Errorf("%w: no task of %s is answered from its text alone %s points or more above chance; there is nothing to prune",
			bench.ErrInvalid, rel.Ref(), points(in.Margin))
	}
	flags := map[string][]string{}
	for _, check := range debiasChecks {
		for _, r := range rep.Results {
			if r.Check == check && r.Finding {
				for _, id := range r.Samples {
					flags[id] = append(flags[id], check)
				}
			}
		}
	}
	rec := pruningRecord{Done: rep.Prune.Done, Detail: rep.Prune.Detail}
	for _, t := range rep.Prune.Tasks {
		rec.Tasks = append(rec.Tasks, bench.DebiasTask{Task: t.Task, N: t.N, Left: t.Left, Before: t.Before, After: t.After, Chance: t.Chance})
	}
	recJSON, err := json.Marshal(rec)
	if err != nil {
		return bench.HardSubset{}, err
	}
	margin := int(math.Round(in.Margin * marginScale))
	var h bench.HardSubset
	err = d.act(ctx, actor, "hard.propose", func(tx *sql.Tx) error {
		a, _, err := releaseFor(ctx, tx, actor, 0, strconv.FormatInt(rel.ID, 10), verify.ActionCurateHard)
		if err != nil {
			return err
		}
		var existing int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM hard_subsets WHERE kind = 'debiased' AND release_id = ? AND k = ? AND target = ? AND seed = ?`,
			rel.ID, in.Folds, margin, in.Seed).Scan(&existing)
		switch {
		case err == nil:
			return fmt.Errorf("%w: debiased subset %d of %s has these settings already", bench.ErrConflict, existing, rel.Ref())
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var id int64
		err = tx.QueryRowContext(ctx, `INSERT INTO hard_subsets (release_id, kind, models, k, target, seed, strict, pool, pruning, created_by, created_at)
			VALUES (?, 'debiased', '[]', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			rel.ID, in.Folds, margin, in.Seed, false, len(samples), string(recJSON), a.ID, d.now()).Scan(&id)
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO hard_candidates (subset_id, sample_id, category, failed_by, bias, prune_round) VALUES (?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, p := range rep.Prune.Removed {
			checks := flags[p.ID]
			if len(checks) == 0 {
				checks = []string{shortcut.CheckTextBaseline}
			}
			by, _ := json.Marshal(checks)
			if _, err := ins.ExecContext(ctx, id, p.ID, p.Task, string(by), p.Score, p.Round); err != nil {
				return err
			}
		}
		if err := d.audit(ctx, tx, a.ID, "hard.propose", "release", rel.Ref(),
			fmt.Sprintf("debiased subset %d: %d of %d samples proposed for removal (margin %s points, %d folds, seed %d)",
				id, len(rep.Prune.Removed), len(samples), points(in.Margin), in.Folds, in.Seed)); err != nil {
			return err
		}
		h, err = hardSubsetByID(ctx, tx, id)
		return err
	})
	return h, err
}
