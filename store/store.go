// Package store is Benchwright's storage: the contract of package bench
// implemented on a SQLite file or a PostgreSQL database (postgres.go), and the
// only package that speaks SQL. Its errors leave it as bench's sentinels, and a
// driver's or the system's failure as a *bench.DatabaseError (storageerr.go).
// Every exported method runs in one transaction, takes the acting user and checks that
// user's permissions here, below any UI, so that the rules hold for every caller: the
// role's (verify.Permit) and, for anything of a project, that the user is one of the
// project's members (members.go). DB.As binds a user into the bench.Session the
// screens and the team server's dispatch call (session_gen.go, generated from
// bench.Calls).
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3" // registers the "sqlite3" driver
)

//go:embed migrations/*.sql migrations_pg/*.sql
var migrationFS embed.FS

// DB is an open Benchwright database.
type DB struct {
	db  *sql.DB // writers: BEGIN IMMEDIATE, so a write never fails half-way on a lock
	rdb *sql.DB // readers: deferred, query-only transactions that never take the write lock
	// plain is SQLite's readers without rdb's views (import_batches.go): a read
	// transaction that finds no import under way reads the tables themselves, with
	// their covering indexes (readTx).
	plain *sql.DB
	path  string
	pg    bool // PostgreSQL (store/postgres.go) rather than a SQLite file
	// pgTrips counts the round trips PostgreSQL's connections make (pgConn).
	pgTrips *atomic.Int64
	// files is the folder of the database's own files: previews, team-server
	// uploads. Beside a SQLite file; for PostgreSQL see FilesDir.
	files string

	// Now returns the current time; tests replace it.
	Now func() time.Time

	decoded decodedRevisions // the last audit's decoded samples (store/decoded.go)
	// queueShapes holds, per project and verifier, what the last review queue's
	// candidates were read under (queueShape): the next queue reads its candidates
	// in one batch with the verifier's membership and the project (reviews.go).
	queueShapes sync.Map
	// signIns counts the sign-ins being answered (Authenticate).
	signIns signInsInFlight
	// quickFloor is the least a quick count counts (quickLimit); 0 is 1,000. Tests
	// lower it to reach it with a small project.
	quickFloor int
	// walkRows is how many rows a walk testing each row's words (SearchSamples)
	// reads per row of its page and of the pages before it; 0 is 64. Tests lower it.
	walkRows int
}

// Open opens (creating if needed) the database at path and applies pending
// migrations. A path of the form postgres://… opens that PostgreSQL database.
//
// Its errors are marked as StorageError marks them: a PostgreSQL server nobody
// answers at the address, a damaged file, a full disk.
func Open(ctx context.Context, path string) (*DB, error) {
	d, err := open(ctx, path)
	return d, dbError(err)
}

func open(ctx context.Context, path string) (*DB, error) {
	if IsPostgresURL(path) {
		return openPostgres(ctx, path)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open %s: %w", path, err)
		}
	}
	// The path is escaped: a file name holding # ? or % must not be read as URI syntax.
	file := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_journal_mode=WAL&_foreign_keys=on&_busy_timeout=10000&_synchronous=NORMAL"
	sdb, err := sql.Open("sqlite3", file+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One writer connection: writers queue in Go for their turn instead of
	// sleeping in SQLite's busy handler, which left a team server's writes with a
	// p95 thirty times their median (docs/PERFORMANCE.md, "Team server load"). No
	// store method opens a write transaction while holding one.
	sdb.SetMaxOpenConns(1)
	d := &DB{db: sdb, path: path, files: filepath.Dir(path), Now: func() time.Time { return time.Now().UTC() }}
	if err := d.migrate(ctx); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// In WAL mode readers see the last commit and never block the writer; a long
	// dashboard read must not hold the write lock that BEGIN IMMEDIATE would take.
	// Their connections see no row of an import under way (readerDriver,
	// import_batches.go), and are made query-only there.
	if d.rdb, err = sql.Open(readerDriver, file+"&_txlock=deferred"); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if d.plain, err = sql.Open("sqlite3", file+"&_txlock=deferred&_query_only=true"); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// An import a crash or a lost process left under way is removed.
	if err := d.dropStaleImports(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error {
	var perr error
	if d.plain != nil {
		perr = d.plain.Close()
	}
	return errors.Join(perr, d.rdb.Close(), d.db.Close())
}

// Path is the database file's path, or the PostgreSQL URL it was opened with.
func (d *DB) Path() string { return d.path }

// CurrentTime is the database's clock (Now): the app shows a project file's
// times against it, so that tests that set Now see their own time.
func (d *DB) CurrentTime() time.Time { return d.Now() }

// FilesDir is the folder of the database's own files (previews, a team server's
// uploads): beside a SQLite file; for a PostgreSQL database, a folder of the user's
// cache named after the database, unless SetFilesDir named one.
func (d *DB) FilesDir() string { return d.files }

// SetFilesDir moves the database's own files (previews, uploads) to dir: a team
// server on PostgreSQL keeps them where its operator says (bwctl serve --files).
// Servers sharing one database must share this folder, as they share the images.
func (d *DB) SetFilesDir(dir string) { d.files = dir }

// Postgres tells whether the database is PostgreSQL rather than a SQLite file.
func (d *DB) Postgres() bool { return d.pg }

// SchemaVersion is the number of the newest migration this build knows.
func SchemaVersion() int {
	names, _ := migrationNames()
	return len(names)
}

func migrationNames() ([]string, error) { return migrationNamesIn("migrations") }

func migrationNamesIn(dir string) ([]string, error) {
	names, err := fs.Glob(migrationFS, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// migrate applies, in order and each in its own transaction, the embedded migrations
// newer than the database's user_version.
func (d *DB) migrate(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	var have int
	if err := d.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&have); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if have > len(names) {
		return fmt.Errorf("%w: schema version %d, this build knows up to %d; update Benchwright", bench.ErrNewerSchema, have, len(names))
	}
	for i := have; i < len(names); i++ {
		n, err := strconv.Atoi(strings.SplitN(filepath.Base(names[i]), "_", 2)[0])
		if err != nil || n != i+1 {
			return fmt.Errorf("migration %s: files must be numbered 0001, 0002, … without gaps", names[i])
		}
		body, err := migrationFS.ReadFile(names[i])
		if err != nil {
			return err
		}
		tx, err := d.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", names[i], err)
		}
		if after := afterMigration[i+1]; after != nil { // Go's part of the migration (stats.go)
			if err := after(d, ctx, tx); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %s: %w", names[i], err)
			}
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, i+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", names[i], err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: %w", names[i], err)
		}
	}
	return nil
}

// inTx runs fn in one write transaction (BEGIN IMMEDIATE, see the DSN) and commits it.
// A busy database is retried with backoff so that "database is locked" does not reach
// a user when two instances share the file.
//
// On PostgreSQL, which does not serialise writers as SQLite does, every write
// transaction first takes transaction-level advisory locks (pgLockSQL), then reads
// at READ COMMITTED: each statement sees every write committed before the locks
// were granted, and no writer whose locks conflict, on this server or another on
// the same database, commits until this one ends. By default the lock is the
// database's (pgWriteLock) in exclusive mode, and every check-then-write (a seat, a
// draft's version, a freeze, a setting) holds as it does on SQLite, whose
// BEGIN IMMEDIATE gives the same order. A write that changes one project's rows
// only, or one sample's, says so with lockProject, lockNewSample or lockSample on its
// context and takes the database's lock shared and the project's or the sample's
// exclusive: writers of other projects, or other samples, go on meanwhile (see
// lockScope).
// Reads take no lock. A transaction that still loses to PostgreSQL (a deadlock, a
// serialization failure) is run again from the start, so a person never sees it.
func (d *DB) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if d.pg {
		sc, _ := ctx.Value(lockScopeKey{}).(lockScope)
		lock, args := pgLockSQL(sc)
		var err error
		for attempt := 0; attempt < 20; attempt++ {
			err = runTx(ctx, d.db, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, func(tx *sql.Tx) error {
				pgWriteTxs.Store(tx, true)
				defer pgWriteTxs.Delete(tx)
				// A sample's write (or a new sample's), which starts with its reads,
				// sends its locks with the BEGIN in its first round trip, ahead of those
				// reads (execLater): the server runs them once the locks are granted,
				// so they read as after them, and a lock that fails (a deadlock) fails
				// the statement it went with. Wider writes take theirs first, as some
				// do work beside the database under them.
				lockNow := tx.ExecContext
				if sc.sample != "" || sc.newSample {
					lockNow = func(ctx context.Context, q string, args ...any) (sql.Result, error) {
						return nil, execLater(ctx, tx, q, args...)
					}
				}
				if _, err := lockNow(ctx, lock, args...); err != nil {
					return fmt.Errorf("wait for the database: %w", err)
				}
				if sc.sample != "" || sc.newSample {
					pgTallies.Store(tx, new(bool))
					defer pgTallies.Delete(tx)
				}
				if sc.sample != "" || sc.newSample {
					if _, err := tx.ExecContext(ctx, "defer counts", pgDeferCounts{}); err != nil {
						return err
					}
				}
				return fn(tx)
			})
			if !pgRetry(err) {
				return err
			}
			if err := sleepCtx(ctx, retryWait(attempt)); err != nil {
				return err
			}
		}
		return err
	}
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		err = d.tryTx(ctx, fn)
		if !isBusy(err) {
			return err
		}
		if err := sleepCtx(ctx, time.Duration(25<<attempt)*time.Millisecond); err != nil {
			return err
		}
	}
	return err
}

// lockScope is what a PostgreSQL write transaction locks (inTx): the whole
// database (the zero scope), one project, one sample, or a new sample of a
// project. The locks form one hierarchy, taken in the same order — the
// database's, the project's, the sample's in one statement at the transaction's
// start, the project's tally last — so two writers never wait for each other's
// advisory locks in a circle:
//
//	scope       database   project     sample      project's tally
//	database    exclusive  –           –           –
//	project     shared     exclusive   –           –
//	new sample  shared     shared      –           exclusive, when it decides (lockTally)
//	sample      shared     shared      exclusive   exclusive, when it decides (lockTally)
//
// A project scope is for a write whose rows and whose checks are all of one
// project (and the audit log, which is only appended to). A sample scope is for a
// write whose rows and checks are one sample's: its draft and version, its
// revisions, claims and reviews. What such writers of one project decide together
// — planting a copy and a verifier's pause (planted.go), deciding every round 3 of
// the project again after its panel changed (statsPolicy) — is the project's
// tally: a sample's writer takes its lock just before it decides any of them
// (lockTally), so that the rest goes on beside other samples' writers. The
// dashboard's summaries need no lock of their own: their counts are only added to,
// at the commit in one batch in the order of their rows (pgDeferCounts), and the
// rest of what a write keeps in them is its own sample's (stat_rev3, stat_revisions,
// the search row). Creating a sample numbers it after the project's others with
// the INSERT as the check (createSample: a number taken meanwhile inserts nothing
// and the next is tried), so creators do not wait for one another either. The
// images' use counts are only added to (UPDATE … SET n = n + 1), under row locks.
// Anything else, and everything that spans projects (users, sessions, creating a
// project, settings, migrations), keeps the database's exclusive lock. SQLite has one
// writer at a time and ignores the scope.
type lockScope struct {
	project   int64
	sample    string
	newSample bool // with project: the project's lock shared, instead of exclusive
}

type lockScopeKey struct{}

// lockProject is ctx for a write that changes only project's rows (lockScope).
func lockProject(ctx context.Context, project int64) context.Context {
	return context.WithValue(ctx, lockScopeKey{}, lockScope{project: project})
}

// lockNewSample is ctx for creating a sample in project (lockScope).
func lockNewSample(ctx context.Context, project int64) context.Context {
	return context.WithValue(ctx, lockScopeKey{}, lockScope{project: project, newSample: true})
}

// lockSample is ctx for a write that changes only sample's rows and the project's
// tally (lockScope).
func lockSample(ctx context.Context, sample string) context.Context {
	return context.WithValue(ctx, lockScopeKey{}, lockScope{sample: sample})
}

// pgTallyKey is the advisory lock key of a project's tally (lockScope), in SQL.
const pgTallyKey = `hashtextextended(current_schema() || '/tally/' || CAST(? AS BIGINT), 0)`

// pgLockSQL is the statement that takes the locks of scope (lockScope) at a
// transaction's start, and its arguments. The keys of a project and a sample are
// 64-bit hashes of the schema and the id (a collision only makes two writers take
// turns). A sample's project is read in the same statement (it never changes); a
// sample that does not exist (yet, or any more) takes the database's lock exclusive
// instead, as an unscoped write does.
func pgLockSQL(sc lockScope) (string, []any) {
	switch {
	case sc.sample != "":
		return `SELECT CASE WHEN p.id IS NULL THEN pg_advisory_xact_lock(?, hashtext(current_schema()))
				ELSE pg_advisory_xact_lock_shared(?, hashtext(current_schema())) END,
			pg_advisory_xact_lock_shared(hashtextextended(current_schema() || '/project/' || p.id, 0)),
			pg_advisory_xact_lock(hashtextextended(current_schema() || '/sample/' || p.sample, 0))
			FROM (SELECT CAST(? AS TEXT) AS sample, (SELECT project_id FROM samples WHERE id = ?) AS id) p`,
			[]any{pgWriteLock, pgWriteLock, sc.sample, sc.sample}
	case sc.project != 0 && sc.newSample:
		return `SELECT pg_advisory_xact_lock_shared(?, hashtext(current_schema())),
			pg_advisory_xact_lock_shared(hashtextextended(current_schema() || '/project/' || CAST(? AS BIGINT), 0))`,
			[]any{pgWriteLock, sc.project}
	case sc.project != 0:
		return `SELECT pg_advisory_xact_lock_shared(?, hashtext(current_schema())),
			pg_advisory_xact_lock(hashtextextended(current_schema() || '/project/' || CAST(? AS BIGINT), 0))`,
			[]any{pgWriteLock, sc.project}
	}
	return `SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))`, []any{pgWriteLock}
}

// pgWriteTxs holds the PostgreSQL write transactions under way (inTx), for
// txDialect.
var pgWriteTxs sync.Map

// txDialect is the dialect of write transaction tx, for code that has only the
// transaction: on PostgreSQL its reads may go in one batch (dialect.readAll).
func txDialect(tx *sql.Tx) dialect {
	_, pg := pgWriteTxs.Load(tx)
	return dialect{pg: pg}
}

// pgTallies holds the PostgreSQL write transactions of a sample or new sample scope that have
// still to take their project's tally before they decide (lockTally): a
// transaction to *bool, true once taken.
var pgTallies sync.Map

// lockTally takes the lock of project's tally (lockScope) in a sample's write
// transaction, once, before it writes the dashboard's summaries, numbers a new
// sample or decides a pause. Every other transaction holds it already, or a lock
// that excludes every writer of the tally: there, and on SQLite, it does nothing.
func lockTally(ctx context.Context, tx *sql.Tx, project int64) error {
	v, ok := pgTallies.Load(tx)
	if !ok || *v.(*bool) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(`+pgTallyKey+`)`, project); err != nil {
		return fmt.Errorf("wait for the project's summaries: %w", err)
	}
	*v.(*bool) = true
	return nil
}

// retryWait is the pause before a PostgreSQL transaction's next attempt: short
// and growing, with jitter so that the losers of one race do not meet again.
func retryWait(attempt int) time.Duration {
	base := time.Millisecond << min(attempt, 7)
	return base + time.Duration(time.Now().UnixNano()%int64(base))
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

func (d *DB) tryTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return runTx(ctx, d.db, nil, fn)
}

// readTx runs fn in one read-only transaction: one consistent snapshot that takes
// no write lock. Reads never write, so busy retries are not needed.
func (d *DB) readTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if d.pg {
		return runTx(ctx, d.rdb, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, fn)
	}
	if d.plain != nil {
		// The views cost the sample manager's queries their covering indexes (1.8×
		// on BenchmarkScaleSampleManager): a snapshot without an import under way
		// reads the tables. The check is the snapshot's first read, so fn sees
		// what it saw.
		err := runTx(ctx, d.plain, nil, func(tx *sql.Tx) error {
			var underway bool
			if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM import_batches WHERE done_at IS NULL)`).Scan(&underway); err != nil {
				return err
			}
			if underway {
				return errReadThroughViews
			}
			return fn(tx)
		})
		if !errors.Is(err, errReadThroughViews) {
			return err
		}
	}
	return runTx(ctx, d.rdb, nil, fn)
}

// errReadThroughViews sends readTx to the readers with views: an import is under way.
var errReadThroughViews = errors.New("an import is under way: read through the views")

func runTx(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return dbError(err)
	}
	if err := fn(tx); err != nil {
		// A full disk or a lost server is said as such (storageerr.go); a
		// rollback that fails too means the connection is gone.
		if rerr := tx.Rollback(); rerr != nil && !errors.Is(rerr, sql.ErrTxDone) {
			return dbError(err)
		}
		return StorageError(err)
	}
	return dbError(tx.Commit())
}

// isUniqueViolation tells whether err is either engine's refusal of a duplicate key.
func isUniqueViolation(err error) bool {
	var se sqlite3.Error
	var pe *pgconn.PgError
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique ||
		errors.As(err, &pe) && pe.Code == "23505"
}

func isBusy(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "database is locked") || strings.Contains(s, "SQLITE_BUSY")
}

func (d *DB) now() string { return d.Now().UTC().Format(time.RFC3339Nano) }

// audit appends one row to the audit log.
func (d *DB) audit(ctx context.Context, tx *sql.Tx, actor int64, action, entity, entityID, detail string) error {
	return auditAt(ctx, tx, d.now(), actor, action, entity, entityID, detail)
}

// auditAt is audit of a row whose time, at, the caller counts too (statsActivity).
func auditAt(ctx context.Context, tx *sql.Tx, at string, actor int64, action, entity, entityID, detail string) error {
	var a any
	if actor != 0 {
		a = actor
	}
	err := execLater(ctx, tx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		at, a, action, entity, entityID, detail, ClientAddr(ctx))
	if err != nil {
		return fmt.Errorf("audit %s %s %s: %w", action, entity, entityID, err)
	}
	return nil
}

// execLater runs a write of tx whose result its caller does not read (no count of
// rows, no id). In a PostgreSQL write transaction (inTx) it is not sent by itself
// but with the transaction's next round trip (pgLater); elsewhere, and on SQLite,
// it runs at once. Its error, when it is sent later, is that of the statement it
// went with.
func execLater(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	if txDialect(tx).pg {
		args = append(args[:len(args):len(args)], pgLater{})
	}
	_, err := tx.ExecContext(ctx, query, args...)
	return err
}

// querier is what both *sql.DB and *sql.Tx offer for reads.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAll runs a read and scans every row with scan.
func queryAll[T any](ctx context.Context, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanInt64 and scanString scan a single-column row.
func scanInt64(r scanner) (v int64, err error)   { err = r.Scan(&v); return }
func scanString(r scanner) (v string, err error) { err = r.Scan(&v); return }

// IntegrityCheck runs SQLite's integrity check and returns its verdict ("ok" when
// sound). PostgreSQL checks its pages itself; there it answers "ok" once the server
// answers.
func (d *DB) IntegrityCheck(ctx context.Context) (string, error) {
	var s string
	if d.pg {
		if err := d.db.PingContext(ctx); err != nil {
			return "", fmt.Errorf("integrity check: %w", dbError(err))
		}
		return "ok", nil
	}
	if err := d.db.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&s); err != nil {
		return "", fmt.Errorf("integrity check: %w", dbError(err))
	}
	return s, nil
}

// act runs fn as one transaction on behalf of actor. A refusal (ErrForbidden) rolls the
// work back but is itself written to the audit log, so that denied attempts are visible.
func (d *DB) act(ctx context.Context, actor bench.User, action string, fn func(tx *sql.Tx) error) error {
	err := d.inTx(ctx, fn)
	if why, refused := auditReason(err); refused {
		_ = d.inTx(ctx, func(tx *sql.Tx) error {
			return d.audit(ctx, tx, validActor(ctx, tx, actor.ID), "denied:"+action, "user", actor.Name, why)
		})
	}
	return err
}

// readAs is act for reads: fn runs in a read-only transaction, and a refusal is
// audited in a write transaction of its own, so denied reads (an annotator asking
// for a review queue, a verifier peeking at a blind round) are visible too.
func (d *DB) readAs(ctx context.Context, actor bench.User, action string, fn func(tx *sql.Tx) error) error {
	err := d.readTx(ctx, fn)
	if why, refused := auditReason(err); refused {
		_ = d.inTx(ctx, func(tx *sql.Tx) error {
			return d.audit(ctx, tx, validActor(ctx, tx, actor.ID), "denied:"+action, "user", actor.Name, why)
		})
	}
	return err
}

// validActor returns id when it names an existing user, else 0 (the audit row's actor
// column is a foreign key).
func validActor(ctx context.Context, tx *sql.Tx, id int64) int64 {
	var n int
	if tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE id = ?`, id).Scan(&n) != nil || n == 0 {
		return 0
	}
	return id
}
