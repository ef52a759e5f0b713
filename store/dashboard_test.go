package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// dashFixture builds a project whose aggregates are known. Day 1 (2025-03-01): ann
// submits S0, S1 (rel, 1-hop exo) and S2 (att+rel, 2-hop exo) and leaves D0 a draft;
// ann2 submits S3 (pos, 1-hop ego), J0 and J1 (judgments, tasks T1 and T9) and S5
// (rel). Day 2 (2025-03-02), with the seconds spent:
//
//	S0: v1 approves (10), v2 (20), p1 (30), p2 (40): accepted
//	S1: v1 rejects, box_on_answer (12): returned; ann revises; v2 approves round 1 (18)
//	S2: v1 approves (14), v2 rejects, natural_grammar + other (25): returned
//	S3: v1 approves (16), v2 (30), p1 (50): round 3 open, p1's vote secret
//	J0: v1 approves, no time recorded: round 2
//	S5: v1 approves (8), v2 (22), p1 (35), p2 rejects, box_precise (45): returned
//
// The balance targets: hop_qa 1-hop exo 1; hop_qa 1-hop any view 2; hop_qa 2-hop exo
// 1; judgment task T1 1.
func dashFixture(t *testing.T) *agreeFixture {
	t.Helper()
	ctx := context.Background()
	f := newAgreeFixture(t)
	s := bench.DefaultSettings()
	s.Round3Panel = 2
	s.Balance = []bench.BalanceTarget{
		{Kind: "hop_qa", Hop: 1, View: "exo", Count: 1},
		{Kind: "hop_qa", Hop: 1, Count: 2},
		{Kind: "hop_qa", Hop: 2, View: "exo", Count: 1},
		{Kind: "judgment", Task: "T1", Count: 1},
	}
	if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
	day := func(d int) { f.db.Now = func() time.Time { return time.Date(2025, 3, d, 9, 0, 0, 0, time.UTC) } }
	day(1)
	rel := hopSample(f.img)
	attRel := hopSample(f.img)
	attRel.Question, attRel.Categories, attRel.Hop = "Which round object is closest to the camera?", []annotate.Category{annotate.CatAtt, annotate.CatRel}, 2
	attRel.QuestionTag = "Which <ATT>round</ATT> object is <REL>closest to the camera</REL>?"
	posEgo := hopSample(f.img)
	posEgo.Question, posEgo.Categories, posEgo.View, posEgo.EgoSubject = "From the perspective of the man in the blue shirt, which object is on his left?",
		[]annotate.Category{annotate.CatPos}, annotate.ViewEgo, annotate.EgoReal
	posEgo.QuestionTag = "From the perspective of the man in the blue shirt, which object is <POS>on his left</POS>?"
	judgment := func(task string) annotate.Sample {
		return annotate.Sample{Kind: annotate.KindJudgment, Image: f.img, Question: "Is the mug left of the lamp?", AnswerText: "yes", Task: task}
	}
	s0 := f.submit(t, f.ann, rel)
	s1 := f.submit(t, f.ann, rel)
	s2 := f.submit(t, f.ann, attRel)
	if _, err := f.db.CreateSample(ctx, f.ann, f.project.ID, rel); err != nil {
		t.Fatal(err)
	}
	s3 := f.submit(t, f.ann2, posEgo)
	j0 := f.submit(t, f.ann2, judgment("T1"))
	f.submit(t, f.ann2, judgment("T9"))
	s5 := f.submit(t, f.ann2, rel)

	day(2)
	f.review(t, f.v1, s0, 1, agreeApprove, 10)
	f.review(t, f.v2, s0, 2, agreeApprove, 20)
	f.review(t, f.p1, s0, 3, agreeApprove, 30)
	f.review(t, f.p2, s0, 3, agreeApprove, 40)

	f.review(t, f.v1, s1, 1, agreeReject(map[string]bool{"box_on_answer": false}), 12)
	cur, err := f.db.Sample(ctx, bench.Owner(), s1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s1, err = f.db.Submit(ctx, f.ann, s1.ID, changedDraft(t, f.db, f.ann, cur), nil); err != nil {
		t.Fatal(err)
	}
	f.review(t, f.v2, s1, 1, agreeApprove, 18)

	f.review(t, f.v1, s2, 1, agreeApprove, 14)
	f.review(t, f.v2, s2, 2, agreeReject(map[string]bool{"natural_grammar": false}, verify.ReasonOther), 25)

	f.review(t, f.v1, s3, 1, agreeApprove, 16)
	f.review(t, f.v2, s3, 2, agreeApprove, 30)
	f.review(t, f.p1, s3, 3, agreeApprove, 50)

	f.review(t, f.v1, j0, 1, agreeApprove, 0)

	f.review(t, f.v1, s5, 1, agreeApprove, 8)
	f.review(t, f.v2, s5, 2, agreeApprove, 22)
	f.review(t, f.p1, s5, 3, agreeApprove, 35)
	f.review(t, f.p2, s5, 3, agreeReject(map[string]bool{"box_precise": false}), 45)
	return f
}

func csvOf(t *testing.T, tbl interface{ WriteCSV(io.Writer) error }) string {
	t.Helper()
	var b strings.Builder
	if err := tbl.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The expected tables follow from dashFixture's story, counted by hand.
func TestDashboardAggregates(t *testing.T) {
	f := dashFixture(t)
	d, err := f.db.Dashboard(context.Background(), f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Own {
		t.Error("the lead's dashboard is marked as an annotator's own view")
	}
	tests := []struct {
		name  string
		table interface{ WriteCSV(io.Writer) error }
		want  string
	}{
		{"funnel", d.Funnel, `kind,state,count
hop_qa,draft,1
hop_qa,round1,0
hop_qa,round2,1
hop_qa,round3,1
hop_qa,accepted,1
hop_qa,returned,2
hop_qa,withdrawn,0
judgment,draft,0
judgment,round1,1
judgment,round2,1
judgment,round3,0
judgment,accepted,0
judgment,returned,0
judgment,withdrawn,0
`},
		// Day 1: eight created, seven submitted. Day 2: S1 resubmitted; S0, S1, S2,
		// S3, J0 and S5 reach round 2; S0, S3 and S5 round 3; S0 is accepted; S1,
		// S2 and S5 are returned.
		{"activity", d.Activity, `day,state,count
2025-03-01,draft,8
2025-03-01,round1,7
2025-03-02,round1,1
2025-03-02,round2,6
2025-03-02,round3,3
2025-03-02,accepted,1
2025-03-02,returned,3
`},
		// S0 is accepted; S1 (round 2), S3 (round 3), J0 (round 2) and J1 (round 1)
		// are in review; J1's task T9 has no target.
		{"balance", d.Balance, `kind,hop,view,task,target,accepted,in_review,shortfall,level
hop_qa,1,exo,,1,1,1,0,met
hop_qa,1,,,2,1,2,1,partial
hop_qa,2,exo,,1,0,0,1,far
judgment,0,,T1,1,0,1,1,far
judgment,0,,T9,0,0,1,0,no target
`},
		// ann: round 1 S0, S1 twice (one reject), S2; round 2 S0, S2 (reject);
		// round 3 S0 twice. ann2: round 1 S3, J0, S5; round 2 S3, S5; round 3 only
		// S5's closed panel (p1's open vote on S3 is secret).
		{"annotators", d.Annotators, `name,samples,accepted,submitted,days,per_day,round1_reviews,round1_rejected,round1_rejection_rate,round2_reviews,round2_rejected,round2_rejection_rate,round3_reviews,round3_rejected,round3_rejection_rate,top_reasons
ann,4,1,4,2,2.00,4,1,0.2500,2,1,0.5000,2,0,0.0000,box_on_answer:1 natural_grammar:1 other:1
ann2,4,0,4,1,4.00,3,0,0.0000,2,0,0.0000,2,1,0.5000,box_precise:1
`},
		{"throughput", d.Throughput, `day,name,submitted
2025-03-01,ann,3
2025-03-01,ann2,4
2025-03-02,ann,1
`},
		{"reasons", d.Reasons, `reason,count
box_on_answer,1
box_precise,1
natural_grammar,1
other,1
`},
		// Medians and 90th percentiles (linear interpolation, rank 0.9·(n-1)) of the
		// timed reviews: v1 8 10 12 14 16 → 12 and 14 + 0.6·2 = 15.2; v2 18 20 22 25
		// 30 → 22 and 25 + 0.6·5 = 28; p1 30 35 → 32.5 and 34.5; p2 40 45 → 42.5 and
		// 44.5. Panels with a result: S0 approved, S5 rejected: p1 matches one of two.
		{"verifiers", d.Verifiers, `name,group,reviews,round1,round2,round3,approved,approval_rate,timed,median_seconds,p90_seconds,panel_votes,panel_matches,panel_agreement
p1,C,2,0,0,2,2,1.0000,2,32.5000,34.5000,2,1,0.5000
p2,C,2,0,0,2,1,0.5000,2,42.5000,44.5000,2,2,1.0000
v1,A,6,6,0,0,5,0.8333,5,12.0000,15.2000,0,0,
v2,B,5,1,4,0,4,0.8000,5,22.0000,28.0000,0,0,
ver,,0,0,0,0,0,,0,,,0,0,
`},
		// rel: S0 4 reviews, S1 rev 1 a rejection, S1 rev 2 one approval, S5 4 with a
		// rejection; pos: S3's two visible reviews; att+rel: S2, one of two rejects.
		{"errors", d.Errors, `kind,set,reviews,rejected,error_rate
hop_qa,pos,2,0,0.0000
hop_qa,rel,10,2,0.2000
hop_qa,att+rel,2,1,0.5000
judgment,none,1,0,0.0000
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := csvOf(t, tt.table); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
	if got := fmt.Sprint(d.Funnel.ByState()); got != "[1 1 2 1 1 2 0]" {
		t.Errorf("funnel by state %s", got)
	}
	days, n := d.Activity.Days()
	if fmt.Sprint(days, n) != "[2025-03-01 2025-03-02] [15 14]" {
		t.Errorf("activity days %v %v", days, n)
	}
}

// An annotator sees the project's funnel, activity, balance and error rates, and of
// the people only their own row; the store withholds the rest.
func TestDashboardAnnotatorSeesOwnWork(t *testing.T) {
	f := dashFixture(t)
	ctx := context.Background()
	lead, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.db.Dashboard(ctx, f.ann2, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Own || len(d.Verifiers) != 0 {
		t.Errorf("annotator view: own %v, %d verifier rows", d.Own, len(d.Verifiers))
	}
	if len(d.Annotators) != 1 || d.Annotators[0].Name != "ann2" || len(d.Throughput) != 1 || d.Throughput[0].Name != "ann2" {
		t.Errorf("ann2 sees annotators %+v, throughput %+v", d.Annotators, d.Throughput)
	}
	if got := csvOf(t, d.Reasons); got != "reason,count\nbox_precise,1\n" {
		t.Errorf("ann2's reasons:\n%s", got)
	}
	if csvOf(t, d.Funnel) != csvOf(t, lead.Funnel) || csvOf(t, d.Errors) != csvOf(t, lead.Errors) || csvOf(t, d.Balance) != csvOf(t, lead.Balance) {
		t.Error("the annotator's project-wide tables differ from the lead's")
	}
	for _, who := range []bench.User{f.v1, f.ver} {
		v, err := f.db.Dashboard(ctx, who, f.project.ID)
		if err != nil || v.Own || len(v.Verifiers) != 5 || len(v.Annotators) != 2 {
			t.Errorf("%s: own %v, %d verifiers, %d annotators, %v", who.Name, v.Own, len(v.Verifiers), len(v.Annotators), err)
		}
	}
	if _, err := f.db.Dashboard(ctx, bench.User{ID: 999}, f.project.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("unknown user: %v", err)
	}
	// A project that does not exist is refused as another project is (not a member): the answer tells a stranger nothing.
	if _, err := f.db.Dashboard(ctx, f.lead, 999); !errors.Is(err, verify.ErrNotMember) {
		t.Errorf("unknown project: %v", err)
	}
}

// Once p2 closes S3's panel, p1's vote counts everywhere.
func TestDashboardCountsRound3OnceClosed(t *testing.T) {
	f := dashFixture(t)
	ctx := context.Background()
	s3, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{Status: verify.StateRound3}, 0, 10)
	if err != nil || len(s3) != 1 {
		t.Fatalf("samples in round 3: %v %v", s3, err)
	}
	f.review(t, f.p2, s3[0], 3, agreeApprove, 60)
	d, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range d.Verifiers {
		if v.Name == "p1" && (v.Reviews != 3 || v.PanelVotes != 3 || v.PanelMatches != 2 || v.MedianSeconds != 35) {
			t.Errorf("p1 after S3 closed: %+v", v)
		}
	}
	for _, e := range d.Errors {
		if e.Set == "pos" && e.Reviews != 4 {
			t.Errorf("pos reviews after S3 closed: %d, want 4", e.Reviews)
		}
	}
}

// Benchmark data: n hop-QA samples written straight into the tables the way the
// store writes them (a workflow run per sample would take minutes): every sample has
// a revision, its audit rows and, by position, 0-5 reviews; a tenth are accepted.
// The summaries are then built from those rows, as bulk writers do.
func benchDB(b *testing.B, n int) (*store.DB, bench.User, int64) {
	b.Helper()
	ctx := context.Background()
	db := MustOpenDB(b)
	lead, err := db.CreateFirstLead(ctx, "lead", "secret")
	if err != nil {
		b.Fatal(err)
	}
	p, err := db.CreateProject(ctx, lead, "bench")
	if err != nil {
		b.Fatal(err)
	}
	var vs []bench.User
	for i := range 6 {
		u, err := db.AddUser(ctx, lead, fmt.Sprintf("v%d", i), bench.RoleVerifier, string(rune('A'+i/2)), "secret")
		if err != nil {
			b.Fatal(err)
		}
		vs = append(vs, u)
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
	views := []string{"ego", "exo"}
	cats := []string{`["pos"]`, `["rel"]`, `["att","rel"]`, `["att","pos","rel"]`}
	states := []string{"round1", "round2", "round3", "round3", "returned", "accepted", "draft"}
	for i := range n {
		id := fmt.Sprintf("s%06d", i)
		day := fmt.Sprintf("2025-03-%02dT10:00:00Z", 1+i%28)
		state := states[i%len(states)]
		content := fmt.Sprintf(`{"id":%q,"kind":"hop_qa","question":"q","options":["a","b","c","d"],"answer":0,"categories":%s,"hop":%d,"view":%q,"box":[1,2,30,40]}`,
			id, cats[i%4], 1+i%3, views[i%2])
		if _, err := tx.Exec(`INSERT INTO samples (id, project_id, kind, status, author_id, draft, created_at, updated_at) VALUES (?, ?, 'hop_qa', ?, ?, ?, ?, ?)`,
			id, p.ID, state, lead.ID, content, day, day); err != nil {
			b.Fatal(err)
		}
		res, err := tx.Exec(`INSERT INTO revisions (sample_id, number, content, author_id, change, created_at) VALUES (?, 1, ?, ?, 'submit', ?)`,
			id, content, lead.ID, day)
		if err != nil {
			b.Fatal(err)
		}
		rev, _ := res.LastInsertId()
		if _, err := tx.Exec(`UPDATE samples SET current_rev = ? WHERE id = ?`, rev, id); err != nil {
			b.Fatal(err)
		}
		for _, a := range [][2]string{{"sample.create", "hop_qa"}, {"sample.status", "draft → round1"}, {"sample.status", "round1 → " + state}} {
			if _, err := tx.Exec(`INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail) VALUES (?, ?, ?, 'sample', ?, ?)`,
				day, lead.ID, a[0], id, a[1]); err != nil {
				b.Fatal(err)
			}
		}
		for r := range i % 6 {
			round, dec := min(r+1, 3), "approve"
			if r == 4 && i%12 == 5 {
				dec = "reject"
			}
			if _, err := tx.Exec(`INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision, reasons, seconds, created_at)
				VALUES (?, ?, ?, ?, '{}', ?, ?, ?, ?)`, id, rev, round, vs[r].ID, dec, map[string]string{"approve": "[]", "reject": `["box_precise"]`}[dec],
				float64(10+i%50), day); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if err := db.RebuildStats(ctx, p.ID); err != nil {
		b.Fatal(err)
	}
	return db, lead, p.ID
}

func BenchmarkDashboard10k(b *testing.B) {
	db, lead, pid := benchDB(b, 10_000)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		d, err := db.Dashboard(ctx, lead, pid)
		if err != nil {
			b.Fatal(err)
		}
		if len(d.Funnel) == 0 {
			b.Fatal("empty funnel")
		}
	}
}

func BenchmarkAgreement10k(b *testing.B) {
	db, lead, pid := benchDB(b, 10_000)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := db.Agreement(ctx, lead, pid); err != nil {
			b.Fatal(err)
		}
	}
}

// statsWorld is bench_test.go's synthetic project (store.Generate, BENCHWRIGHT_BENCH_SAMPLES
// samples, cached between runs) opened with the accounts whose views are measured.
type statsWorld struct {
	benchWorld
	lead bench.User
	path string
}

func openStatsWorld(b *testing.B) statsWorld {
	b.Helper()
	path := scaleDBOnEngine(b)
	w := statsWorld{benchWorld: openBench(b, path), path: path}
	b.Cleanup(func() { w.db.Close() })
	var err error
	if w.lead, err = w.db.UserByName(context.Background(), bench.Owner(), "lead"); err != nil {
		b.Fatal(err)
	}
	return w
}

// floor measures a bare aggregate over the same database, without the store: the
// least any query reading that table must pay.
func (w statsWorld) floor(b *testing.B, query string) {
	sdb, err := store.RawSQL(w.path)
	if err != nil {
		b.Fatal(err)
	}
	defer sdb.Close()
	for b.Loop() {
		var n int
		if err := sdb.QueryRow(query).Scan(&n); err != nil || n == 0 {
			b.Fatalf("%s: %d %v", query, n, err)
		}
	}
}

// BenchmarkScaleDashboard is the whole dashboard of the synthetic project as the lead
// (every table) and as an annotator (the project's tables and their own row) sees
// it. The floors are one bare count over the samples of the project (what a
// dashboard computed from the samples at read time cannot undercut) and over all reviews.
func BenchmarkScaleDashboard(b *testing.B) {
	w := openStatsWorld(b)
	ctx := context.Background()
	for _, who := range []bench.User{w.lead, w.ann} {
		b.Run(who.Role, func(b *testing.B) {
			for b.Loop() {
				d, err := w.db.Dashboard(ctx, who, w.project.ID)
				if err != nil {
					b.Fatal(err)
				}
				if len(d.Funnel) == 0 || len(d.Errors) == 0 {
					b.Fatal("empty dashboard")
				}
			}
		})
	}
	b.Run("floor-count-samples", func(b *testing.B) {
		w.floor(b, fmt.Sprintf(`SELECT count(*) FROM samples WHERE project_id = %d`, w.project.ID))
	})
	b.Run("floor-count-reviews", func(b *testing.B) { w.floor(b, `SELECT count(*) FROM reviews`) })
}
