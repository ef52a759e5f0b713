package store_test

import (
	"database/sql"
	"fmt"
	"os"
	"testing"
)

// BenchmarkScaleReviewQueueListEstimate is issue 31's review queue page on
// PostgreSQL with bw_json_each declared at its former 1000 rows and at the 20 of
// migrations_pg/0033, in turns on one copy of the project: the page of 200 of each
// round, and the whole queue (the bulk call, whose facts read a list of every
// candidate), in turns. The planner's estimate of the list decides whether the queue's facts
// scan every review or probe the index per candidate (loadQueueFacts). It runs only
// with BENCHWRIGHT_BENCH_POSTGRES and leaves the function at 20 rows.
func BenchmarkScaleReviewQueueListEstimate(b *testing.B) {
	if os.Getenv(envBenchPostgres) == "" {
		b.Skip("PostgreSQL only: set " + envBenchPostgres)
	}
	url := scaleDBOnEngine(b)
	w := openBench(b, url)
	defer w.db.Close()
	admin, err := sql.Open("pgx", url) // the URL names the copy's schema
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close()
	setRows := func(n int) {
		if _, err := admin.Exec(fmt.Sprintf(`ALTER FUNCTION bw_json_each(text) ROWS %d`, n)); err != nil {
			b.Fatal(err)
		}
	}
	defer setRows(20)
	// In turns: each case at 1000 rows, then at 20, three times over (the second
	// and third runs of a name are named …#01, …#02).
	for range 3 {
		for _, c := range []struct {
			name         string
			round, limit int
		}{{"round1", 1, verifierPage}, {"round2", 2, verifierPage}, {"round3", 3, verifierPage}, {"all", 0, 0}} {
			for _, rows := range []int{1000, 20} {
				setRows(rows)
				b.Run(fmt.Sprintf("%s/rows%d", c.name, rows), func(b *testing.B) { benchQueue(b, w, c.round, c.limit) })
			}
		}
	}
}
