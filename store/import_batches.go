package store

// SQLite's half of an import's write (issue 25 item 3). SQLite has one writer at a
// time, so an import written in one transaction made every other write of the team
// wait for all of it (about 1.5 s for 20,000 records, index and full-text upkeep).
// Instead the rows are written in short write transactions of importWriteBatch
// records each, and the team's other writes commit between them:
//
//  1. a row of import_batches (migration 27) opens the import, under way;
//  2. each batch's transaction writes its records' rows (importWrite), every row
//     marked with the batch's id (import_batch);
//  3. one short transaction checks again that the user may import, writes the
//     summaries and the last audit rows, and marks the import done.
//
// Readers see none of the rows before that last commit: their connections read
// the six tables an import writes through views of the same name that leave out
// the rows of an import under way (readerDriver). Their consistency is the
// writer's too: a sample a reader cannot see cannot be claimed, reviewed or edited
// through any screen or call (the ids come from reads), and writers that choose
// samples themselves leave those rows out (notImporting) or wait for the import
// (importUnderway). The import stays all or nothing: a failure, a cancellation or
// a refusal at step 3 removes every row the import wrote (dropImport); a crash
// leaves them hidden until the next open of the database, or the next import,
// removes them (dropStaleImports).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/mattn/go-sqlite3"
)

// importWriteBatch is how many records the first write transaction of a SQLite
// import writes; each next one writes as many as the last took importWriteTarget
// for (between importWriteMin and importWriteMax), so that a loaded machine
// writes smaller batches and no other write waits much longer than the target.
// On a 2-core machine 500 records take 40–90 ms (BenchmarkImportWhileOthersWrite).
// A test that sets the batch (ImportHooks.WriteBatch) sets the target to 0: every
// batch is that size.
var (
	importWriteBatch  = 500
	importWriteTarget = 50 * time.Millisecond
)

const (
	importWriteMin = 50
	importWriteMax = 5000
)

// nextWriteBatch is the size of the batch after one of n records that took took.
func nextWriteBatch(n int, took time.Duration) int {
	if importWriteTarget <= 0 || took <= 0 {
		return n
	}
	next := int(float64(n) * float64(importWriteTarget) / float64(took))
	return min(importWriteMax, max(importWriteMin, next, n/2), 2*n) // at most halved or doubled each time
}

// importBatchWritten, when set (by tests), runs after each of a SQLite import's
// batches committed, with the records written so far and their number.
var importBatchWritten func(done, total int)

// importStale is how long an import under way may go without writing a batch
// before it is taken for lost (its process killed) and removed. A living import
// writes a batch every few tens of milliseconds.
const importStale = 2 * time.Minute

// importTables are the tables an import writes rows of, each with the column
// import_batch; readers' views leave out the rows of an import under way.
var importTables = []string{"samples", "sample_images", "revisions", "stat_revisions", "sample_search", "audit_log"}

// notImporting is the condition that the row of a table of importTables (alias,
// with its dot, or "") is not one of an import under way, for writers that choose
// samples by a query rather than by an id a reader gave them.
func notImporting(alias string) string { return "(" + importSettled(alias) + ")" }

// importSettled is notImporting without its parentheses.
func importSettled(alias string) string {
	return alias + "import_batch IS NULL OR " + alias + "import_batch NOT IN (SELECT id FROM import_batches WHERE done_at IS NULL)"
}

// readerDriver is the driver of a SQLite database's reader connections: each
// connection shadows the tables of importTables with temporary views of the same
// name (SQLite looks in the temp schema first) that leave out the rows of an
// import under way, then is made query-only.
const readerDriver = "sqlite3_benchwright_reader"

func init() {
	sql.Register(readerDriver, &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, t := range importTables {
			q := `CREATE TEMP VIEW ` + t + ` AS SELECT * FROM main.` + t + ` WHERE ` + strings.ReplaceAll(notImporting(""), "import_batches", "main.import_batches")
			if _, err := c.Exec(q, nil); err != nil {
				return fmt.Errorf("reader view of %s: %w", t, err)
			}
		}
		_, err := c.Exec(`PRAGMA query_only = 1`, nil)
		return err
	}})
}

func init() { afterMigration[27] = addImportBatches }

// addImportBatches is migration 27's part on SQLite (the SQL file says why).
// Re-runnable; on PostgreSQL the SQL file does it all.
func addImportBatches(d *DB, ctx context.Context, tx *sql.Tx) error {
	if d.pg {
		return nil
	}
	for _, t := range importTables {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info(?) WHERE name = 'import_batch'`, t).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, `ALTER TABLE `+t+` ADD COLUMN import_batch INTEGER`); err != nil {
				return fmt.Errorf("add %s.import_batch: %w", t, err)
			}
		}
	}
	for _, q := range []string{
		`DROP TRIGGER IF EXISTS revisions_immutable_delete`,
		`CREATE TRIGGER revisions_immutable_delete BEFORE DELETE ON revisions WHEN ` + importSettled("OLD.") + `
		BEGIN SELECT RAISE(ABORT, 'revisions are immutable'); END`,
		`DROP TRIGGER IF EXISTS audit_append_only_delete`,
		`CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit_log WHEN ` + importSettled("OLD.") + `
		BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// importUnderway refuses, with ErrConflict, a writer that rebuilds a project's
// rows from its samples while an import into it is under way.
func importUnderway(ctx context.Context, tx *sql.Tx, projectID int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM import_batches WHERE project_id = ? AND done_at IS NULL`, projectID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w: an import of samples into this project is under way; try again when it has ended", bench.ErrConflict)
	}
	return nil
}

// errImportLost ends an import whose rows were removed while it waited (its
// process paused past importStale, and another took it for lost).
var errImportLost = fmt.Errorf("%w: the import paused too long and was taken for lost; import again", bench.ErrConflict)

// importInBatches writes plan on SQLite in batches (see the top of this file).
func (d *DB) importInBatches(ctx context.Context, actor bench.User, projectID int64, plan importPlan, opt bench.ImportSamplesOptions) (bench.ImportSamplesResult, error) {
	if err := d.dropStaleImports(ctx); err != nil {
		return bench.ImportSamplesResult{}, err
	}
	var batch int64
	err := d.act(ctx, actor, "sample.import", func(tx *sql.Tx) error {
		if _, _, err := importActors(ctx, tx, actor, projectID, opt); err != nil {
			return err
		}
		now := d.now()
		r, err := tx.ExecContext(ctx, `INSERT INTO import_batches (project_id, actor_id, started_at, touched_at) VALUES (?, ?, ?, ?)`, projectID, actor.ID, now, now)
		if err != nil {
			return fmt.Errorf("open the import: %w", err)
		}
		batch, err = r.LastInsertId()
		return err
	})
	if err != nil {
		return bench.ImportSamplesResult{}, err
	}
	res, err := d.writeBatches(ctx, actor, projectID, plan, opt, batch)
	if err != nil {
		// Nothing of it must stay, whether or not ctx is done.
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Minute)
		defer cancel()
		if derr := d.dropImport(dctx, batch); derr != nil {
			return bench.ImportSamplesResult{}, errors.Join(err, derr)
		}
		return bench.ImportSamplesResult{}, err
	}
	return res, nil
}

// writeBatches writes the batches of an import opened as batch, then marks it done.
func (d *DB) writeBatches(ctx context.Context, actor bench.User, projectID int64, plan importPlan, opt bench.ImportSamplesOptions, batch int64) (bench.ImportSamplesResult, error) {
	var res bench.ImportSamplesResult
	var sums importSums
	touch := func(tx *sql.Tx, done bool) error {
		q := `UPDATE import_batches SET touched_at = ? WHERE id = ? AND done_at IS NULL`
		if done {
			q = `UPDATE import_batches SET touched_at = ?, done_at = touched_at WHERE id = ? AND done_at IS NULL`
		}
		r, err := tx.ExecContext(ctx, q, d.now(), batch)
		if err != nil {
			return fmt.Errorf("mark the import: %w", err)
		}
		if n, err := r.RowsAffected(); err != nil || n != 1 {
			return errors.Join(errImportLost, err)
		}
		return nil
	}
	written := 0
	for size := max(1, importWriteBatch); written < len(plan.rows); {
		rows := plan.rows[written:min(len(plan.rows), written+size)]
		part := plan
		part.rows = rows
		start := time.Now()
		err := d.act(ctx, actor, "sample.import", func(tx *sql.Tx) error {
			if err := touch(tx, false); err != nil {
				return err
			}
			a, author, err := importActors(ctx, tx, actor, projectID, opt)
			if err != nil {
				return err
			}
			got, s, err := d.importWrite(ctx, tx, a, author, projectID, part, opt, importWay{batch: batch}, nil)
			if err != nil {
				return err
			}
			res.Imported = append(res.Imported, got.Imported...)
			res.Skipped = append(res.Skipped, got.Skipped...)
			res.Warnings = append(res.Warnings, got.Warnings...)
			res.Incomplete = append(res.Incomplete, got.Incomplete...)
			sums.add(s)
			return nil
		})
		took := time.Since(start)
		if importWriteTook != nil {
			importWriteTook(took)
		}
		if err != nil {
			return bench.ImportSamplesResult{}, err
		}
		written += len(rows)
		size = nextWriteBatch(len(rows), took)
		if importBatchWritten != nil {
			importBatchWritten(written, len(plan.rows))
		}
	}
	if importBesideWritten != nil {
		importBesideWritten()
	}
	start := time.Now()
	err := d.act(ctx, actor, "sample.import", func(tx *sql.Tx) error {
		if err := touch(tx, true); err != nil {
			return err
		}
		if _, _, err := importActors(ctx, tx, actor, projectID, opt); err != nil {
			return err
		}
		if err := d.applyImportSums(ctx, tx, projectID, sums); err != nil {
			return err
		}
		if importBeforeCommit != nil {
			return importBeforeCommit()
		}
		return nil
	})
	if importWriteTook != nil {
		importWriteTook(time.Since(start))
	}
	if err != nil {
		return bench.ImportSamplesResult{}, err
	}
	return res, nil
}

// add adds what another batch of the same import added up.
func (s *importSums) add(o importSums) {
	if o.n == 0 {
		return
	}
	if s.n == 0 {
		*s = importSums{status: o.status, author: o.author, day: o.day, round1: o.round1, kinds: map[string]int{}, balance: map[importBalance]int{}}
	}
	s.n += o.n
	for k, n := range o.kinds {
		s.kinds[k] += n
	}
	for k, n := range o.balance {
		s.balance[k] += n
	}
	s.audit = append(s.audit, o.audit...)
}

// dropStaleImports removes the rows of every import under way that has written
// nothing for importStale: its process is gone (SQLite).
func (d *DB) dropStaleImports(ctx context.Context) error {
	if d.pg {
		return nil
	}
	var stale []int64
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		stale, err = queryAll(ctx, tx, scanInt64, `SELECT id FROM import_batches WHERE done_at IS NULL AND touched_at < ? ORDER BY id`,
			d.Now().Add(-importStale).UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return fmt.Errorf("look for imports left under way: %w", err)
	}
	for _, b := range stale {
		if err := d.dropImport(ctx, b); err != nil {
			return err
		}
	}
	return nil
}

// dropImportBatch is how many samples (with their rows) one write transaction
// of dropImport removes.
const dropImportBatch = 1000

// dropImport removes every row an import under way (batch) wrote, in write
// transactions of dropImportBatch samples each, then the import itself. Its rows
// were never seen, so the revisions and audit rows among them may go (migration 27).
func (d *DB) dropImport(ctx context.Context, batch int64) error {
	fail := func(err error) error { return fmt.Errorf("remove the rows of an import that did not end: %w", err) }
	for {
		var n int
		err := d.inTx(ctx, func(tx *sql.Tx) error {
			ids, err := queryAll(ctx, tx, scanString, `SELECT id FROM samples WHERE import_batch = ? LIMIT ?`, batch, dropImportBatch)
			if err != nil {
				return err
			}
			n = len(ids)
			if n == 0 {
				return nil
			}
			// A sample and its current revision name each other: the keys are
			// checked at the commit.
			if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
				return err
			}
			in := placeholders(n)
			args := make([]any, 0, n+1)
			for _, id := range ids {
				args = append(args, id)
			}
			for _, q := range []string{
				`DELETE FROM sample_words WHERE docid IN (SELECT doc FROM sample_search WHERE sample_id IN (` + in + `))`,
				`DELETE FROM sample_search WHERE sample_id IN (` + in + `)`,
				`DELETE FROM stat_revisions WHERE revision_id IN (SELECT id FROM revisions WHERE sample_id IN (` + in + `))`,
				`DELETE FROM revisions WHERE sample_id IN (` + in + `)`,
				`DELETE FROM sample_images WHERE sample_id IN (` + in + `)`,
				`DELETE FROM audit_log WHERE entity = 'sample' AND entity_id IN (` + in + `) AND import_batch = ?`,
				`DELETE FROM samples WHERE id IN (` + in + `)`,
			} {
				a := args
				if strings.HasSuffix(q, "import_batch = ?") {
					a = append(slices.Clone(args), batch)
				}
				if _, err := tx.ExecContext(ctx, q, a...); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
		if n == 0 {
			break
		}
	}
	// What is left names no sample: the audit rows of an import that wrote none.
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		for _, t := range importTables {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE import_batch = ?`, batch); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM import_batches WHERE id = ? AND done_at IS NULL`, batch)
		return err
	})
	if err != nil {
		return fail(err)
	}
	return nil
}
