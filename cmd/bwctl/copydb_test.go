package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/store/storetest"
)

func TestCopyDBCommand(t *testing.T) {
	path := initDB(t)
	dir := t.TempDir()
	to := filepath.Join(dir, "copy.db")
	cases := []cliCase{
		{name: "copy", args: []string{"copy-db", "--from", path, "--to", to}, code: 0,
			wantOut: []string{"copied " + path + " to " + to, "  users ", "  audit_log ", "tables, "}},
		{name: "not over a file", args: []string{"copy-db", "--from", path, "--to", to}, code: 2, wantErr: []string{"exists; name a new file"}},
		{name: "no target", args: []string{"copy-db", "--from", path}, code: 2, wantErr: []string{"--from DB and --to DB are required"}},
		{name: "no source", args: []string{"copy-db", "--from", filepath.Join(dir, "none.db"), "--to", filepath.Join(dir, "x.db")}, code: 2,
			wantErr: []string{"none.db"}},
		{name: "the copy opens", args: []string{"projects", "--db", to}, code: 0, wantOut: []string{"p1"}},
	}
	if storetest.Engine() == "postgres" {
		pg := storetest.NewDatabase(t)
		back := filepath.Join(dir, "back.db")
		cases = append(cases,
			cliCase{name: "to PostgreSQL", args: []string{"copy-db", "--from", to, "--to", pg}, code: 0, wantOut: []string{"copied "}},
			cliCase{name: "into a database that holds a project", args: []string{"copy-db", "--from", to, "--to", pg}, code: 1,
				wantErr: []string{"is not empty (its table users has rows)"}},
			cliCase{name: "back from PostgreSQL", args: []string{"copy-db", "--from", pg, "--to", back}, code: 0, wantOut: []string{"copied "}},
			cliCase{name: "the copy of the copy opens", args: []string{"projects", "--db", back}, code: 0, wantOut: []string{"p1"}},
		)
	}
	runCases(t, cases)
	if _, err := os.Stat(filepath.Join(dir, "x.db")); err == nil {
		t.Error("a copy that did not start left its destination file")
	}

	// A copy that fails once the destination exists removes the new file.
	sdb, err := sql.Open("sqlite3", to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec(`CREATE TABLE notes (body TEXT)`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	failed := filepath.Join(dir, "failed.db")
	runCases(t, []cliCase{{name: "a table the copy does not know", args: []string{"copy-db", "--from", to, "--to", failed}, code: 2,
		wantErr: []string{"has a table notes that copy-db does not know", "was removed"}}})
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if _, err := os.Stat(failed + suffix); err == nil {
			t.Errorf("the failed copy left %s", failed+suffix)
		}
	}
}
