package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// importVisible is what readers can see of a project's samples and of an
// import: the samples' count, the sample manager's count and full-text hits,
// the summaries, the search rows and words, and the audit rows about samples.
func importVisible(t *testing.T, f fixture, sdb *sql.DB) string {
	t.Helper()
	ctx := context.Background()
	n, err := f.db.CountSamples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{})
	if err != nil {
		t.Fatal(err)
	}
	hits, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{Text: "closest"})
	if err != nil {
		t.Fatal(err)
	}
	var search, words, audit int
	for _, c := range []struct {
		n *int
		q string
	}{{&search, `SELECT count(*) FROM sample_search`}, {&words, `SELECT count(*) FROM sample_words w JOIN sample_search x ON x.doc = w.docid`},
		{&audit, `SELECT count(*) FROM audit_log WHERE entity = 'sample'`}} {
		if err := sdb.QueryRow(c.q).Scan(c.n); err != nil {
			t.Fatal(err)
		}
	}
	return fmt.Sprintf("samples %d, listed %d, found %d, search rows %d, words %d, sample audit rows %d, summaries %q",
		n, page.Total, hits.Total, search, words, audit, statSnapshot(t, sdb))
}

// importRows counts the rows of the tables an import writes, as they are and not
// as readers see them, and the imports under way.
func importRows(t *testing.T, sdb *sql.DB) string {
	t.Helper()
	var out []string
	for _, q := range []string{`SELECT count(*) FROM samples`, `SELECT count(*) FROM sample_images`, `SELECT count(*) FROM revisions`,
		`SELECT count(*) FROM stat_revisions`, `SELECT count(*) FROM sample_search`, `SELECT count(*) FROM sample_words`,
		`SELECT count(*) FROM audit_log WHERE entity = 'sample'`, `SELECT count(*) FROM import_batches WHERE done_at IS NULL`,
		`SELECT COALESCE(sum(sample_count), 0) FROM images`} {
		var n int
		if err := sdb.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s: %d", q, n))
	}
	return strings.Join(out, "\n")
}

// writeMeanwhile runs another user's write while an import is under way and
// waits 5 s at most for it to commit; a write still waiting then (for the
// import's write lock) is an error.
func writeMeanwhile(write func() error) error {
	done := make(chan error, 1)
	go func() { done <- write() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		return errors.New("it waited for the import instead of committing between its batches")
	}
}

// TestImportSamplesLetsOthersWriteBetweenBatches: an import prepares its records in
// batches that hold no write lock, so that another user's writes commit between
// them (a write that waited for the import would miss the hook's deadline); until
// the import commits, no reader sees any of it; and what the other user wrote
// meanwhile wins: an id of the file taken meanwhile is skipped, an id the import
// had chosen for a record without one is chosen again.
func TestImportSamplesLetsOthersWriteBetweenBatches(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	sdb := readerDB(t, f.db.Path())
	before := importVisible(t, f, sdb)
	named := func(id string) annotate.Imported { s := hopSample(img); s.ID = id; return annotate.Imported{Sample: s} }
	recs := []annotate.Imported{named("imp-1"), named(""), named("imp-3"), named("imp-4"), named(""), named("imp-6")}
	for i := range recs {
		recs[i].Line = i + 1
	}
	var batches []int
	var mine []string
	store.SetImportHooks(t, store.ImportHooks{Batch: 2, BatchDone: func(done, total int) {
		batches = append(batches, done)
		if done != 2 {
			return
		}
		if got := importVisible(t, f, sdb); got != before {
			t.Errorf("between the import's batches readers see\n%s\nwant as before it\n%s", got, before)
		}
		err := writeMeanwhile(func() error {
			taken := hopSample(img)
			taken.ID = "imp-4" // the file's fourth record, not yet prepared
			si, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, taken)
			if err == nil {
				mine = append(mine, si.ID)
				si, err = f.db.CreateSample(ctx, f.ann2, f.project.ID, hopSample(img)) // the id the import gave its second record
				mine = append(mine, si.ID)
			}
			return err
		})
		if err != nil {
			t.Errorf("another user's write between the import's batches: %v", err)
		}
	}})
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(batches, []int{2, 4, 6}) {
		t.Errorf("batches ended at %v, want 2, 4, 6", batches)
	}
	if len(mine) != 2 {
		t.Fatalf("the other user wrote %v", mine)
	}
	if len(res.Imported) != 5 || res.Imported[0] != "imp-1" || res.Imported[2] != "imp-3" || res.Imported[4] != "imp-6" {
		t.Fatalf("imported %v", res.Imported)
	}
	for _, id := range []string{res.Imported[1], res.Imported[3]} {
		if id == "" || slices.Contains(mine, id) || strings.HasPrefix(id, "imp-") {
			t.Errorf("a record without an id was imported as %q (the other user's samples are %v)", id, mine)
		}
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Line != 4 || res.Skipped[0].Reason != bench.SkipExists {
		t.Errorf("skipped %+v, want line 4 for its id taken meanwhile", res.Skipped)
	}
	for _, id := range mine {
		if si, err := f.db.Sample(ctx, bench.Owner(), id); err != nil || si.AuthorID != f.ann2.ID {
			t.Errorf("the other user's %s: %+v, %v", id, si, err)
		}
	}
	for _, id := range res.Imported {
		if si, err := f.db.Sample(ctx, bench.Owner(), id); err != nil || si.AuthorID != f.ann.ID || si.Status != verify.StateDraft {
			t.Errorf("imported %s: %+v, %v", id, si, err)
		}
	}
}

// TestImportSamplesFailureLeavesNothing: an import that fails — cancelled between
// its batches, refused at its write because its user left the project meanwhile
// (audited), or failing after its write transaction has written its rows — leaves
// nothing any reader can see, and readers never saw a part of it.
func TestImportSamplesFailureLeavesNothing(t *testing.T) {
	cancelled := func(_ fixture, cancel func()) error { cancel(); return nil }
	left := func(f fixture, _ func()) error {
		return writeMeanwhile(func() error { return f.db.RemoveMember(context.Background(), f.lead, f.project.ID, "ann") })
	}
	tests := []struct {
		name    string
		act     func(f fixture, cancel func()) error // at the first preparation batch's end
		written func(f fixture, cancel func()) error // at the first write batch's end (SQLite)
		failing func() error                         // before the write transaction commits
		want    error
	}{
		{name: "cancelled between batches", act: cancelled, want: context.Canceled},
		{name: "user left the project meanwhile", act: left, want: bench.ErrForbidden},
		{name: "cancelled between write batches", written: cancelled, want: context.Canceled},
		{name: "user left the project between write batches", written: left, want: bench.ErrForbidden},
		{name: "failure after the writes", failing: func() error { return errors.New("the disk is full") }, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.written != nil && f.db.Postgres() {
				t.Skip("PostgreSQL writes an import's rows in one transaction")
			}
			img := withImage(t, f)
			sdb := readerDB(t, f.db.Path())
			raw := rawDB(t, f.db.Path())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			kept := hopSample(img)
			kept.ID = "kept"
			if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, kept); err != nil {
				t.Fatal(err)
			}
			before := importVisible(t, f, sdb)
			rawBefore := importRows(t, raw)
			deniedBefore := storetest.CountDenied(t, f.db)
			var recs []annotate.Imported
			for i := range 7 {
				s := hopSample(img)
				if i%2 == 0 {
					s.ID = fmt.Sprintf("imp-%d", i)
				}
				recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
			}
			wrote := false
			writes := 0
			store.SetImportHooks(t, store.ImportHooks{Batch: 3, WriteBatch: 3,
				BatchWritten: func(done, total int) {
					writes++
					if got := importVisible(t, f, sdb); got != before {
						t.Errorf("after writing %d of %d records readers see\n%s\nwant\n%s", done, total, got, before)
					}
					if done == 3 && tt.written != nil {
						if err := tt.written(f, cancel); err != nil {
							t.Errorf("meanwhile: %v", err)
						}
					}
				},
				BatchDone: func(done, total int) {
					if got := importVisible(t, f, sdb); got != before {
						t.Errorf("after %d of %d records readers see\n%s\nwant\n%s", done, total, got, before)
					}
					if done == 3 && tt.act != nil {
						if err := tt.act(f, cancel); err != nil {
							t.Errorf("meanwhile: %v", err)
						}
					}
				},
				BeforeCommit: func() error {
					wrote = true
					if tt.failing != nil {
						return tt.failing()
					}
					return nil
				}})
			res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
			switch {
			case err == nil:
				t.Fatalf("the import succeeded: %+v", res)
			case tt.want != nil && !errors.Is(err, tt.want):
				t.Errorf("got %v, want %v", err, tt.want)
			case tt.failing != nil && !wrote:
				t.Errorf("the import failed before writing: %v", err)
			}
			if len(res.Imported) != 0 {
				t.Errorf("a failed import reports %v imported", res.Imported)
			}
			if got := importVisible(t, f, sdb); got != before {
				t.Errorf("after the failed import readers see\n%s\nwant\n%s", got, before)
			}
			if tt.written != nil && writes != 1 {
				t.Errorf("%d write batches, want the import to stop after the first", writes)
			}
			if got := importRows(t, raw); got != rawBefore {
				t.Errorf("after the failed import the tables hold\n%s\nwant as before it\n%s", got, rawBefore)
			}
			if denied := storetest.CountDenied(t, f.db) - deniedBefore; (tt.want == bench.ErrForbidden) != (denied > 0) {
				t.Errorf("%d refusals audited", denied)
			}
		})
	}
}

// searchSnapshot lists the sample manager's rows and words of every sample, without
// the rows' internal numbers.
func searchSnapshot(t *testing.T, sdb *sql.DB) []string {
	t.Helper()
	rows, err := sdb.Query(`SELECT x.sample_id, x.project_id, x.kind, x.status, x.author_id, x.image_id, x.hop, x.view, x.categories, x.task,
		x.split, x.reasons, x.acked, x.derived, x.created_at, x.updated_at, w.body FROM sample_search x JOIN sample_words w ON w.docid = x.doc
		ORDER BY x.sample_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]any, 17)
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		out = append(out, fmt.Sprint(vals...))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportSamplesWritesWhatOneByOneWould: the import writes its samples in
// multi-row statements; the summaries and search rows it keeps must be those the
// store builds from the rows (a rebuild changes nothing), for drafts (with and
// without ids, warnings, lint errors) and into round 1, whose samples then go on
// through the protocol; the history says what a record-by-record import said.
func TestImportSamplesWritesWhatOneByOneWould(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1")
	sdb := readerDB(t, f.db.Path())
	recs, _ := importRecords(img)
	box := annotate.Box{10, 5, 30, 15}
	recs = append(recs, annotate.Imported{Line: 17, Sample: annotate.Sample{Kind: annotate.KindHopQA, Image: img, Box: &box, Tags: []string{"coco:mug"}}})
	drafts, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	round1, err := f.db.ImportSamples(ctx, f.lead, f.project.ID, []annotate.Imported{
		{Line: 1, Sample: func() annotate.Sample { s := hopSample(img); s.ID = "r1-a"; return s }()},
		{Line: 2, Sample: stepSample("r1-step", img)},
		{Line: 3, Sample: func() annotate.Sample { s := recs[5].Sample; s.ID = "r1-warn"; return s }()},
	}, bench.ImportSamplesOptions{Author: "ann2", ToRound1: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(drafts.Imported) != 7 || len(drafts.Incomplete) != 3 || !slices.Equal(round1.Imported, []string{"r1-a", "r1-step", "r1-warn"}) {
		t.Fatalf("drafts %+v\nround 1 %+v", drafts, round1)
	}
	kept, search := statSnapshot(t, sdb), searchSnapshot(t, sdb)
	if err := f.db.RebuildStats(ctx, f.project.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.db.RebuildSearch(ctx, f.project.ID); err != nil {
		t.Fatal(err)
	}
	if got := statSnapshot(t, sdb); !slices.Equal(got, kept) {
		t.Errorf("the import's summaries\n%s\nrebuilt from the rows\n%s", strings.Join(kept, "\n"), strings.Join(got, "\n"))
	}
	if got := searchSnapshot(t, sdb); !slices.Equal(got, search) {
		t.Errorf("the import's search rows\n%s\nrebuilt from the rows\n%s", strings.Join(search, "\n"), strings.Join(got, "\n"))
	}
	events, err := f.db.History(ctx, f.lead, "r1-warn")
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, e := range events {
		said = append(said, e.Actor+" "+e.Action+" "+e.Detail)
	}
	want := []string{"ann2 sample.create hop_qa", "ann2 revision.import revision 1", "lead sample.status draft → round1",
		"lead sample.import line 3, revision 1 by ann2 into round 1; lint warnings acknowledged: schema"}
	if !slices.Equal(said, want) {
		t.Errorf("history of r1-warn:\n%s\nwant\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
	// The imported samples go on: reviewed in round 1, edited and submitted; new
	// samples and revisions after them get ids of their own.
	if !queueHas(t, f, vs["a1"], "r1-step") {
		t.Error("r1-step is not in a1's queue")
	}
	si, err := f.db.Sample(ctx, f.ann, drafts.Imported[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, []string{"schema"}); err != nil {
		t.Errorf("submitting imported draft %s: %v", si.ID, err)
	}
	fresh, err := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Submit(ctx, f.ann, fresh.ID, fresh.Version, nil); err != nil {
		t.Errorf("a sample written after the import: %v", err)
	}
	if page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{Text: fresh.ID}); err != nil || page.Total != 1 {
		t.Errorf("finding %s after the import: %+v, %v", fresh.ID, page, err)
	}
}

// TestImportLeftUnderWayIsRemoved: a SQLite import killed between its write
// batches (here: the database file as it was then, copied) leaves rows nobody
// sees; while the import may still be alive (it wrote a batch lately) another
// opening of the file leaves them be, hidden, and once it has been quiet for
// longer than a living import ever is, opening the file removes every one of them.
func TestImportLeftUnderWayIsRemoved(t *testing.T) {
	storetest.SkipOnPostgres(t, "PostgreSQL writes an import's rows in one transaction, which a crash rolls back")
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	kept := hopSample(img)
	kept.ID = "kept"
	if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, kept); err != nil {
		t.Fatal(err)
	}
	rawBefore := importRows(t, rawDB(t, f.db.Path()))
	var recs []annotate.Imported
	for i := range 9 {
		s := hopSample(img)
		s.ID = fmt.Sprintf("imp-%d", i)
		recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
	}
	crashed := filepath.Join(t.TempDir(), "crashed.db")
	store.SetImportHooks(t, store.ImportHooks{WriteBatch: 3, BatchWritten: func(done, _ int) {
		if done == 6 {
			if _, err := rawDB(t, f.db.Path()).Exec(`VACUUM INTO ?`, crashed); err != nil {
				t.Fatal(err)
			}
		}
	}})
	if _, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{AcceptLintErrors: true}); err != nil {
		t.Fatal(err)
	}
	reopen := func() int {
		db, err := store.Open(ctx, crashed)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		n, err := db.CountSamples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := reopen(); n != 1 {
		t.Errorf("opened after the crash, %d samples, want only the one there before the import", n)
	}
	raw := rawDB(t, crashed)
	if got := importRows(t, raw); got == rawBefore {
		t.Fatal("the copy holds no row of the import under way: the test tests nothing")
	}
	if _, err := raw.Exec(`UPDATE import_batches SET touched_at = '2026-01-01T00:00:00Z' WHERE done_at IS NULL`); err != nil {
		t.Fatal(err)
	}
	if n := reopen(); n != 1 {
		t.Errorf("opened again, %d samples, want 1", n)
	}
	if got := importRows(t, raw); got != rawBefore {
		t.Errorf("after the lost import was removed the tables hold\n%s\nwant as before it\n%s", got, rawBefore)
	}
}
