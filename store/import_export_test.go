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
	// Written runs when the import's rows are written and it is about to make
	// them visible: on PostgreSQL before it asks for the write lock
	// (importBeside), on SQLite after its last batch (importInBatches).
	Written func()
	// SQLite: records per write transaction, and after each one's commit.
	WriteBatch   int
	BatchWritten func(done, total int)
}

// SetImportHooks sets h for the rest of the test.
func SetImportHooks(t interface{ Cleanup(func()) }, h ImportHooks) {
	batch, done, before, took, written := importPrepareBatch, importBatchDone, importBeforeCommit, importWriteTook, importBesideWritten
	wbatch, wdone, target := importWriteBatch, importBatchWritten, importWriteTarget
	t.Cleanup(func() {
		importPrepareBatch, importBatchDone, importBeforeCommit, importWriteTook, importBesideWritten = batch, done, before, took, written
		importWriteBatch, importBatchWritten, importWriteTarget = wbatch, wdone, target
	})
	if h.Batch > 0 {
		importPrepareBatch = h.Batch
	}
	if h.WriteBatch > 0 {
		importWriteBatch, importWriteTarget = h.WriteBatch, 0
	}
	importBatchDone, importBeforeCommit, importWriteTook, importBesideWritten = h.BatchDone, h.BeforeCommit, h.WriteTook, h.Written
	importBatchWritten = h.BatchWritten
}

// RebuildSearch writes a project's search rows anew from its samples
// (rebuildSearch), for tests that compare them with the rows the store kept.
func (d *DB) RebuildSearch(ctx context.Context, projectID int64) error {
	return d.inTx(ctx, func(tx *sql.Tx) error { return rebuildSearch(ctx, tx, projectID) })
}
