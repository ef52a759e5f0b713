package store

// PostgreSQL's half of an import's write (issue 25 item 3): the import's rows are
// written by a transaction that does not hold the write lock, beside the team's
// other writers, and the lock is taken only for the last step — checking again
// what the rows relied on, the summaries, the commit. Readers see none of the
// rows before that commit (MVCC), and a failure, a cancellation or a crash leaves
// nothing. SQLite's half is importInBatches (import_batches.go).
//
// "The write lock" here is the database's advisory lock (pgWriteLock) taken in
// exclusive mode. Every write transaction takes that lock (DB.inTx): exclusive
// when unscoped, shared when its context scopes it to one project or sample, with
// that project's or sample's lock exclusive (lockScope). Taken exclusive, it
// waits for every writer in progress and makes every writer wait, scoped or not.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/jackc/pgx/v5/pgconn"
)

// importBesideTries is how many times importBeside writes the rows beside others
// before it writes them holding the write lock throughout, as SQLite does: each
// try that met another writer's commit in its way (an id the file gives, taken
// meanwhile), or stood in another writer's way (importYield), is made again.
const importBesideTries = 4

// importBeside writes plan on PostgreSQL in one READ COMMITTED transaction:
//
//  1. without the write lock: the refusals are checked, each record's fate is
//     decided against the database as it is, and the rows are written in multi-row
//     statements (importWrite, beside): the samples, revisions, search rows and
//     words, and all but the last audit row. Their ids come from the sequences. The
//     images' counts are left out (benchwright.import_counts_images, migration
//     0026), so the import updates no row another writer updates: others' writes
//     go on, and none of them waits for this step;
//  2. with the write lock (exclusive, so no other writer runs): the refusals,
//     the images and the ids skipped as taken are checked again — each statement
//     now sees every commit before the lock —, then the summaries, the images'
//     counts and the last audit row are written (applyImportSums), and the
//     transaction commits. Only this step makes others wait.
//
// Readers see none of the rows before the commit (MVCC); a failure, a
// cancellation or a lost connection rolls all of them back.
//
// Another writer can still meet the import's uncommitted rows: a sample created
// with an id the import writes (createSample gives the project's next free number,
// as the import does to records without an id), a deletion of an image or project
// the rows refer to. That writer waits for the import's end while it holds the
// write lock, and every other writer waits behind it. So the import looks, before
// each of its statements and while it waits for the lock, for a writer waiting
// for it; if there is one, it rolls back at once and tries again (importYield), and
// that writer's commit decides the next try (the id is skipped or given anew). The
// unique keys keep the ids whatever the order: an insert that meets an id
// committed meanwhile fails, and the import tries again. After importBesideTries
// tries the import holds the write lock for all of its write, as SQLite's does.
// A refusal rolls everything back and is audited, as act does.
func (d *DB) importBeside(ctx context.Context, actor bench.User, projectID int64, plan importPlan, opt bench.ImportSamplesOptions) (bench.ImportSamplesResult, error) {
	var res bench.ImportSamplesResult
	var err error
	for attempt := 0; ; attempt++ {
		lockFirst := attempt >= importBesideTries
		var locked time.Time
		err = runTx(ctx, d.db, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, func(tx *sql.Tx) error {
			var err error
			res, locked, err = d.importBesideTx(ctx, tx, actor, projectID, plan, opt, lockFirst)
			return err
		})
		if importWriteTook != nil && !locked.IsZero() {
			importWriteTook(time.Since(locked))
		}
		if !errors.Is(err, errImportYield) && !pgRetry(err) && !isUniqueViolation(err) || attempt >= importBesideTries+20 {
			break
		}
		// Let the writer that waited for the import commit before it tries again.
		if err := sleepCtx(ctx, retryWait(attempt)+5*time.Millisecond); err != nil {
			return bench.ImportSamplesResult{}, err
		}
	}
	if why, refused := auditReason(err); refused {
		_ = d.inTx(ctx, func(tx *sql.Tx) error {
			return d.audit(ctx, tx, validActor(ctx, tx, actor.ID), "denied:sample.import", "user", actor.Name, why)
		})
	}
	if err != nil {
		return bench.ImportSamplesResult{}, err
	}
	return res, nil
}

// errImportYield rolls an attempt of importBeside back when another writer waits
// for its rows.
var errImportYield = errors.New("another writer waits for the import's rows")

// importBesideTx is one attempt of importBeside in tx; locked is when it asked
// for the write lock. With lockFirst it takes the write lock before it writes
// anything, and nobody waits for its rows but for the lock.
func (d *DB) importBesideTx(ctx context.Context, tx *sql.Tx, actor bench.User, projectID int64, plan importPlan, opt bench.ImportSamplesOptions, lockFirst bool) (res bench.ImportSamplesResult, locked time.Time, err error) {
	if lockFirst {
		locked = time.Now()
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))`, pgWriteLock); err != nil {
			return res, locked, fmt.Errorf("wait for the database: %w", err)
		}
	}
	a, author, err := importActors(ctx, tx, actor, projectID, opt)
	if err != nil {
		return res, locked, err
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('benchwright.import_counts_images', 'on', true)`); err != nil {
		return res, locked, fmt.Errorf("count the images in the import: %w", err)
	}
	var xid string
	if err := tx.QueryRowContext(ctx, `SELECT (txid_current() % 4294967296)::text`).Scan(&xid); err != nil {
		return res, locked, fmt.Errorf("name the import's transaction: %w", err)
	}
	waited := func() error {
		if lockFirst {
			return nil
		}
		return yieldToWaiters(ctx, tx, xid)
	}
	res, sums, err := d.importWrite(ctx, tx, a, author, projectID, plan, opt, importWay{beside: true}, waited)
	if err != nil {
		return res, locked, err
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('benchwright.import_counts_images', 'off', true)`); err != nil {
		return res, locked, fmt.Errorf("count the images in the import: %w", err)
	}
	if importBesideWritten != nil && !lockFirst {
		importBesideWritten()
	}

	if !lockFirst {
		locked = time.Now()
		if err := lockBeside(ctx, tx, xid); err != nil {
			return res, locked, err
		}
		if a, author, err = importActors(ctx, tx, actor, projectID, opt); err != nil {
			return res, locked, err
		}
		if author.ID != sums.author && sums.n > 0 {
			return res, locked, fmt.Errorf("%w: the samples' author changed while they were imported", bench.ErrConflict)
		}
		if _, err := d.importImagesStillHold(ctx, tx, projectID, plan.used); err != nil {
			return res, locked, err
		}
		var skipped []string
		for _, p := range res.Skipped {
			if p.Reason == bench.SkipExists {
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
	}
	if err := importSequencesPast(ctx, tx); err != nil {
		return res, locked, err
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

// importSequencesPast moves the sequences of the revisions' and search rows' ids
// past the largest there (the import's own among them), never back. The import
// took its ids from them with no lock held; a bulk write that numbers revisions
// itself after the largest committed id and then moves the sequence to follow
// (syncIdentity) may have moved it back among the import's ids meanwhile, and
// the next revision would take one of them.
func importSequencesPast(ctx context.Context, tx *sql.Tx) error {
	for _, seq := range [][2]string{{"revisions", "id"}, {"sample_search", "doc"}} {
		var name string
		if err := tx.QueryRowContext(ctx, `SELECT pg_get_serial_sequence('`+seq[0]+`', '`+seq[1]+`')`).Scan(&name); err != nil {
			return fmt.Errorf("move the %s ids on: %w", seq[0], err)
		}
		if _, err := tx.ExecContext(ctx, `SELECT setval('`+name+`', GREATEST((SELECT COALESCE(max(`+seq[1]+`), 1) FROM `+seq[0]+`), (SELECT last_value FROM `+name+`)))`); err != nil {
			return fmt.Errorf("move the %s ids on: %w", seq[0], err)
		}
	}
	return nil
}

// yieldToWaiters returns errImportYield when another transaction waits for
// transaction xid (the import's) to end: a row lock the import's rows hold.
func yieldToWaiters(ctx context.Context, tx *sql.Tx, xid string) error {
	var waiting bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted AND transactionid::text = ?)`, xid).Scan(&waiting); err != nil {
		return fmt.Errorf("look for writers waiting for the import: %w", err)
	}
	if waiting {
		return errImportYield
	}
	return nil
}

// lockBeside takes the write lock for the import's transaction xid, which holds
// rows others may wait for: it waits for the lock a short time at once, and in
// between yields (errImportYield) to a writer waiting for its rows, which holds
// the lock and would otherwise wait for the import as it waits for the lock.
func lockBeside(ctx context.Context, tx *sql.Tx, xid string) error {
	for {
		if _, err := tx.ExecContext(ctx, `SAVEPOINT bw_import_lock`); err != nil {
			return fmt.Errorf("wait for the database: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `SET LOCAL lock_timeout = '20ms'`); err != nil {
			return fmt.Errorf("wait for the database: %w", err)
		}
		_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))`, pgWriteLock)
		if err == nil {
			if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT bw_import_lock`); err != nil {
				return fmt.Errorf("wait for the database: %w", err)
			}
			_, err := tx.ExecContext(ctx, `SET LOCAL lock_timeout = 0`)
			return err
		}
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "55P03" { // lock_not_available
			return fmt.Errorf("wait for the database: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT bw_import_lock`); err != nil {
			return fmt.Errorf("wait for the database: %w", err)
		}
		if err := yieldToWaiters(ctx, tx, xid); err != nil {
			return err
		}
	}
}

// errImportRaced aborts an attempt of importBeside when a sample it skipped as
// existing was deleted before the import took the write lock: the import is
// decided again, so that it imports that record as a record-by-record import
// would.
var errImportRaced = fmt.Errorf("%w: a sample the import skipped as existing was deleted meanwhile", bench.ErrConflict)

// importRetry tells whether an attempt of an import must be made again.
func importRetry(err error) bool {
	return errors.Is(err, errImagesChanged) || errors.Is(err, errImportRaced)
}
