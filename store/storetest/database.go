package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to make and drop test schemas
)

// PostgresEnv names the environment variable that moves the store's tests onto
// PostgreSQL: a URL of a database the tests may create schemas in. scripts/dev test
// starts a throwaway cluster and runs the store's tests once without it and once
// with it.
const PostgresEnv = "BENCHWRIGHT_TEST_POSTGRES"

// Engine is the engine this test run's databases use: "postgres" or "sqlite".
func Engine() string {
	if os.Getenv(PostgresEnv) != "" {
		return "postgres"
	}
	return "sqlite"
}

// NewDatabase returns the address of a fresh, empty database for one test: a file in
// a temporary folder, or, when PostgresEnv is set, a new schema of that PostgreSQL
// database (dropped when the test ends) addressed by a URL whose search_path is it.
func NewDatabase(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		return filepath.Join(tb.TempDir(), "bw.db")
	}
	// Each schema's URL names a folder of its own in the user's cache (previews):
	// a temporary one instead, removed with the test.
	tb.Setenv("XDG_CACHE_HOME", tb.TempDir())
	b := make([]byte, 6)
	rand.Read(b)
	schema := "bwt_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("%s: %v", PostgresEnv, err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		tb.Fatalf("PostgreSQL at %s: create a test schema: %v", PostgresEnv, err)
	}
	tb.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return
		}
		defer admin.Close()
		admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("%s: %v", PostgresEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// SkipOnPostgres skips a test that is about SQLite files (their locks, their
// journal, a process killed mid-write) when the run is on PostgreSQL, saying why.
func SkipOnPostgres(tb testing.TB, why string) {
	tb.Helper()
	if Engine() == "postgres" {
		tb.Skip("SQLite only: " + why)
	}
}

// QuietPostgres waits until the PostgreSQL server at url (none when it is "")
// runs no autovacuum worker (up to two minutes), and returns how long it waited. A benchmark calls it before each timed leg on PostgreSQL: a copy of a
// million rows, or a project a benchmark before it wrote, leaves the server
// analysing and vacuuming them for seconds after, on the cores the next leg
// measures (BenchmarkCopyDB100k's second copy ran beside the first's; session 24).
// What a leg's own writes start meanwhile still counts.
func QuietPostgres(tb testing.TB, url string) time.Duration {
	tb.Helper()
	if url == "" {
		return 0
	}
	admin, err := sql.Open("pgx", url)
	if err != nil {
		tb.Fatalf("PostgreSQL for the benchmarks: %v", err)
	}
	defer admin.Close()
	start := time.Now()
	for {
		var busy int
		if err := admin.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`).Scan(&busy); err != nil {
			tb.Fatalf("PostgreSQL for the benchmarks: read its activity: %v", err)
		}
		if busy == 0 || time.Since(start) > 2*time.Minute {
			return time.Since(start)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
