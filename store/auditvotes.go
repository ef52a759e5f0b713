package store

import (
	"context"
	"database/sql"
	"fmt"
)

func init() { afterMigration[30] = addAuditVotes }

// auditVote logs a vote (SubmitReview): an audit row whose vote_round and
// vote_revision carry the round and the revision voted on, which is how a
// sample's history knows the row for a vote (History), whatever its action and
// detail say.
func (d *DB) auditVote(ctx context.Context, tx *sql.Tx, actor int64, action, sampleID, detail string, round, revision int) error {
	err := execLater(ctx, tx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client, vote_round, vote_revision)
		VALUES (?, ?, ?, 'sample', ?, ?, ?, ?, ?)`, d.now(), actor, action, sampleID, detail, ClientAddr(ctx), round, revision)
	if err != nil {
		return fmt.Errorf("audit %s sample %s: %w", action, sampleID, err)
	}
	return nil
}

// legacyVoteActions are the actions votes were logged under before migration 30,
// whose detail alone said which round and revision they were on.
var legacyVoteActions = []string{"review.approve", "review.reject", "review.late"}

// addAuditVotes is migration 30's Go part (the SQL files say why): on SQLite it
// adds audit_log.vote_round and vote_revision; on both engines it fills them for
// the votes logged before, from their detail ("round 3 revision 2", a late vote's
// followed by ": approve"), the one place that reads those words. Re-runnable:
// rows filled already are left alone. The audit log is append-only; its update
// trigger is lifted for this one statement and put back as it was.
func addAuditVotes(d *DB, ctx context.Context, tx *sql.Tx) error {
	if !d.pg {
		for _, col := range []string{"vote_round", "vote_revision"} {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('audit_log') WHERE name = ?`, col).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				if _, err := tx.ExecContext(ctx, `ALTER TABLE audit_log ADD COLUMN `+col+` INTEGER`); err != nil {
					return fmt.Errorf("add audit_log.%s: %w", col, err)
				}
			}
		}
	}
	type vote struct {
		id              int64
		round, revision int
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (vote, error) {
		var v vote
		var detail string
		if err := r.Scan(&v.id, &detail); err != nil {
			return v, err
		}
		if _, err := fmt.Sscanf(detail, "round %d revision %d", &v.round, &v.revision); err != nil {
			v.id = 0 // not a vote's words: left as it is
		}
		return v, nil
	}, `SELECT id, detail FROM audit_log WHERE entity = 'sample' AND action IN (?, ?, ?) AND vote_round IS NULL ORDER BY id`,
		legacyVoteActions[0], legacyVoteActions[1], legacyVoteActions[2])
	if err != nil {
		return fmt.Errorf("read the votes logged: %w", err)
	}
	var votes []vote
	for _, v := range rows {
		if v.id != 0 {
			votes = append(votes, v)
		}
	}
	if len(votes) == 0 {
		return nil
	}
	return liftAppendOnly(d, ctx, tx, func() error {
		up, err := tx.PrepareContext(ctx, `UPDATE audit_log SET vote_round = ?, vote_revision = ? WHERE id = ?`)
		if err != nil {
			return err
		}
		defer up.Close()
		for _, v := range votes {
			if _, err := up.ExecContext(ctx, v.round, v.revision, v.id); err != nil {
				return fmt.Errorf("mark the vote logged as row %d: %w", v.id, err)
			}
		}
		return nil
	})
}

// liftAppendOnly runs fn, a migration's update of audit rows, with the audit
// log's update trigger lifted, and puts the trigger back as it was.
func liftAppendOnly(d *DB, ctx context.Context, tx *sql.Tx, fn func() error) error {
	lift, restore := `ALTER TABLE audit_log DISABLE TRIGGER audit_append_only_update`, `ALTER TABLE audit_log ENABLE TRIGGER audit_append_only_update`
	if !d.pg {
		var trigger string
		if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'audit_append_only_update'`).Scan(&trigger); err != nil {
			return fmt.Errorf("read the audit log's update trigger: %w", err)
		}
		lift, restore = `DROP TRIGGER audit_append_only_update`, trigger
	}
	if _, err := tx.ExecContext(ctx, lift); err != nil {
		return err
	}
	if err := fn(); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, restore)
	return err
}
