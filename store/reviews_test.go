package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

func TestReviewRoundsThroughTheStore(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := map[string]bench.User{}
	for _, v := range []struct{ name, group string }{{"a1", "A"}, {"a2", "A"}, {"b1", "B"}, {"b2", "B"}, {"c1", "C"}} {
		u, err := f.db.AddUser(ctx, f.lead, v.name, bench.RoleVerifier, v.group, "secret")
		if err != nil {
			t.Fatal(err)
		}
		vs[v.name] = u
	}
	si, _ := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	si, err := f.db.Submit(ctx, f.ann, si.ID, si.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	approve := verify.Verdict{Decision: verify.DecisionApprove}
	review := func(u bench.User, round, rev int) error {
		_, err := submitReview(f.db, ctx, u, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: rev, Verdict: approve})
		return err
	}
	steps := []struct {
		name  string
		who   bench.User
		round int
		rev   int
		want  error
	}{
		{"author reviews", f.ann, 1, 1, bench.ErrForbidden},
		{"wrong round", vs["a1"], 2, 1, verify.ErrWrongRound},
		{"stale revision", vs["a1"], 1, 0, bench.ErrConflict},
		{"round 1", vs["a1"], 1, 1, nil},
		{"same group in round 2", vs["a2"], 2, 1, verify.ErrSameGroup},
		{"round 2", vs["b1"], 2, 1, nil},
		{"round-1 verifier in round 3", vs["a1"], 3, 1, verify.ErrAlreadyOnPanel},
		{"round 3 first vote", vs["a2"], 3, 1, nil},
		{"same verifier votes twice", vs["a2"], 3, 1, verify.ErrAlreadyOnPanel},
		{"round 3 second vote", vs["b2"], 3, 1, nil},
	}
	for _, s := range steps {
		err := review(s.who, s.round, s.rev)
		if s.want == nil && err != nil || s.want != nil && !errors.Is(err, s.want) {
			t.Fatalf("%s: got %v, want %v", s.name, err, s.want)
		}
	}
	// Round 3 is blind: b2 sees their own vote but not a2's; the lead sees neither.
	seen := func(u bench.User) (n3 int) {
		rs, err := f.db.Reviews(ctx, u, si.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Round == 3 {
				n3++
			}
		}
		return n3
	}
	if n := seen(vs["b2"]); n != 1 {
		t.Errorf("b2 sees %d round-3 votes during the round, want 1 (their own)", n)
	}
	if n := seen(f.lead); n != 0 {
		t.Errorf("the lead sees %d round-3 votes during the round, want 0", n)
	}
	if err := review(vs["c1"], 3, 1); err != nil {
		t.Fatal(err)
	}
	got, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
	if got.Status != verify.StateAccepted {
		t.Fatalf("after a unanimous panel: %s", got.Status)
	}
	if n := seen(f.lead); n != 3 {
		t.Errorf("after the round closed the lead sees %d round-3 votes, want 3", n)
	}
	if n := auditCount(t, f.db.Path(), "review.approve"); n != 5 {
		t.Errorf("audited %d approvals, want 5", n)
	}
}

// bigQueueDB is a project of n samples written straight into the tables (the store's
// API would take minutes): a third accepted, the rest spread over drafts, returned
// samples and the three rounds, with the reviews each state implies by six verifiers
// in groups A, B and C. It returns the database, the project and the verifiers.
func bigQueueDB(b *testing.B, n int) (*store.DB, bench.Project, []bench.User) {
	b.Helper()
	ctx := context.Background()
	db := MustOpenDB(b)
	lead, err := db.CreateFirstLead(ctx, "lead", "secret")
	if err != nil {
		b.Fatal(err)
	}
	p, err := db.CreateProject(ctx, lead, "big")
	if err != nil {
		b.Fatal(err)
	}
	var anns, vers []bench.User
	for i := range 3 {
		u, err := db.AddUser(ctx, lead, fmt.Sprintf("ann%d", i), bench.RoleAnnotator, "", "secret")
		if err != nil {
			b.Fatal(err)
		}
		anns = append(anns, u)
	}
	for i := range 6 {
		u, err := db.AddUser(ctx, lead, fmt.Sprintf("ver%d", i), bench.RoleVerifier, string(rune('A'+i/2)), "secret")
		if err != nil {
			b.Fatal(err)
		}
		vers = append(vers, u)
	}
	sdb, err := store.RawSQL(db.Path())
	if err != nil {
		b.Fatal(err)
	}
	defer sdb.Close()
	tx, err := sdb.Begin()
	if err != nil {
		b.Fatal(err)
	}
	states := []string{"accepted", "accepted", "accepted", "draft", "returned", "round1", "round1", "round2", "round2", "round3"}
	rng := rand.New(rand.NewPCG(1, 2))
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		id := fmt.Sprintf("s%06d", i)
		state := states[i%len(states)]
		author := anns[i%len(anns)].ID
		ts := at.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
		mustExec(b, tx, `INSERT INTO samples (id, project_id, kind, status, author_id, draft, created_at, updated_at) VALUES (?, ?, 'hop_qa', ?, ?, '{}', ?, ?)`,
			id, p.ID, state, author, ts, ts)
		if state == "draft" {
			continue
		}
		res := mustExec(b, tx, `INSERT INTO revisions (sample_id, number, content, author_id, change, created_at) VALUES (?, 1, '{}', ?, 'submit', ?)`, id, author, ts)
		rev, _ := res.LastInsertId()
		mustExec(b, tx, `UPDATE samples SET current_rev = ? WHERE id = ?`, rev, id)
		// Round r's reviews: one verifier per round 1 and 2 (different groups), then a panel.
		perm := rng.Perm(len(vers))
		r1, r2 := perm[0], perm[1]
		for vers[r2].Group == vers[r1].Group {
			r2 = rng.IntN(len(vers))
		}
		var reviewers [][2]int // {round, verifier index}
		switch state {
		case "returned":
			reviewers = [][2]int{{1, r1}}
		case "round2":
			reviewers = [][2]int{{1, r1}}
		case "round3":
			reviewers = [][2]int{{1, r1}, {2, r2}}
			for _, v := range perm[2 : 2+rng.IntN(3)] {
				if v != r2 {
					reviewers = append(reviewers, [2]int{3, v})
				}
			}
		case "accepted":
			reviewers = [][2]int{{1, r1}, {2, r2}}
			for _, v := range perm[2:] {
				if v != r2 && len(reviewers) < 5 {
					reviewers = append(reviewers, [2]int{3, v})
				}
			}
		}
		for _, rv := range reviewers {
			dec := "approve"
			if state == "returned" {
				dec = "reject"
			}
			mustExec(b, tx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, decision, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				id, rev, rv[0], vers[rv[1]].ID, dec, ts)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return db, p, vers
}

func mustExec(b *testing.B, tx *sql.Tx, q string, args ...any) sql.Result {
	b.Helper()
	res, err := tx.Exec(q, args...)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkReviewQueue measures a verifier's queue on a project of 100,000 samples:
// a page of 50 (what a screen shows) and the whole queue.
func BenchmarkReviewQueue(b *testing.B) {
	ctx := context.Background()
	db, p, vers := bigQueueDB(b, 100_000)
	for _, bc := range []struct {
		name         string
		round, limit int
	}{{"page50", 0, 50}, {"round2page50", 2, 50}, {"all", 0, 0}} {
		b.Run(bc.name, func(b *testing.B) {
			var n int
			for b.Loop() {
				q, err := db.ReviewQueueLimit(ctx, vers[0], p.ID, bc.round, bc.limit)
				if err != nil {
					b.Fatal(err)
				}
				n = len(q)
			}
			b.ReportMetric(float64(n), "items")
		})
	}
}

// clock is a settable time for a DB's Now.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func setClock(db *store.DB) *clock {
	c := &clock{time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)}
	db.Now = c.now
	return c
}

func TestReviewQueueClaimExpiry(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	clk := setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "a2", "b1")
	si := submitted(t, f, f.ann, img)
	if _, err := f.db.ClaimReview(ctx, vs["a1"], si.ID, 1); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		advance time.Duration
		has     map[string]bool // verifier → sample in their queue
	}{
		{"claimed", 0, map[string]bool{"a1": true, "a2": false, "b1": false}},
		{"a minute before the claim ends", 29 * time.Minute, map[string]bool{"a1": true, "a2": false, "b1": false}},
		{"the claim ends", time.Minute, map[string]bool{"a1": true, "a2": true, "b1": true}},
	}
	for _, s := range steps {
		clk.advance(s.advance)
		for name, want := range s.has {
			if got := queueHas(t, f, vs[name], si.ID); got != want {
				t.Errorf("%s: %s's queue holds the sample: %v, want %v", s.name, name, got, want)
			}
		}
	}
	// After the claim expired b1 takes the seat; now a1 is out and b1 keeps it.
	if _, err := f.db.ClaimReview(ctx, vs["b1"], si.ID, 1); err != nil {
		t.Fatalf("claim after expiry: %v", err)
	}
	if queueHas(t, f, vs["a1"], si.ID) || !queueHas(t, f, vs["b1"], si.ID) {
		t.Error("after b1's claim the queues should hold the sample for b1 only")
	}
	if _, err := submitReview(f.db, ctx, vs["a1"], bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: 1, Verdict: approve}); !errors.Is(err, verify.ErrPanelFull) {
		t.Errorf("a1 reviews on an expired claim: got %v, want ErrPanelFull", err)
	}
}

// TestReleaseClaim: a skipped sample returns to the others' queues at once, and
// releasing a seat one does not hold changes nothing.
func TestReleaseClaim(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "a2")
	si := submitted(t, f, f.ann, img)
	if _, err := f.db.ClaimReview(ctx, vs["a1"], si.ID, 1); err != nil {
		t.Fatal(err)
	}
	if err := f.db.ReleaseClaim(ctx, vs["a2"], si.ID); err != nil {
		t.Fatalf("releasing a seat not held: %v", err)
	}
	if queueHas(t, f, vs["a2"], si.ID) {
		t.Fatal("a2's release must not free a1's seat")
	}
	if err := f.db.ReleaseClaim(ctx, vs["a1"], si.ID); err != nil {
		t.Fatal(err)
	}
	if !queueHas(t, f, vs["a2"], si.ID) {
		t.Error("after a1 released the seat a2 should see the sample")
	}
	if _, err := f.db.ClaimReview(ctx, vs["a2"], si.ID, 1); err != nil {
		t.Errorf("a2 claims the released seat: %v", err)
	}
	if err := f.db.ReleaseClaim(ctx, f.ann, si.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator releasing a claim: got %v, want ErrForbidden", err)
	}
	counts, err := f.db.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counts["review.release"] != 1 || counts["denied:review.release"] != 1 {
		t.Errorf("audit: %d releases, %d refusals; want 1 and 1", counts["review.release"], counts["denied:review.release"])
	}
}

// TestRound1SlotIsNeverShared: once one verifier claims a round-1 slot, the other can
// neither see nor take it, and the claimer's review closes it for both.
func TestRound1SlotIsNeverShared(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1")
	var ids []string
	for range 3 {
		ids = append(ids, submitted(t, f, f.ann, img).ID)
	}
	// Both verifiers see all three; each claims the first sample of their queue in turn.
	taken := map[string]string{}
	for _, v := range []string{"a1", "b1"} {
		q, err := f.db.ReviewQueueLimit(ctx, vs[v], f.project.ID, 1, 1)
		if err != nil || len(q) != 1 {
			t.Fatalf("%s's first item: %+v, %v", v, q, err)
		}
		if _, err := f.db.ClaimReview(ctx, vs[v], q[0].SampleID, 1); err != nil {
			t.Fatalf("%s claims %s: %v", v, q[0].SampleID, err)
		}
		taken[v] = q[0].SampleID
	}
	if taken["a1"] == taken["b1"] {
		t.Fatalf("both verifiers got %s", taken["a1"])
	}
	if taken["a1"] != ids[0] || taken["b1"] != ids[1] {
		t.Errorf("claims %v; want the oldest samples in order %v", taken, ids[:2])
	}
	if _, err := f.db.ClaimReview(ctx, vs["b1"], taken["a1"], 1); !errors.Is(err, verify.ErrPanelFull) {
		t.Errorf("b1 claims a1's slot: got %v, want ErrPanelFull", err)
	}
	if _, err := submitReview(f.db, ctx, vs["b1"], bench.ReviewInput{SampleID: taken["a1"], Round: 1, BasedOn: 1, Verdict: approve}); !errors.Is(err, verify.ErrPanelFull) {
		t.Errorf("b1 reviews a1's slot: got %v, want ErrPanelFull", err)
	}
	si, _ := f.db.Sample(ctx, bench.Owner(), taken["a1"])
	mustReview(t, f, vs["a1"], si, 1)
	for _, v := range []string{"a1", "b1"} {
		q, _ := f.db.ReviewQueue(ctx, vs[v], f.project.ID, 1)
		if slices.ContainsFunc(q, func(it bench.QueueItem) bool { return it.SampleID == taken["a1"] }) {
			t.Errorf("%s's round-1 queue still holds %s after its review", v, taken["a1"])
		}
	}
	// In round 2 the sample goes to b1 (another group), never back to a1.
	if queueHas(t, f, vs["a1"], taken["a1"]) || !queueHas(t, f, vs["b1"], taken["a1"]) {
		t.Error("round 2 should be b1's alone")
	}
}

func TestReviewQueueLimitAndRound(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	clk := setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1")
	var ids []string
	for range 5 {
		clk.advance(time.Second)
		ids = append(ids, submitted(t, f, f.ann, img).ID)
	}
	clk.advance(time.Second)
	si, _ := f.db.Sample(ctx, bench.Owner(), ids[1])
	mustReview(t, f, vs["a1"], si, 1) // ids[1] moves to round 2 and to the end of the queue
	tests := []struct {
		round, limit int
		want         []string
	}{
		{0, 0, []string{ids[0], ids[2], ids[3], ids[4], ids[1]}},
		{0, 2, []string{ids[0], ids[2]}},
		{1, 0, []string{ids[0], ids[2], ids[3], ids[4]}},
		{2, 0, []string{ids[1]}},
		{2, 5, []string{ids[1]}},
		{3, 0, nil},
	}
	for _, tt := range tests {
		q, err := f.db.ReviewQueueLimit(ctx, vs["b1"], f.project.ID, tt.round, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range q {
			got = append(got, it.SampleID)
			if it.Round != map[bool]int{true: 2, false: 1}[it.SampleID == ids[1]] || it.Revision != 1 || it.Kind != "hop_qa" {
				t.Errorf("item %+v", it)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("round %d limit %d: %v, want %v", tt.round, tt.limit, got, tt.want)
		}
	}
	if _, err := f.db.ReviewQueueLimit(ctx, vs["b1"], f.project.ID, 4, 0); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("round 4: got %v, want ErrInvalid", err)
	}
	// A project that does not exist is refused as another project is (not a member): the answer tells a stranger nothing.
	if _, err := f.db.ReviewQueue(ctx, vs["b1"], 999, 0); !errors.Is(err, verify.ErrNotMember) {
		t.Errorf("unknown project: got %v, want ErrNotMember", err)
	}
}

// TestReviewQueueAgreesWithClaims drives samples at random through reviews, rejections,
// revisions, corrections and claims, then checks for every verifier and every sample in
// a round that the queue's SQL and verify agree: a sample is in a verifier's queue
// exactly when verify lets the verifier claim it.
func TestReviewQueueAgreesWithClaims(t *testing.T) {
	policies := []struct {
		name string
		set  func(*bench.Settings)
	}{
		{"default", func(*bench.Settings) {}},
		{"panel of 2, earlier verifiers allowed, corrections stay in their round", func(s *bench.Settings) {
			s.Round3Panel, s.Round3AllowEarlier, s.CorrectionToRound1 = 2, true, false
		}},
	}
	for i, pol := range policies {
		t.Run(pol.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			clk := setClock(f.db)
			img := withImage(t, f)
			s := bench.DefaultSettings()
			pol.set(&s)
			if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
				t.Fatal(err)
			}
			vs := addVerifiers(t, f, "a1", "a2", "b1", "b2", "c1", "n1")
			pool := []bench.User{f.lead, f.ver}
			for _, n := range []string{"a1", "a2", "b1", "b2", "c1", "n1"} {
				pool = append(pool, vs[n])
			}
			authors := []bench.User{f.ann, f.ann2, f.lead}
			rng := rand.New(rand.NewPCG(uint64(i), 42))
			var ids []string
			for k := range 30 {
				ids = append(ids, submitted(t, f, authors[k%len(authors)], img).ID)
			}
			for range 400 {
				clk.advance(time.Second)
				si, err := f.db.Sample(ctx, bench.Owner(), ids[rng.IntN(len(ids))])
				if err != nil {
					t.Fatal(err)
				}
				if si.Status == verify.StateReturned {
					if _, err := f.db.Submit(ctx, authorOf(si, authors), si.ID, changedDraft(t, f.db, authorOf(si, authors), si), nil); err != nil {
						t.Fatalf("resubmit %s: %v", si.ID, err)
					}
					continue
				}
				if si.Status.Round() == 0 {
					continue
				}
				v := pool[rng.IntN(len(pool))]
				in := bench.ReviewInput{SampleID: si.ID, Round: si.Status.Round(), BasedOn: si.Revision, Verdict: approve}
				switch x := rng.IntN(20); {
				case x < 2:
					in.Verdict = verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}}
					_, err = submitReview(f.db, ctx, v, in)
				case x < 4:
					c := si.Content
					c.Question = fmt.Sprintf("Which object is closest to the camera, take %d?", rng.IntN(1000))
					_, err = f.db.Correct(ctx, v, bench.CorrectionInput{SampleID: si.ID, Round: in.Round, BasedOn: si.Revision, Content: c, Comment: "reworded"})
				case x < 6:
					_, err = f.db.ClaimReview(ctx, v, si.ID, in.Round)
				default:
					_, err = submitReview(f.db, ctx, v, in)
				}
				if err != nil && !errors.Is(err, bench.ErrForbidden) {
					t.Fatalf("%s on %s: %v", v.Name, si.ID, err)
				}
			}
			// The queue is ordered by the last change; the lead's withdraw and reopen
			// shuffle that order, so that a sample the queue's SQL wrongly let through
			// would stand between rightful ones and shorten a page below.
			for _, k := range rng.Perm(len(ids)) {
				clk.advance(time.Second)
				if si, _ := f.db.Sample(ctx, bench.Owner(), ids[k]); si.Status.Round() > 0 && rng.IntN(2) == 0 {
					if err := f.db.Withdraw(ctx, f.lead, si.ID, "shuffle"); err != nil {
						t.Fatal(err)
					}
					if err := f.db.Reopen(ctx, f.lead, si.ID, "shuffle"); err != nil {
						t.Fatal(err)
					}
				}
			}
			// Claims that stand while the queues are compared, remade after each clock jump.
			type claim struct {
				v     bench.User
				id    string
				round int
			}
			var standing []claim
			for range 40 {
				si, _ := f.db.Sample(ctx, bench.Owner(), ids[rng.IntN(len(ids))])
				v := pool[rng.IntN(len(pool))]
				if _, err := f.db.ClaimReview(ctx, v, si.ID, si.Status.Round()); err == nil {
					standing = append(standing, claim{v, si.ID, si.Status.Round()})
				}
			}
			if len(standing) < 3 {
				t.Fatalf("only %d standing claims; the scenario is too thin", len(standing))
			}
			inRound, agreed, total := 0, 0, 0
			for _, v := range pool {
				clk.advance(s.Policy().ClaimTTL + time.Second) // everyone's claims end ...
				for _, c := range standing {                   // ... and the standing ones are made again
					if _, err := f.db.ClaimReview(ctx, c.v, c.id, c.round); err != nil {
						t.Fatalf("remake %s's claim on %s: %v", c.v.Name, c.id, err)
					}
				}
				q, err := f.db.ReviewQueue(ctx, v, f.project.ID, 0)
				if err != nil {
					t.Fatal(err)
				}
				// Every page is full and a prefix of the whole queue: the SQL lets
				// through nothing that verify then drops.
				for limit := 1; limit <= len(q); limit++ {
					page, err := f.db.ReviewQueueLimit(ctx, v, f.project.ID, 0, limit)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(page, q[:limit]) {
						t.Errorf("%s: page of %d is %v, want %v", v.Name, limit, page, q[:limit])
						break
					}
				}
				for _, id := range ids {
					si, _ := f.db.Sample(ctx, bench.Owner(), id)
					if si.Status.Round() == 0 {
						continue
					}
					inRound++
					inQueue := slices.ContainsFunc(q, func(it bench.QueueItem) bool { return it.SampleID == id })
					_, err := f.db.ClaimReview(ctx, v, id, si.Status.Round())
					if inQueue != (err == nil) {
						t.Errorf("%s, %s in %s: in queue %v, claim %v", v.Name, id, si.Status, inQueue, err)
					}
					if inQueue {
						agreed++
					}
					total++
				}
			}
			// The scenario must exercise both answers.
			if agreed == 0 || agreed == total {
				t.Errorf("%d of %d verifier/sample pairs queued; the scenario is degenerate", agreed, total)
			}
			counts, _ := f.db.StatusCounts(ctx, bench.Owner(), f.project.ID)
			t.Logf("states %v; %d of %d pairs queued", counts, agreed, inRound)
		})
	}
}

func authorOf(si bench.SampleInfo, users []bench.User) bench.User {
	for _, u := range users {
		if u.ID == si.AuthorID {
			return u
		}
	}
	return bench.User{}
}

// TestMigration3KeepsReviews builds a version-2 database from the migration files,
// with a review in it, and opens it: the rebuilt reviews table keeps the review, and
// a round-1 verifier may now also vote in round 3 when the project allows it.
func TestMigration3KeepsReviews(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v2.db")
	sdb, err := store.RawSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("migrations", "000[12]_*.sql"))
	if len(files) != 2 {
		t.Fatalf("migrations 1 and 2: %v", files)
	}
	for _, name := range files {
		body, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sdb.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	const at = "2025-01-01T00:00:00Z"
	for _, q := range []string{
		`PRAGMA user_version = 2`,
		`INSERT INTO users (id, name, role, grp, password_hash, created_at) VALUES (1, 'lead', 'lead', '', 'x', '` + at + `'),
			(2, 'ann', 'annotator', '', 'x', '` + at + `'), (3, 'a1', 'verifier', 'A', 'x', '` + at + `'), (4, 'b1', 'verifier', 'B', 'x', '` + at + `')`,
		`INSERT INTO projects (id, name, settings, created_by, created_at) VALUES (1, 'p', '{"round3_panel": 3, "round3_allow_earlier": true, "correction_to_round1": true, "claim_minutes": 30}', 1, '` + at + `')`,
		`INSERT INTO samples (id, project_id, kind, status, author_id, draft, current_rev, created_at, updated_at)
			VALUES ('s1', 1, 'mcq', 'round2', 2, '{"id":"s1","kind":"mcq"}', 1, '` + at + `', '` + at + `')`,
		`INSERT INTO revisions (id, sample_id, number, content, author_id, change, created_at) VALUES (1, 's1', 1, '{"id":"s1","kind":"mcq"}', 2, 'submit', '` + at + `')`,
		`INSERT INTO reviews (id, sample_id, revision_id, round, verifier_id, criteria, decision, comment, seconds, created_at)
			VALUES (7, 's1', 1, 1, 3, '{"answerable":true}', 'approve', 'fine', 12, '` + at + `')`,
	} {
		if _, err := sdb.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	sdb.Close()

	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lead, a1, b1 := bench.User{ID: 1}, bench.User{ID: 3}, bench.User{ID: 4}
	rs, err := db.Reviews(ctx, lead, "s1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].ID != 7 || rs[0].VerifierName != "a1" || rs[0].Comment != "fine" || rs[0].Seconds != 12 || !rs[0].Judgements["answerable"] {
		t.Fatalf("reviews after the migration: %+v", rs)
	}
	if _, err := submitReview(db, ctx, b1, bench.ReviewInput{SampleID: "s1", Round: 2, BasedOn: 1, Verdict: approve}); err != nil {
		t.Fatal(err)
	}
	// a1 verified round 1 and, with round3_allow_earlier, may sit on the panel.
	if _, err := submitReview(db, ctx, a1, bench.ReviewInput{SampleID: "s1", Round: 3, BasedOn: 1, Verdict: approve}); err != nil {
		t.Fatalf("round-1 verifier in round 3: %v", err)
	}
	if _, err := submitReview(db, ctx, a1, bench.ReviewInput{SampleID: "s1", Round: 3, BasedOn: 1, Verdict: approve}); !errors.Is(err, verify.ErrAlreadyOnPanel) {
		t.Errorf("a second round-3 vote: got %v, want ErrAlreadyOnPanel", err)
	}
}

// TestQueueFollowsAShapeChangedBetweenReads: a verifier's queue reads its
// candidates in one batch with the verifier's membership, as their last queue of
// the project was read (the policy's group rule, their group). When the lead
// changes the verifier's group or the project's policy between two reads, the
// next queue must follow the change, on both engines.
func TestQueueFollowsAShapeChangedBetweenReads(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "a2")
	a1, a2 := vs["a1"], vs["a2"]
	si := submitted(t, f, f.ann, img)
	if _, err := submitReview(f.db, ctx, a1, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision,
		Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name   string
		change func() error
		want   int // samples in a2's queue after the change
	}{
		{"a round-1 verifier's group mate", nil, 0},
		{"moved to group B", func() error {
			_, err := f.db.SetMemberRole(ctx, f.lead, f.project.ID, "a2", bench.RoleVerifier, "B")
			return err
		}, 1},
		{"back in group A", func() error {
			_, err := f.db.SetMemberRole(ctx, f.lead, f.project.ID, "a2", bench.RoleVerifier, "A")
			return err
		}, 0},
		{"round 2 by any group", func() error {
			_, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"round2_other_group": "false"})
			return err
		}, 1},
		{"round 2 by another group again", func() error {
			_, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"round2_other_group": "true"})
			return err
		}, 0},
	}
	for _, s := range steps {
		if s.change != nil {
			if err := s.change(); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
		}
		for read := 1; read <= 2; read++ { // the first read after the change, and the one after it
			q, err := f.db.ReviewQueueLimit(ctx, a2, f.project.ID, 0, 8)
			if err != nil {
				t.Fatalf("%s, read %d: %v", s.name, read, err)
			}
			if len(q) != s.want {
				t.Errorf("%s, read %d: a2's queue holds %d samples, want %d", s.name, read, len(q), s.want)
			}
		}
	}
}
