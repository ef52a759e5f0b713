package store

import (
	"context"
	"database/sql"
)

// AuditSampleRow writes an audit row about a sample as the store's writers do:
// a vote's (auditVote, carrying round and revision) when round > 0, any other
// row (audit) when round is 0. Tests write rows whose words and values disagree.
func (d *DB) AuditSampleRow(ctx context.Context, actor int64, action, sampleID, detail string, round, revision int) error {
	return d.inTx(ctx, func(tx *sql.Tx) error {
		if round > 0 {
			return d.auditVote(ctx, tx, actor, action, sampleID, detail, round, revision)
		}
		return d.audit(ctx, tx, actor, action, "sample", sampleID, detail)
	})
}

// ForgetLoggedVotes makes the audit log look as a database logged before
// migration 30 left it: no row carries a vote's round and revision.
func (d *DB) ForgetLoggedVotes(ctx context.Context) error {
	return d.inTx(ctx, func(tx *sql.Tx) error {
		return liftAppendOnly(d, ctx, tx, func() error {
			_, err := tx.ExecContext(ctx, `UPDATE audit_log SET vote_round = NULL, vote_revision = NULL`)
			return err
		})
	})
}

// MigrateLoggedVotes runs migration 30's Go part (addAuditVotes) again.
func (d *DB) MigrateLoggedVotes(ctx context.Context) error {
	return d.inTx(ctx, func(tx *sql.Tx) error { return addAuditVotes(d, ctx, tx) })
}

// TouchAuditLog updates every audit row in place, as the append-only trigger
// refuses.
func (d *DB) TouchAuditLog(ctx context.Context) error {
	return d.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE audit_log SET detail = detail`)
		return err
	})
}
