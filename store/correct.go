package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Correct records a verifier's correction instead of a decision: a new immutable
// revision attributed to the corrector (change "correction", the comment as its
// reason). Only someone who may review the sample in that round right now may correct
// it (verify.CanReview: not its author or a corrector, a free seat, the revision they
// looked at). The corrected content must pass lint without errors; its warnings are
// accepted with the correction and named in the audit log. verify.Correct decides the
// new state: with the default policy the corrected revision re-enters round 1 with no
// reviews; otherwise it stays in its round and the earlier rounds' reviews are copied
// onto it. Every claim on the sample is released.
func (d *DB) Correct(ctx context.Context, actor bench.User, in bench.CorrectionInput) (bench.SampleInfo, error) {
	in.Content = annotate.TidyText(in.Content) // no stray spaces; a reworded question keeps its tags
	var out bench.SampleInfo
	err := d.act(ctx, actor, "sample.correct", func(tx *sql.Tx) error {
		a, err := requireSampleAction(ctx, tx, actor, in.SampleID, verify.ActionCorrect)
		if err != nil {
			return err
		}
		cur, err := getSample(ctx, tx, in.SampleID)
		if err != nil {
			return err
		}
		c, p, err := d.reviewContext(ctx, tx, cur, a, in.Round, in.BasedOn)
		if err != nil {
			return err
		}
		to, carried, err := verify.Correct(p, c)
		if err != nil {
			return refusal(err)
		}
		comment := strings.TrimSpace(in.Comment)
		if comment == "" {
			return fmt.Errorf("%w: a correction needs a comment saying what was corrected and why", bench.ErrInvalid)
		}
		s := in.Content
		if s.ID != "" && s.ID != cur.ID {
			return fmt.Errorf("%w: the corrected content has id %q, not %q", bench.ErrInvalid, s.ID, cur.ID)
		}
		if s.Kind != "" && s.Kind != cur.Kind {
			return fmt.Errorf("%w: a correction cannot change the kind (%s to %s)", bench.ErrInvalid, cur.Kind, s.Kind)
		}
		s.ID, s.Kind = cur.ID, cur.Kind
		imageID, err := imageIDFor(ctx, tx, cur.ProjectID, s.Image)
		if err != nil {
			return err
		}
		warnings, err := lintErrors(ctx, tx, cur.ProjectID, s)
		if err != nil {
			return err
		}
		if err := d.addRevision(ctx, tx, a.ID, cur, s, "correction", comment); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE samples SET image_id = ? WHERE id = ?`, imageID, cur.ID); err != nil {
			return err
		}
		if err := setSampleImages(ctx, tx, cur.ProjectID, cur.ID, s); err != nil {
			return err
		}
		if err := carryReviews(ctx, tx, cur, carried); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ?`, cur.ID); err != nil {
			return err
		}
		if err := d.setStatus(ctx, tx, a.ID, cur.ID, cur.Version, to, ""); err != nil {
			return err
		}
		detail := fmt.Sprintf("round %d revision %d → %d: %s", in.Round, cur.Revision, cur.Revision+1, comment)
		if len(warnings) > 0 {
			detail += " (lint warnings accepted: " + strings.Join(warnings, ", ") + ")"
		}
		if err := d.audit(ctx, tx, a.ID, "sample.correct", "sample", cur.ID, detail); err != nil {
			return err
		}
		out, err = getSample(ctx, tx, cur.ID)
		return err
	})
	if err != nil {
		return bench.SampleInfo{}, fmt.Errorf("correct %s: %w", in.SampleID, err)
	}
	return out, nil
}

// lintErrors refuses content with lint errors (ErrInvalid naming each finding) and
// returns the rule ids of its warnings.
func lintErrors(ctx context.Context, tx *sql.Tx, projectID int64, s annotate.Sample) ([]string, error) {
	var problems, warnings []string
	for _, f := range annotate.Lint(s, lintEnv(ctx, tx, projectID)) {
		if f.Severity == annotate.SeverityError {
			problems = append(problems, fmt.Sprintf("%s (%s): %s", f.Rule, f.Field, f.Message))
		} else {
			warnings = append(warnings, f.Rule)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: lint errors: %s", bench.ErrInvalid, strings.Join(problems, "; "))
	}
	return warnings, nil
}

// lintEnv is the lint environment of hand-written content in a project: box bounds
// are checked against the project's image sizes.
func lintEnv(ctx context.Context, tx *sql.Tx, projectID int64) annotate.LintEnv {
	return annotate.LintEnv{HandWritten: true, ImageSize: func(path string) (int, int, bool) {
		var w, h int
		err := tx.QueryRowContext(ctx, `SELECT width, height FROM images WHERE project_id = ? AND rel_path = ?`, projectID, path).Scan(&w, &h)
		return w, h, err == nil
	}, ImageLimits: projectImageLimits(ctx, tx, projectID)}
}

// carryReviews copies the reviews verify.Correct carried over from cur's revision onto
// the revision that was just added (cur.Revision+1), so that the new revision's review
// context holds them, and counts them in the summaries (stats.go).
func carryReviews(ctx context.Context, tx *sql.Tx, cur bench.SampleInfo, carried []verify.Review) error {
	if len(carried) == 0 {
		return nil
	}
	var newRev int64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM revisions WHERE sample_id = ? AND number = ?`, cur.ID, cur.Revision+1).Scan(&newRev); err != nil {
		return err
	}
	for _, rv := range carried {
		crit, _ := json.Marshal(rv.Judgements)
		reasons, _ := json.Marshal(rv.Reasons)
		if rv.Reasons == nil {
			reasons = []byte("[]")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at)
			SELECT sample_id, ?, round, verifier_id, ?, decision, ?, comment, 0, created_at FROM reviews
			WHERE revision_id = ? AND round = ? AND verifier_id = ?`,
			newRev, string(crit), string(reasons), cur.RevisionID, rv.Round, rv.Reviewer); err != nil {
			return err
		}
	}
	// The new revision's reviews are the ones just carried.
	type carriedReview struct {
		statsReview
		reasons string
	}
	rs, err := queryAll(ctx, tx, func(r scanner) (carriedReview, error) {
		var c carriedReview
		return c, r.Scan(&c.id, &c.round, &c.verifier, &c.decision, &c.seconds, &c.reasons)
	}, `SELECT id, round, verifier_id, decision, seconds, reasons FROM reviews WHERE revision_id = ? ORDER BY id`, newRev)
	if err != nil {
		return err
	}
	for _, c := range rs {
		if err := statsReviewAdded(ctx, tx, newRev, c.statsReview, rejectReasons(c.reasons), nil); err != nil {
			return err
		}
	}
	return nil
}
