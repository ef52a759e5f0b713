package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"

	"github.com/benchwright/benchwright/bench"
)

// TestStorageErrorKinds: the failures of disk and database server are told
// apart from every other error, wherever they sit in the chain.
func TestStorageErrorKinds(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want error // nil: not a storage failure
	}{
		{"SQLite full", fmt.Errorf("save: %w", sqlite3.Error{Code: sqlite3.ErrFull}), bench.ErrDiskFull},
		{"no space writing a file", fmt.Errorf("upload: %w", &fs.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}), bench.ErrDiskFull},
		{"PostgreSQL disk_full", &pgconn.PgError{Code: "53100"}, bench.ErrDiskFull},
		{"PostgreSQL too many connections", &pgconn.PgError{Code: "53300"}, bench.ErrUnavailable},
		{"PostgreSQL shutting down", &pgconn.PgError{Code: "57P01"}, bench.ErrUnavailable},
		{"a connection exception", &pgconn.PgError{Code: "08006"}, bench.ErrUnavailable},
		{"a unique violation", &pgconn.PgError{Code: "23505"}, bench.ErrDatabase},
		{"SQLite busy", sqlite3.Error{Code: sqlite3.ErrBusy}, bench.ErrDatabase},
		{"a domain error", fmt.Errorf("freeze: %w", bench.ErrConflict), nil},
		{"a short file", io.ErrUnexpectedEOF, nil},
	} {
		got := StorageError(c.err)
		for _, kind := range []error{bench.ErrDiskFull, bench.ErrUnavailable, bench.ErrDatabase} {
			if errors.Is(got, kind) != (kind == c.want) {
				t.Errorf("%s: %v is %v: %v", c.name, got, kind, errors.Is(got, kind))
			}
		}
		if !errors.Is(got, c.err) {
			t.Errorf("%s: the original error is lost: %v", c.name, got)
		}
		if c.want == bench.ErrDatabase && got.Error() != c.err.Error() {
			t.Errorf("%s: the text changed to %q", c.name, got)
		}
		if c.want == nil && got != c.err {
			t.Errorf("%s: changed to %v", c.name, got)
		}
	}
	if !errors.Is(dbError(fmt.Errorf("read: %w", io.ErrUnexpectedEOF)), bench.ErrUnavailable) {
		t.Error("a connection cut mid-message from the driver is not ErrUnavailable")
	}
}
