package store_test

// Scale benchmarks (issue 7). They run on a synthetic project built with
// synth.Generate: BENCHWRIGHT_BENCH_SAMPLES samples (default 10,000; the documented
// figures use 100,000) on a fifth as many images. The database is built once per
// process and cached between runs in BENCHWRIGHT_BENCH_DIR (default
// $TMPDIR/benchwright-bench-N-vV), keyed by size, schema and generator version; the
// folder is the benchmarks' own and is rebuilt when the key changes. scripts/bench
// runs them and prints the table of docs/PERFORMANCE.md.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

const (
	envBenchSamples = "BENCHWRIGHT_BENCH_SAMPLES"
	envBenchDir     = "BENCHWRIGHT_BENCH_DIR"
	benchPassword   = "bench-pw"
	// benchGenVersion changes whenever synth.Generate writes something else, so that
	// cached databases are rebuilt. 2: histories played through verify (other
	// verifiers, corrections, rejections for another reason).
	benchGenVersion = 2
)

// benchCache is a folder holding a generated database and its images, marked complete
// by a key file.
type benchCache struct {
	once  sync.Once
	dir   string
	built bool // built by this process (its memory figures then include the build)
	err   error
}

var (
	scaleCache  benchCache
	importCache benchCache
)

func benchSamples(tb testing.TB) int {
	n := 10_000
	if s := os.Getenv(envBenchSamples); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 100 {
			tb.Fatalf("%s=%q: want a number of samples, at least 100", envBenchSamples, s)
		}
		n = v
	}
	return n
}

// ensure returns the cache folder named name, building it with build unless its key
// file holds key.
func (c *benchCache) ensure(tb testing.TB, name, key string, build func(dir string) error) string {
	tb.Helper()
	c.once.Do(func() {
		base := os.Getenv(envBenchDir)
		if base == "" {
			base = os.TempDir()
		}
		c.dir = filepath.Join(base, name)
		keyFile := filepath.Join(c.dir, "bench.key")
		if have, err := os.ReadFile(keyFile); err == nil && string(have) == key {
			return
		}
		if err := os.RemoveAll(c.dir); err != nil {
			c.err = err
			return
		}
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			c.err = err
			return
		}
		tb.Logf("building %s (cached for later runs)", c.dir)
		if c.err = build(c.dir); c.err == nil {
			c.built = true
			c.err = os.WriteFile(keyFile, []byte(key), 0o644)
		}
	})
	if c.err != nil {
		tb.Fatal(c.err)
	}
	return c.dir
}

// scaleDB is the path of the big project's database ("bench": N samples, N/5 images).
func scaleDB(tb testing.TB) string {
	n := benchSamples(tb)
	key := fmt.Sprintf("samples=%d images=%d seed=1 schema=%d gen=%d", n, n/5, store.SchemaVersion(), benchGenVersion)
	dir := scaleCache.ensure(tb, fmt.Sprintf("benchwright-bench-%d", n), key, func(dir string) error {
		ctx := context.Background()
		db, err := store.Open(ctx, filepath.Join(dir, "bench.db"))
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = synth.Generate(ctx, db, synth.Options{Project: "bench", Password: benchPassword, Samples: n, Images: n / 5,
			Seed: 1, ImageDir: filepath.Join(dir, "images")})
		return err
	})
	return filepath.Join(dir, "bench.db")
}

// envBenchPostgres moves the scale benchmarks onto PostgreSQL: a URL of a server's
// database in which they may create schemas (scripts/bench starts a throwaway
// cluster). The project is copied there from the SQLite one (scaleDB) once per
// process, with store.CopyDatabase.
const envBenchPostgres = "BENCHWRIGHT_BENCH_POSTGRES"

var pgBench struct {
	once   sync.Once
	url    string
	base   string // the database and schema of url, dropped when the process ends (TestMain)
	schema string
	err    error
}

// TestMain drops the copy of the scale project that the process made on
// PostgreSQL (scaleDBOnEngine) once its benchmarks have run. scripts/bench runs
// its PostgreSQL benchmarks one process after another in one cluster: a copy
// left behind is a million rows more for the cluster's autovacuum and
// checkpoints while the next process times its own work.
func TestMain(m *testing.M) {
	// A PostgreSQL database keeps its files (previews) in the user's cache, in a
	// folder named after its address: the benchmarks' schemas, named anew each
	// run, had left 90 such folders there (4.8 GB) by session 24. This process's
	// go to a temporary folder instead, removed at the end.
	cache, err := os.MkdirTemp("", "benchwright-store-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	if pgBench.schema != "" {
		if err := dropBenchSchema(pgBench.base, pgBench.schema); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	os.RemoveAll(cache)
	os.Exit(code)
}

// scaleDBOnEngine is the database the query benchmarks read: scaleDB's file, or its copy
// on PostgreSQL when envBenchPostgres is set.
func scaleDBOnEngine(tb testing.TB) string {
	tb.Helper()
	path := scaleDB(tb)
	base := os.Getenv(envBenchPostgres)
	if base == "" {
		return path
	}
	pgBench.once.Do(func() {
		pgBench.url, pgBench.schema, pgBench.err = copyToPostgres(base, path)
		pgBench.base = base
	})
	if pgBench.err != nil {
		tb.Fatal(pgBench.err)
	}
	return pgBench.url
}

// copyToPostgres copies the SQLite database at path into a new schema of the
// PostgreSQL database at base and returns the schema's URL and name. The caller
// drops the schema when done with it (dropBenchSchema); one that fails here is
// dropped here.
func copyToPostgres(base, path string) (_, _ string, err error) {
	schema := fmt.Sprintf("bench_%d_%d", os.Getpid(), time.Now().UnixNano())
	u, err := copyToPostgresSchema(base, path, schema)
	if err != nil {
		if derr := dropBenchSchema(base, schema); derr != nil {
			err = fmt.Errorf("%w; and then: %w", err, derr)
		}
		return "", "", err
	}
	return u, schema, nil
}

// dropBenchSchema drops the schema of the PostgreSQL database at base.
func dropBenchSchema(base, schema string) error {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return err
	}
	defer admin.Close()
	if _, err := admin.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`); err != nil {
		return fmt.Errorf("drop the benchmark's schema %s: %w", schema, err)
	}
	return nil
}

func copyToPostgresSchema(base, path, schema string) (string, error) {
	ctx := context.Background()
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	src, err := store.Open(ctx, path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := store.Open(ctx, u.String())
	if err != nil {
		return "", err
	}
	defer dst.Close()
	if _, err := store.CopyDatabase(ctx, src, dst, nil); err != nil {
		return "", fmt.Errorf("copy the benchmark project to PostgreSQL: %w", err)
	}
	// The planner's statistics and the visibility map (which lets an index-only
	// scan skip the table), as autovacuum keeps them on a live server: after a
	// bulk load it vacuums and analyzes each table once it has its threshold of
	// inserted rows. Without the map, every index-only scan of a table copied
	// minutes before reads the table too.
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	for _, q := range []string{`SET search_path = ` + schema, `VACUUM (ANALYZE)`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return "", fmt.Errorf("%s: %w", q, err)
		}
	}
	// A VACUUM marks a page all-visible only if no transaction still running might
	// not see its rows: autovacuum's ANALYZE of a table copied beside (committed
	// while the copy's own transaction ran) holds such a snapshot for a moment, and
	// a VACUUM meanwhile left every page of reviews unmarked in one run of
	// 2026-11-30 (the verifier's round-1 search then read the table: 52 against
	// 23 ms, the row's two values). Vacuum again until the map covers the tables.
	for try := 0; ; try++ {
		var pages, visible int64
		if err := conn.QueryRowContext(ctx, `SELECT COALESCE(sum(c.relpages), 0), COALESCE(sum(c.relallvisible), 0)
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`, schema).Scan(&pages, &visible); err != nil {
			return "", fmt.Errorf("read the visibility map's extent: %w", err)
		}
		if visible >= pages || try == 20 {
			break
		}
		time.Sleep(500 * time.Millisecond)
		if _, err := conn.ExecContext(ctx, `VACUUM`); err != nil {
			return "", fmt.Errorf("VACUUM: %w", err)
		}
	}
	return u.String(), nil
}

// importImages is a folder of 2,000 generated images (the generator's mix: mostly
// small, 20 of 4000×3000) for the import benchmarks, and the files' paths.
func importImages(tb testing.TB) (string, []string) {
	key := fmt.Sprintf("images=2000 seed=2 gen=%d", benchGenVersion)
	dir := importCache.ensure(tb, "benchwright-bench-import", key, func(dir string) error {
		ctx := context.Background()
		db, err := store.Open(ctx, filepath.Join(dir, "gen", "gen.db"))
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = synth.Generate(ctx, db, synth.Options{Project: "import", Password: benchPassword, Images: 2000, Seed: 2,
			ImageDir: filepath.Join(dir, "images")})
		return err
	})
	root := filepath.Join(dir, "images")
	var files []string
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) != 2000 {
		tb.Fatalf("import images: %d files, %v", len(files), err)
	}
	return root, files
}

// benchWorld is the open big project with the accounts the screens are opened as.
type benchWorld struct {
	db       *store.DB
	project  bench.Project
	ann, ver bench.User
}

func openBench(tb testing.TB, path string) benchWorld {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	w := benchWorld{db: db}
	if w.project, err = db.ProjectByName(ctx, bench.Owner(), "bench"); err != nil {
		tb.Fatal(err)
	}
	if w.ann, err = db.UserByName(ctx, bench.Owner(), "ann1"); err != nil {
		tb.Fatal(err)
	}
	if w.ver, err = db.UserByName(ctx, bench.Owner(), "ver1"); err != nil {
		tb.Fatal(err)
	}
	return w
}

// firstScreen runs the queries the app makes to show a project's first screen: the
// status line's counts, then the annotator's workspace (returned samples, drafts, the
// first page of images) or the verifier's queue.
func (w benchWorld) firstScreen(tb testing.TB, role string) {
	ctx := context.Background()
	counts, err := w.db.StatusCounts(ctx, bench.Owner(), w.project.ID)
	if err != nil || counts[verify.StateAccepted] == 0 {
		tb.Fatalf("status counts %v %v", counts, err)
	}
	if n, err := w.db.CountImages(ctx, bench.Owner(), w.project.ID); err != nil || n == 0 {
		tb.Fatalf("count images %d %v", n, err)
	}
	switch role {
	case bench.RoleAnnotator:
		// ui/annotate.go: a page of the returned samples and of the drafts with their
		// totals, and a page of the images without samples with theirs.
		for _, st := range []verify.State{verify.StateReturned, verify.StateDraft} {
			if err := w.annotatorPart(st); err != nil {
				tb.Fatal(err)
			}
		}
		if err := w.imagesWithoutSamples(); err != nil {
			tb.Fatal(err)
		}
	case bench.RoleVerifier:
		// ui/verify.go reads one page per round, not the whole queue.
		n := 0
		for round := 1; round <= 3; round++ {
			q, err := w.db.ReviewQueueLimit(ctx, w.ver, w.project.ID, round, verifierPage)
			if err != nil || len(q) > verifierPage {
				tb.Fatalf("review queue, round %d: %d %v", round, len(q), err)
			}
			n += len(q)
		}
		if n == 0 {
			tb.Fatal("review queue: empty first screen")
		}
	case verifierBulk:
		if q, err := w.db.ReviewQueue(ctx, w.ver, w.project.ID, 0); err != nil || len(q) == 0 {
			tb.Fatalf("review queue: %d %v", len(q), err)
		}
	}
}

// annotatorPart reads one part of the annotator's queue as ui/annotate.go does: the
// total, and the first page of the annotator's samples in state st.
func (w benchWorld) annotatorPart(st verify.State) error {
	ctx := context.Background()
	f := bench.SampleFilter{Status: st, AuthorID: w.ann.ID}
	if _, err := w.db.CountSamples(ctx, bench.Owner(), w.project.ID, f); err != nil {
		return err
	}
	_, err := w.db.Samples(ctx, bench.Owner(), w.project.ID, f, 0, annotatorPage)
	return err
}

// imagesWithoutSamples reads the last part of the annotator's queue: the number of
// images without a sample and the first page of them.
func (w benchWorld) imagesWithoutSamples() error {
	ctx := context.Background()
	if _, err := w.db.CountImagesWithoutSamples(ctx, bench.Owner(), w.project.ID); err != nil {
		return err
	}
	_, err := w.db.ImagesWithoutSamples(ctx, bench.Owner(), w.project.ID, 0, annotatorPage)
	return err
}

const (
	// annotatorPage is the page of each part of the annotator's queue (queuePage in
	// ui/annotate.go).
	annotatorPage = 100
	// verifierPage is the page of each round the verifier's screen reads (reviewPage
	// in ui/verify.go).
	verifierPage = 200
	// verifierBulk is not a screen: the whole review queue in one call, as bwctl and
	// scripts read it.
	verifierBulk = "verifier-bulk"
)

// BenchmarkScaleOpenProject opens the database and shows the first screen, as an
// annotator and as a verifier (a page of 200 of each round, as ui/verify.go reads
// it); verifier-bulk opens it and reads the whole review queue instead, the bulk
// call of bwctl and scripts, which no screen makes. Sign-in is left out: its bcrypt
// check is a deliberate, size-independent cost (and tests lower bcrypt's cost, see
// export_test.go).
func BenchmarkScaleOpenProject(b *testing.B) {
	path := scaleDBOnEngine(b)
	for _, role := range []string{bench.RoleAnnotator, bench.RoleVerifier, verifierBulk} {
		b.Run(role, func(b *testing.B) {
			for b.Loop() {
				w := openBench(b, path)
				w.firstScreen(b, role)
				w.db.Close()
			}
		})
	}
}

// benchQueue times w's verifier reading their queue of round (0: all) up to limit
// items (0: all), and reports the items.
func benchQueue(b *testing.B, w benchWorld, round, limit int) {
	n := 0
	for b.Loop() {
		q, err := w.db.ReviewQueueLimit(context.Background(), w.ver, w.project.ID, round, limit)
		if err != nil {
			b.Fatal(err)
		}
		n = len(q)
	}
	b.ReportMetric(float64(n), "items")
}

// BenchmarkScaleReviewQueue is a verifier's queue: everything in all rounds (the bulk
// call of bwctl and scripts), the page of 200 of each round the verifier's screen
// reads, and the first page of 50 of all rounds (ReviewQueueLimit).
func BenchmarkScaleReviewQueue(b *testing.B) {
	w := openBench(b, scaleDBOnEngine(b))
	defer w.db.Close()
	for _, c := range []struct {
		name         string
		round, limit int
	}{{"all", 0, 0}, {"round1", 1, verifierPage}, {"round2", 2, verifierPage}, {"round3", 3, verifierPage}, {"page50", 0, 50}} {
		b.Run(c.name, func(b *testing.B) { benchQueue(b, w, c.round, c.limit) })
	}
}

// BenchmarkScaleQueries are the single reads behind the screens: counts, a page of
// images, and pages of the sample list (first, deep by keyset and by offset,
// filtered, the annotator's).
func BenchmarkScaleQueries(b *testing.B) {
	w := openBench(b, scaleDBOnEngine(b))
	defer w.db.Close()
	ctx := context.Background()
	total := 0
	counts, err := w.db.StatusCounts(ctx, bench.Owner(), w.project.ID)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range counts {
		total += c
	}
	page := func(f bench.SampleFilter, offset int) func() error {
		return func() error {
			ss, err := w.db.Samples(ctx, bench.Owner(), w.project.ID, f, offset, 50)
			if err == nil && len(ss) == 0 {
				err = fmt.Errorf("empty page at %d", offset)
			}
			return err
		}
	}
	// The keyset page in the middle starts after the sample an offset query finds there.
	mid, err := w.db.Samples(ctx, bench.Owner(), w.project.ID, bench.SampleFilter{}, total/2-1, 1)
	if err != nil || len(mid) != 1 {
		b.Fatalf("the middle sample: %v", err)
	}
	for _, q := range []struct {
		name string
		run  func() error
	}{
		{"StatusCounts", func() error { _, err := w.db.StatusCounts(ctx, bench.Owner(), w.project.ID); return err }},
		{"CountImages", func() error { _, err := w.db.CountImages(ctx, bench.Owner(), w.project.ID); return err }},
		{"ImagesPage", func() error { _, err := w.db.Images(ctx, bench.Owner(), w.project.ID, 0, 200); return err }},
		{"SamplesFirstPage", page(bench.SampleFilter{}, 0)},
		{"SamplesMiddlePage", page(bench.SampleFilter{After: &mid[0]}, 0)},
		{"SamplesMiddlePageOffset", page(bench.SampleFilter{}, total/2)},
		{"SamplesAccepted", page(bench.SampleFilter{Status: verify.StateAccepted}, 0)},
		{"AnnotatorDrafts", func() error { return w.annotatorPart(verify.StateDraft) }},
		{"AnnotatorImagesWithoutSamples", w.imagesWithoutSamples},
		{"AnnotatorAllDrafts", func() error { // the whole list in one call: bwctl and scripts
			_, err := w.db.Samples(ctx, bench.Owner(), w.project.ID, bench.SampleFilter{Status: verify.StateDraft, AuthorID: w.ann.ID}, 0, 1_000_000)
			return err
		}},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if err := q.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScaleOpenMemory opens the big project, shows both first screens and
// reports the process's resident memory (VmRSS and its peak VmHWM from
// /proc/self/status) and the Go runtime's Sys. Run it in a process that did not
// build the database (scripts/bench does): building inflates the figures.
func BenchmarkScaleOpenMemory(b *testing.B) {
	path := scaleDB(b)
	w := openBench(b, path)
	defer w.db.Close()
	for b.Loop() {
		w.firstScreen(b, bench.RoleAnnotator)
		w.firstScreen(b, bench.RoleVerifier)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	status := procStatus(b)
	b.ReportMetric(status["VmRSS"]/1024, "rss-MB")
	b.ReportMetric(status["VmHWM"]/1024, "hwm-MB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "gosys-MB")
	if scaleCache.built {
		b.Log("this process built the database: its memory figures include the build; run again")
	}
}

// procStatus reads the kB fields of /proc/self/status.
func procStatus(tb testing.TB) map[string]float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc/self/status: %v", err)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if f := strings.Fields(v); ok && len(f) == 2 && f[1] == "kB" {
			out[k], _ = strconv.ParseFloat(f[0], 64)
		}
	}
	return out
}

// BenchmarkScaleImport2k imports 2,000 images into a new project (hash, decode,
// previews and thumbnails, rows); BenchmarkScaleImport2kFloor is the floor for the
// same files: reading, hashing and decoding them on all cores, nothing else.
func BenchmarkScaleImport2k(b *testing.B) {
	root, files := importImages(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bw.db"))
		if err != nil {
			b.Fatal(err)
		}
		lead, err := db.CreateFirstLead(ctx, "lead", benchPassword)
		if err != nil {
			b.Fatal(err)
		}
		p, err := db.CreateProject(ctx, lead, "import")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := db.ImportImages(ctx, lead, p.ID, root, nil)
		b.StopTimer()
		if err != nil || res.Imported != len(files) {
			b.Fatalf("imported %d of %d: %v", res.Imported, len(files), err)
		}
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
}

func BenchmarkScaleImport2kFloor(b *testing.B) {
	_, files := importImages(b)
	for i := 0; i < b.N; i++ {
		onAllCores(b, files, func(f string) error {
			data, err := os.ReadFile(f)
			if err == nil {
				sha256.Sum256(data)
				_, _, err = image.Decode(bytes.NewReader(data))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			return nil
		})
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
}

// freezeAccepted is how many accepted samples the freeze benchmarks want (issue 7:
// "freeze + export of 10k samples"); freezeSamples generates enough of them at the
// generator's 30 % accepted, after the lead has withdrawn the samples the freeze's
// audit refuses (the generator repeats questions on an image: about one accepted
// sample in ten). The project has 4,000 images (the generator's mix, 20 of them
// 4000×3000) rather than a fifth of the samples, to keep its build short.
const (
	freezeAccepted = 10_000
	freezeSamples  = 40_000
	freezeImages   = 4000
)

var freezeCache benchCache

// freezeDB is a copy, in a temporary folder, of the cached project for the freeze
// benchmarks (each run freezes into it), and its lead.
func freezeDB(tb testing.TB) (*store.DB, bench.User, bench.Project) {
	tb.Helper()
	key := fmt.Sprintf("samples=%d images=%d seed=3 withdrawn=2 schema=%d gen=%d", freezeSamples, freezeImages, store.SchemaVersion(), benchGenVersion)
	dir := freezeCache.ensure(tb, "benchwright-bench-freeze", key, func(dir string) error {
		ctx := context.Background()
		db, err := store.Open(ctx, filepath.Join(dir, "bench.db"))
		if err != nil {
			return err
		}
		defer db.Close()
		res, err := synth.Generate(ctx, db, synth.Options{Project: "freeze", Password: benchPassword, Samples: freezeSamples,
			Images: freezeImages, Seed: 3, ImageDir: filepath.Join(dir, "images")})
		if err != nil {
			return err
		}
		return withdrawAuditErrors(ctx, db, res.Project.ID)
	})
	data, err := os.ReadFile(filepath.Join(dir, "bench.db"))
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "bench.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if base := os.Getenv(envBenchPostgres); base != "" {
		var schema string
		if path, schema, err = copyToPostgres(base, path); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { // after the database's Close, registered below
			if err := dropBenchSchema(base, schema); err != nil {
				tb.Error(err)
			}
		})
	}
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	// The previews the import made, as a project in use has them (the audit's
	// near-duplicate check compares thumbnails; without them the first freeze
	// would decode those images again, which only a copied database has to).
	if err := os.CopyFS(db.PreviewDir(), os.DirFS(filepath.Join(dir, "previews"))); err != nil && !errors.Is(err, fs.ErrExist) {
		tb.Fatal(err)
	}
	lead, err := db.Authenticate(ctx, "lead", benchPassword)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), "freeze")
	if err != nil {
		tb.Fatal(err)
	}
	return db, lead, p
}

// freezeSplit is the split the benchmarks freeze with: the generator gives samples
// of one image different splits, which the audit refuses unless the freeze re-splits.
var freezeSplit = &annotate.SplitSpec{TestRatio: 0.2, Seed: 1}

// withdrawAuditErrors withdraws the accepted samples the audit finds a
// sample-level error in (synth.WithdrawAuditErrors), as the lead.
func withdrawAuditErrors(ctx context.Context, db *store.DB, projectID int64) error {
	lead, err := db.Authenticate(ctx, "lead", benchPassword)
	if err != nil {
		return err
	}
	return synth.WithdrawAuditErrors(ctx, db, lead, projectID)
}

// BenchmarkScaleFreezeExport freezes every accepted sample of the freeze project
// (about 10,000; reported as samples) and exports the release in the native format
// (samples.jsonl, each image copied once and checked against its hash, MANIFEST.json).
// Its floor, BenchmarkScaleFreezeExportFloor, reads, hashes and copies the same
// image files to a temporary folder on all cores, and does nothing else.
// BenchmarkScaleFreezeExportVsFloor runs the two in turns and reports their ratio.
// Each runs on a database of its own whose decoded samples (store/decoded.go) no
// freeze has kept yet; scripts/bench runs one iteration (a later iteration's
// freeze finds the samples the one before decoded).
func BenchmarkScaleFreezeExport(b *testing.B) {
	db, lead, p := freezeDB(b)
	out := b.TempDir()
	samples, files := 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var dir string
		samples, files, _, dir = freezeExport(b, db, lead, p, fmt.Sprintf("v%d", i+1), out)
		removeUntimed(b, dir)
	}
	b.ReportMetric(float64(samples), "samples")
	b.ReportMetric(float64(files), "files")
}

// freezeExport freezes the freeze project as bench@version and exports it in the
// native format below out, returning the release's samples, the export's files,
// the time the freeze took and the export's folder (which the caller removes).
func freezeExport(b *testing.B, db *store.DB, lead bench.User, p bench.Project, version, out string) (samples, files int, freeze time.Duration, dir string) {
	ctx := context.Background()
	t0 := time.Now()
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "bench", Version: version, Split: freezeSplit})
	if err != nil {
		b.Fatal(err)
	}
	freeze = time.Since(t0)
	if rel.Samples < freezeAccepted {
		b.Fatalf("froze %d samples, want at least %d: generate more", rel.Samples, freezeAccepted)
	}
	dir = filepath.Join(out, version)
	res, err := db.Export(ctx, lead, bench.ExportInput{Release: rel.Ref(), ProjectID: p.ID, Format: "native", OutDir: dir}, nil)
	if err != nil {
		b.Fatal(err)
	}
	return rel.Samples, len(res.Manifest.Files), freeze, dir
}

// removeUntimed removes the folders dirs, the benchmark's timer stopped.
func removeUntimed(b *testing.B, dirs ...string) {
	b.StopTimer()
	defer b.StartTimer()
	for _, dir := range dirs {
		if err := os.RemoveAll(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScaleFreezeExportFloor(b *testing.B) {
	db, lead, p := freezeDB(b)
	items, files := freezeFloorFiles(b, db, lead, p)
	out := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(out, strconv.Itoa(i))
		copyHashFloor(b, files, dir)
		removeUntimed(b, dir)
	}
	b.ReportMetric(float64(items), "samples")
	b.ReportMetric(float64(len(files)), "files")
}

// BenchmarkScaleFreezeExportVsFloor runs BenchmarkScaleFreezeExport's freeze and
// export and its floor in turns and reports their ratio (x-floor: the goal of
// issue 31 item 3 is at most 1.5) and each figure (freeze-export-s, floor-s, and
// the freeze's part freeze-s): on a shared machine the load changes less between
// the two than between two benchmarks.
//
// Each iteration copies the floor once untimed (floor-first-s), removes it, runs
// the freeze and export, removes the export, and copies the floor again: the
// ratio is the export against that second floor, so that each was created just
// after about 3,808 files were removed. On a file system without a journal (this
// project's VM) the cost of creating a file depends on what was removed lately
// and where: ext4 does not reuse an inode freed less than a minute ago (six while
// its inode table block is dirty) and checks each such inode of the group from
// the first, every time it creates a file (find_inode_bit, recently_deleted). A
// copy made right after another was removed took 0.9-3.8 times as long as that
// other; one made while the other was kept, 0.2-0.7 times (copies of these
// images on the VM). The floor first and the export second, with or without the
// floor removed between, measured that order more than the export.
func BenchmarkScaleFreezeExportVsFloor(b *testing.B) {
	db, lead, p := freezeDB(b)
	// The files are listed through another handle of the database, so that this
	// one has decoded nothing when it freezes.
	other, err := store.Open(context.Background(), db.Path())
	if err != nil {
		b.Fatal(err)
	}
	_, files := freezeFloorFiles(b, other, lead, p)
	other.Close()
	out := b.TempDir()
	var first, floor, work, freeze, floorCPU, workCPU, workUser time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		firstDir := filepath.Join(out, "first"+strconv.Itoa(i))
		t := time.Now()
		copyHashFloor(b, files, firstDir)
		first += time.Since(t)
		removeUntimed(b, firstDir)
		storetest.QuietPostgres(b, os.Getenv(envBenchPostgres))
		b.StartTimer()

		t1, c1, u1 := time.Now(), processCPU(b), userCPU(b)
		_, _, f, dir := freezeExport(b, db, lead, p, fmt.Sprintf("v%d", i+1), out)
		work, freeze = work+time.Since(t1), freeze+f
		workCPU, workUser = workCPU+processCPU(b)-c1, workUser+userCPU(b)-u1
		removeUntimed(b, dir)

		floorDir := filepath.Join(out, "floor"+strconv.Itoa(i))
		storetest.QuietPostgres(b, os.Getenv(envBenchPostgres)) // the release just written, analysed after it: the floor would pay for the freeze
		t0, c0 := time.Now(), processCPU(b)
		copyHashFloor(b, files, floorDir)
		floor, floorCPU = floor+time.Since(t0), floorCPU+processCPU(b)-c0
		removeUntimed(b, floorDir)
	}
	// The freeze and export's own work, without the kernel's (creating files).
	b.ReportMetric(workUser.Seconds()/float64(b.N), "freeze-export-user-s")
	b.ReportMetric(work.Seconds()/floor.Seconds(), "x-floor")
	b.ReportMetric(work.Seconds()/float64(b.N), "freeze-export-s")
	b.ReportMetric(freeze.Seconds()/float64(b.N), "freeze-s")
	b.ReportMetric(floor.Seconds()/float64(b.N), "floor-s")
	b.ReportMetric(first.Seconds()/float64(b.N), "floor-first-s")
	// The same in CPU time (user and system, the process's): what the two cost
	// the machine, which the load of others changes less than their wall time.
	b.ReportMetric(workCPU.Seconds()/floorCPU.Seconds(), "x-floor-cpu")
}

// userCPU is the user CPU time the process has used so far.
func userCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano())
}

// processCPU is the CPU time (user and system) the process has used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// freezeFloorFiles freezes the freeze project as floor@vN (the release the
// benchmarks freeze) and lists its image files, each once, with its samples.
func freezeFloorFiles(b *testing.B, db *store.DB, lead bench.User, p bench.Project) (int, []string) {
	ctx := context.Background()
	rels, err := db.Releases(ctx, lead, p.ID)
	if err != nil {
		b.Fatal(err)
	}
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "floor", Version: fmt.Sprintf("v%d", len(rels)+1), Split: freezeSplit})
	if err != nil {
		b.Fatal(err)
	}
	items, err := db.ReleaseItems(ctx, bench.Owner(), rel.ID)
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	var files []string
	for _, it := range items {
		for _, path := range append([]string{it.ImagePath}, it.Content.MoreImages...) {
			im, err := db.ImageByPath(ctx, bench.Owner(), p.ID, path)
			if err != nil {
				b.Fatal(err)
			}
			if f := im.Path(); !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	return len(items), files
}

// copyHashFloor reads, hashes (SHA-256) and writes files into a new folder dir
// on all cores, as cp -r and sha256sum would (the caller removes dir).
func copyHashFloor(b *testing.B, files []string, dir string) {
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	jobs := make(chan int)
	errs := make(chan error, len(files))
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				data, err := os.ReadFile(files[j])
				if err == nil {
					sha256.Sum256(data)
					err = os.WriteFile(filepath.Join(dir, strconv.Itoa(j)+filepath.Ext(files[j])), data, 0o644)
				}
				if err != nil {
					errs <- fmt.Errorf("%s: %w", files[j], err)
				}
			}
		}()
	}
	for j := range files {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
}
