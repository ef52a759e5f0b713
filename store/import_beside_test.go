package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// needsBeside skips a test of importBeside on SQLite, which has one writer at a
// time: there the import's write transaction holds the lock throughout.
func needsBeside(t *testing.T, db *store.DB) {
	t.Helper()
	if !db.Postgres() {
		t.Skip("SQLite writes one transaction at a time: an import's rows are written holding the write lock (BENCHWRIGHT_TEST_POSTGRES runs this)")
	}
}

// imageUse lists each image's sample_count beside the samples that show it.
func imageUse(t *testing.T, sdb *sql.DB) string {
	t.Helper()
	rows, err := sdb.Query(`SELECT i.rel_path, i.sample_count, (SELECT count(*) FROM samples s WHERE s.image_id = i.id) FROM images i ORDER BY i.rel_path`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var path string
		var counted, shown int
		if err := rows.Scan(&path, &counted, &shown); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s counted %d shown by %d", path, counted, shown))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, "; ")
}

// TestImportWritesBesideOthers: on PostgreSQL an import writes its rows without
// the write lock, on SQLite in batches of write transactions of their own
// (import_batches.go), so that once they are written (and not visible) another
// user's writes commit — a draft saved, a sample created on an image the import's
// samples show — and readers see none of the import; at its commit everything
// arrives at once, the others' writes stay, each image counts every sample on it,
// the summaries are those rebuilt from the rows, and LastChange moves on (clients
// reload) although others wrote after the import's rows.
func TestImportWritesBesideOthers(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	sdb := readerDB(t, f.db.Path())
	draft, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, hopSample(img))
	if err != nil {
		t.Fatal(err)
	}
	before := importVisible(t, f, sdb)
	var recs []annotate.Imported
	for i := range 30 {
		s := hopSample(img)
		if i%3 != 0 {
			s.ID = fmt.Sprintf("imp-%02d", i)
		}
		recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
	}
	var created string
	var seen int64
	called := false
	store.SetImportHooks(t, store.ImportHooks{Written: func() {
		called = true
		if got := importVisible(t, f, sdb); got != before {
			t.Errorf("while the import's rows are written readers see\n%s\nwant as before it\n%s", got, before)
		}
		err := writeMeanwhile(func() error {
			s := draft.Content
			s.Question = "Which object is farthest from the camera?"
			s.QuestionTag = "Which object is <REL>farthest from the camera</REL>?"
			if _, err := f.db.SaveDraft(ctx, f.ann2, draft.ID, draft.Version, s); err != nil {
				return err
			}
			mine := hopSample(img)
			mine.ID = "other-1"
			si, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, mine)
			created = si.ID
			return err
		})
		if err != nil {
			t.Errorf("another user's write while the import's rows were written: %v", err)
		}
		if seen, err = f.db.LastChange(ctx); err != nil {
			t.Error(err)
		}
	}})
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if !called {
		t.Fatal("the import never wrote beside others")
	}
	if len(res.Imported) != len(recs) || slices.Contains(res.Imported, created) {
		t.Errorf("imported %d of %d: %v, skipped %+v (another user created %s meanwhile)", len(res.Imported), len(recs), res.Imported, res.Skipped, created)
	}
	n, err := f.db.CountSamples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{})
	if err != nil || n != len(recs)+2 {
		t.Errorf("%d samples after the import (%v), want its %d and the other user's 2", n, err, len(recs))
	}
	if si, err := f.db.Sample(ctx, f.ann2, draft.ID); err != nil || !strings.Contains(si.Content.Question, "farthest") {
		t.Errorf("the draft saved during the import: %+v, %v", si.Content.Question, err)
	}
	if use := imageUse(t, sdb); !strings.Contains(use, fmt.Sprintf("counted %d shown by %[1]d", len(recs)+2)) {
		t.Errorf("images after the import: %s", use)
	}
	if now, err := f.db.LastChange(ctx); err != nil || now <= seen {
		t.Errorf("LastChange %d after the import, %d before its commit (%v): clients would not reload", now, seen, err)
	}
	kept := statSnapshot(t, sdb)
	if err := f.db.RebuildStats(ctx, f.project.ID); err != nil {
		t.Fatal(err)
	}
	if got := statSnapshot(t, sdb); !slices.Equal(got, kept) {
		t.Errorf("the summaries after the import\n%s\nrebuilt from the rows\n%s", strings.Join(kept, "\n"), strings.Join(got, "\n"))
	}
}

// errAny stands for any error a test wants.
var errAny = errors.New("any error")

// TestImportBesideChecksAgainUnderTheLock: what happens while an import's rows are
// written beside others counts at its commit: its user leaving the project refuses
// it (audited), a sample it skipped as existing that is deleted meanwhile is
// imported after all, a cancellation or a lost connection leaves nothing, here and
// after the database is opened again; readers never see a part.
func TestImportBesideChecksAgainUnderTheLock(t *testing.T) {
	tests := []struct {
		name      string
		meanwhile func(f fixture, cancel func(), dup bench.SampleInfo) error
		want      error
		imported  []string
	}{
		{name: "user left the project", meanwhile: func(f fixture, _ func(), _ bench.SampleInfo) error {
			return f.db.RemoveMember(context.Background(), f.lead, f.project.ID, "ann")
		}, want: bench.ErrForbidden},
		{name: "skipped sample deleted", meanwhile: func(f fixture, _ func(), dup bench.SampleInfo) error {
			_, err := f.db.DeleteDraft(context.Background(), f.ann, dup.ID, dup.Version)
			return err
		}, imported: []string{"imp-0", "dup", "imp-2"}},
		{name: "cancelled", meanwhile: func(_ fixture, cancel func(), _ bench.SampleInfo) error { cancel(); return nil }, want: context.Canceled},
		{name: "connection lost", meanwhile: func(f fixture, _ func(), _ bench.SampleInfo) error {
			// The import's server process ends, as in a crash of either side: its
			// transaction is the only one open on this schema's samples, waiting
			// for the hook.
			sdb, err := store.RawSQL(f.db.Path())
			if err != nil {
				return err
			}
			defer sdb.Close()
			var n int
			err = sdb.QueryRow(`SELECT count(pg_terminate_backend(a.pid)) FROM pg_stat_activity a WHERE a.state = 'idle in transaction'
				AND a.pid IN (SELECT l.pid FROM pg_locks l WHERE l.relation = 'samples'::regclass) AND a.pid <> pg_backend_pid()`).Scan(&n)
			if err == nil && n != 1 {
				err = fmt.Errorf("%d transactions open, want the import's", n)
			}
			return err
		}, want: errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			needsBeside(t, f.db)
			img := withImage(t, f)
			sdb := readerDB(t, f.db.Path())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			d := hopSample(img)
			d.ID = "dup"
			dup, err := f.db.CreateSample(ctx, f.ann, f.project.ID, d)
			if err != nil {
				t.Fatal(err)
			}
			before := importVisible(t, f, sdb)
			deniedBefore := storetest.CountDenied(t, f.db)
			var recs []annotate.Imported
			for i, id := range []string{"imp-0", "dup", "imp-2"} {
				s := hopSample(img)
				s.ID = id
				s.Question = "Which object is nearest to the camera?"
				s.QuestionTag = "Which object is <REL>nearest to the camera</REL>?"
				recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
			}
			once := false
			store.SetImportHooks(t, store.ImportHooks{Written: func() {
				if once {
					return
				}
				once = true
				if got := importVisible(t, f, sdb); got != before {
					t.Errorf("while the import's rows are written readers see\n%s\nwant\n%s", got, before)
				}
				if err := writeMeanwhile(func() error { return tt.meanwhile(f, cancel, dup) }); err != nil {
					t.Errorf("meanwhile: %v", err)
				}
			}})
			res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{})
			if !once {
				t.Fatal("the import never wrote beside others")
			}
			if tt.want != nil {
				if err == nil || tt.want != errAny && !errors.Is(err, tt.want) {
					t.Fatalf("got %v (imported %v), want %v", err, res.Imported, tt.want)
				}
				if got := importVisible(t, f, sdb); got != before {
					t.Errorf("after the failed import readers see\n%s\nwant\n%s", got, before)
				}
				again, err := store.Open(context.Background(), f.db.Path())
				if err != nil {
					t.Fatal(err)
				}
				defer again.Close()
				if got := importVisible(t, fixture{db: again, lead: f.lead, project: f.project}, sdb); got != before {
					t.Errorf("after the failed import, opened again, readers see\n%s\nwant\n%s", got, before)
				}
				if denied := storetest.CountDenied(t, f.db) - deniedBefore; (tt.want == bench.ErrForbidden) != (denied > 0) {
					t.Errorf("%d refusals audited", denied)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Imported, tt.imported) || len(res.Skipped) != 0 {
				t.Errorf("imported %v, skipped %+v; want %v imported", res.Imported, res.Skipped, tt.imported)
			}
			if si, err := f.db.Sample(ctx, f.ann, "dup"); err != nil || !strings.Contains(si.Content.Question, "nearest") {
				t.Errorf("dup after the import: %q, %v; want the imported record", si.Content.Question, err)
			}
			if use := imageUse(t, sdb); !strings.Contains(use, "counted 3 shown by 3") {
				t.Errorf("images after the import: %s", use)
			}
		})
	}
}

// TestImportYieldsToAWriterItBlocks: a writer that meets an import's uncommitted
// rows — here another user's new sample given the project's next free number,
// which the import had given to one of its records — waits for the import while
// holding the write lock, and so would every writer behind it; the import sees it
// waiting, rolls back and tries again, so that writer commits first (with the id
// it chose) and the import gives its record another id.
func TestImportYieldsToAWriterItBlocks(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	needsBeside(t, f.db)
	img := withImage(t, f)
	sdb := readerDB(t, f.db.Path())
	recs := []annotate.Imported{{Line: 1, Sample: hopSample(img)}, {Line: 2, Sample: hopSample(img)}}
	first, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs[:1], bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	type created struct {
		id  string
		err error
	}
	done := make(chan created, 1)
	calls := 0
	store.SetImportHooks(t, store.ImportHooks{Written: func() {
		calls++
		if calls > 1 {
			return
		}
		go func() {
			si, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, hopSample(img))
			done <- created{si.ID, err}
		}()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			var waiting int
			if err := sdb.QueryRow(`SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted`).Scan(&waiting); err != nil {
				t.Error(err)
				return
			}
			if waiting > 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Error("the other user's new sample never waited for the import's rows")
				return
			}
		}
	}})
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	other := <-done
	if other.err != nil {
		t.Fatal(other.err)
	}
	// The project held one sample (first.Imported[0], number 1); the import gave
	// its records numbers 2 and 3, and the other user's sample chose 2 too.
	want := strings.Replace(first.Imported[0], "00001", "00002", 1)
	if other.id != want || slices.Contains(res.Imported, other.id) || len(res.Imported) != 2 {
		t.Errorf("the other user's sample is %s, the import's %v; want the other user's %s (it committed first) and the import's two others",
			other.id, res.Imported, want)
	}
	if calls < 2 {
		t.Errorf("the import wrote its rows %d times; want it to roll back for the waiting writer and write them again", calls)
	}
}

// TestImportBesideLeavesTheIdsAfterItsOwn: an import into round 1 numbers its
// revisions from the sequence with no lock held; a bulk write meanwhile numbers
// its own after the largest committed id and moves the sequence back to follow
// them (here the sequence is moved back by hand). At its commit the import moves
// the sequence past its revisions, so the next revision (a submit) takes an id
// of its own.
func TestImportBesideLeavesTheIdsAfterItsOwn(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	needsBeside(t, f.db)
	img := withImage(t, f)
	sdb := rawDB(t, f.db.Path())
	var recs []annotate.Imported
	for i := range 5 {
		s := hopSample(img)
		s.ID = fmt.Sprintf("r1-%d", i)
		recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
	}
	store.SetImportHooks(t, store.ImportHooks{Written: func() {
		for _, q := range []string{`SELECT setval(pg_get_serial_sequence('revisions', 'id'), 1, false)`,
			`SELECT setval(pg_get_serial_sequence('sample_search', 'doc'), 1, false)`} {
			if _, err := sdb.Exec(q); err != nil {
				t.Error(err)
			}
		}
	}})
	if _, err := f.db.ImportSamples(ctx, f.lead, f.project.ID, recs, bench.ImportSamplesOptions{Author: "ann", ToRound1: true}); err != nil {
		t.Fatal(err)
	}
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, nil); err != nil {
		t.Errorf("a sample written after the import: %v", err)
	}
}
