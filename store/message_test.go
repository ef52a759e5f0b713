package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// said is an error that holds its sentence already, as a team server's refusal does.
type said struct{ text, msg string }

func (e said) Error() string   { return e.text }
func (e said) Message() string { return e.msg }

// TestMessageWording pins what people read for every kind of error the store
// hands out: each sentinel, the driver's errors as they leave the store (through
// StorageError, as a transaction's end and a team server wrap them), a full disk
// and a database server that cannot be reached. Moving Message out of the store
// must not change one word of it.
func TestMessageWording(t *testing.T) {
	ctx := context.Background()
	const dbProblem = " failed because of a database problem; the details are in the log."
	const diskFull = "The disk holding the database is full; nothing was changed. Make room on it, then try again (the details are in the log)."
	const unavailable = "The database cannot be reached or is overloaded; retry in a moment (the details are in the log)."
	for _, c := range []struct {
		name string
		err  func(t *testing.T) error
		want string
	}{
		{"no error", func(*testing.T) error { return nil }, ""},
		{"an empty error", func(*testing.T) error { return errors.New("") }, "Something went wrong."},
		{"ErrUnauthorized", wrap(bench.ErrUnauthorized), "Wrong user name or password."},
		{"ErrNotFound", wrap(bench.ErrNotFound), "Save sample s1: not found."},
		{"ErrConflict", wrap(bench.ErrConflict), "Save sample s1: changed by someone else meanwhile."},
		{"ErrForbidden", wrap(bench.ErrForbidden), "Save sample s1: not allowed."},
		{"ErrInvalid before its reason", func(*testing.T) error {
			return fmt.Errorf("freeze: %w: the release name is empty", bench.ErrInvalid)
		}, "Freeze: the release name is empty."},
		{"ErrInvalid alone", wrap(bench.ErrInvalid), "Save sample s1: invalid."},
		{"ErrNewerSchema", wrap(bench.ErrNewerSchema), "Save sample s1: database written by a newer Benchwright."},
		{"ErrFault", wrap(bench.ErrFault), "Save sample s1: a fault in Benchwright (the details are in the log)."},
		{"ErrImageMissing", wrap(bench.ErrImageMissing), "Save sample s1: image file is missing."},
		{"ErrImageChanged", wrap(bench.ErrImageChanged), "Save sample s1: image file changed since import."},
		{"ErrSessionEnded", wrap(bench.ErrSessionEnded), "Save sample s1: the session has ended; sign in again."},
		{"ErrQuota", wrap(bench.ErrQuota), "Save sample s1: over the upload quota."},
		{"ErrTooManyFailures", wrap(bench.ErrTooManyFailures), "Save sample s1: too many wrong passwords."},
		{"ErrDiskFull", wrap(bench.ErrDiskFull), diskFull},
		{"ErrUnavailable", wrap(bench.ErrUnavailable), unavailable},
		{"an error with its sentence", func(*testing.T) error {
			return fmt.Errorf("freeze: %w", said{"conflict 17", "Someone froze it first."})
		}, "Someone froze it first."},
		{"a SQLite error", func(*testing.T) error {
			return store.StorageError(fmt.Errorf("save sample s1: %w", sqlite3.Error{Code: sqlite3.ErrConstraint}))
		}, "Save sample s1" + dbProblem},
		{"a SQLite error alone", func(*testing.T) error {
			return store.StorageError(sqlite3.Error{Code: sqlite3.ErrCorrupt})
		}, "That" + dbProblem},
		{"SQLite's full disk", func(*testing.T) error {
			return store.StorageError(fmt.Errorf("save sample s1: %w", sqlite3.Error{Code: sqlite3.ErrFull}))
		}, diskFull},
		{"a PostgreSQL error", func(*testing.T) error {
			return store.StorageError(fmt.Errorf("project %q: %w", "p", &pgconn.PgError{Code: "42P01", Message: `relation "projects" does not exist`}))
		}, `Project "p"` + dbProblem},
		{"PostgreSQL's full disk", func(*testing.T) error {
			return store.StorageError(fmt.Errorf("save sample s1: %w", &pgconn.PgError{Code: "53100", Message: "could not extend file"}))
		}, diskFull},
		{"PostgreSQL out of connections", func(*testing.T) error {
			return store.StorageError(fmt.Errorf("save sample s1: %w", &pgconn.PgError{Code: "53300", Message: "too many clients"}))
		}, unavailable},
		{"a damaged schema", func(t *testing.T) error {
			db := MustOpenDB(t)
			raw, err := store.RawSQL(db.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			if _, err := raw.Exec(`ALTER TABLE projects RENAME TO projects_gone`); err != nil {
				t.Fatal(err)
			}
			_, err = db.ProjectByName(ctx, bench.Owner(), "p")
			return err
		}, `Project "p"` + dbProblem},
		{"a full disk", func(t *testing.T) error {
			db := MustOpenDB(t)
			if store.IsPostgresURL(db.Path()) {
				t.Skip("SQLite only")
			}
			lead, err := db.CreateFirstLead(ctx, "lead", "secret")
			if err != nil {
				t.Fatal(err)
			}
			if err := store.LimitPagesForTests(ctx, db, 0); err != nil {
				t.Fatal(err)
			}
			for i := range 2000 {
				if _, err := db.CreateProject(ctx, lead, fmt.Sprintf("project %d %s", i, strings.Repeat("x", 60))); err != nil {
					return err
				}
			}
			t.Fatal("2000 projects fitted in a full database")
			return nil
		}, diskFull},
		{"an unreachable PostgreSQL server", func(t *testing.T) error {
			_, err := store.Open(ctx, "postgres://bw:secret@/bench?host="+t.TempDir())
			return err
		}, "The PostgreSQL server cannot be reached; nothing was changed. Try again when it is back (the details are in the log)."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := bench.Message(c.err(t)); got != c.want {
				t.Errorf("Message = %q, want %q", got, c.want)
			}
		})
	}
}

// wrap makes an error as the store's calls return them: the work, then the sentinel.
func wrap(sentinel error) func(*testing.T) error {
	return func(*testing.T) error { return fmt.Errorf("save sample s1: %w", sentinel) }
}
