package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestQueueFactsProbeTheReviewsIndex: on PostgreSQL the review queue's facts
// (loadQueueFacts) find the reviews of a page of candidates' revisions by probing
// the index on reviews.revision_id once per revision, not by hashing the list and
// scanning every review of the database. The list is a JSON parameter read by
// bw_json_each, whose row estimate (migrations_pg/0033) decides between the two:
// at its default of 1000 the planner scanned the 27,392 reviews of the
// 10,000-sample benchmark project for a page of 200 (issue 31). Here 12,000
// reviews of 4,000 revisions, and a page of 200 of them.
func TestQueueFactsProbeTheReviewsIndex(t *testing.T) {
	d, lead, p := pgLeadProject(t)
	ctx := context.Background()
	for _, st := range []struct {
		q    string
		args []any
	}{
		{`INSERT INTO samples (id, project_id, kind, status, author_id, created_at, updated_at)
			SELECT 's' || g, ?, 'mcq', 'round2', ?, '2024-01-01T00:00:00Z', '2024-01-01T00:00:00Z' FROM generate_series(1, 4000) g`,
			[]any{p.ID, lead.ID}},
		{`INSERT INTO revisions (sample_id, number, content, author_id, change, created_at)
			SELECT id, 1, '{}', ?, 'submit', '2024-01-01T00:00:00Z' FROM samples`, []any{lead.ID}},
		{`INSERT INTO reviews (sample_id, revision_id, round, verifier_id, decision, created_at)
			SELECT r.sample_id, r.id, k, ?, 'approve', '2024-01-01T00:00:00Z' FROM revisions r, generate_series(1, 3) k`,
			[]any{lead.ID}},
		{`ANALYZE`, nil}, // the statistics autovacuum would gather
	} {
		if _, err := d.db.ExecContext(ctx, st.q, st.args...); err != nil {
			t.Fatalf("%s: %v", st.q, err)
		}
	}
	var revs []int64
	rows, err := d.db.QueryContext(ctx, `SELECT id FROM revisions ORDER BY id LIMIT 200 OFFSET 1000`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		revs = append(revs, id)
	}
	if err := closeRows(rows); err != nil || len(revs) != 200 {
		t.Fatalf("%d revisions: %v", len(revs), err)
	}
	js, _ := json.Marshal(revs)
	dl := d.dialect()
	// loadQueueFacts' read of the reviews, as it writes it.
	q := `EXPLAIN SELECT v.revision_id, v.round, v.verifier_id, COALESCE(u.grp, ''), v.decision FROM reviews v
		LEFT JOIN project_members u ON u.user_id = v.verifier_id AND u.project_id = ?
		WHERE v.revision_id IN (SELECT CAST(value AS BIGINT) FROM ` + dl.jsonEach() + `(?)) ORDER BY v.id`
	rows, err = d.db.QueryContext(ctx, q, p.ID, string(js))
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := closeRows(rows); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if strings.Contains(text, "Seq Scan on reviews") || !strings.Contains(text, "Index Scan using reviews_revision_id_round_verifier_id_key on reviews") {
		t.Errorf("the queue's facts do not probe the reviews' index per revision:\n%s", text)
	}
}
