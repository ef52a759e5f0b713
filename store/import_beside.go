package store

// PostgreSQL's half of an import's write (issue 25 item 3): the import's rows are
// written by a transaction that does not hold the store's write lock, beside the
// team's other writers, and the lock is taken only for the last step — checking
// again what the rows relied on, the summaries, the commit. Readers see none of the
// rows before that commit (MVCC), and a failure, a cancellation or a crash leaves
// nothing. SQLite has one writer at a time and keeps the one write transaction of
// importSamples.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// importBesideTries is how many times importBeside writes the rows again when
// another writer's commit got in their way (an id the file gives, taken
// meanwhile; a deadlock PostgreSQL broke).
const importBesideTries = 5

// importBeside writes plan on PostgreSQL in one READ COMMITTED transaction:
//
//  1. without the write lock: the refusals are checked, each record's fate is
//     decided against the database as it is, and the rows are written in multi-row
//     statements (importWrite, beside): the samples, revisions, search rows and
//     words, and all but the last audit row. Their ids come from the sequences. The
//     images' counts are left out (benchwright.import_counts_images, migration
//     0026), so the import holds no row another writer updates: others' writes go
//     on, and none of them waits for this step;
//  2. with the write lock (pgWriteLock, as every writer takes it): the refusals,
//     the images and the ids skipped as taken are checked again — each statement
//     now sees every commit before the lock —, then the summaries, the images'
//     counts and the last audit row are written (applyImportSums), and the
//     transaction commits. Only this step makes others wait.
//
// The unique keys keep the ids: a sample another writer committed meanwhile with
// an id the import writes makes the insert fail, and the transaction is run again
// (importBesideTries), which skips that id or gives another. A refusal rolls
// everything back and is audited, as act does.
func (d *DB) importBeside(ctx context.Context, actor User, projectID int64, plan importPlan, opt ImportSamplesOptions) (ImportSamplesResult, error) {
	var res ImportSamplesResult
	var err error
	for attempt := 0; attempt < importBesideTries; attempt++ {
		var locked time.Time
		err = runTx(ctx, d.db, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, func(tx *sql.Tx) error {
			var err error
			res, locked, err = d.importBesideTx(ctx, tx, actor, projectID, plan, opt)
			return err
		})
		if importWriteTook != nil && !locked.IsZero() {
			importWriteTook(time.Since(locked))
		}
		if !pgRetry(err) && !isUniqueViolation(err) {
			break
		}
		if err := sleepCtx(ctx, retryWait(attempt)); err != nil {
			return ImportSamplesResult{}, err
		}
	}
	if why, refused := auditReason(err); refused {
		_ = d.inTx(ctx, func(tx *sql.Tx) error {
			return d.audit(ctx, tx, validActor(ctx, tx, actor.ID), "denied:sample.import", "user", actor.Name, why)
		})
	}
	if err != nil {
		return ImportSamplesResult{}, err
	}
	return res, nil
}

// importBesideTx is one attempt of importBeside in tx; locked is when it asked
// for the write lock.
func (d *DB) importBesideTx(ctx context.Context, tx *sql.Tx, actor User, projectID int64, plan importPlan, opt ImportSamplesOptions) (res ImportSamplesResult, locked time.Time, err error) {
	a, author, err := importActors(ctx, tx, actor, projectID, opt)
	if err != nil {
		return res, locked, err
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('benchwright.import_counts_images', 'on', true)`); err != nil {
		return res, locked, fmt.Errorf("count the images in the import: %w", err)
	}
	res, sums, err := d.importWrite(ctx, tx, a, author, projectID, plan, opt, true)
	if err != nil {
		return res, locked, err
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('benchwright.import_counts_images', 'off', true)`); err != nil {
		return res, locked, fmt.Errorf("count the images in the import: %w", err)
	}
	if importBesideWritten != nil {
		importBesideWritten()
	}

	locked = time.Now()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))`, pgWriteLock); err != nil {
		return res, locked, fmt.Errorf("wait for the database: %w", err)
	}
	if a, author, err = importActors(ctx, tx, actor, projectID, opt); err != nil {
		return res, locked, err
	}
	if author.ID != sums.author && sums.n > 0 {
		return res, locked, fmt.Errorf("%w: the samples' author changed while they were imported", ErrConflict)
	}
	if _, err := d.importImagesStillHold(ctx, tx, projectID, plan.used); err != nil {
		return res, locked, err
	}
	var skipped []string
	for _, p := range res.Skipped {
		if p.Reason == SkipExists {
			skipped = append(skipped, p.ID)
		}
	}
	taken, err := takenSampleIDs(ctx, tx, skipped)
	if err != nil {
		return res, locked, err
	}
	for _, id := range skipped {
		if !taken[id] {
			return res, locked, errImportRaced
		}
	}
	if err := d.applyImportSums(ctx, tx, projectID, sums); err != nil {
		return res, locked, err
	}
	if importBeforeCommit != nil {
		if err := importBeforeCommit(); err != nil {
			return res, locked, err
		}
	}
	return res, locked, nil
}

// errImportRaced aborts an attempt of importBeside when a sample it skipped as
// existing was deleted before the import took the write lock: the import is
// decided again, so that it imports that record as a record-by-record import
// would.
var errImportRaced = fmt.Errorf("%w: a sample the import skipped as existing was deleted meanwhile", ErrConflict)

// importRetry tells whether an attempt of an import must be made again.
func importRetry(err error) bool {
	return errors.Is(err, errImagesChanged) || errors.Is(err, errImportRaced)
}
