package ui

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"golang.org/x/crypto/bcrypt"
)

// Seeding the demo project (its images imported and hashed, nine bcrypt hashes)
// took a second or more of every test; it is done once per test binary for each
// clock, into a template folder, and each test gets its own copy of the database
// file and of the images (seededDemo).

// seedClock is the store's clock while a template is seeded: the zero value is
// the real clock.
type seedClock struct{ at time.Time }

// fixedSeedClock is dashDemoApp's: 2025-03-01 10:00 UTC, so that days are the
// same on every run.
var fixedSeedClock = seedClock{time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)}

var (
	templatesMu   sync.Mutex
	templates     = map[seedClock]*demoTemplate{}
	templatesRoot string
)

type demoTemplate struct {
	once sync.Once
	dir  string // holds demo.db and images/
	err  error
}

// TestMain removes the seeded templates once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	if templatesRoot != "" {
		os.RemoveAll(templatesRoot)
	}
	os.Exit(code)
}

// demoTemplateDir seeds the demo project once for clock and returns its folder.
func demoTemplateDir(clock seedClock) (string, error) {
	templatesMu.Lock()
	if templatesRoot == "" {
		root, err := os.MkdirTemp("", "benchwright-ui-demo-")
		if err != nil {
			templatesMu.Unlock()
			return "", err
		}
		templatesRoot = root
	}
	tpl := templates[clock]
	if tpl == nil {
		tpl = &demoTemplate{}
		templates[clock] = tpl
	}
	root := templatesRoot
	templatesMu.Unlock()
	tpl.once.Do(func() {
		tpl.dir, tpl.err = os.MkdirTemp(root, "seed-")
		if tpl.err == nil {
			tpl.err = seedInto(tpl.dir, clock)
		}
	})
	return tpl.dir, tpl.err
}

func seedInto(dir string, clock seedClock) error {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "demo.db"))
	if err != nil {
		return err
	}
	if !clock.at.IsZero() {
		db.Now = func() time.Time { return clock.at }
	}
	if err := demo.Seed(ctx, db, assets.Demo(), filepath.Join(dir, "images")); err != nil {
		db.Close()
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return cheapDemoPasswords(filepath.Join(dir, "demo.db"))
}

// cheapDemoPasswords stores the demo accounts' password (demo.DemoPassword, the
// same for every account) hashed at bcrypt's lowest cost: a check reads the cost
// from the hash, so each of the tests' sign-ins costs about a millisecond instead
// of bcrypt's default 60 (eight times that under the race detector). The store's
// own hashing is untouched.
func cheapDemoPasswords(dbPath string) error {
	h, err := bcrypt.GenerateFromPassword([]byte(demo.DemoPassword), bcrypt.MinCost)
	if err != nil {
		return err
	}
	sdb, err := sql.Open("sqlite3", "file:"+dbPath)
	if err != nil {
		return err
	}
	defer sdb.Close()
	res, err := sdb.Exec(`UPDATE users SET password_hash = ?`, string(h))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != int64(len(demo.DemoAccounts)) {
		return fmt.Errorf("the demo's passwords: %d of %d accounts rehashed (%v)", n, len(demo.DemoAccounts), err)
	}
	return nil
}

// seededDemo writes into a new folder of t's a copy of the demo project seeded
// with clock: the database file named name and the images under images/, which
// the copy's image root names. Each call gives an independent database.
func seededDemo(t testing.TB, clock seedClock, name string) (dir, path string) {
	t.Helper()
	src, err := demoTemplateDir(clock)
	if err != nil {
		t.Fatalf("seeding the demo project: %v", err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, name)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents { // demo.db and its -wal/-shm if the close left them
		if rest, ok := strings.CutPrefix(e.Name(), "demo.db"); ok {
			if err := copyFile(filepath.Join(src, e.Name()), path+rest); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := copyTree(filepath.Join(src, "images"), filepath.Join(dir, "images")); err != nil {
		t.Fatal(err)
	}
	// The store keeps the image folder's absolute path: the copy's names its own.
	if err := moveImageRoot(path, filepath.Join(src, "images"), filepath.Join(dir, "images")); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// openSeededDemo is seededDemo opened, closed when t ends, with the store's
// clock clock's (or the real one).
func openSeededDemo(t testing.TB, clock seedClock, name string) (*store.DB, string) {
	t.Helper()
	dir, path := seededDemo(t, clock, name)
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if !clock.at.IsZero() {
		db.Now = func() time.Time { return clock.at }
	}
	return db, dir
}

func moveImageRoot(dbPath, from, to string) error {
	sdb, err := sql.Open("sqlite3", "file:"+dbPath)
	if err != nil {
		return err
	}
	defer sdb.Close()
	res, err := sdb.Exec(`UPDATE image_roots SET path = ? WHERE path = ?`, to, from)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("the demo's image root %s: %d rows moved (%v)", from, n, err)
	}
	return nil
}

// copyTree copies the files under src to dst with their modification times, which
// the store compares with those it recorded at the import.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, st.ModTime(), st.ModTime())
}

// TestSeededDemoCopiesAreIndependent: every copy of the seeded demo finds its own
// images (and only its own), and a change to one copy is not seen by another or by
// the template the next test copies.
func TestSeededDemoCopiesAreIndependent(t *testing.T) {
	for _, clock := range []seedClock{{}, fixedSeedClock} {
		t.Run(map[bool]string{true: "real clock", false: "fixed clock"}[clock.at.IsZero()], func(t *testing.T) {
			ctx := context.Background()
			dbA, dirA := openSeededDemo(t, clock, "a.db")
			dbB, dirB := openSeededDemo(t, clock, "b.db")
			lead, err := dbA.Authenticate(ctx, "lead", demo.DemoPassword)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				db  *store.DB
				dir string
			}{{dbA, dirA}, {dbB, dirB}} {
				p, err := c.db.ProjectByName(ctx, lead, demo.DemoProject)
				if err != nil {
					t.Fatal(err)
				}
				ims, err := c.db.Images(ctx, lead, p.ID, 0, 1000)
				if err != nil || len(ims) == 0 {
					t.Fatalf("%d images: %v", len(ims), err)
				}
				for _, im := range ims {
					if !strings.HasPrefix(im.Path(), filepath.Join(c.dir, "images")+string(filepath.Separator)) {
						t.Fatalf("image %s is at %s, outside the copy %s", im.RelPath, im.Path(), c.dir)
					}
					st, err := os.Stat(im.Path())
					if err != nil || st.Size() != im.Size || st.ModTime().UnixNano() != im.MtimeNS {
						t.Fatalf("image %s: %v (size %d, recorded %d; mtime %v, recorded %d)", im.RelPath, err, st.Size(), im.Size, st.ModTime().UnixNano(), im.MtimeNS)
					}
				}
			}
			if _, err := dbA.CreateProject(ctx, lead, "only-in-a"); err != nil {
				t.Fatal(err)
			}
			dbC, _ := openSeededDemo(t, clock, "c.db")
			for name, db := range map[string]*store.DB{"b": dbB, "c": dbC} {
				if _, err := db.ProjectByName(ctx, lead, "only-in-a"); err == nil {
					t.Errorf("copy %s sees the project made in copy a", name)
				}
			}
		})
	}
}
