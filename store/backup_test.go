package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestBackupAndRestore: a backup is the whole project as it was (samples, their
// history, accounts that still sign in), opens as a database of its own, and is
// refused over an existing file.
func TestBackupAndRestore(t *testing.T) {
	storetest.SkipOnPostgres(t, "SQLite's online backup; PostgreSQL has pg_dump (TestPostgresDumpRestore)")
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	si := submitted(t, f, f.ann, img)
	if _, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, hopSample(img)); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), "backup.db")
	if err := f.db.Backup(ctx, to); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Backup(ctx, to); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a backup over an existing file: %v, want a refusal", err)
	}
	b, err := store.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := b.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Fatalf("integrity of the backup: %q %v", ok, err)
	}
	want, _ := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{}, 0, 100)
	got, err := b.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{}, 0, 100)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("samples in the backup differ:\n%+v\nwant\n%+v (%v)", got, want, err)
	}
	hw, _ := f.db.History(ctx, f.lead, si.ID)
	hg, _ := b.History(ctx, f.lead, si.ID)
	if !reflect.DeepEqual(hg, hw) || len(hg) == 0 {
		t.Errorf("history in the backup: %d events, want %d", len(hg), len(hw))
	}
	if _, err := b.Authenticate(ctx, "ann", "secret"); err != nil {
		t.Errorf("an account of the backup does not sign in: %v", err)
	}
}

// TestBackupWhileWriting: a backup taken while another connection keeps writing
// is one consistent state: it opens, passes SQLite's integrity check, and holds at
// least what was written before it started.
func TestBackupWhileWriting(t *testing.T) {
	storetest.SkipOnPostgres(t, "SQLite's online backup; PostgreSQL has pg_dump (TestPostgresDumpRestore)")
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	// Big enough (several MB) that a backup copied in small steps would restart
	// after every write below and not finish.
	s := hopSample(img)
	s.Options[0] = strings.Repeat("the mug on the left ", 150)
	for range 600 {
		if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, s); err != nil {
			t.Fatal(err)
		}
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if _, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, hopSample(img)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	to := filepath.Join(t.TempDir(), "live.db")
	bctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err := f.db.Backup(bctx, to)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	b, err := store.Open(ctx, to)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if ok, err := b.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Fatalf("integrity of a backup taken while writing: %q %v", ok, err)
	}
	n, err := b.CountSamples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{})
	if err != nil || n < 600 {
		t.Errorf("the backup holds %d samples, want at least the 600 written before it (%v)", n, err)
	}
	counts, _ := b.StatusCounts(ctx, bench.Owner(), f.project.ID)
	total := 0
	for _, c := range counts {
		total += c
	}
	if total != n {
		t.Errorf("the backup's summaries say %d samples, its rows %d: not one state", total, n)
	}
}
