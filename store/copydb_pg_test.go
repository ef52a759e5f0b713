package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

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
