package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"
)

// Storage failures are not bugs and not refusals: the disk under the database or
// its files is full, or the PostgreSQL server cannot be reached. They are told
// apart once, where the store's transactions end (runTx) and where a team server
// answers (StorageError), so that people read what happened ("the disk is full")
// instead of "a database problem", and a client knows to try again.
var (
	// ErrDiskFull is wrapped by an error of a write that found no room on disk.
	ErrDiskFull = errors.New("the disk holding the database is full")
	// ErrUnavailable is wrapped by an error of work the database server could not
	// take (unreachable, shutting down, out of connections or memory).
	ErrUnavailable = errors.New("the database is unreachable")
)

// storageError is a driver's or the system's error, kept, with its kind.
type storageError struct {
	kind error // ErrDiskFull or ErrUnavailable
	err  error
}

func (e *storageError) Error() string   { return e.kind.Error() + ": " + e.err.Error() }
func (e *storageError) Unwrap() []error { return []error{e.kind, e.err} }

// StorageError returns err marked ErrDiskFull or ErrUnavailable when it is one
// of those failures (a driver's or the system's error anywhere in its chain),
// and err itself otherwise. Marking twice changes nothing.
func StorageError(err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) || errors.Is(err, ErrUnavailable) {
		return err
	}
	if kind := storageKind(err); kind != nil {
		return &storageError{kind: kind, err: err}
	}
	return err
}

// dbError is StorageError for an error that came from the database driver,
// where an unexpected end of input is a connection cut mid-message (pgx says
// no more than that when its server went away).
func dbError(err error) error {
	if err = StorageError(err); err != nil && errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, ErrUnavailable) {
		return &storageError{kind: ErrUnavailable, err: err}
	}
	return err
}

func storageKind(err error) error {
	var lite sqlite3.Error
	var pe *pgconn.PgError
	var connect *pgconn.ConnectError
	var netErr *net.OpError
	switch {
	case errors.As(err, &lite) && lite.Code == sqlite3.ErrFull,
		errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return ErrDiskFull
	case errors.As(err, &pe):
		switch {
		case pe.Code == "53100": // disk_full
			return ErrDiskFull
		case strings.HasPrefix(pe.Code, "53"), strings.HasPrefix(pe.Code, "08"), // insufficient resources, connection exception
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03": // shutting down, cannot connect now
			return ErrUnavailable
		}
		return nil
	case errors.As(err, &connect), errors.As(err, &netErr),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return ErrUnavailable
	}
	return nil
}

// LimitPagesForTests makes a SQLite database "full" (SQLite's max_page_count on
// its writer's connection) extra pages after its present size, so that tests can
// see a full disk. Only in a test binary, only on SQLite.
func LimitPagesForTests(ctx context.Context, d *DB, extra int) error {
	if !testing.Testing() {
		panic("store.LimitPagesForTests called outside a test binary")
	}
	if d.pg {
		return fmt.Errorf("limit pages: %w: SQLite only", ErrInvalid)
	}
	var n int
	if err := d.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n); err != nil {
		return err
	}
	_, err := d.db.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, n+extra))
	return err
}
