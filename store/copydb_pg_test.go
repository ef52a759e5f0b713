package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestCopyIntoPostgresChecksForeignKeys: a copy into PostgreSQL writes its rows
// with the destination's triggers off (store.pgQuietTriggers), foreign keys'
// checks included, and checks every foreign key once afterwards: a source file
// that breaks one (a sample whose author is no account, written with SQLite's
// foreign keys off) is refused, naming the table, and leaves the destination
// empty; the same source mended copies, and the copy holds what the source
// holds, the images' counts and the summaries included (compareTables).
func TestCopyIntoPostgresChecksForeignKeys(t *testing.T) {
	if storetest.Engine() != "postgres" {
		t.Skip("copies into PostgreSQL: set " + storetest.PostgresEnv)
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "src.db")
	src, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	lead, err := src.CreateFirstLead(ctx, "lead", "lead-long-password")
	if err != nil {
		t.Fatal(err)
	}
	p, err := src.CreateProject(ctx, lead, "office")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, q := range []string{"How many chairs are there?", "How many desks are there?"} {
		si, err := src.CreateSample(ctx, lead, p.ID, annotate.Sample{Kind: annotate.KindOpen, Question: q, AnswerText: "3"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, si.ID)
	}
	raw, err := store.RawSQL(path) // SQLite's foreign keys are off on this connection
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	setAuthor := func(id int64) {
		t.Helper()
		if _, err := raw.Exec(`UPDATE samples SET author_id = ? WHERE id = ?`, id, ids[1]); err != nil {
			t.Fatal(err)
		}
	}

	setAuthor(9999)
	dst, err := store.Open(ctx, storetest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	_, err = store.CopyDatabase(ctx, src, dst, nil)
	if !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), "1 rows of table samples name a row of users that is not there") {
		t.Errorf("copy of a source whose sample names no account: %v; want it refused for samples' author", err)
	}
	for name, rows := range dumpTables(t, dst) {
		if len(rows) > 0 {
			t.Errorf("after the refused copy, table %s has %d rows", name, len(rows))
		}
	}

	setAuthor(lead.ID)
	if _, err := store.CopyDatabase(ctx, src, dst, nil); err != nil {
		t.Fatalf("copy of the mended source: %v", err)
	}
	compareTables(t, "copy into PostgreSQL", dumpTables(t, src), dumpTables(t, dst))
}

// TestCopyIntoPostgresStagedTables: a copy from a SQLite file into PostgreSQL
// writes the words and the search rows on a second connection, into a staging
// schema that its own transaction commits, and swaps them in at the end
// (store/copydb_beside.go). A copy cancelled while that connection copies, and
// one that fails after that connection committed —
// here another program wrote a row into the destination's words meanwhile — is
// refused in words and leaves the destination as it found it: the staging
// schema dropped, no table holding a row of the copy, the indexes and
// constraints a migrated schema's. What a crashed copy left (the staging schema,
// a table in it) is dropped by the next copy, which copies everything.
func TestCopyIntoPostgresStagedTables(t *testing.T) {
	if storetest.Engine() != "postgres" {
		t.Skip("copies into PostgreSQL: set " + storetest.PostgresEnv)
	}
	ctx := context.Background()
	var src relFixture
	onSQLite(t, func() {
		src = newRelFixture(t)
		src.accept(t, relHop("hq-1", "0001-office-1/a.jpg", "Which object is closest to the camera?"))
	})
	dst := MustOpenDB(t)
	raw, err := store.RawSQL(dst.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var schema string
	if err := raw.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	staging := store.CopyStaging(schema)
	stagingExists := func() bool {
		t.Helper()
		var n int
		if err := raw.QueryRow(`SELECT count(*) FROM pg_namespace WHERE nspname = ?`, staging).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	want := pgIndexes(t, dst)
	empty := func(after string) {
		t.Helper()
		if stagingExists() {
			t.Errorf("after %s, its staging schema %s is still there", after, staging)
		}
		for name, rows := range dumpTables(t, dst) {
			if len(rows) > 0 {
				t.Errorf("after %s, table %s has %d rows", after, name, len(rows))
			}
		}
		compareIndexes(t, after, want, pgIndexes(t, dst))
	}

	// A copy cancelled while the second connection copies the words.
	cctx, cancel := context.WithCancel(ctx)
	_, err = store.CopyDatabase(cctx, src.db, dst, func(table string, rows int64) {
		if table == "sample_words" {
			cancel()
		}
	})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a copy cancelled during the words: %v", err)
	}
	empty("the cancelled copy")

	// Another program writes a row into the words while the copy's second
	// connection copies the search rows, after the words (within a while: a copy
	// that held the words' table locked would wait for this callback).
	var searchRows, intruded bool
	_, err = store.CopyDatabase(ctx, src.db, dst, func(table string, rows int64) {
		if table == "sample_search" && !intruded {
			searchRows, intruded = true, true
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if _, err := raw.ExecContext(wctx, `INSERT INTO sample_words (docid, body) VALUES (424242, 'not the copy''s')`); err != nil {
				t.Error(err)
			}
		}
	})
	if !searchRows {
		t.Fatal("the copy reported no search rows")
	}
	if !errors.Is(err, bench.ErrConflict) || !strings.Contains(bench.Message(err), "the destination's table sample_words got rows during the copy") {
		t.Errorf("a copy whose destination got words meanwhile: %v; want it refused in words", err)
	}
	if _, err := raw.Exec(`DELETE FROM sample_words WHERE docid = 424242`); err != nil {
		t.Fatal(err)
	}
	empty("the failed copy")

	// A crashed copy's staging schema, with a staged table in it.
	if _, err := raw.Exec(`CREATE SCHEMA ` + staging + `; CREATE TABLE ` + staging + `.sample_words (docid BIGINT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.CopyDatabase(ctx, src.db, dst, nil); err != nil {
		t.Fatalf("copy after a crashed one: %v", err)
	}
	if stagingExists() {
		t.Errorf("after the copy, the staging schema %s is still there", staging)
	}
	compareTables(t, "copy after a crashed one", dumpTables(t, src.db), dumpTables(t, dst))
	compareIndexes(t, "the copy", want, pgIndexes(t, dst))
}
