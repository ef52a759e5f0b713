package store_test

// Tests of the dashboard's summary tables (migration 0004) and of the agreement's
// single pass over the reviews.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/montanaflynn/stats"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

func mustExecRaw(t *testing.T, sdb *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := sdb.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// statSnapshot lists every row of the summary tables as text, sorted, leaving out
// rows that count nothing (n = 0, or a stat_rev3 row without votes).
func statSnapshot(t *testing.T, sdb *sql.DB) []string {
	t.Helper()
	tables, err := sdb.Query(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'stat\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for tables.Next() {
		var n string
		if err := tables.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	tables.Close()
	if len(names) < 10 {
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
			line := table
			empty := table == "stat_rev3"
			for i, c := range cols {
				if b, ok := vals[i].([]byte); ok {
					vals[i] = string(b)
				}
				line += fmt.Sprintf(" %s=%v", c, vals[i])
				switch {
				case c == "n" && vals[i] == int64(0):
					empty = true
				case (c == "approvals" || c == "rejections") && vals[i] != int64(0):
					empty = false
				}
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

// refillStats drops the summary tables with their triggers, views and indexes and
// runs migration 0004 again, which fills them from the rows as they are now.
func refillStats(t *testing.T, sdb *sql.DB) {
	t.Helper()
	body, err := os.ReadFile("migrations/0004_stats.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"trigger", "view", "index", "table"} {
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
			mustExecRaw(t, sdb, fmt.Sprintf(`DROP %s %s`, strings.ToUpper(typ), n))
		}
	}
	mustExecRaw(t, sdb, string(body))
}

// statsWorkload writes to dashFixture's project in every way the summaries follow:
// the workflow (reviews closing and opening panels, returns, resubmissions,
// withdrawals, a reopened sample, a correction replacing a revision with an open
// panel), a generated second project (samples inserted before their revisions), and
// raw changes and deletions of reviews and samples.
func statsWorkload(t *testing.T) (*agreeFixture, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	f := dashFixture(t)
	s3, err := f.db.Samples(ctx, f.project.ID, store.SampleFilter{Status: verify.StateRound3}, 0, 10)
	if err != nil || len(s3) != 1 {
		t.Fatalf("samples in round 3: %v %v", s3, err)
	}
	f.review(t, f.p2, s3[0], 3, agreeApprove, 60) // closes S3's panel
	j0, err := f.db.Samples(ctx, f.project.ID, store.SampleFilter{Status: verify.StateRound2}, 0, 10)
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
	if _, err := f.db.Correct(ctx, f.p2, store.CorrectionInput{SampleID: open.ID, Round: 3, BasedOn: open.Revision, Content: fixed,
		Comment: "reworded"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Generate(ctx, store.GenerateOptions{Project: "synth", Lead: "lead", Password: "secret", Samples: 400, Images: 6,
		Large: -1, Seed: 5, ImageDir: t.TempDir()}); err != nil {
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
	return f, sdb
}

// What the triggers keep after every kind of write is what migration 0004 computes
// from the same rows.
func TestStatsTriggersMatchRefill(t *testing.T) {
	f, sdb := statsWorkload(t)
	kept := statSnapshot(t, sdb)
	refillStats(t, sdb)
	if again := statSnapshot(t, sdb); !slices.Equal(kept, again) {
		for _, l := range kept {
			if !slices.Contains(again, l) {
				t.Errorf("kept by the triggers only: %s", l)
			}
		}
		for _, l := range again {
			if !slices.Contains(kept, l) {
				t.Errorf("computed by the migration only: %s", l)
			}
		}
	}
	if d, err := f.db.Dashboard(context.Background(), f.lead, f.project.ID); err != nil || len(d.Verifiers) == 0 {
		t.Fatalf("dashboard after the refill: %v", err)
	}
}

// referenceVerifiers computes the verifier table as the dashboard did before its
// summary tables, straight from the reviews: the open round-3 panels, the visible
// reviews, their times' median and 90th percentile with package stats, the panels'
// results.
func referenceVerifiers(t *testing.T, sdb *sql.DB, project int64, panel int) store.VerifierTable {
	t.Helper()
	var open string
	if err := sdb.QueryRow(`SELECT COALESCE(json_group_array(revision_id), '[]') FROM (SELECT rv.revision_id FROM samples s
		JOIN reviews rv ON rv.revision_id = s.current_rev
		WHERE s.project_id = ? AND s.status NOT IN ('draft', 'round1', 'round2', 'returned') AND rv.round = 3
		GROUP BY rv.revision_id HAVING sum(rv.decision = 'reject') = 0 AND count(*) < ?)`, project, panel).Scan(&open); err != nil {
		t.Fatal(err)
	}
	vis := `WITH vis AS (SELECT rv.* FROM samples s JOIN reviews rv ON rv.sample_id = s.id
		WHERE s.project_id = ? AND NOT (rv.round = 3 AND rv.revision_id IN (SELECT value FROM json_each(?)))) `
	rows := map[string]*store.VerifierRow{}
	times := map[string][]float64{}
	users, err := sdb.Query(`SELECT name, grp FROM users WHERE role = 'verifier'`)
	if err != nil {
		t.Fatal(err)
	}
	for users.Next() {
		var v store.VerifierRow
		if err := users.Scan(&v.Name, &v.Group); err != nil {
			t.Fatal(err)
		}
		rows[v.Name] = &v
	}
	users.Close()
	row := func(name, group string) *store.VerifierRow {
		if rows[name] == nil {
			rows[name] = &store.VerifierRow{Name: name, Group: group}
		}
		return rows[name]
	}
	rs, err := sdb.Query(vis+`SELECT u.name, u.grp, vis.round, vis.decision, vis.seconds FROM vis JOIN users u ON u.id = vis.verifier_id`, project, open)
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
		var name, group, decision string
		var round int
		var seconds float64
		if err := rs.Scan(&name, &group, &round, &decision, &seconds); err != nil {
			t.Fatal(err)
		}
		v := row(name, group)
		v.Reviews++
		v.Rounds[round-1]++
		if decision == "approve" {
			v.Approved++
		}
		if seconds > 0 {
			times[name] = append(times[name], seconds)
		}
	}
	rs.Close()
	for name, ts := range times {
		v := rows[name]
		v.Timed = len(ts)
		v.MedianSeconds, _ = stats.Median(ts)
		v.P90Seconds, _ = stats.Percentile(ts, 90)
	}
	ps, err := sdb.Query(vis+`, panel AS (SELECT revision_id,
			CASE WHEN sum(decision = 'reject') > 0 THEN 'reject' WHEN count(*) >= ? THEN 'approve' END AS result
			FROM vis WHERE round = 3 GROUP BY revision_id)
		SELECT u.name, u.grp, count(*), sum(vis.decision = panel.result)
		FROM vis JOIN panel ON panel.revision_id = vis.revision_id JOIN users u ON u.id = vis.verifier_id
		WHERE vis.round = 3 AND panel.result IS NOT NULL GROUP BY u.name, u.grp`, project, open, panel)
	if err != nil {
		t.Fatal(err)
	}
	for ps.Next() {
		var name, group string
		var n, match int
		if err := ps.Scan(&name, &group, &n, &match); err != nil {
			t.Fatal(err)
		}
		v := row(name, group)
		v.PanelVotes, v.PanelMatches = n, match
	}
	ps.Close()
	var out store.VerifierTable
	for _, v := range rows {
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b store.VerifierRow) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// The verifier table, read from the summaries, equals the table computed from the
// reviews themselves, for panels of every size (which decide which round-3 votes
// are secret and which panels have a result). The review times are spread so that
// many share a whole second, some are below one second, some are whole seconds and
// some are missing (0), and medians and percentiles fall between and within seconds.
func TestDashboardVerifiersMatchReviews(t *testing.T) {
	f, sdb := statsWorkload(t)
	ctx := context.Background()
	synth, err := f.db.ProjectByName(ctx, "synth")
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
	for _, p := range []store.Project{f.project, synth} {
		for _, panel := range []int{1, 2, 3, 4} {
			t.Run(fmt.Sprintf("%s/panel%d", p.Name, panel), func(t *testing.T) {
				s := store.DefaultSettings()
				s.Round3Panel = panel
				if err := f.db.UpdateSettings(ctx, f.lead, p.ID, s); err != nil {
					t.Fatal(err)
				}
				d, err := f.db.Dashboard(ctx, f.lead, p.ID)
				if err != nil {
					t.Fatal(err)
				}
				want := referenceVerifiers(t, sdb, p.ID, panel)
				if !reflect.DeepEqual(d.Verifiers, want) {
					t.Errorf("verifiers\n got %+v\nwant %+v", d.Verifiers, want)
				}
			})
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
