package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// The human baseline of a frozen release: a lead draws a stratified, seeded
// sample of its samples (score.DrawHuman), people answer it blind — they get the
// image, the question and the options, never the gold answer or box — and their
// answers, stored as the text the scoring rules read (score.HumanResponse), are
// scored by package score like a model's and shown as the leaderboard's Human
// row (score.EvaluatePeople).

// DrawHumanBaseline draws the human baseline of a frozen release: size of its
// samples a person can answer (score.HumanAnswerable), stratified by hop × view
// or kind × task and drawn with seed (score.DrawHuman). A release has one
// baseline. Only leads may (verify.ActionDrawHuman); a refusal is audited. A
// release with a baseline already (ErrConflict) or with nothing a person can
// answer (ErrInvalid) is refused.
func (d *DB) DrawHumanBaseline(ctx context.Context, actor bench.User, releaseRef string, size int, seed int64) (bench.HumanBaseline, error) {
	var b bench.HumanBaseline
	err := d.act(ctx, actor, "human.draw", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionDrawHuman)
		if err != nil {
			return err
		}
		if size < 0 {
			return fmt.Errorf("%w: the size %d is negative", bench.ErrInvalid, size)
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionDrawHuman)
		if err != nil {
			return err
		}
		if old, ok, err := humanBaseline(ctx, tx, rel); err != nil {
			return err
		} else if ok {
			return fmt.Errorf("%w: %s has a human baseline already (%d items, drawn by %s)", bench.ErrConflict, rel.Ref(), old.Items, old.CreatedBy)
		}
		items, err := releaseItems(ctx, tx, rel.ID)
		if err != nil {
			return err
		}
		gs := bench.Golds(items)
		chosen := score.DrawHuman(gs, size, seed)
		if len(chosen) == 0 {
			return fmt.Errorf("%w: %s holds no sample a person can answer (step graphs are not offered)", bench.ErrInvalid, rel.Ref())
		}
		var id int64
		err = tx.QueryRowContext(ctx, `INSERT INTO human_baselines (release_id, size, seed, created_by, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			rel.ID, size, seed, a.ID, d.now()).Scan(&id)
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO human_items (baseline_id, sample_id) VALUES (?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, i := range chosen {
			if _, err := ins.ExecContext(ctx, id, gs[i].Sample.ID); err != nil {
				return err
			}
		}
		if err := d.audit(ctx, tx, a.ID, "human.draw", "release", rel.Ref(), fmt.Sprintf("%d items, size %d, seed %d", len(chosen), size, seed)); err != nil {
			return err
		}
		b, _, err = humanBaseline(ctx, tx, rel)
		return err
	})
	if err != nil {
		return bench.HumanBaseline{}, fmt.Errorf("draw the human baseline of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return b, nil
}

// humanBaseline reads a release's baseline; ok is false when it has none.
func humanBaseline(ctx context.Context, tx *sql.Tx, rel bench.Release) (bench.HumanBaseline, bool, error) {
	b := bench.HumanBaseline{Release: rel.Ref()}
	err := tx.QueryRowContext(ctx, `SELECT b.id, b.size, b.seed, u.name, b.created_at,
			(SELECT count(*) FROM human_items i WHERE i.baseline_id = b.id),
			(SELECT count(DISTINCT user_id) FROM human_answers x WHERE x.baseline_id = b.id),
			(SELECT count(*) FROM human_answers x WHERE x.baseline_id = b.id)
		FROM human_baselines b JOIN users u ON u.id = b.created_by WHERE b.release_id = ?`, rel.ID).
		Scan(&b.ID, &b.Size, &b.Seed, &b.CreatedBy, &b.CreatedAt, &b.Items, &b.People, &b.Answers)
	if errors.Is(err, sql.ErrNoRows) {
		return bench.HumanBaseline{}, false, nil
	}
	return b, err == nil, err
}

// HumanBaselineOf returns a release's human baseline; ok is false when none was
// drawn. Everyone who may answer it may (verify.ActionAnswerHuman).
func (d *DB) HumanBaselineOf(ctx context.Context, actor bench.User, releaseRef string) (b bench.HumanBaseline, ok bool, err error) {
	err = d.readAs(ctx, actor, "human.read", func(tx *sql.Tx) error {
		if _, err := requireAction(ctx, tx, actor, verify.ActionAnswerHuman); err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionAnswerHuman)
		if err != nil {
			return err
		}
		b, ok, err = humanBaseline(ctx, tx, rel)
		return err
	})
	if err != nil {
		return bench.HumanBaseline{}, false, fmt.Errorf("the human baseline of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return b, ok, nil
}

// HumanItems lists the items of a release's human baseline as the acting person
// answers them: image, question and options only (HumanItem), with their own
// answer so far; by sample id. Everyone signed in may (verify.ActionAnswerHuman).
// A release without a baseline is ErrNotFound.
func (d *DB) HumanItems(ctx context.Context, actor bench.User, releaseRef string) ([]bench.HumanItem, error) {
	var out []bench.HumanItem
	err := d.readAs(ctx, actor, "human.read", func(tx *sql.Tx) error {
		a, rel, b, err := answerableBaseline(ctx, tx, actor, releaseRef)
		if err != nil {
			return err
		}
		items, err := queryAll(ctx, tx, func(r scanner) (bench.HumanItem, error) {
			var ans sql.NullString
			it, err := scanReleaseItemWith(r, &ans)
			if err != nil {
				return bench.HumanItem{}, err
			}
			return bench.NewHumanItem(it, ans.String), nil
		}, `SELECT `+releaseItemCols+`, x.response`+releaseItemFrom+`
			JOIN human_items hi ON hi.sample_id = rs.sample_id AND hi.baseline_id = ?
			LEFT JOIN human_answers x ON x.baseline_id = hi.baseline_id AND x.sample_id = hi.sample_id AND x.user_id = ?
			WHERE rs.release_id = ? ORDER BY rs.sample_id`, b.ID, a.ID, rel.ID)
		out = items
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("human baseline items of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	return out, nil
}

// scanReleaseItemWith reads a release item followed by one more column.
func scanReleaseItemWith(r scanner, extra any) (bench.ReleaseItem, error) {
	return scanReleaseItem(extraScanner{r, extra})
}

// extraScanner appends a destination to every Scan.
type extraScanner struct {
	r     scanner
	extra any
}

func (e extraScanner) Scan(dest ...any) error { return e.r.Scan(append(dest, e.extra)...) }

// AnswerHuman stores the acting person's answer to an item of a release's human
// baseline, written as the response text the scoring rules read
// (score.HumanResponse); answering again replaces their answer. Everyone signed
// in may (verify.ActionAnswerHuman). An item not in the baseline (ErrNotFound)
// and an answer the sample cannot take (ErrInvalid) are refused.
func (d *DB) AnswerHuman(ctx context.Context, actor bench.User, releaseRef, sampleID string, ans score.HumanAnswer) error {
	err := d.act(ctx, actor, "human.answer", func(tx *sql.Tx) error {
		a, rel, b, err := answerableBaseline(ctx, tx, actor, releaseRef)
		if err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM human_items WHERE baseline_id = ? AND sample_id = ?`, b.ID, sampleID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("sample %s: %w among the baseline's items", sampleID, bench.ErrNotFound)
		}
		it, err := releaseItem(ctx, tx, rel, sampleID)
		if err != nil {
			return err
		}
		text, err := score.HumanResponse(it.Gold(), ans)
		if err != nil {
			return scoreError(ctx, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO human_answers (baseline_id, sample_id, user_id, response, answered_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (baseline_id, sample_id, user_id) DO UPDATE SET response = excluded.response, answered_at = excluded.answered_at`,
			b.ID, sampleID, a.ID, text, d.now()); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "human.answer", "release", rel.Ref(), "sample "+sampleID)
	})
	if err != nil {
		return fmt.Errorf("answer %s of the human baseline of %s: %w", sampleID, d.releaseWords(ctx, actor, releaseRef), err)
	}
	return nil
}

// HumanReport scores the answers to a release's human baseline like a model's
// (score.EvaluatePeople with opt): one report named "Human (3 people, 120
// items)", every answer one sample. ok is false when the release has no
// baseline or nobody has answered it. Verifiers and leads may, as they may see
// the models' scores (verify.ActionSeeScores); a refusal is audited.
func (d *DB) HumanReport(ctx context.Context, actor bench.User, releaseRef string, opt score.Options) (rep *score.Report, ok bool, err error) {
	var (
		gs     []score.Gold
		people []score.PersonAnswers
	)
	err = d.readAs(ctx, actor, "scores.read", func(tx *sql.Tx) error {
		gs, people = nil, nil
		if _, err := requireAction(ctx, tx, actor, verify.ActionSeeScores); err != nil {
			return err
		}
		_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionSeeScores)
		if err != nil {
			return err
		}
		if opt, err = withLRRWeights(ctx, tx, rel.ProjectID, opt); err != nil { // store/settings.go
			return err
		}
		b, has, err := humanBaseline(ctx, tx, rel)
		if err != nil || !has || b.Answers == 0 {
			return err
		}
		items, err := queryAll(ctx, tx, scanReleaseItem, `SELECT `+releaseItemCols+releaseItemFrom+`
			JOIN human_items hi ON hi.sample_id = rs.sample_id AND hi.baseline_id = ? WHERE rs.release_id = ? ORDER BY rs.sample_id`, b.ID, rel.ID)
		if err != nil {
			return err
		}
		if err := releaseMoreImages(ctx, tx, rel.ID, items); err != nil {
			return err
		}
		gs = bench.Golds(items)
		rows, err := queryAll(ctx, tx, func(r scanner) (x score.PersonPrediction, err error) {
			err = r.Scan(&x.Person, &x.SampleID, &x.Response)
			return
		}, `SELECT u.name, x.sample_id, x.response FROM human_answers x JOIN users u ON u.id = x.user_id
			WHERE x.baseline_id = ? ORDER BY u.name, x.sample_id`, b.ID)
		people = score.GroupPeople(rows)
		return err
	})
	if err != nil {
		return nil, false, fmt.Errorf("score the human baseline of %s: %w", d.releaseWords(ctx, actor, releaseRef), err)
	}
	if len(people) == 0 {
		return nil, false, nil
	}
	rep, _, err = score.EvaluatePeople(ctx, gs, people, opt)
	if err != nil {
		return nil, false, fmt.Errorf("score the human baseline of %s: %w", d.releaseWords(ctx, actor, releaseRef), scoreError(ctx, err))
	}
	return rep, true, nil
}

// answerableBaseline is the preamble of the calls of a person answering a
// release's human baseline: the acting user (who must be allowed to answer), the
// release and its baseline; a release without one is ErrNotFound.
func answerableBaseline(ctx context.Context, tx *sql.Tx, actor bench.User, releaseRef string) (bench.User, bench.Release, bench.HumanBaseline, error) {
	a, err := requireAction(ctx, tx, actor, verify.ActionAnswerHuman)
	if err != nil {
		return bench.User{}, bench.Release{}, bench.HumanBaseline{}, err
	}
	_, rel, err := releaseFor(ctx, tx, actor, 0, releaseRef, verify.ActionAnswerHuman)
	if err != nil {
		return bench.User{}, bench.Release{}, bench.HumanBaseline{}, err
	}
	b, ok, err := humanBaseline(ctx, tx, rel)
	if err != nil {
		return bench.User{}, bench.Release{}, bench.HumanBaseline{}, err
	}
	if !ok {
		return bench.User{}, bench.Release{}, bench.HumanBaseline{}, fmt.Errorf("%w: no human baseline is drawn on %s", bench.ErrNotFound, rel.Ref())
	}
	return a, rel, b, nil
}
