package store_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestPostgresDumpRestore runs the README's backup commands for a PostgreSQL
// project — pg_dump --format=custom of the whole database, pg_restore into a new
// one — and checks that the restored database is the project: the same rows in
// every table, the same passwords, and a release exported from it byte for byte
// what the original exported (apart from MANIFEST.json's created time).
func TestPostgresDumpRestore(t *testing.T) {
	base := os.Getenv(storetest.PostgresEnv)
	if base == "" {
		t.Skip("PostgreSQL only: pg_dump and pg_restore (scripts/dev test runs the store's tests on PostgreSQL too)")
	}
	ctx := context.Background()
	dump, restore := pgTool(t, "pg_dump"), pgTool(t, "pg_restore")
	orig, copied := newPostgresDatabase(t, base), newPostgresDatabase(t, base)

	db, err := store.Open(ctx, orig)
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.Seed(ctx, db, assets.Demo(), filepath.Join(t.TempDir(), "images")); err != nil {
		t.Fatal(err)
	}
	lead, err := db.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "demo-bench", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	want := exportedTree(t, db, lead, rel.Ref(), "native")
	wantRows := rowCounts(t, orig)
	db.Close()

	file := filepath.Join(t.TempDir(), "bw.dump")
	for _, cmd := range [][]string{
		{dump, "--format=custom", "--file=" + file, "--dbname=" + orig},
		{restore, "--no-owner", "--dbname=" + copied, file},
	} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", filepath.Base(cmd[0]), err, out)
		}
	}

	back, err := store.Open(ctx, copied)
	if err != nil {
		t.Fatalf("open the restored database: %v", err)
	}
	defer back.Close()
	if got := rowCounts(t, copied); !maps.Equal(got, wantRows) {
		t.Errorf("rows per table after the restore:\n got %v\nwant %v", got, wantRows)
	}
	lead, err = back.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatalf("the lead's password after the restore: %v", err)
	}
	got := exportedTree(t, back, lead, rel.Ref(), "native")
	if !maps.EqualFunc(got, want, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("the release exported from the restored database differs: files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	// A new write after the restore: the identity sequences came along.
	if _, err := back.AddUser(ctx, lead, "after-restore", bench.RoleAnnotator, "", "secret-after"); err != nil {
		t.Errorf("a write after the restore: %v", err)
	}
}

// pgTool finds a PostgreSQL client program on PATH or in Debian's folder.
func pgTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := filepath.Join("/usr/lib/postgresql/15/bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed (Debian's postgresql-client)", name)
	}
	return p
}

// newPostgresDatabase creates a database of its own on the server base names,
// dropped when the test ends, and returns its URL.
func newPostgresDatabase(t *testing.T, base string) string {
	t.Helper()
	b := make([]byte, 5)
	rand.Read(b)
	name := "bwt_db_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`)
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// rowCounts counts the rows of every table of the database at path.
func rowCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	sdb, names := rawTables(t, path)
	out := map[string]int{}
	for _, n := range names {
		var c int
		if err := sdb.QueryRow(`SELECT count(*) FROM ` + n).Scan(&c); err != nil {
			t.Fatalf("count %s: %v", n, err)
		}
		out[n] = c
	}
	return out
}

// exportedTree exports release ref in format into a new folder and reads it back,
// MANIFEST.json's created time left out (every export has its own).
func exportedTree(t *testing.T, db *store.DB, lead bench.User, ref, format string) map[string][]byte {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "export")
	if _, err := db.Export(context.Background(), lead, bench.ExportInput{Release: ref, Format: format, OutDir: dir}, nil); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	var m map[string]any
	if err := json.Unmarshal(files["MANIFEST.json"], &m); err != nil {
		t.Fatalf("MANIFEST.json: %v", err)
	}
	delete(m, "created")
	files["MANIFEST.json"], _ = json.Marshal(m)
	return files
}

// rawTables opens the database at path to read its rows directly (closed when the
// test ends) and lists its tables, on either engine.
func rawTables(t *testing.T, path string) (*sql.DB, []string) {
	t.Helper()
	sdb, err := store.RawSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	names, err := store.TableNames(sdb, "%")
	if err != nil {
		t.Fatal(err)
	}
	return sdb, names
}
