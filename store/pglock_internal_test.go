package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// pgLockDB opens a fresh PostgreSQL schema for the lock tests (as
// storetest.NewDatabase makes one, which this package's own tests cannot import),
// or skips on SQLite, whose one writer at a time has no scopes.
func pgLockDB(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), pgTestURL(t, "SQLite writes one transaction at a time and ignores lock scopes"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// pgTestURL is the address of a fresh PostgreSQL schema, dropped when the test
// ends, or skips on SQLite saying why.
func pgTestURL(t *testing.T, why string) string {
	t.Helper()
	base := os.Getenv("BENCHWRIGHT_TEST_POSTGRES")
	if base == "" {
		t.Skip("PostgreSQL only: " + why)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	b := make([]byte, 6)
	rand.Read(b)
	schema := "bwt_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func openSample(n int) annotate.Sample {
	return annotate.Sample{Kind: annotate.KindOpen, Question: fmt.Sprintf("How many chairs are in the room? (%d)", n), AnswerText: "3"}
}

// pgLeadProject is pgLockDB with its first lead and a project "alpha".
func pgLeadProject(t *testing.T) (*DB, bench.User, bench.Project) {
	t.Helper()
	d := pgLockDB(t)
	ctx := context.Background()
	lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.CreateProject(ctx, lead, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	return d, lead, p
}

// withImage imports one small picture into project and returns its path there.
func withImage(t *testing.T, d *DB, lead bench.User, project int64) string {
	t.Helper()
	dir := t.TempDir()
	img := image.NewGray(image.Rect(0, 0, 64, 48))
	img.Pix[project%64] = 255
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "room.jpg"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ImportImages(context.Background(), lead, project, dir, nil); err != nil {
		t.Fatal(err)
	}
	return "room.jpg"
}

// TestWriteLockScopes: on PostgreSQL a write of one sample or one project waits
// only for writers of the same sample or project, and for a write of the whole
// database (inTx, lockScope). While one transaction holds each scope's locks, the
// writes of the table either finish or wait for it (they are given half a second,
// then cancelled).
func TestWriteLockScopes(t *testing.T) {
	d := pgLockDB(t)
	ctx := context.Background()
	lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
	if err != nil {
		t.Fatal(err)
	}
	pa, err := d.CreateProject(ctx, lead, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	pb, err := d.CreateProject(ctx, lead, "beta")
	if err != nil {
		t.Fatal(err)
	}
	sample := map[string]bench.SampleInfo{}
	for _, x := range []struct {
		name    string
		project int64
	}{{"a1", pa.ID}, {"a2", pa.ID}, {"b1", pb.ID}} {
		if sample[x.name], err = d.CreateSample(ctx, lead, x.project, openSample(len(sample))); err != nil {
			t.Fatal(err)
		}
	}
	type write struct {
		name string
		do   func(ctx context.Context) error
	}
	users := 0
	writes := []write{
		{"save a1", func(ctx context.Context) error {
			s := sample["a1"]
			_, err := d.SaveDraft(ctx, lead, s.ID, s.Version, openSample(10))
			if err == nil {
				sample["a1"], err = d.Sample(ctx, lead, s.ID)
			}
			return err
		}},
		{"save a2", func(ctx context.Context) error {
			s := sample["a2"]
			_, err := d.SaveDraft(ctx, lead, s.ID, s.Version, openSample(11))
			if err == nil {
				sample["a2"], err = d.Sample(ctx, lead, s.ID)
			}
			return err
		}},
		{"save b1", func(ctx context.Context) error {
			s := sample["b1"]
			_, err := d.SaveDraft(ctx, lead, s.ID, s.Version, openSample(12))
			if err == nil {
				sample["b1"], err = d.Sample(ctx, lead, s.ID)
			}
			return err
		}},
		{"create in alpha", func(ctx context.Context) error {
			_, err := d.CreateSample(ctx, lead, pa.ID, openSample(20))
			return err
		}},
		{"create in beta", func(ctx context.Context) error {
			_, err := d.CreateSample(ctx, lead, pb.ID, openSample(21))
			return err
		}},
		{"add a user", func(ctx context.Context) error {
			users++
			_, err := d.AddUser(ctx, lead, fmt.Sprintf("ann%d", users), bench.RoleAnnotator, "", "annotator-long-password")
			return err
		}},
	}
	tests := []struct {
		held  string
		scope func(context.Context) context.Context
		tally int64    // the project whose tally the holder takes after its scope's locks (lockTally)
		waits []string // the writes that wait for the holder; the others finish
	}{
		{"sample a1", func(ctx context.Context) context.Context { return lockSample(ctx, sample["a1"].ID) }, 0,
			[]string{"save a1", "add a user"}},
		// Creating a sample waits for no other sample's writer, nor the tally: its
		// number is checked by its INSERT (createSample).
		{"sample a1 and alpha's tally", func(ctx context.Context) context.Context { return lockSample(ctx, sample["a1"].ID) }, pa.ID,
			[]string{"save a1", "add a user"}},
		{"a new sample of alpha", func(ctx context.Context) context.Context { return lockNewSample(ctx, pa.ID) }, 0,
			[]string{"add a user"}},
		{"project alpha", func(ctx context.Context) context.Context { return lockProject(ctx, pa.ID) }, 0,
			[]string{"save a1", "save a2", "create in alpha", "add a user"}},
		{"the database", func(ctx context.Context) context.Context { return ctx }, 0,
			[]string{"save a1", "save a2", "save b1", "create in alpha", "create in beta", "add a user"}},
		{"a sample that does not exist", func(ctx context.Context) context.Context { return lockSample(ctx, "nothing-00001") }, 0,
			[]string{"save a1", "save a2", "save b1", "create in alpha", "create in beta", "add a user"}},
	}
	for _, tt := range tests {
		t.Run(tt.held, func(t *testing.T) {
			held, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
			go func() {
				done <- d.inTx(tt.scope(ctx), func(tx *sql.Tx) error {
					if tt.tally != 0 {
						if err := lockTally(ctx, tx, tt.tally); err != nil {
							close(held)
							return err
						}
					}
					// A sample's write sends its locks with its first statement.
					var one int
					if err := tx.QueryRowContext(ctx, `SELECT 1`).Scan(&one); err != nil {
						close(held)
						return err
					}
					close(held)
					<-release
					return nil
				})
			}()
			<-held
			for _, w := range writes {
				waits := false
				for _, n := range tt.waits {
					waits = waits || n == w.name
				}
				limit := 30 * time.Second // a loaded machine's slowest write, far from it
				if waits {
					limit = 500 * time.Millisecond
				}
				wctx, cancel := context.WithTimeout(ctx, limit)
				err := w.do(wctx)
				cancel()
				switch {
				case waits && err == nil:
					t.Errorf("while %s is held, %s went ahead; it must wait", tt.held, w.name)
				case waits && !errors.Is(err, context.DeadlineExceeded):
					t.Errorf("while %s is held, %s: %v; want it waiting until cancelled", tt.held, w.name, err)
				case !waits && err != nil:
					t.Errorf("while %s is held, %s: %v; want it done without waiting", tt.held, w.name, err)
				}
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestConcurrentWritersTwoProjects: writers of two projects and of the whole
// database at once on PostgreSQL — annotators creating, saving and submitting in
// each project (new-sample and sample scopes, the tallies), the lead adding users
// and projects (the database's) — all finish, none deadlocks or fails, and each project
// numbers its samples without a gap or a duplicate.
func TestConcurrentWritersTwoProjects(t *testing.T) {
	d := pgLockDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 3, 6
	var projects []bench.Project
	var images []string
	var annotators [][]bench.User
	for _, name := range []string{"alpha", "beta"} {
		p, err := d.CreateProject(ctx, lead, name)
		if err != nil {
			t.Fatal(err)
		}
		projects = append(projects, p)
		images = append(images, withImage(t, d, lead, p.ID))
		var us []bench.User
		for i := range writers {
			u, err := d.AddUserToProject(ctx, lead, p.ID, fmt.Sprintf("%s%d", name, i), bench.RoleAnnotator, "", "annotator-long-password")
			if err != nil {
				t.Fatal(err)
			}
			us = append(us, u)
		}
		annotators = append(annotators, us)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for k, p := range projects {
		for _, u := range annotators[k] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := range each {
					s := openSample(n)
					s.Image = images[k]
					si, err := d.CreateSample(ctx, u, p.ID, s)
					if err == nil {
						var v int
						s.Question += " Count again."
						v, err = d.SaveDraft(ctx, u, si.ID, si.Version, s)
						if err == nil {
							_, err = d.Submit(ctx, u, si.ID, v, nil)
						}
					}
					if err != nil {
						errs <- fmt.Errorf("%s in %s: %w", u.Name, p.Name, err)
						return
					}
				}
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := range each {
			name := fmt.Sprintf("late%d", n)
			if _, err := d.AddUser(ctx, lead, name, bench.RoleAnnotator, "", "annotator-long-password"); err != nil {
				errs <- fmt.Errorf("add user %s: %w", name, err)
				return
			}
			if _, err := d.CreateProject(ctx, lead, name); err != nil {
				errs <- fmt.Errorf("create project %s: %w", name, err)
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, p := range projects {
		var n, distinct int
		if err := d.db.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT id) FROM samples WHERE project_id = ? AND status = 'round1'`, p.ID).Scan(&n, &distinct); err != nil {
			t.Fatal(err)
		}
		if n != writers*each || distinct != n {
			t.Errorf("%s: %d samples submitted (%d ids), want %d", p.Name, n, distinct, writers*each)
		}
		// The summaries the writers counted in at once (their increments sent at
		// their commits) are what counting every sample again gives.
		summaries := func() string {
			var out string
			for _, q := range []string{
				`SELECT kind || ' ' || status || ' ' || author_id || ' ' || n FROM stat_samples WHERE project_id = ? AND n <> 0 ORDER BY kind, status, author_id`,
				`SELECT day || ' ' || state || ' ' || n FROM stat_activity WHERE project_id = ? AND n <> 0 ORDER BY day, state`,
				`SELECT day || ' ' || author_id || ' ' || n FROM stat_submissions WHERE project_id = ? AND n <> 0 ORDER BY day, author_id`,
			} {
				rows, err := queryAll(ctx, d.db, scanString, q, p.ID)
				if err != nil {
					t.Fatal(err)
				}
				out += fmt.Sprint(rows) + "\n"
			}
			return out
		}
		counted := summaries()
		if err := d.inTx(ctx, func(tx *sql.Tx) error { return d.rebuildStats(ctx, tx, p.ID) }); err != nil {
			t.Fatal(err)
		}
		if rebuilt := summaries(); counted != rebuilt {
			t.Errorf("%s: the summaries counted at once differ from a recount:\ncounted %s\nrecount %s", p.Name, counted, rebuilt)
		}
		want := fmt.Sprintf("%s-%05d", annotate.IDPrefix(p.Name), writers*each)
		var last string
		if err := d.db.QueryRowContext(ctx, `SELECT max(id) FROM samples WHERE project_id = ?`, p.ID).Scan(&last); err != nil || last != want {
			t.Errorf("%s: the last sample is %q (%v), want %q: the numbers have a gap", p.Name, last, err, want)
		}
	}
}

// TestCreatorsDoNotWaitForANumber: on PostgreSQL a creator whose next number
// another creator's transaction is inserting right now moves to the following
// number at once (dialect.numberFree) instead of waiting for that transaction to
// end, only to find the number taken. Both samples are kept, under two ids.
func TestCreatorsDoNotWaitForANumber(t *testing.T) {
	d, lead, p := pgLeadProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Each creator draws on an image of their own: creators of one image wait for
	// each other at its use count (images.sample_count) whatever their numbers.
	dir := t.TempDir()
	imgs := []string{"first.jpg", "second.jpg"}
	for k, name := range imgs {
		img := image.NewGray(image.Rect(0, 0, 64, 48))
		img.Pix[k] = 255
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.ImportImages(ctx, lead, p.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	var us []bench.User
	for _, name := range []string{"first", "second"} {
		u, err := d.AddUserToProject(ctx, lead, p.ID, name, bench.RoleAnnotator, "", "annotator-long-password")
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	s := openSample(1)
	s.Image = imgs[0]
	// The first creator numbers its sample and holds its transaction open.
	inserted, release := make(chan string, 1), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- d.inTx(lockNewSample(ctx, p.ID), func(tx *sql.Tx) error {
			si, err := d.createSample(ctx, tx, us[0], p.ID, s, verify.StateDraft)
			if err != nil {
				inserted <- ""
				return err
			}
			inserted <- si.ID
			<-release
			return nil
		})
	}()
	firstID := <-inserted
	if firstID == "" {
		close(release)
		t.Fatalf("the first creator failed: %v", <-held)
	}
	second := make(chan bench.SampleInfo, 1)
	secondErr := make(chan error, 1)
	go func() {
		s := s
		s.Image = imgs[1]
		si, err := d.CreateSample(ctx, us[1], p.ID, s)
		secondErr <- err
		second <- si
	}()
	select {
	case err := <-secondErr:
		si := <-second
		close(release)
		if err != nil {
			t.Fatalf("the second creator: %v", err)
		}
		if si.ID == firstID {
			t.Fatalf("both creators got %s", si.ID)
		}
	case <-time.After(20 * time.Second):
		close(release)
		t.Fatalf("the second creator waited for the first's open transaction (it holds %s) instead of numbering the next sample", firstID)
	}
	if err := <-held; err != nil {
		t.Fatalf("the first creator: %v", err)
	}
	if _, err := d.Sample(ctx, lead, firstID); err != nil {
		t.Fatalf("the first creator's sample %s: %v", firstID, err)
	}
}
