package remote_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

var loadActions = flag.Int("load-actions", 2000, "requests the simulated clients of BenchmarkTeamServerLoad make per iteration")

// teamPassword is every account's password in the team-server fixtures.
const teamPassword = "team-server-password"

// team is a project file made for a team server: a lead, annotators, verifiers
// in groups A, B and C (names a1…, b1…, c1…), and a few images.
type team struct {
	path    string
	project bench.Project
	images  []string
}

// seedTeam writes a fresh project with annotators ann1…annN and verifiers per
// group into a fresh database (storetest.NewDatabase), and closes it.
func seedTeam(tb testing.TB, annotators, perGroup, images int) team {
	tb.Helper()
	return seedTeamAt(tb, storetest.NewDatabase(tb), annotators, perGroup, images) // a file, or PostgreSQL in the store suite's second run
}

// seedTeamAt is seedTeam into the empty database at path.
func seedTeamAt(tb testing.TB, path string, annotators, perGroup, images int) team {
	tb.Helper()
	ctx := context.Background()
	tm := team{path: path}
	db, err := store.Open(ctx, tm.path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	lead, err := db.CreateFirstLead(ctx, "lead", teamPassword)
	if err != nil {
		tb.Fatal(err)
	}
	if tm.project, err = db.CreateProject(ctx, lead, "team"); err != nil {
		tb.Fatal(err)
	}
	for i := 1; i <= annotators; i++ {
		if _, err := db.AddUser(ctx, lead, fmt.Sprintf("ann%d", i), bench.RoleAnnotator, "", teamPassword); err != nil {
			tb.Fatal(err)
		}
	}
	for _, g := range []string{"A", "B", "C"} {
		for i := 1; i <= perGroup; i++ {
			if _, err := db.AddUser(ctx, lead, fmt.Sprintf("%s%d", strings.ToLower(g), i), bench.RoleVerifier, g, teamPassword); err != nil {
				tb.Fatal(err)
			}
		}
	}
	dir := tb.TempDir()
	for i := range images {
		rel := fmt.Sprintf("%04d-office-1/%c.jpg", i+1, 'a'+i%26)
		img := image.NewRGBA(image.Rect(0, 0, 64, 48))
		for j := range img.Pix {
			img.Pix[j] = 200
		}
		img.Set(i%64, i/64, color.Black) // every file different: no duplicates
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			tb.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), buf.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
		tm.images = append(tm.images, rel)
	}
	if res, err := db.ImportImages(ctx, lead, tm.project.ID, dir, nil); err != nil || len(tm.images) != images {
		tb.Fatalf("import images: %+v, %v", res, err)
	}
	return tm
}

// serveTeam opens the team's file and serves it over TLS on a loopback port, as
// bwctl serve does; it returns the address, the certificate's fingerprint and the
// open database. The server stops at the end of tb.
func serveTeam(tb testing.TB, tm team) (addr, fingerprint string, db *store.DB) {
	tb.Helper()
	ctx, stop := context.WithCancel(context.Background())
	db, err := store.Open(ctx, tm.path)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	cert, err := remote.LoadOrCreateCertificate(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- remote.NewServer(db, log.New(io.Discard, "", 0)).Serve(ctx, ln, cert) }()
	tb.Cleanup(func() {
		stop()
		<-done
		db.Close()
	})
	return ln.Addr().String(), remote.Fingerprint(cert.Certificate[0]), db
}

// person is one simulated workstation: a client signed in as its own account.
type person struct {
	c  *remote.Client
	me bench.User
}

func signIn(tb testing.TB, addr, fingerprint, name string) person {
	tb.Helper()
	ctx := context.Background()
	c, err := remote.Dial(ctx, addr, remote.Options{Fingerprint: fingerprint, CacheDir: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	me, err := c.Authenticate(ctx, name, teamPassword)
	if err != nil {
		tb.Fatalf("sign in as %s: %v", name, err)
	}
	return person{c: c, me: me}
}

// intendedRefusals are the refusals a team's protocol produces on its own: a
// seat someone else took between the queue read and the claim, a round that
// moved on meanwhile, a revision replaced meanwhile, a late vote whose panel was
// dissolved (and, judged per claim in reviewLoad, a claim on a sample revised
// since the queue was read). Anything else is an error.
var intendedRefusals = []struct {
	name string
	err  error
}{
	{"seat-taken", verify.ErrPanelFull},
	{"round-closed", verify.ErrRoundClosed},
	{"wrong-round", verify.ErrWrongRound},
	{"stale-revision", verify.ErrStaleRevision},
}

// loadRun is what one client saw: latencies per call, refusals by kind, errors.
type loadRun struct {
	latency  map[string][]time.Duration
	refusals map[string]int
	errs     []error
}

func (r *loadRun) merge(o *loadRun) {
	for k, v := range o.latency {
		r.latency[k] = append(r.latency[k], v...)
	}
	for k, v := range o.refusals {
		r.refusals[k] += v
	}
	r.errs = append(r.errs, o.errs...)
}

func newLoadRun() *loadRun {
	return &loadRun{latency: map[string][]time.Duration{}, refusals: map[string]int{}}
}

// errBudget ends a client's work: the iteration's requests are used up.
var errBudget = errors.New("no requests left")

// call makes one request out of budget, timing it and sorting its failure into
// an intended refusal (refused true) or an error (returned).
func (r *loadRun) call(budget *atomic.Int64, name string, f func() error) (refused bool, err error) {
	return r.callExcused(budget, name, f, nil)
}

// callExcused is call where excuse, when it names a kind of refusal, explains an
// error intendedRefusals does not.
func (r *loadRun) callExcused(budget *atomic.Int64, name string, f func() error, excuse func(error) string) (refused bool, err error) {
	if budget.Add(-1) < 0 {
		return false, errBudget
	}
	t0 := time.Now()
	err = f()
	r.latency[name] = append(r.latency[name], time.Since(t0))
	if err == nil {
		return false, nil
	}
	for _, ir := range intendedRefusals {
		if errors.Is(err, ir.err) {
			r.refusals[ir.name]++
			return true, nil
		}
	}
	if excuse != nil {
		if kind := excuse(err); kind != "" {
			r.refusals[kind]++
			return true, nil
		}
	}
	r.errs = append(r.errs, fmt.Errorf("%s: %w", name, err))
	return false, err
}

// annotate is an annotator's work: revise and resubmit a returned sample of
// theirs when there is one (asked every third turn), otherwise write a new one
// and submit it.
func annotateLoad(ctx context.Context, p person, tm team, rng *rand.Rand, budget *atomic.Int64, r *loadRun) {
	for turn := 0; ; turn++ {
		if turn%3 == 2 {
			var ret []bench.SampleInfo
			if _, err := r.call(budget, "Samples", func() (err error) {
				ret, err = p.c.Samples(ctx, tm.project.ID, bench.SampleFilter{Status: verify.StateReturned, AuthorID: p.me.ID}, 0, 3)
				return err
			}); err != nil {
				return
			}
			if len(ret) > 0 {
				s := ret[0]
				c := s.Content
				if c.Box != nil { // each revision moves the box a little, as after a "box" rejection
					bx := *c.Box
					bx[2] = 41 + float64(s.Revision%10)
					c.Box = &bx
				}
				var v int
				refused, err := r.call(budget, "SaveDraft", func() (err error) {
					v, err = p.c.SaveDraft(ctx, s.ID, s.Version, c)
					return err
				})
				if err != nil {
					return
				}
				if !refused {
					if _, err := r.call(budget, "Submit", func() error {
						_, err := p.c.Submit(ctx, s.ID, v, nil)
						return err
					}); err != nil {
						return
					}
				}
				continue
			}
		}
		var si bench.SampleInfo
		if _, err := r.call(budget, "CreateSample", func() (err error) {
			si, err = p.c.CreateSample(ctx, tm.project.ID, storetest.HopSample(tm.images[rng.IntN(len(tm.images))]))
			return err
		}); err != nil {
			return
		}
		if _, err := r.call(budget, "Submit", func() error {
			_, err := p.c.Submit(ctx, si.ID, si.Version, nil)
			return err
		}); err != nil {
			return
		}
	}
}

// review is a verifier's work: read the first page of the queue (all rounds),
// take one of its samples (a random one, as people do not all pick the top),
// claim its seat and decide: approve mostly, reject one in eight.
func reviewLoad(ctx context.Context, p person, tm team, rng *rand.Rand, budget *atomic.Int64, r *loadRun) {
	for {
		var q []bench.QueueItem
		if _, err := r.call(budget, "ReviewQueueLimit", func() (err error) {
			q, err = p.c.ReviewQueueLimit(ctx, tm.project.ID, 0, 8)
			return err
		}); err != nil {
			return
		}
		if len(q) == 0 {
			time.Sleep(10 * time.Millisecond) // the screens poll; nothing to do yet
			continue
		}
		it := q[rng.IntN(len(q))]
		refused, err := r.callExcused(budget, "ClaimReview", func() error {
			_, err := p.c.ClaimReview(ctx, it.SampleID, it.Round)
			return err
		}, func(err error) string {
			// A claim names no revision: when the author revised the sample since
			// the queue was read, the new revision's rules answer (another group
			// took its round 1, say). A check, not part of the load.
			if si, e := p.c.Sample(ctx, it.SampleID); errors.Is(err, bench.ErrForbidden) && e == nil && si.Revision != it.Revision {
				return "revised-meanwhile"
			}
			return ""
		})
		if err != nil {
			return
		}
		if refused {
			continue
		}
		kind := annotate.Kind(it.Kind)
		v := storetest.Approve(kind, it.Round)
		if rng.IntN(8) == 0 {
			first := verify.Criteria(kind, it.Round)[0].ID
			v = verify.Verdict{Decision: verify.DecisionReject, Judgements: map[string]bool{first: false},
				Reasons: []string{first}, Comment: "simulated rejection"}
		}
		if _, err := r.call(budget, "SubmitReview", func() error {
			_, err := p.c.SubmitReview(ctx, bench.ReviewInput{SampleID: it.SampleID, Round: it.Round, BasedOn: it.Revision,
				Verdict: v, Seconds: 30})
			return err
		}); err != nil {
			return
		}
	}
}

func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// BenchmarkTeamServerLoad: one team server over a SQLite file, on loopback TLS,
// and 20 workstations, each a remote.Client signed in as its own account — 5
// annotators writing and submitting samples (and revising returned ones), 15
// verifiers in groups A, B and C taking rounds 1–3 from their queues — running the
// protocol concurrently for -load-actions requests per iteration. It reports the
// requests per second, p50/p95 latency of each call, intended refusals (a seat
// someone else took first, a round that moved on) and errors, which must be none.
// Afterwards every sample's stored history is replayed through verify
// (synth.ProtocolChecker): one problem fails the benchmark.
func BenchmarkTeamServerLoad(b *testing.B) {
	tm := seedTeam(b, loadAnnotators, loadPerGroup, 12)
	var l teamLoad
	for it := 0; it < b.N; it++ {
		l.run(b, tm, it)
	}
	l.report(b, "")
	l.check(b, tm, "")
}

// BenchmarkTeamServerLoadVsSQLite runs BenchmarkTeamServerLoad's load on
// PostgreSQL (BENCHWRIGHT_TEST_POSTGRES) and on a SQLite file in turns, in one
// process, so that a shared machine's load falls on both alike: the SQLite
// server's requests per second are the PostgreSQL one's floor (issue 31: at least
// 0.8 of it). It reports both engines' req/s and their ratio (pg-x-sqlite), and
// each engine's p95 over all writes (the calls that take the write lock).
func BenchmarkTeamServerLoadVsSQLite(b *testing.B) {
	if storetest.Engine() != "postgres" {
		b.Skip("compares PostgreSQL with SQLite: set " + storetest.PostgresEnv)
	}
	pg := seedTeam(b, loadAnnotators, loadPerGroup, 12)
	lite := seedTeamAt(b, filepath.Join(b.TempDir(), "bw.db"), loadAnnotators, loadPerGroup, 12)
	var lp, ll teamLoad
	for it := 0; it < b.N; it++ {
		lp.run(b, pg, it)
		ll.run(b, lite, it)
	}
	lp.report(b, "pg-")
	ll.report(b, "sqlite-")
	b.ReportMetric(lp.rate()/ll.rate(), "pg-x-sqlite")
	lp.check(b, pg, "pg-")
	ll.check(b, lite, "sqlite-")
}

const loadAnnotators, loadPerGroup = 5, 5

// loadWrites are the calls of the load that write.
var loadWrites = []string{"CreateSample", "SaveDraft", "Submit", "ClaimReview", "SubmitReview"}

// teamLoad is what the iterations of the load on one team's server saw.
type teamLoad struct {
	total    *loadRun
	elapsed  time.Duration
	requests int64
	n        int
	db       *store.DB
}

// run serves tm (the first time) and runs one iteration of the load on it.
func (l *teamLoad) run(b *testing.B, tm team, it int) {
	ctx := context.Background()
	b.StopTimer()
	if l.total == nil {
		l.total = newLoadRun()
	}
	addr, fp, db := serveTeam(b, tm)
	l.db = db
	names := []string{}
	for i := 1; i <= loadAnnotators; i++ {
		names = append(names, fmt.Sprintf("ann%d", i))
	}
	for _, g := range []string{"a", "b", "c"} {
		for i := 1; i <= loadPerGroup; i++ {
			names = append(names, fmt.Sprintf("%s%d", g, i))
		}
	}
	// One after another, as a lab's morning spreads them: twenty sign-ins at the
	// same instant from one address are what the per-address limit stops (an
	// attempt counts until its password is found right).
	people := make([]person, len(names))
	for i, n := range names {
		people[i] = signIn(b, addr, fp, n)
	}
	var wg sync.WaitGroup
	var budget atomic.Int64
	budget.Store(int64(*loadActions))
	runs := make([]*loadRun, len(people))
	storetest.QuietPostgres(b, os.Getenv(storetest.PostgresEnv)) // on PostgreSQL, what the benchmarks before this one wrote, analysed after them
	b.StartTimer()
	t0 := time.Now()
	for i, p := range people {
		runs[i] = newLoadRun()
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(it), uint64(i)))
			if p.me.Role == bench.RoleAnnotator {
				annotateLoad(ctx, p, tm, rng, &budget, runs[i])
			} else {
				reviewLoad(ctx, p, tm, rng, &budget, runs[i])
			}
		}()
	}
	wg.Wait()
	l.elapsed += time.Since(t0)
	b.StopTimer()
	l.requests += int64(*loadActions)
	l.n++
	for _, r := range runs {
		l.total.merge(r)
	}
	b.StartTimer()
}

func (l *teamLoad) rate() float64 { return float64(l.requests) / l.elapsed.Seconds() }

// report reports the load's metrics, their names after prefix.
func (l *teamLoad) report(b *testing.B, prefix string) {
	total := l.total
	b.ReportMetric(l.rate(), prefix+"req/s")
	calls := slices.Sorted(func(yield func(string) bool) {
		for k := range total.latency {
			if !yield(k) {
				return
			}
		}
	})
	var writes []time.Duration
	for _, name := range calls {
		ds := total.latency[name]
		b.ReportMetric(float64(percentile(ds, 0.50).Microseconds())/1000, prefix+name+"-p50-ms")
		b.ReportMetric(float64(percentile(ds, 0.95).Microseconds())/1000, prefix+name+"-p95-ms")
		b.ReportMetric(float64(len(ds))/float64(l.n), prefix+name+"/op")
		if slices.Contains(loadWrites, name) {
			writes = append(writes, ds...)
		}
	}
	b.ReportMetric(float64(percentile(writes, 0.95).Microseconds())/1000, prefix+"writes-p95-ms")
	refused := 0
	for _, n := range total.refusals {
		refused += n
	}
	b.ReportMetric(float64(refused)/float64(l.n), prefix+"refusals/op")
	b.ReportMetric(float64(len(total.errs)), prefix+"errors")
	for i, err := range total.errs {
		if i == 5 {
			b.Errorf("… and %d more errors", len(total.errs)-5)
			break
		}
		b.Errorf("a request failed: %v", err)
	}
}

// check replays every history the server wrote through verify: each must be one
// verify allows. Its metrics' names follow prefix.
func (l *teamLoad) check(b *testing.B, tm team, prefix string) {
	ctx := context.Background()
	db := l.db
	lead, err := db.UserByName(ctx, bench.Owner(), "lead")
	if err != nil {
		b.Fatal(err)
	}
	project, err := db.ProjectByName(ctx, bench.Owner(), tm.project.Name)
	if err != nil {
		b.Fatal(err)
	}
	check, err := synth.NewProtocolChecker(ctx, db, lead)
	if err != nil {
		b.Fatal(err)
	}
	problems, checked, err := check.CheckProject(ctx, project)
	if err != nil {
		b.Fatal(err)
	}
	counts, err := db.StatusCounts(ctx, bench.Owner(), project.ID)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(checked), prefix+"samples")
	b.ReportMetric(float64(counts[verify.StateAccepted]), prefix+"accepted")
	b.ReportMetric(float64(check.Late), prefix+"late-votes")
	b.ReportMetric(float64(len(problems)), prefix+"problems")
	sort.Strings(problems)
	for i, p := range problems {
		if i == 10 {
			b.Errorf("… and %d more protocol problems", len(problems)-10)
			break
		}
		b.Errorf("protocol problem: %s", p)
	}
	if checked == 0 || counts[verify.StateAccepted] == 0 {
		b.Errorf("%d samples checked, %d accepted: the load did not run the protocol through", checked, counts[verify.StateAccepted])
	}
	engine := "sqlite"
	if store.IsPostgresURL(tm.path) {
		engine = "postgres"
	}
	b.Logf("%s: refusals by kind %v; states %v", engine, l.total.refusals, counts)
}
