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
