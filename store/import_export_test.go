package store

import (
	"context"
	"database/sql"
	"time"
)

// ImportHooks are the points of an import tests and benchmarks watch or act at (see
// importPrepareBatch and the hooks beside it); zero fields leave them as they are.
type ImportHooks struct {
	Batch        int                   // records per preparation batch
	BatchDone    func(done, total int) // after each preparation batch
	BeforeCommit func() error          // in the write transaction, after its writes
	WriteTook    func(time.Duration)   // the write transaction's time (on PostgreSQL, its part under the write lock)
	// Written runs on PostgreSQL when the import's rows are written, before it
	// asks for the write lock (importBeside); SQLite never calls it.
	Written func()
}

// SetImportHooks sets h for the rest of the test.
func SetImportHooks(t interface{ Cleanup(func()) }, h ImportHooks) {
	batch, done, before, took, written := importPrepareBatch, importBatchDone, importBeforeCommit, importWriteTook, importBesideWritten
	t.Cleanup(func() {
		importPrepareBatch, importBatchDone, importBeforeCommit, importWriteTook, importBesideWritten = batch, done, before, took, written
	})
	if h.Batch > 0 {
		importPrepareBatch = h.Batch
	}
	importBatchDone, importBeforeCommit, importWriteTook, importBesideWritten = h.BatchDone, h.BeforeCommit, h.WriteTook, h.Written
}

// RebuildSearch writes a project's search rows anew from its samples
// (rebuildSearch), for tests that compare them with the rows the store kept.
func (d *DB) RebuildSearch(ctx context.Context, projectID int64) error {
	return d.inTx(ctx, func(tx *sql.Tx) error { return rebuildSearch(ctx, tx, projectID) })
}
