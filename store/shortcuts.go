package store

// The shortcut audit of a project (issue 29): the report (package shortcut's
// checks over the project's samples and its images' hashes) and its one-click
// fix for skewed answer letters.

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// Shortcuts is the shortcut report of a project (shortcut.Audit): every check per
// task over the project's samples that are not withdrawn (drafts included: what
// the project will hold), with near-duplicate-image's results per task from the
// images' perceptual hashes (pairs whose thumbnails differ left out), sorted by
// task. Only a lead may (the audit's right: verify.ActionAuditRelease). bwctl
// shortcuts --db and the dashboard's Shortcuts tab show it.
func (d *DB) Shortcuts(ctx context.Context, actor bench.User, projectID int64, opt shortcut.Options) (shortcut.Report, error) {
	if err := opt.Check(); err != nil {
		return shortcut.Report{}, fmt.Errorf("shortcuts: %w: %w", bench.ErrInvalid, err)
	}
	var samples []annotate.Sample
	var images map[string]bench.Image
	var hashes map[string]uint64
	var dist int
	err := d.readAs(ctx, actor, "shortcuts.read", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAuditRelease); err != nil {
			return err
		}
		p, err := scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, projectID))
		if err != nil {
			return err
		}
		dist = p.Settings.NearDistance()
		infos, err := shortcutSamples(ctx, tx, projectID)
		if err != nil {
			return err
		}
		samples = make([]annotate.Sample, len(infos))
		for i, si := range infos {
			samples[i] = si.Content
		}
		if _, images, err = acceptedSelection(ctx, tx, projectID); err != nil {
			return err
		}
		hashes, err = imageHashes(ctx, tx, projectID)
		return err
	})
	if err == nil {
		err = d.completeImageHashes(ctx, images, hashes)
	}
	if err != nil {
		return shortcut.Report{}, fmt.Errorf("shortcuts: %w", err)
	}
	rep := shortcut.Audit(samples, opt)
	notAlike := d.notAlike(images, hashes, dist)
	near := shortcut.Confirmed(shortcut.NearDuplicates(samples, hashes, dist), notAlike)
	rep.Results = append(rep.Results, shortcut.NearResults(samples, near)...)
	slices.SortStableFunc(rep.Results, func(a, b shortcut.Result) int { return strings.Compare(a.Task, b.Task) })
	return rep, nil
}

// shortcutSamples are the project's samples the shortcut audit looks at: all but
// the withdrawn ones (and the planted copies, which sampleWhere lists to no one),
// by id.
func shortcutSamples(ctx context.Context, tx *sql.Tx, projectID int64) ([]bench.SampleInfo, error) {
	where, args := sampleWhere(projectID, bench.SampleFilter{})
	return queryAll(ctx, tx, scanSample, `SELECT `+sampleCols+sampleFrom+where+` AND s.status <> ? ORDER BY s.id`,
		append(args, string(verify.StateWithdrawn))...)
}

// RebalanceLetters is the answer-position check's fix (issue 29 item 1): the
// options of in.SampleIDs (empty: every multiple-choice sample of the tasks the
// check finds skewed under in.Options) are reordered so that each task's correct
// letters come as close as they can to chance's shares (shortcut.Rebalance,
// seeded by in.Options.Seed): each sample that moves gets a correction revision
// by the lead with in.Reason, its correct option swapped with the option at its
// new letter — the same question, options and answer, in another order. Its
// state and its reviews stay (they are copied onto the new revision, as a
// correction in a later round carries them): the reviewers judged the same
// content. Drafts and returned samples are their authors' to edit and are left
// as they are, as are samples whose text names option letters; the result says
// why for each. Only a lead may. A dry run writes nothing.
func (d *DB) RebalanceLetters(ctx context.Context, actor bench.User, in bench.RebalanceInput) (bench.RebalanceResult, error) {
	var out bench.RebalanceResult
	reason := strings.TrimSpace(in.Reason)
	err := d.act(ctx, actor, "samples.rebalance", func(tx *sql.Tx) error {
		out = bench.RebalanceResult{}
		a, err := requireProjectAction(ctx, tx, actor, in.ProjectID, verify.ActionAuditRelease)
		if err != nil {
			return err
		}
		if reason == "" && !in.DryRun {
			return fmt.Errorf("%w: a rebalance needs a reason, recorded with every sample it changes", bench.ErrInvalid)
		}
		if err := in.Options.Check(); err != nil {
			return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
		}
		infos, err := shortcutSamples(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		byID := make(map[string]bench.SampleInfo, len(infos))
		contents := make([]annotate.Sample, len(infos))
		for i, si := range infos {
			byID[si.ID] = si
			contents[i] = si.Content
		}
		chosen := map[string]bool{}
		if len(in.SampleIDs) == 0 {
			skewed := map[string]bool{}
			for _, r := range shortcut.Balance(contents, in.Options) {
				if r.Check == shortcut.CheckAnswerPosition && r.Finding {
					skewed[r.Task] = true
				}
			}
			for _, s := range contents {
				if skewed[cmp.Or(strings.TrimSpace(s.Task), string(s.Kind))] {
					chosen[s.ID] = true
				}
			}
		}
		for _, id := range in.SampleIDs {
			if _, ok := byID[id]; !ok {
				out.Left = append(out.Left, bench.Refusal{SampleID: id, Reason: "not a sample of this project that is not withdrawn"})
				continue
			}
			chosen[id] = true
		}
		for id := range chosen {
			switch st := byID[id].Status; st {
			case verify.StateDraft, verify.StateReturned:
				delete(chosen, id)
				out.Left = append(out.Left, bench.Refusal{SampleID: id, Reason: fmt.Sprintf("a %s sample is its author's to edit", st)})
			}
		}
		plan := shortcut.Rebalance(contents, func(id string) bool { return chosen[id] }, in.Options.Seed)
		out.Kept = plan.Kept
		for _, u := range plan.Left {
			out.Left = append(out.Left, bench.Refusal{SampleID: u.ID, Reason: u.Why})
		}
		slices.SortFunc(out.Left, func(x, y bench.Refusal) int { return cmp.Compare(x.SampleID, y.SampleID) })
		for _, m := range plan.Moves {
			mv := bench.LetterMove{SampleID: m.ID, Task: m.Task, From: annotate.AnswerLetter(m.From), To: annotate.AnswerLetter(m.To)}
			if !in.DryRun {
				cur := byID[m.ID]
				if err := d.rebalanceSample(ctx, tx, a, cur, m.Sample, reason, mv); err != nil {
					return fmt.Errorf("%s: %w", m.ID, err)
				}
				mv.Revision = cur.Revision + 1
			}
			out.Moved = append(out.Moved, mv)
		}
		return nil
	})
	if err != nil {
		return bench.RebalanceResult{}, fmt.Errorf("rebalance letters: %w", err)
	}
	return out, nil
}

// rebalanceSample writes one sample's reordered options as a correction
// revision by the lead a, carrying its current revision's reviews over, and
// audits it.
func (d *DB) rebalanceSample(ctx context.Context, tx *sql.Tx, a bench.User, cur bench.SampleInfo, s annotate.Sample, reason string, mv bench.LetterMove) error {
	revs, err := reviewsOf(ctx, tx, cur.RevisionID)
	if err != nil {
		return err
	}
	if err := d.addRevision(ctx, tx, a.ID, cur, s, "correction", reason); err != nil {
		return err
	}
	if err := carryReviews(ctx, tx, cur, domainReviews(revs)); err != nil {
		return err
	}
	// The version moves, so that whoever holds the sample open learns it changed.
	if _, err := tx.ExecContext(ctx, `UPDATE samples SET version = version + 1, updated_at = ? WHERE id = ?`, d.now(), cur.ID); err != nil {
		return err
	}
	return d.audit(ctx, tx, a.ID, "sample.rebalance", "sample", cur.ID,
		fmt.Sprintf("revision %d → %d: the answer %q moved from %s to %s, swapped with %q: %s",
			cur.Revision, cur.Revision+1, s.Options[s.AnswerIndex], mv.From, mv.To, cur.Content.Options[s.AnswerIndex], reason))
}
