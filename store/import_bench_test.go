package store_test

import (
	"context"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// importBenchRecords is how many records BenchmarkImportWhileOthersWrite imports:
// issue 25's 4 MB file of 20,000 records, or BENCHWRIGHT_IMPORT_RECORDS.
func importBenchRecords(tb testing.TB) int {
	if s := os.Getenv("BENCHWRIGHT_IMPORT_RECORDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			tb.Fatalf("BENCHWRIGHT_IMPORT_RECORDS=%q: want a positive number", s)
		}
		return n
	}
	return 20_000
}

// importBenchImages is how many images the benchmark's records show (in turn):
// 40, or BENCHWRIGHT_IMPORT_IMAGES. Few images is PostgreSQL's worst case: every
// sample inserted adds one to its image's sample_count (trigger image_use), and
// many updates of one row in one transaction are slow there (the partial index
// images_unused keeps them from being HOT updates).
func importBenchImages(tb testing.TB) int {
	if s := os.Getenv("BENCHWRIGHT_IMPORT_IMAGES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			tb.Fatalf("BENCHWRIGHT_IMPORT_IMAGES=%q: want a positive number", s)
		}
		return n
	}
	return 40
}

// BenchmarkImportWhileOthersWrite imports 20,000 records as one annotator's drafts
// while another annotator saves a draft every 10 ms, as a team server's other users
// do, and reports the other writes' latency (p50, p95, max) and the import's time.
// Issue 25 item 3: the import held the write lock throughout, so the other writes
// waited for all of it (98–170 s); the goal is their p95 under 250 ms. It reports
// too how long the import's longest write transaction took (import-write-ms): the
// longest any other write waits for it; on SQLite, which writes in batches
// (importInBatches), the longest batch or the last step; on PostgreSQL, whose
// import writes its rows beside the others' writes (importBeside), the part of it
// under the write lock, and
// when its rows were written (import-rows-written-s); and when the records were
// linted and prepared (import-prepared-s).
func BenchmarkImportWhileOthersWrite(b *testing.B) {
	ctx := context.Background()
	n := importBenchRecords(b)
	var write time.Duration            // the import's write transaction (the time others may wait)
	var prepared, written atomic.Int64 // when the records were prepared, and (PostgreSQL) the rows written, in ns since the start
	var start time.Time
	store.SetImportHooks(b, store.ImportHooks{WriteTook: func(d time.Duration) { write = max(write, d) },
		BatchDone: func(done, total int) {
			if done == total {
				prepared.Store(int64(time.Since(start)))
			}
		},
		Written: func() { written.Store(int64(time.Since(start))) }})
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db := MustOpenDB(b)
		lead, err := db.CreateFirstLead(ctx, "lead", "secret")
		if err != nil {
			b.Fatal(err)
		}
		p, err := db.CreateProject(ctx, lead, "bench")
		if err != nil {
			b.Fatal(err)
		}
		ann, err := db.AddUser(ctx, lead, "ann", bench.RoleAnnotator, "", "secret")
		if err != nil {
			b.Fatal(err)
		}
		other, err := db.AddUser(ctx, lead, "other", bench.RoleAnnotator, "", "secret")
		if err != nil {
			b.Fatal(err)
		}
		dir := b.TempDir()
		images := importBenchImages(b)
		for k := range images {
			writeFile(b, filepath.Join(dir, "scenes", fmt.Sprintf("%04d.jpg", k)), encodeJPEG(b, 64+k%500, 48+k/500, color.White))
		}
		if _, err := db.ImportImages(ctx, lead, p.ID, dir, nil); err != nil {
			b.Fatal(err)
		}
		recs := make([]annotate.Imported, n)
		for k := range recs {
			s := hopSample(fmt.Sprintf("scenes/%04d.jpg", k%images))
			s.ID = fmt.Sprintf("bench-%06d", k+1)
			recs[k] = annotate.Imported{Line: k + 1, Sample: s}
		}
		draft, err := db.CreateSample(ctx, other, p.ID, hopSample("scenes/0000.jpg"))
		if err != nil {
			b.Fatal(err)
		}

		// The other annotator means to save every 10 ms from the import's start to its
		// end; a save's latency is counted from when it was due, so that a save
		// that could not even start while the import held the lock counts too.
		const every = 10 * time.Millisecond
		var end atomic.Int64 // the import's end, in ns since start; 0 while it runs
		var lat []time.Duration
		var wg sync.WaitGroup
		prepared.Store(0)
		write = 0
		written.Store(0)
		start = time.Now()
		wg.Add(1)
		go func() {
			defer wg.Done()
			version := draft.Version
			s := draft.Content
			for k := 1; ; k++ {
				due := start.Add(time.Duration(k) * every)
				if e := end.Load(); e != 0 && due.Sub(start) > time.Duration(e) {
					return
				}
				time.Sleep(time.Until(due))
				if e := end.Load(); e != 0 && due.Sub(start) > time.Duration(e) {
					return
				}
				s.Question = fmt.Sprintf("Which object is closest to the camera (edit %d)?", k)
				s.QuestionTag = fmt.Sprintf("Which object is <REL>closest to the camera</REL> (edit %d)?", k)
				v, err := db.SaveDraft(ctx, other, draft.ID, version, s)
				done := time.Now()
				lat = append(lat, done.Sub(due))
				if err != nil {
					b.Error(err)
					return
				}
				version = v
				// The saves that fell due while this one waited would have waited
				// with it: each counts as done when it was, from when it was due.
				for ; start.Add(time.Duration(k+1) * every).Before(done); k++ {
					if e := end.Load(); e != 0 && time.Duration(k+1)*every > time.Duration(e) {
						break
					}
					lat = append(lat, done.Sub(start.Add(time.Duration(k+1)*every)))
				}
			}
		}()
		b.StartTimer()
		res, err := db.ImportSamples(ctx, ann, p.ID, recs, bench.ImportSamplesOptions{})
		took := time.Since(start)
		end.Store(int64(took))
		b.StopTimer()
		wg.Wait()
		if err != nil || len(res.Imported) != n {
			b.Fatalf("imported %d of %d: %v (skipped %d)", len(res.Imported), n, err, len(res.Skipped))
		}
		slices.Sort(lat)
		if len(lat) == 0 {
			b.Fatal("the other writer wrote nothing")
		}
		at := func(q float64) time.Duration { return lat[min(len(lat)-1, int(q*float64(len(lat))))] }
		b.ReportMetric(float64(at(0.50).Microseconds())/1000, "other-p50-ms")
		b.ReportMetric(float64(at(0.95).Microseconds())/1000, "other-p95-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "other-max-ms")
		b.ReportMetric(float64(len(lat)), "other-writes")
		b.ReportMetric(took.Seconds(), "import-s")
		if write > 0 { // the import's write transaction, where it has one of its own
			b.ReportMetric(float64(write.Milliseconds()), "import-write-ms")
		}
		if p := prepared.Load(); p > 0 { // linted and prepared, before any write
			b.ReportMetric(time.Duration(p).Seconds(), "import-prepared-s")
		}
		if w := written.Load(); w > 0 { // PostgreSQL: the rows written beside others, before the write lock
			b.ReportMetric(time.Duration(w).Seconds(), "import-rows-written-s")
		}
		db.Close()
		b.StartTimer()
	}
}
