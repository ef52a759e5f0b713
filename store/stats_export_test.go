package store

import (
	"context"
	"database/sql"
)

// RebuildStats rebuilds a project's dashboard summaries from its rows in one
// transaction (rebuildStats), for tests that compare them with the summaries the
// store kept, or that changed rows behind the store's back.
func (d *DB) RebuildStats(ctx context.Context, projectID int64) error {
	return d.inTx(ctx, func(tx *sql.Tx) error { return d.rebuildStats(ctx, tx, projectID) })
}
