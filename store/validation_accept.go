package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// The bulk path of AcceptRest. Accepting a batch's rest writes, for every item,
// what createSample, addRevision and setStatus would: the sample (accepted, its
// version bumped once), its first revision ("import", the acknowledged lint
// warnings as its reason), the audit rows "sample.create", "revision.import",
// "sample.status" (draft → accepted) and "sample.accepted_by_sampling", its search
// entry and its stat_revisions row. The other summaries are counted in Go and
// written once per distinct row at the end, instead of a sample being uncounted
// and counted again at each of those steps (stats.go); they equal what the
// per-sample writers keep and what rebuildStats computes (TestAcceptRestSummaries).
// A sample accepted by sampling has no reviews, so it has no round 3 to decide.

// restItem is an unsampled item of a batch.
type restItem struct {
	line        int
	id, content string
	warns       string
}

// acceptSampled makes every item an accepted sample of author in project, accepted
// by a (who fired verify.EventAcceptSampled) at now, audited with why. It returns
// the ids in the order of items.
func (d *DB) acceptSampled(ctx context.Context, tx *sql.Tx, a, author bench.User, projectID int64, items []restItem, why, now string) ([]string, error) {
	to, err := verify.Transition(verify.StateDraft, verify.EventAcceptSampled)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", bench.ErrForbidden, err)
	}
	images := map[string]int64{}
	type img struct {
		rel string
		id  int64
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (img, error) {
		var x img
		return x, r.Scan(&x.rel, &x.id)
	}, `SELECT rel_path, id FROM images WHERE project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	for _, x := range rows {
		images[x.rel] = x.id
	}
	var revID int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM revisions`).Scan(&revID); err != nil {
		return nil, err
	}
	prep := func(q string) (*sql.Stmt, error) { return tx.PrepareContext(ctx, q) }
	insS, err := prep(`INSERT INTO samples (id, project_id, image_id, kind, status, author_id, draft, current_rev, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 2, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer insS.Close()
	insRev, err := prep(`INSERT INTO revisions (id, sample_id, number, content, author_id, change, reason, created_at) VALUES (?, ?, 1, ?, ?, 'import', ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer insRev.Close()
	insStat, err := prep(`INSERT INTO stat_revisions (revision_id, project_id, kind, author_id, categories, balanced, hop, view, task)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer insStat.Close()
	insAudit, err := prep(`INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, ?, 'sample', ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer insAudit.Close()
	insMore, err := prep(`INSERT INTO sample_images (sample_id, pos, image_id) VALUES (?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer insMore.Close()
	client := ClientAddr(ctx)
	audit := func(actor int64, action, id, detail string) error {
		if _, err := insAudit.ExecContext(ctx, now, actor, action, id, detail, client); err != nil {
			return fmt.Errorf("audit %s sample %s: %w", action, id, err)
		}
		return nil
	}

	type sampleKey struct{ kind string }
	type balanceKey struct {
		kind       string
		hop        int
		view, task string
	}
	bySample := map[sampleKey]int{}
	byBalance := map[balanceKey]int{}
	ids := make([]string, 0, len(items))
	for _, x := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var s annotate.Sample
		if err := json.Unmarshal([]byte(x.content), &s); err != nil {
			return nil, fmt.Errorf("decode item %s: %w", x.id, err)
		}
		s = annotate.TidyText(s)
		switch {
		case !s.Kind.Valid():
			return nil, fmt.Errorf("item %s: %w: unknown kind %q", x.id, bench.ErrInvalid, s.Kind)
		case annotate.CheckID(s.ID) != nil:
			return nil, fmt.Errorf("item %s: %w: %v", x.id, bench.ErrInvalid, annotate.CheckID(s.ID))
		}
		var imageID any
		if s.Image != "" {
			id, ok := images[s.Image]
			if !ok {
				return nil, fmt.Errorf("item %s: %w: image %q is not in the project", x.id, bench.ErrInvalid, s.Image)
			}
			imageID = id
		}
		if err := checkImageCount(s); err != nil {
			return nil, fmt.Errorf("item %s: %w", x.id, err)
		}
		more := make([]int64, len(s.MoreImages))
		for i, p := range s.MoreImages {
			id, ok := images[p]
			if !ok {
				return nil, fmt.Errorf("item %s: %w: image %q is not in the project", x.id, bench.ErrInvalid, p)
			}
			more[i] = id
		}
		content, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("encode item %s: %w", x.id, err)
		}
		revID++
		if _, err := insS.ExecContext(ctx, s.ID, projectID, imageID, string(s.Kind), string(to), author.ID, string(content), revID, now, now); err != nil {
			if isUniqueViolation(err) {
				return nil, fmt.Errorf("%w: a sample with id %q exists already", bench.ErrConflict, s.ID)
			}
			return nil, err
		}
		for i, id := range more {
			if _, err := insMore.ExecContext(ctx, s.ID, i+1, id); err != nil {
				return nil, fmt.Errorf("item %s: %w", x.id, err)
			}
		}
		if _, err := insRev.ExecContext(ctx, revID, s.ID, string(content), author.ID, x.warns, now); err != nil {
			return nil, fmt.Errorf("item %s: %w", x.id, err)
		}
		r := newStatsRev(projectID, string(s.Kind), author.ID, string(content))
		if _, err := insStat.ExecContext(ctx, revID, r.project, r.kind, r.author, r.categories, boolInt(r.balanced), r.hop, r.view, r.task); err != nil {
			return nil, fmt.Errorf("summary of item %s: %w", x.id, err)
		}
		bySample[sampleKey{r.kind}]++
		if r.balanced {
			byBalance[balanceKey{r.kind, r.hop, r.view, r.task}]++
		}
		for _, e := range []struct {
			actor          int64
			action, detail string
		}{
			{author.ID, "sample.create", string(s.Kind)},
			{author.ID, "revision.import", "revision 1"},
			{a.ID, "sample.status", bench.StatusChange{From: verify.StateDraft, To: to}.String()},
			{a.ID, "sample.accepted_by_sampling", why},
		} {
			if err := audit(e.actor, e.action, s.ID, e.detail); err != nil {
				return nil, err
			}
		}
		if err := indexSample(ctx, tx, s.ID); err != nil {
			return nil, err
		}
		ids = append(ids, s.ID)
	}
	if err := d.syncIdentity(ctx, tx, "revisions"); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return ids, nil
	}
	for k, n := range bySample {
		if _, err := tx.ExecContext(ctx, upStatSamples, projectID, k.kind, string(to), author.ID, n); err != nil {
			return nil, fmt.Errorf("summary of the accepted samples: %w", err)
		}
	}
	for k, n := range byBalance {
		if _, err := tx.ExecContext(ctx, upStatBalance, projectID, k.kind, k.hop, k.view, k.task, string(to), n); err != nil {
			return nil, fmt.Errorf("balance of the accepted samples: %w", err)
		}
	}
	day := bench.ActivityDay(now)
	for _, st := range []verify.State{verify.StateDraft, to} { // created, then accepted
		if _, err := tx.ExecContext(ctx, upStatActivity, projectID, day, string(st), len(ids)); err != nil {
			return nil, fmt.Errorf("activity of the accepted samples: %w", err)
		}
	}
	return ids, nil
}
