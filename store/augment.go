package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Augmentation: candidates derived (package augment) from a project's accepted step
// graphs and yes/no questions about image sequences (LRR-Bench's shuffled
// negatives), which an annotator or lead accepts (a draft, or straight into round 1 as the
// project's settings say), takes to the editor, or discards. An accepted candidate is
// a sample like any other, verified through the rounds; the lineage table records its
// parent, the parent's revision and the transform.

// AugmentCandidates lists the candidates of a project's accepted step graphs and yes/no
// sequences not yet
// accepted or discarded, parents by id, each parent's in augment.Derive's order.
// Annotators and leads may.
func (d *DB) AugmentCandidates(ctx context.Context, actor bench.User, projectID int64, f bench.CandidateFilter) ([]bench.Candidate, error) {
	var out []bench.Candidate
	err := d.readAs(ctx, actor, "augment.list", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAugment); err != nil {
			return err
		}
		if f.Transform != "" && !f.Transform.Valid() {
			return fmt.Errorf("%w: unknown transform %q: use subgraph, expand or shuffle", bench.ErrInvalid, f.Transform)
		}
		var err error
		out, err = candidates(ctx, tx, projectID, f)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list augmentation candidates: %w", err)
	}
	return out, nil
}

// candidates derives, filters and checks the candidates of a project's accepted step
// graphs and yes/no questions.
func candidates(ctx context.Context, tx *sql.Tx, projectID int64, f bench.CandidateFilter) ([]bench.Candidate, error) {
	var ts []augment.Transform
	if f.Transform != "" {
		ts = []augment.Transform{f.Transform}
	}
	var out []bench.Candidate
	for _, kind := range []annotate.Kind{annotate.KindStepGraph, annotate.KindJudgment} {
		if !slices.ContainsFunc(cmpOr(ts, augment.Transforms), func(t augment.Transform) bool { return t.Applies(kind) }) {
			continue
		}
		var kts []augment.Transform
		for _, t := range ts {
			if t.Applies(kind) {
				kts = append(kts, t)
			}
		}
		cs, err := kindCandidates(ctx, tx, projectID, kind, f.Parent, kts)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	slices.SortStableFunc(out, func(a, b bench.Candidate) int { return strings.Compare(a.Parent, b.Parent) })
	return out, nil
}

// cmpOr is a unless it is empty, else b.
func cmpOr[T any](a, b []T) []T {
	if len(a) > 0 {
		return a
	}
	return b
}

// kindCandidates derives the candidates of the project's accepted samples of kind.
func kindCandidates(ctx context.Context, tx *sql.Tx, projectID int64, kind annotate.Kind, parent string, ts []augment.Transform) ([]bench.Candidate, error) {
	where, args := sampleWhere(projectID, bench.SampleFilter{Status: verify.StateAccepted, Kind: kind})
	if parent != "" {
		where += ` AND s.id = ?`
		args = append(args, parent)
	}
	parents, err := queryAll(ctx, tx, scanSample, `SELECT `+sampleCols+sampleFrom+where+` ORDER BY s.id`, args...)
	if err != nil || len(parents) == 0 {
		return nil, err
	}
	decided, err := decidedCandidates(ctx, tx, projectID)
	if err != nil {
		return nil, err
	}
	questions, err := imageQuestions(ctx, tx, projectID, kind)
	if err != nil {
		return nil, err
	}
	return bench.DeriveCandidates(parents, ts, decided, questions)
}

// decidedCandidates are the candidates of a project already accepted or discarded.
func decidedCandidates(ctx context.Context, tx *sql.Tx, projectID int64) (map[bench.CandidateRef]bool, error) {
	refs, err := queryAll(ctx, tx, func(r scanner) (bench.CandidateRef, error) {
		var c bench.CandidateRef
		var t string
		err := r.Scan(&c.Parent, &c.ParentRevision, &t, &c.Anchor)
		c.Transform = augment.Transform(t)
		return c, err
	}, `SELECT l.parent_id, l.parent_revision, l.transform, l.anchor FROM lineage l JOIN samples s ON s.id = l.parent_id WHERE s.project_id = ?
		UNION ALL SELECT a.parent_id, a.parent_revision, a.transform, a.anchor FROM augment_discards a JOIN samples s ON s.id = a.parent_id WHERE s.project_id = ?`,
		projectID, projectID)
	if err != nil {
		return nil, err
	}
	out := make(map[bench.CandidateRef]bool, len(refs))
	for _, r := range refs {
		out[r] = true
	}
	return out, nil
}

// imageQuestions maps images + normalised question (annotate.QuestionKey) to the
// sample asking it, for the project's samples of kind that are not withdrawn (the
// audit's duplicate-question rule over the samples a candidate would join).
func imageQuestions(ctx context.Context, tx *sql.Tx, projectID int64, kind annotate.Kind) (map[string]string, error) {
	where, args := sampleWhere(projectID, bench.SampleFilter{Kind: kind})
	ss, err := queryAll(ctx, tx, scanSample, `SELECT `+sampleCols+sampleFrom+where+` AND s.status != ? ORDER BY s.id`,
		append(args, string(verify.StateWithdrawn))...)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range ss {
		key := annotate.QuestionKey(s.Content)
		if out[key] == "" {
			out[key] = s.ID
		}
	}
	return out, nil
}

// findCandidate derives ref again from its parent's current revision.
func findCandidate(ctx context.Context, tx *sql.Tx, projectID int64, ref bench.CandidateRef) (bench.Candidate, bench.SampleInfo, error) {
	if !ref.Transform.Valid() {
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("%w: unknown transform %q: use subgraph, expand or shuffle", bench.ErrInvalid, ref.Transform)
	}
	p, err := getSample(ctx, tx, ref.Parent)
	if err != nil {
		return bench.Candidate{}, bench.SampleInfo{}, err
	}
	switch {
	case p.ProjectID != projectID:
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("sample %q: %w in this project", ref.Parent, bench.ErrNotFound)
	case !ref.Transform.Applies(p.Kind) || p.Status != verify.StateAccepted:
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("%w: %s is a %s sample in %s; %s candidates come from accepted %s", bench.ErrInvalid, p.ID, p.Kind, p.Status,
			ref.Transform, map[bool]string{true: "yes/no questions about image sequences", false: "step graphs"}[ref.Transform == augment.Shuffle])
	case p.Revision != ref.ParentRevision:
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("%w: %s is at revision %d, the candidate was made from revision %d; list the candidates again", bench.ErrConflict, p.ID, p.Revision, ref.ParentRevision)
	}
	decided, err := decidedCandidates(ctx, tx, projectID)
	if err != nil {
		return bench.Candidate{}, bench.SampleInfo{}, err
	}
	if decided[ref] {
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("%w: the candidate %s was accepted or discarded already", bench.ErrConflict, ref)
	}
	cs, err := augment.Derive(p.Content, ref.Transform)
	if err != nil {
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("%w: %v", bench.ErrInvalid, err)
	}
	i := slices.IndexFunc(cs, func(c augment.Candidate) bool { return c.Anchor == ref.Anchor })
	if i < 0 {
		return bench.Candidate{}, bench.SampleInfo{}, fmt.Errorf("candidate %s: %w", ref, bench.ErrNotFound)
	}
	return bench.NewCandidate(ref, p.Content, cs[i]), p, nil
}

// AcceptCandidate makes a candidate a sample of the acting annotator or lead, with
// its lineage: straight into round 1 (as their revision 1, lint warnings
// acknowledged) when the project's augment_to_round1 setting says so and toEdit is
// false, else their draft. toEdit takes a candidate to the editor: it becomes a draft
// even when it needs editing or has lint errors. A candidate that asks the same
// question as a sample on the same image, or was accepted or discarded already, is
// refused, and so is one with lint errors or marked for editing unless toEdit.
// Audited on the new sample ("sample.augment", naming the parent) and on the parent
// ("sample.derive").
func (d *DB) AcceptCandidate(ctx context.Context, actor bench.User, projectID int64, ref bench.CandidateRef, toEdit bool) (bench.SampleInfo, error) {
	var out bench.SampleInfo
	err := d.act(ctx, actor, "augment.accept", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAugment)
		if err != nil {
			return err
		}
		c, _, err := findCandidate(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		questions, err := imageQuestions(ctx, tx, projectID, c.Sample.Kind)
		if err != nil {
			return err
		}
		if dup := questions[annotate.QuestionKey(c.Sample)]; dup != "" {
			return fmt.Errorf("%w: %s asks the same question about the same images: %q", bench.ErrConflict, dup, c.Sample.Question)
		}
		if !toEdit && c.Edit != "" {
			return fmt.Errorf("%w: the candidate needs editing (%s); open it in the editor instead", bench.ErrInvalid, c.Edit)
		}
		p, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		toRound1 := p.Settings.AugmentToRound1 && !toEdit
		cur, err := d.createSample(ctx, tx, a, projectID, c.Sample, verify.StateDraft)
		if err != nil {
			return err
		}
		var warns, errs []string
		for _, f := range annotate.Lint(cur.Content, annotate.LintEnv{HandWritten: false}) {
			if f.Severity == annotate.SeverityError {
				errs = append(errs, fmt.Sprintf("%s (%s): %s", f.Rule, f.Field, f.Message))
			} else {
				warns = append(warns, f.Rule)
			}
		}
		if len(errs) > 0 && !toEdit {
			return fmt.Errorf("%w: the derived sample does not pass lint: %s", bench.ErrInvalid, strings.Join(errs, "; "))
		}
		now := d.now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO lineage (sample_id, parent_id, parent_revision, transform, anchor, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, cur.ID, ref.Parent, ref.ParentRevision, string(ref.Transform), ref.Anchor, a.ID, now); err != nil {
			return err
		}
		where := "draft of " + a.Name
		if toRound1 {
			if err := verify.Authorize(verify.EventSubmit, vuser(a), true); err != nil {
				return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
			}
			to, err := verify.Transition(cur.Status, verify.EventSubmit)
			if err != nil {
				return fmt.Errorf("%w: %v", bench.ErrForbidden, err)
			}
			warns = dedupe(warns)
			if err := d.addRevision(ctx, tx, a.ID, cur, cur.Content, "augment", strings.Join(warns, ",")); err != nil {
				return err
			}
			if err := d.setStatus(ctx, tx, a.ID, cur.ID, cur.Version, to, ""); err != nil {
				return err
			}
			where = "revision 1 by " + a.Name + " into round 1"
			if len(warns) > 0 {
				where += "; lint warnings acknowledged: " + strings.Join(warns, ", ")
			}
		}
		if err := d.audit(ctx, tx, a.ID, "sample.augment", "sample", cur.ID,
			fmt.Sprintf("%s of %s revision %d (from step %s); %s", ref.Transform, ref.Parent, ref.ParentRevision, ref.Anchor, where)); err != nil {
			return err
		}
		if err := d.audit(ctx, tx, a.ID, "sample.derive", "sample", ref.Parent,
			fmt.Sprintf("%s derived by %s of revision %d (from step %s)", cur.ID, ref.Transform, ref.ParentRevision, ref.Anchor)); err != nil {
			return err
		}
		out, err = getSample(ctx, tx, cur.ID)
		return err
	})
	if err != nil {
		return bench.SampleInfo{}, fmt.Errorf("accept candidate %s: %w", ref, err)
	}
	return out, nil
}

// DiscardCandidate records that a candidate is not wanted: it is not offered again
// for that revision of its parent. Audited on the parent ("augment.discard").
func (d *DB) DiscardCandidate(ctx context.Context, actor bench.User, projectID int64, ref bench.CandidateRef) error {
	err := d.act(ctx, actor, "augment.discard", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAugment)
		if err != nil {
			return err
		}
		if _, _, err := findCandidate(ctx, tx, projectID, ref); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO augment_discards (parent_id, parent_revision, transform, anchor, discarded_by, discarded_at)
			VALUES (?, ?, ?, ?, ?, ?)`, ref.Parent, ref.ParentRevision, string(ref.Transform), ref.Anchor, a.ID, d.now()); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "augment.discard", "sample", ref.Parent,
			fmt.Sprintf("%s candidate of revision %d (from step %s) discarded", ref.Transform, ref.ParentRevision, ref.Anchor))
	})
	if err != nil {
		return fmt.Errorf("discard candidate %s: %w", ref, err)
	}
	return nil
}

// SampleLineage says where a derived sample came from; ok is false for a sample that
// was not derived. Any member of its project may read it.
func (d *DB) SampleLineage(ctx context.Context, actor bench.User, sampleID string) (l bench.Lineage, ok bool, err error) {
	err = d.readAs(ctx, actor, "sample.lineage", func(tx *sql.Tx) error {
		if _, err := requireSampleAction(ctx, tx, actor, sampleID, verify.ActionReadSamples); err != nil {
			return err
		}
		var t string
		err := tx.QueryRowContext(ctx, `SELECT l.sample_id, l.parent_id, l.parent_revision, l.transform, l.anchor, u.name, l.created_at
			FROM lineage l JOIN users u ON u.id = l.created_by WHERE l.sample_id = ?`, sampleID).
			Scan(&l.Sample, &l.Parent, &l.ParentRevision, &t, &l.Anchor, &l.By, &l.At)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		l.Transform, ok = augment.Transform(t), err == nil
		return err
	})
	if err != nil {
		return bench.Lineage{}, false, fmt.Errorf("lineage of %s: %w", sampleID, err)
	}
	return l, ok, nil
}
