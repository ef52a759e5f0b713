package store_test

// Tests of the dashboard's summary tables (migration 0008, kept by store/stats.go)
// and of the agreement's single pass over the reviews.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/montanaflynn/stats"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

func mustExecRaw(t *testing.T, sdb *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := sdb.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// statSnapshot lists every row of the summary tables as text, sorted, leaving out
// rows that count nothing (n = 0).
func statSnapshot(t *testing.T, sdb *sql.DB) []string {
	t.Helper()
	names, err := store.TableNames(sdb, `stat\_%`)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 12 {
		t.Fatalf("summary tables %v", names)
	}
	var out []string
	for _, table := range names {
		rows, err := sdb.Query(`SELECT * FROM ` + table)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			line, empty := table, false
			for i, c := range cols {
				if b, ok := vals[i].([]byte); ok {
					vals[i] = string(b)
				}
				if c == "import_batch" { // which import wrote the row, not a summary: a rebuild forgets it
					continue
				}
				line += fmt.Sprintf(" %s=%v", c, vals[i])
				empty = empty || c == "n" && vals[i] == int64(0)
			}
			if !empty {
				out = append(out, line)
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(out)
	return out
}

// checkRebuildMatches: the summaries the store keeps for project (sdb reads the
// database's file or schema) and the dashboard it shows lead are what a rebuild
// from the rows makes; what says when. It returns the dashboard.
func checkRebuildMatches(t *testing.T, db *store.DB, sdb *sql.DB, lead bench.User, project int64, what string) bench.Dashboard {
	t.Helper()
	ctx := context.Background()
	kept := statSnapshot(t, sdb)
	before, err := db.Dashboard(ctx, lead, project)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RebuildStats(ctx, project); err != nil {
		t.Fatal(err)
	}
	if rebuilt := statSnapshot(t, sdb); !slices.Equal(kept, rebuilt) {
		t.Errorf("the summaries %s differ from a rebuild", what)
		diffLines(t, kept, rebuilt)
	}
	after, err := db.Dashboard(ctx, lead, project)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("the dashboard %s differs after a rebuild\nkept    %+v\nrebuilt %+v", what, before, after)
	}
	return before
}

// diffLines reports the lines only one of kept and rebuilt holds.
func diffLines(t *testing.T, kept, rebuilt []string) {
	t.Helper()
	for _, l := range kept {
		if !slices.Contains(rebuilt, l) {
			t.Errorf("kept by the store only: %s", l)
		}
	}
	for _, l := range rebuilt {
		if !slices.Contains(kept, l) {
			t.Errorf("rebuilt only: %s", l)
		}
	}
}

// statsWorkload writes to dashFixture's project in every way the summaries follow:
// the workflow (reviews closing and opening panels, returns, resubmissions,
// withdrawals, a reopened sample, a correction replacing a revision with an open
// panel), and a generated second project (samples inserted before their revisions).
// Then it changes and deletes reviews and samples behind the store's back, which
// the summaries do not follow, and rebuilds both projects' summaries.
func statsWorkload(t *testing.T) (*agreeFixture, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	f := dashFixture(t)
	s3, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{Status: verify.StateRound3}, 0, 10)
	if err != nil || len(s3) != 1 {
		t.Fatalf("samples in round 3: %v %v", s3, err)
	}
	f.review(t, f.p2, s3[0], 3, agreeApprove, 60) // closes S3's panel
	j0, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{Status: verify.StateRound2}, 0, 10)
	if err != nil || len(j0) == 0 {
		t.Fatalf("samples in round 2: %v %v", j0, err)
	}
	if err := f.db.Withdraw(ctx, f.lead, j0[0].ID, "duplicate"); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Reopen(ctx, f.lead, j0[0].ID, "not a duplicate after all"); err != nil {
		t.Fatal(err)
	}
	// p2 corrects a sample whose panel p1 has opened: the corrected revision starts
	// again in round 1, and p1's vote on the old one is no longer secret.
	open := f.submit(t, f.ann, hopSample(f.img))
	f.review(t, f.v1, open, 1, agreeApprove, 11)
	f.review(t, f.v2, open, 2, agreeApprove, 21)
	f.review(t, f.p1, open, 3, agreeApprove, 31)
	fixed := hopSample(f.img)
	fixed.Question = "Which object is nearest to the camera in this picture?"
	if _, err := f.db.Correct(ctx, f.p2, bench.CorrectionInput{SampleID: open.ID, Round: 3, BasedOn: open.Revision, Content: fixed,
		Comment: "reworded"}); err != nil {
		t.Fatal(err)
	}
	// The summaries must hold for real and generated work side by side; the store
	// never lets the generator into a database with real work, so mark it by hand.
	if _, err := rawDB(t, f.db.Path()).Exec(`INSERT INTO database_info (key, value) VALUES ('synthetic', '1')`); err != nil {
		t.Fatal(err)
	}
	res, err := synth.Generate(ctx, f.db, synth.Options{Project: "synth", Lead: "lead", Password: "secret", Samples: 400, Images: 6,
		Large: -1, Seed: 5, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	sdb := rawDB(t, f.db.Path())
	// A round-3 approval turns into a rejection, a round-3 vote and a round-1 review
	// go, and a sample in round 3 is withdrawn behind the store's back.
	mustExecRaw(t, sdb, `UPDATE reviews SET decision = 'reject', reasons = '["box_precise"]', seconds = seconds + 0.5
		WHERE id = (SELECT min(id) FROM reviews WHERE round = 3 AND decision = 'approve' AND revision_id IN (SELECT revision_id FROM reviews WHERE round = 3 GROUP BY revision_id HAVING count(*) >= 2))`)
	mustExecRaw(t, sdb, `DELETE FROM reviews WHERE id = (SELECT max(id) FROM reviews WHERE round = 3)`)
	mustExecRaw(t, sdb, `DELETE FROM reviews WHERE id = (SELECT max(id) FROM reviews WHERE round = 1)`)
	mustExecRaw(t, sdb, `UPDATE samples SET status = 'withdrawn', prev_status = status WHERE id = (SELECT min(id) FROM samples WHERE status = 'round3')`)
	mustExecRaw(t, sdb, `UPDATE samples SET status = 'returned' WHERE id = (SELECT max(s.id) FROM samples s JOIN reviews rv ON rv.revision_id = s.current_rev
		WHERE s.status = 'round3' AND rv.round = 3)`)
	for _, p := range []int64{f.project.ID, res.Project.ID} {
		if err := f.db.RebuildStats(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	return f, sdb
}

// referenceVerifiers computes the verifier table straight from the rows: the
// round-3 votes that count are those verify.Round3.Settled allows at the database's
// now under p; each verifier's counted reviews, their times' median and 90th
// percentile with package stats, and the panels' results (reject once a member
// rejected, approve once the approvals fill the panel).
func referenceVerifiers(t *testing.T, db *store.DB, sdb *sql.DB, project int64, p verify.Policy) bench.VerifierTable {
	t.Helper()
	type review struct {
		rev                   int64
		number                int
		sample                string
		round                 int
		verifier              int64
		name, group, decision string
		seconds               float64
	}
	var all []review
	// Roles and groups are the project's memberships' (migration 20).
	rs, err := sdb.Query(`SELECT rv.revision_id, r.number, rv.sample_id, rv.round, rv.verifier_id, u.name,
			COALESCE((SELECT m.grp FROM project_members m WHERE m.project_id = s.project_id AND m.user_id = rv.verifier_id), ''), rv.decision, rv.seconds
		FROM reviews rv JOIN revisions r ON r.id = rv.revision_id JOIN samples s ON s.id = rv.sample_id JOIN users u ON u.id = rv.verifier_id
		WHERE s.project_id = ? ORDER BY rv.id`, project)
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		var r review
		if err := rs.Scan(&r.rev, &r.number, &r.sample, &r.round, &r.verifier, &r.name, &r.group, &r.decision, &r.seconds); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	rs.Close()
	type current struct {
		number   int
		reviewed bool
	}
	cur := map[string]current{}
	ss, err := sdb.Query(`SELECT s.id, COALESCE(c.number, 0), EXISTS (SELECT 1 FROM reviews x WHERE x.revision_id = s.current_rev)
		FROM samples s LEFT JOIN revisions c ON c.id = s.current_rev WHERE s.project_id = ?`, project)
	if err != nil {
		t.Fatal(err)
	}
	for ss.Next() {
		var id string
		var c current
		if err := ss.Scan(&id, &c.number, &c.reviewed); err != nil {
			t.Fatal(err)
		}
		cur[id] = c
	}
	ss.Close()
	claims := map[string][]verify.Claim{}
	cs, err := sdb.Query(`SELECT sample_id, round, verifier_id, expires_at FROM claims`)
	if err != nil {
		t.Fatal(err)
	}
	for cs.Next() {
		var cl verify.Claim
		var v int64
		var exp string
		if err := cs.Scan(&cl.Sample, &cl.Round, &v, &exp); err != nil {
			t.Fatal(err)
		}
		cl.Verifier, cl.Expires = strconv.FormatInt(v, 10), mustTime(t, exp)
		claims[cl.Sample] = append(claims[cl.Sample], cl)
	}
	cs.Close()
	// Each revision's round 3: whether it counts, and its panel's result.
	type panel struct {
		counted bool
		result  string
	}
	panels := map[int64]panel{}
	for _, r := range all {
		if r.round != 3 {
			continue
		}
		if _, done := panels[r.rev]; done {
			continue
		}
		r3 := verify.Round3{Revision: r.number, Current: cur[r.sample].number, CurrentReviewed: cur[r.sample].reviewed,
			Claims: claims[r.sample], Now: db.Now()}
		approvals, rejected := 0, false
		for _, x := range all {
			if x.rev == r.rev {
				r3.Reviews = append(r3.Reviews, verify.Review{Round: x.round, Reviewer: strconv.FormatInt(x.verifier, 10), Decision: verify.Decision(x.decision)})
				if x.round == 3 {
					approvals += boolN(x.decision == "approve")
					rejected = rejected || x.decision == "reject"
				}
			}
		}
		pn := panel{counted: r3.Settled(p)}
		switch {
		case rejected:
			pn.result = "reject"
		case approvals >= p.Round3Panel:
			pn.result = "approve"
		}
		panels[r.rev] = pn
	}
	rows := map[string]*bench.VerifierRow{}
	times := map[string][]float64{}
	users, err := sdb.Query(`SELECT u.name, m.grp FROM users u JOIN project_members m ON m.user_id = u.id
		WHERE m.project_id = ? AND m.role = 'verifier'`, project)
	if err != nil {
		t.Fatal(err)
	}
	for users.Next() {
		var v bench.VerifierRow
		if err := users.Scan(&v.Name, &v.Group); err != nil {
			t.Fatal(err)
		}
		rows[v.Name] = &v
	}
	users.Close()
	for _, r := range all {
		pn := panels[r.rev]
		if r.round == 3 && !pn.counted {
			continue
		}
		v := rows[r.name]
		if v == nil {
			v = &bench.VerifierRow{Name: r.name, Group: r.group}
			rows[r.name] = v
		}
		v.Reviews++
		v.Rounds[r.round-1]++
		v.Approved += boolN(r.decision == "approve")
		if r.seconds > 0 {
			times[r.name] = append(times[r.name], r.seconds)
		}
		if r.round == 3 && pn.result != "" {
			v.PanelVotes++
			v.PanelMatches += boolN(r.decision == pn.result)
		}
	}
	for name, ts := range times {
		v := rows[name]
		v.Timed = len(ts)
		v.MedianSeconds, _ = stats.Median(ts)
		v.P90Seconds, _ = stats.Percentile(ts, 90)
	}
	var out bench.VerifierTable
	for _, v := range rows {
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b bench.VerifierRow) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func boolN(b bool) int {
	if b {
		return 1
	}
	return 0
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// The verifier table, read from the summaries, equals the table computed from the
// reviews themselves, for panels of every size (which decide which round-3 votes
// count and which panels have a result; the dashboard decides them again after the
// change). The review times are spread so that many share a whole second, some are
// below one second, some are whole seconds and some are missing (0), and medians
// and percentiles fall between and within seconds.
func TestDashboardVerifiersMatchReviews(t *testing.T) {
	f, sdb := statsWorkload(t)
	ctx := context.Background()
	synth, err := f.db.ProjectByName(ctx, bench.Owner(), "synth")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := sdb.Query(`SELECT id FROM reviews ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var reviews []int64
	for ids.Next() {
		var id int64
		if err := ids.Scan(&id); err != nil {
			t.Fatal(err)
		}
		reviews = append(reviews, id)
	}
	ids.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	tx, err := sdb.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range reviews {
		var s float64
		switch rng.IntN(6) {
		case 0:
			s = 0
		case 1:
			s = rng.Float64()
		case 2:
			s = float64(20 + rng.IntN(5))
		default:
			s = 20 + rng.Float64()*4
		}
		if _, err := tx.Exec(`UPDATE reviews SET seconds = ? WHERE id = ?`, s, id); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []bench.Project{f.project, synth} {
		if err := f.db.RebuildStats(ctx, p.ID); err != nil { // the times changed behind the store's back
			t.Fatal(err)
		}
		for _, panel := range []int{1, 2, 3, 4} {
			t.Run(fmt.Sprintf("%s/panel%d", p.Name, panel), func(t *testing.T) {
				s := bench.DefaultSettings()
				s.Round3Panel = panel
				if err := f.db.UpdateSettings(ctx, f.lead, p.ID, s); err != nil {
					t.Fatal(err)
				}
				d, err := f.db.Dashboard(ctx, f.lead, p.ID)
				if err != nil {
					t.Fatal(err)
				}
				want := referenceVerifiers(t, f.db, sdb, p.ID, s.Policy())
				if !reflect.DeepEqual(d.Verifiers, want) {
					t.Errorf("verifiers\n got %+v\nwant %+v", d.Verifiers, want)
				}
			})
		}
	}
}

// historyWorld is a project driven through a random history of the store's writes.
type historyWorld struct {
	*agreeFixture
	ctx       context.Context
	rng       *rand.Rand
	clk       *clock
	vers      []bench.User
	authors   []bench.User
	samples   []string
	sdb       *sql.DB
	tolerated int // refusals, which write nothing
}

// try runs one write: a refusal (the store said no) is part of a random history,
// any other error ends the test.
func (w *historyWorld) try(t *testing.T, what string, err error) {
	t.Helper()
	switch {
	case err == nil:
	case errors.Is(err, bench.ErrForbidden), errors.Is(err, bench.ErrConflict), errors.Is(err, bench.ErrInvalid):
		w.tolerated++
	default:
		t.Fatalf("%s: %v", what, err)
	}
}

// content is a sample of kind with random categories, hop, view or task.
func (w *historyWorld) content(kind annotate.Kind) annotate.Sample {
	if kind == annotate.KindJudgment {
		return annotate.Sample{Kind: kind, Image: w.img, Question: "Is the mug left of the lamp?", AnswerText: "yes",
			Task: fmt.Sprintf("T%d", w.rng.IntN(3))}
	}
	s := hopSample(w.img)
	cats := [][]annotate.Category{{annotate.CatRel}, {annotate.CatAtt, annotate.CatRel}, {annotate.CatPos}}
	s.Categories, s.Hop = cats[w.rng.IntN(len(cats))], 1+w.rng.IntN(2)
	if s.Hop == 2 {
		s.Question = "Which round object is closest to the camera?"
	}
	// Tag a phrase for each category (the tags follow the categories; a hop that
	// does not match them is refused, as before).
	s.QuestionTag = s.Question
	for _, c := range s.Categories {
		phrase := "closest to the camera"
		if c == annotate.CatAtt {
			phrase = "round"
		}
		if i := strings.Index(s.Question, phrase); i >= 0 {
			if tagged, err := annotate.AddTag(s.QuestionTag, c, i, i+len(phrase)); err == nil {
				s.QuestionTag = tagged
			}
		}
	}
	return s
}

// verdict approves (judging every criterion) or rejects for one of the round's criteria.
func (w *historyWorld) verdict(kind annotate.Kind, round int) verify.Verdict {
	if w.rng.IntN(4) > 0 {
		return verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(kind, round)}
	}
	cs := verify.Criteria(kind, round)
	return verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{cs[w.rng.IntN(len(cs))].ID}}
}

// seconds is a review time: often 0, sometimes shared, mostly fractional.
func (w *historyWorld) seconds() float64 {
	switch w.rng.IntN(5) {
	case 0:
		return 0
	case 1:
		return float64(10 + w.rng.IntN(3))
	}
	return 5 + w.rng.Float64()*20
}

// eligible runs fn for the verifiers in a random order until one is not refused,
// and reports whether one was.
func (w *historyWorld) eligible(t *testing.T, what string, fn func(v bench.User) error) bool {
	t.Helper()
	for _, i := range w.rng.Perm(len(w.vers)) {
		err := fn(w.vers[i])
		w.try(t, what, err)
		if err == nil {
			return true
		}
	}
	return false
}

// lateVoters are the verifiers holding a round-3 claim on sample id.
func (w *historyWorld) lateVoters(t *testing.T, id string) []bench.User {
	t.Helper()
	rows, err := w.sdb.Query(`SELECT verifier_id FROM claims WHERE sample_id = ? AND round = 3`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []bench.User
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, w.userByID(v))
	}
	return out
}

// step makes one random write.
func (w *historyWorld) step(t *testing.T) {
	t.Helper()
	ctx, rng := w.ctx, w.rng
	if len(w.samples) == 0 || rng.IntN(8) == 0 {
		kind := annotate.KindHopQA
		if rng.IntN(3) == 0 {
			kind = annotate.KindJudgment
		}
		si, err := w.db.CreateSample(ctx, w.authors[rng.IntN(len(w.authors))], w.project.ID, w.content(kind))
		w.try(t, "create", err)
		if err == nil {
			w.samples = append(w.samples, si.ID)
		}
		return
	}
	id := w.samples[rng.IntN(len(w.samples))]
	if rng.IntN(2) == 0 { // half the time one of the latest samples, so that histories meet
		id = w.samples[max(0, len(w.samples)-1-rng.IntN(4))]
	}
	si, err := w.db.Sample(ctx, bench.Owner(), id)
	if err != nil {
		t.Fatal(err)
	}
	review := func(round, basedOn int) func(v bench.User) error {
		return func(v bench.User) error {
			_, err := w.db.SubmitReview(ctx, v, bench.ReviewInput{SampleID: id, Round: round, BasedOn: basedOn,
				Verdict: w.verdict(si.Kind, round), Seconds: w.seconds()})
			return err
		}
	}
	claim := func(round int) func(v bench.User) error {
		return func(v bench.User) error {
			_, err := w.db.ClaimReview(ctx, v, id, round)
			return err
		}
	}
	round := si.Status.Round()
	r := rng.IntN(20)
	// Late votes: a panel member whose seat survived a round-3 reject votes on the
	// returned revision, or on the one before the author's resubmission.
	if late := w.lateVoters(t, id); len(late) > 0 && r < 8 {
		v := late[rng.IntN(len(late))]
		basedOn := si.Revision
		if si.Status != verify.StateReturned {
			basedOn--
		}
		w.try(t, "late vote", review(3, basedOn)(v))
		return
	}
	switch {
	case si.Status == verify.StateDraft || si.Status == verify.StateReturned:
		if r < 15 {
			v := si.Version
			if si.Status == verify.StateReturned {
				v = changedDraft(t, w.db, w.userByID(si.AuthorID), si)
			}
			_, err := w.db.Submit(ctx, w.userByID(si.AuthorID), id, v, nil)
			w.try(t, "submit", err)
		}
	case si.Status == verify.StateWithdrawn:
		w.try(t, "reopen", w.db.Reopen(ctx, w.lead, id, "back"))
	case round == 0: // accepted
		if r == 0 {
			w.try(t, "withdraw", w.db.Withdraw(ctx, w.lead, id, "out"))
		}
	case r < 3:
		w.eligible(t, "claim", claim(round))
	case r < 7 && round == 3:
		// A panel sits down at once, and one member votes: a reject leaves the
		// others' seats for late votes.
		seats := 2 + rng.IntN(2)
		for _, i := range rng.Perm(len(w.vers)) {
			if seats == 0 {
				break
			}
			err := claim(3)(w.vers[i])
			w.try(t, "claim", err)
			if err == nil {
				seats--
			}
		}
		if late := w.lateVoters(t, id); len(late) > 0 {
			v := verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.Criteria(si.Kind, 3)[0].ID}}
			if rng.IntN(3) == 0 {
				v = w.verdict(si.Kind, 3)
			}
			_, err := w.db.SubmitReview(ctx, late[rng.IntN(len(late))], bench.ReviewInput{SampleID: id, Round: 3,
				BasedOn: si.Revision, Verdict: v, Seconds: w.seconds()})
			w.try(t, "review", err)
		}
	case r < 16:
		w.eligible(t, "review", review(round, si.Revision))
	case r < 17:
		w.eligible(t, "correct", func(v bench.User) error {
			_, err := w.db.Correct(ctx, v, bench.CorrectionInput{SampleID: id, Round: round, BasedOn: si.Revision,
				Content: w.content(si.Kind), Comment: "fixed"})
			return err
		})
	case r < 19:
		if late := w.lateVoters(t, id); len(late) > 0 {
			w.try(t, "release", w.db.ReleaseClaim(ctx, late[rng.IntN(len(late))], id))
		}
	default:
		w.try(t, "withdraw", w.db.Withdraw(ctx, w.lead, id, "out"))
	}
}

func (w *historyWorld) userByID(id int64) bench.User {
	for _, u := range append(slices.Clone(w.authors), w.vers...) {
		if u.ID == id {
			return u
		}
	}
	return w.lead
}

// The summaries the store keeps through a random history of writes (samples created,
// submitted, claimed, reviewed, rejected in round 3 with late votes, corrected,
// withdrawn and reopened, claims given up, the panel resized) are what rebuildStats
// computes from the rows, and give the same dashboard. With "claims run out" the
// clock also jumps past claims' ends, which changes what counts without a write:
// the rebuild then decides those revisions afresh and only the dashboards, which
// decide them again when they read, must agree.
func TestStatsIncrementalMatchRebuild(t *testing.T) {
	tests := []struct {
		name   string
		seed   uint64
		panel  int
		edit   func(*bench.Settings)
		expire bool
	}{
		{"panel of 3", 1, 3, nil, false},
		{"panel of 2, corrections in round, earlier verifiers on the panel", 2, 2, func(s *bench.Settings) {
			s.CorrectionToRound1, s.Round3AllowEarlier = false, true
		}, false},
		{"two rounds", 3, 2, func(s *bench.Settings) { s.Rounds = 2 }, false},
		{"claims run out", 4, 3, nil, true},
	}
	total := map[string]int{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			f := newAgreeFixture(t)
			w := &historyWorld{agreeFixture: f, ctx: ctx, rng: rand.New(rand.NewPCG(tt.seed, 9)), clk: setClock(f.db)}
			w.authors = []bench.User{f.ann, f.ann2}
			w.vers = []bench.User{f.v1, f.v2, f.p1, f.p2, f.ver}
			for _, n := range []string{"a3", "b3", "c3"} {
				u, err := f.db.AddUser(ctx, f.lead, n, bench.RoleVerifier, strings.ToUpper(n[:1]), "secret")
				if err != nil {
					t.Fatal(err)
				}
				w.vers = append(w.vers, u)
			}
			s := bench.DefaultSettings()
			s.Round3Panel = tt.panel
			if tt.edit != nil {
				tt.edit(&s)
			}
			if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
				t.Fatal(err)
			}
			sdb := rawDB(t, f.db.Path())
			w.sdb = sdb
			check := func(when string) {
				t.Helper()
				before, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
				if err != nil {
					t.Fatal(err)
				}
				kept := statSnapshot(t, sdb)
				if err := f.db.RebuildStats(ctx, f.project.ID); err != nil {
					t.Fatal(err)
				}
				after, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(before, after) {
					t.Errorf("%s: the dashboard differs after a rebuild\nkept    %+v\nrebuilt %+v", when, before, after)
				}
				if !tt.expire {
					if rebuilt := statSnapshot(t, sdb); !slices.Equal(kept, rebuilt) {
						t.Errorf("%s: the summaries differ from a rebuild", when)
						diffLines(t, kept, rebuilt)
					}
				}
			}
			for i := range 600 {
				// Without "expire" the whole history stays within a claim's 30 minutes.
				w.clk.advance(time.Duration(1+w.rng.IntN(2)) * time.Second)
				if tt.expire && w.rng.IntN(25) == 0 {
					w.clk.advance(time.Duration(10+w.rng.IntN(25)) * time.Minute)
				}
				if w.rng.IntN(150) == 0 {
					w.try(t, "panel", f.db.UpdateSettings(ctx, f.lead, f.project.ID, func() bench.Settings {
						s.Round3Panel = 1 + w.rng.IntN(3)
						return s
					}()))
				}
				w.step(t)
				if i%100 == 99 {
					check(fmt.Sprintf("after %d writes", i+1))
				}
			}
			counts, err := f.db.AuditCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for k, n := range counts {
				total[k] += n
			}
		})
	}
	// The histories reach what the summaries must follow.
	for _, action := range []string{"review.late", "review.reject", "review.approve", "review.release", "sample.correct",
		"sample.withdraw", "sample.reopen", "project.settings"} {
		if total[action] == 0 {
			t.Errorf("no %q in the random histories", action)
		}
	}
}

// A database at version 7, whose summaries triggers kept, migrates forward in place:
// migration 8 drops the triggers, procedures and view, and the store rebuilds every
// project's summaries, which give the dashboards the store kept before.
func TestMigration8RebuildsSummaries(t *testing.T) {
	storetest.SkipOnPostgres(t, "migrates a SQLite file written by version 7")
	ctx := context.Background()
	f, sdb := statsWorkload(t)
	synth, err := f.db.ProjectByName(ctx, bench.Owner(), "synth")
	if err != nil {
		t.Fatal(err)
	}
	projects := []int64{f.project.ID, synth.ID}
	var want []bench.Dashboard
	for _, p := range projects {
		d, err := f.db.Dashboard(ctx, f.lead, p)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d)
	}
	f.db.Close()
	// Back to version 7: migration 4's tables, triggers and view, filled by it.
	for _, typ := range []string{"index", "table"} {
		rows, err := sdb.Query(`SELECT name FROM sqlite_schema WHERE type = ? AND name LIKE 'stat\_%' ESCAPE '\'`, typ)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		rows.Close()
		for _, n := range names {
			mustExecRaw(t, sdb, fmt.Sprintf(`DROP %s IF EXISTS %s`, strings.ToUpper(typ), n))
		}
	}
	body, err := os.ReadFile("migrations/0004_stats.sql")
	if err != nil {
		t.Fatal(err)
	}
	mustExecRaw(t, sdb, string(body))
	mustExecRaw(t, sdb, `PRAGMA user_version = 7`)
	var triggers int
	if err := sdb.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'stat\_%' ESCAPE '\'`).Scan(&triggers); err != nil || triggers == 0 {
		t.Fatalf("version 7 has %d summary triggers (%v)", triggers, err)
	}
	db, err := store.Open(ctx, f.db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Now = f.db.Now
	if err := sdb.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE (type = 'trigger' OR type = 'view') AND name LIKE 'stat\_%' ESCAPE '\'`).Scan(&triggers); err != nil || triggers != 0 {
		t.Errorf("after migration 8: %d summary triggers and views (%v)", triggers, err)
	}
	for i, p := range projects {
		got, err := db.Dashboard(ctx, f.lead, p)
		if err != nil {
			t.Fatal(err)
		}
		// Replayed from version 7, migration 18 makes every account a member of
		// every project, as it does for a file of that age: the verifiers of the
		// other projects join this one's table, with no reviews.
		got.Verifiers = slices.DeleteFunc(got.Verifiers, func(v bench.VerifierRow) bool {
			return v.Reviews == 0 && !slices.ContainsFunc(want[i].Verifiers, func(w bench.VerifierRow) bool { return w.Name == v.Name })
		})
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("project %d after migration 8:\n got %+v\nwant %+v", p, got, want[i])
		}
	}
}

// reformat rewrites every review's criteria and reasons into JSON that means the
// same but is not json.Marshal's form.
func reformat(t *testing.T, sdb *sql.DB, form func(crit map[string]bool, reasons []string) (string, string)) {
	t.Helper()
	rows, err := sdb.Query(`SELECT id, criteria, reasons FROM reviews`)
	if err != nil {
		t.Fatal(err)
	}
	type review struct {
		id                int64
		criteria, reasons string
	}
	var all []review
	for rows.Next() {
		var r review
		if err := rows.Scan(&r.id, &r.criteria, &r.reasons); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	rows.Close()
	for _, r := range all {
		var crit map[string]bool
		var reasons []string
		if err := json.Unmarshal([]byte(r.criteria), &crit); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(r.reasons), &reasons); err != nil {
			t.Fatal(err)
		}
		c, rs := form(crit, reasons)
		mustExecRaw(t, sdb, `UPDATE reviews SET criteria = ?, reasons = ? WHERE id = ?`, c, rs, r.id)
	}
}

// The agreement reads criteria and reasons in any JSON form a review may hold, the
// same as json.Marshal's; a malformed one is an error naming the review.
func TestAgreementReadsAnyJSONForm(t *testing.T) {
	ctx := context.Background()
	keys := func(crit map[string]bool) []string {
		ks := make([]string, 0, len(crit))
		for k := range crit {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		return ks
	}
	quoted := func(ss []string, sep string) string {
		var qs []string
		for _, s := range ss {
			qs = append(qs, `"`+s+`"`)
		}
		return "[" + strings.Join(qs, sep) + "]"
	}
	tests := []struct {
		name string
		form func(map[string]bool, []string) (string, string)
	}{
		{"spaces", func(crit map[string]bool, reasons []string) (string, string) {
			var parts []string
			for _, k := range keys(crit) {
				parts = append(parts, fmt.Sprintf(` "%s" : %v `, k, crit[k]))
			}
			return "{" + strings.Join(parts, ",") + "}", quoted(reasons, " , ")
		}},
		{"escapes", func(crit map[string]bool, reasons []string) (string, string) {
			var parts []string
			for _, k := range keys(crit) {
				parts = append(parts, fmt.Sprintf(`"\u%04x%s":%v`, k[0], k[1:], crit[k]))
			}
			var rs []string
			for _, r := range reasons {
				rs = append(rs, fmt.Sprintf(`\u%04x%s`, r[0], r[1:]))
			}
			return "{" + strings.Join(parts, ",") + "}", quoted(rs, ",")
		}},
		{"repeated keys, the last counts", func(crit map[string]bool, reasons []string) (string, string) {
			var parts []string
			for _, k := range keys(crit) {
				parts = append(parts, fmt.Sprintf(`"%s":%v,"%s":%v`, k, !crit[k], k, crit[k]))
			}
			return "{" + strings.Join(parts, ",") + "}", quoted(reasons, ",")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newAgreeFixture(t)
			f.seed12(t)
			want, err := f.db.Agreement(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			sdb := rawDB(t, f.db.Path())
			reformat(t, sdb, tt.form)
			got, err := f.db.Agreement(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("agreement after reformatting differs:\n got %+v\nwant %+v", got.Rows, want.Rows)
			}
		})
	}
	for _, bad := range []struct{ column, value string }{{"criteria", `{"box_precise":1}`}, {"reasons", `["box_precise",]`}} {
		t.Run("malformed "+bad.column, func(t *testing.T) {
			f := newAgreeFixture(t)
			f.seed12(t)
			mustExecRaw(t, rawDB(t, f.db.Path()), `UPDATE reviews SET `+bad.column+` = ? WHERE id = (SELECT max(id) FROM reviews)`, bad.value)
			_, err := f.db.Agreement(ctx, f.lead, f.project.ID)
			if err == nil || !strings.Contains(err.Error(), bad.column) || !strings.Contains(err.Error(), "by p2") {
				t.Errorf("malformed %s: %v", bad.column, err)
			}
		})
	}
}

// The agreement takes the round-3 facts of a revision from the revisions themselves
// when the summary of round-3 votes misses it.
func TestAgreementWithoutRound3Summary(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	f.seed12(t)
	si := f.submit(t, f.ann, hopSample(f.img))
	f.review(t, f.v1, si, 1, agreeApprove, 10)
	f.review(t, f.v2, si, 2, agreeApprove, 20)
	f.review(t, f.p1, si, 3, agreeApprove, 30) // an open panel: p1's vote stays out
	want, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustExecRaw(t, rawDB(t, f.db.Path()), `DELETE FROM stat_rev3`)
	got, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("without stat_rev3:\n got %+v\nwant %+v", got.Rows, want.Rows)
	}
}
