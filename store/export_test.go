package store

import (
	"context"
	"database/sql"
	"net/url"

	"github.com/jackc/pgx/v5/stdlib"

	"golang.org/x/crypto/bcrypt"
)

// Tests hash with the cheapest cost; production keeps bcrypt.DefaultCost.
func init() { bcryptCost = bcrypt.MinCost }

// HoldRead runs fn while a read transaction that has read the users table is open.
func (d *DB) HoldRead(ctx context.Context, fn func()) error {
	return d.readTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		fn()
		return nil
	})
}

// SetQuickFloor makes the least a quick count of d counts n (1,000 in use).
func (d *DB) SetQuickFloor(n int) { d.quickFloor = n }

// SetWalkRows makes a walk testing each row's words read n rows per row of its
// page and the pages before it (64 in use).
func (d *DB) SetWalkRows(n int) { d.walkRows = n }

// SetAfterFreezeAudit makes fn run inside every freeze between its audit and its
// write, until the test ends.
func SetAfterFreezeAudit(tb interface{ Cleanup(func()) }, fn func()) {
	afterFreezeAudit = fn
	tb.Cleanup(func() { afterFreezeAudit = nil })
}

// SetScanAllReviews makes the agreement read every review of the database and keep
// the project's in Go (scan), or join each review to its sample in SQL (!scan),
// whatever the project's share of the samples, until the test ends.
func SetScanAllReviews(tb interface{ Cleanup(func()) }, scan bool) {
	scanReviewsForTests = &scan
	tb.Cleanup(func() { scanReviewsForTests = nil })
}

// SetReadBeside turns reading beside (besideReads, PostgreSQL) on or off until
// the test ends.
func SetReadBeside(tb interface{ Cleanup(func()) }, on bool) {
	besideOffForTests = !on
	tb.Cleanup(func() { besideOffForTests = false })
}

// RawSQL opens the database at path (a file or a PostgreSQL URL) for tests that look
// at rows directly, with the store's SQL translation on PostgreSQL.
func RawSQL(path string) (*sql.DB, error) {
	if IsPostgresURL(path) {
		return openPGSQL(path)
	}
	return sql.Open("sqlite3", path)
}

// ReaderSQL opens the database at path as the store's readers see it: on SQLite
// through the reader connections' views, which leave out an import under way
// (import_batches.go).
func ReaderSQL(path string) (*sql.DB, error) {
	if IsPostgresURL(path) {
		return openPGSQL(path)
	}
	return sql.Open(readerDriver, "file:"+(&url.URL{Path: path}).EscapedPath()+"?_txlock=deferred")
}

// TableNames lists the tables of a database opened with RawSQL whose names match
// the LIKE pattern like, in name order, on either engine.
func TableNames(sdb *sql.DB, like string) ([]string, error) {
	q := `SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE ? ESCAPE '\' ORDER BY name`
	if _, pg := sdb.Driver().(*stdlib.Driver); pg {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
			AND table_name LIKE ? ESCAPE '\' ORDER BY table_name`
	}
	return queryAll(context.Background(), sdb, scanString, q, like)
}

// CopyStaging is the staging schema of copies into the PostgreSQL schema named
// schema (copydb_beside.go).
var CopyStaging = copyStaging
