package store_test

// Store tests that need a project of realistic size build it with the synthetic
// generator (package synth, which writes through store's bulk API); the generator's
// own tests live in synth.

import (
	"context"
	"database/sql"
	"testing"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
)

// generated builds a synthetic project in a fresh database.
func generated(t *testing.T, opt synth.Options) (*store.DB, synth.Result) {
	t.Helper()
	db := MustOpenDB(t)
	if opt.Project == "" {
		opt.Project = "synth"
	}
	if opt.Password == "" {
		opt.Password = "secret"
	}
	if opt.ImageDir == "" {
		opt.ImageDir = t.TempDir()
	}
	res, err := synth.Generate(context.Background(), db, opt)
	if err != nil {
		t.Fatal(err)
	}
	return db, res
}

// rawDB opens the database file directly, for tests that look at or change rows
// behind the store's back.
// readerDB opens the database at path as the store's readers see it
// (store.ReaderSQL), closed when the test ends.
func readerDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	sdb, err := store.ReaderSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	return sdb
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	sdb, err := store.RawSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	return sdb
}
