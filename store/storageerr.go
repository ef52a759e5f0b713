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

	"github.com/benchwright/benchwright/bench"
)

// Storage failures (bench.ErrDiskFull, bench.ErrUnavailable, bench.ErrDatabase)
// are told apart once, where the store's errors leave it: where its transactions
// end (runTx), where it opens a database, and where a team server answers
// (StorageError). What leaves the store carries them as a *bench.DatabaseError,
// so that bench.Message says what happened without knowing SQLite or PostgreSQL.

// StorageError returns err as a *bench.DatabaseError when a driver's or the
// system's error is anywhere in its chain — a full disk (ErrDiskFull), a
// database server that cannot take the work (ErrUnavailable), any other failure
// inside the database (bench.ErrDatabase) — and err itself otherwise. Marking
// twice changes nothing.
func StorageError(err error) error {
	var marked *bench.DatabaseError
	if err == nil || errors.As(err, &marked) || errors.Is(err, bench.ErrDiskFull) || errors.Is(err, bench.ErrUnavailable) {
		return err
	}
	if e := storageKind(err); e != nil {
		e.Err = err
		return e
	}
	return err
}

// dbError is StorageError for an error that came from the database driver,
// where an unexpected end of input is a connection cut mid-message (pgx says
// no more than that when its server went away).
func dbError(err error) error {
	if err = StorageError(err); err != nil && errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, bench.ErrUnavailable) {
		return &bench.DatabaseError{Kind: bench.ErrUnavailable, Err: err}
	}
	return err
}

// storageKind is what kind of storage failure err is, nil when it is none. A
// connection to a PostgreSQL server that could not be made at all is marked
// Unreachable, and Refused when the server answered and refused the address's
// user, password or database (pgRefused): people then check the address instead
// of waiting for a server that is there.
func storageKind(err error) *bench.DatabaseError {
	e := storageClass(err)
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		if e == nil {
			e = &bench.DatabaseError{Kind: bench.ErrUnavailable}
		}
		e.Unreachable = true
		if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) {
			e.Refused = pgRefused(pe)
		}
	}
	return e
}

func storageClass(err error) *bench.DatabaseError {
	var lite sqlite3.Error
	var pe *pgconn.PgError
	var netErr *net.OpError
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return &bench.DatabaseError{Kind: bench.ErrDiskFull}
	case errors.As(err, &lite):
		if lite.Code == sqlite3.ErrFull {
			return &bench.DatabaseError{Kind: bench.ErrDiskFull, Detail: lite.Error()}
		}
		return &bench.DatabaseError{Kind: bench.ErrDatabase, Detail: lite.Error()}
	case errors.As(err, &pe):
		switch {
		case pe.Code == "53100": // disk_full
			return &bench.DatabaseError{Kind: bench.ErrDiskFull, Detail: pe.Error()}
		case strings.HasPrefix(pe.Code, "53"), strings.HasPrefix(pe.Code, "08"), // insufficient resources, connection exception
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03": // shutting down, cannot connect now
			return &bench.DatabaseError{Kind: bench.ErrUnavailable, Detail: pe.Error()}
		}
		return &bench.DatabaseError{Kind: bench.ErrDatabase, Detail: pe.Error()}
	case errors.As(err, &netErr), errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return &bench.DatabaseError{Kind: bench.ErrUnavailable}
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
		return fmt.Errorf("limit pages: %w: SQLite only", bench.ErrInvalid)
	}
	var n int
	if err := d.db.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n); err != nil {
		return err
	}
	_, err := d.db.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, n+extra))
	return err
}
