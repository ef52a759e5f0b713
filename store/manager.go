package store

// The lead's sample manager: search, filter, sort and page every sample of a
// project, and act on a selection of them (withdraw, reopen, reassign drafts,
// release claims, export). Migration 16 keeps one narrow row per sample
// (sample_search) and its words (sample_words, full text); indexSample writes them in
// the transaction of every write that changes a sample, from statsSample (stats.go),
// which every such write already calls, and from SaveDraft.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

func init() { afterMigration[16] = (*DB).rebuildAllSearch }

// sortColumn is each sort's column of sample_search x, or of the author u that
// searchFrom joins to it for the sort.
var sortColumn = map[bench.SampleSort]string{
	bench.SortUpdated: "x.updated_at", bench.SortCreated: "x.created_at", bench.SortID: "x.sample_id", bench.SortState: "x.status",
	bench.SortKind: "x.kind", bench.SortAuthor: "u.name", bench.SortHop: "x.hop",
}

// maxSelection bounds SampleIDs: the most samples one action takes at once.
const maxSelection = 100_000

// SearchSamples returns a page of the project's samples that q selects, in q's
// order, and how many q selects. Only leads search every sample.
//
// The count comes first, and it picks the plan of the page: when q selects at least
// a quarter of the project, the page walks the index of the sort order and tests each
// row against q until it has the page (searchFrom's walk), instead of finding every
// selected sample and sorting them all; a broad filter then costs about what no filter
// costs. A narrower search is found by its filters and sorted.
func (d *DB) SearchSamples(ctx context.Context, actor bench.User, projectID int64, q bench.SampleQuery) (bench.SamplePage, error) {
	var out bench.SamplePage
	err := d.readAs(ctx, actor, "samples.search", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSearchSamples); err != nil {
			return err
		}
		// The count joins as the planner likes (lateral false); the page below, unless
		// it walks, finds the words first.
		dl := d.dialect()
		from, args, err := searchFrom(projectID, q, searchPlan{}, dl)
		if err != nil {
			return err
		}
		// Words alone are tested per row against the list of their docs, off the sort
		// index (no row read): walking pays off well below a quarter there.
		onlyWords := len(args) == 2 && matchQuery(q.Text) != ""
		// With the count, the project's size from the dashboard's summary (stats.go), kept
		// by the same writes as sample_search: it only picks the plan.
		all, projectSize := 0, `(SELECT COALESCE(sum(n), 0) FROM stat_samples WHERE project_id = ?)`
		limit := q.Limit
		if limit <= 0 {
			limit = 50
		}
		limit = min(limit, 1000)
		offset := max(q.Offset, 0)
		if q.QuickTotal && onlyWords {
			var ids []string
			if out.Total, out.TotalAtLeast, all, ids, err = d.quickTotal(ctx, tx, projectID, q, projectSize, dl, limit, offset); err != nil {
				return err
			}
			if !out.TotalAtLeast { // every match counted, and the page sorted from them
				out.Rows, err = sampleRows(ctx, tx, dl, ids)
				return err
			}
		} else if err := tx.QueryRowContext(ctx, `SELECT count(*), `+projectSize+from,
			append([]any{projectID}, args...)...).Scan(&out.Total, &all); err != nil {
			return err
		}
		walk := len(args) > 1 && (out.Total*4 >= all || onlyWords && out.Total*32 >= all) // a broad filter
		// A quick count that stopped knows the words are in a thirty-second of the
		// project or more, not how many: on PostgreSQL each row walked is tested by its
		// own words (perRow) instead of finding every sample they are in first.
		plan := searchPlan{walk: walk, lateral: true, sorted: true, perRow: out.TotalAtLeast}
		if from, args, err = searchFrom(projectID, q, plan, dl); err != nil {
			return err
		}
		var ids []string
		if rest, ok := strings.CutPrefix(from, " FROM sample_search x WHERE "); ok && plan.perRow && dl.pg {
			// Words in a thirty-second of the project or more are found in a walk of
			// 64 rows per row of the page, on average: unless they are bunched
			// further down the sort order (an id's prefix, newest first: the oldest
			// tenth of the project), where walking on tested each row to the end
			// (0.26 s at 100,000 samples). Past the budget, or for a page past the
			// first few, the words are found first and sorted, as a narrow search's.
			perRow := 64
			if d.walkRows > 0 {
				perRow = d.walkRows
			}
			if budget := perRow * (offset + limit); budget <= 20_000 {
				walked := ` FROM (SELECT * FROM sample_search x WHERE x.project_id = ?` + searchOrder(q) + ` LIMIT ?) x WHERE ` + rest
				if ids, err = queryAll(ctx, tx, scanString, `SELECT x.sample_id`+walked+searchOrder(q)+` LIMIT ? OFFSET ?`,
					append(append([]any{projectID, budget}, args...), limit, offset)...); err != nil {
					return err
				}
			}
			if len(ids) < limit {
				if from, args, err = searchFrom(projectID, q, searchPlan{lateral: true, sorted: true}, dl); err != nil {
					return err
				}
				ids = nil
			}
		}
		if ids == nil {
			if ids, err = queryAll(ctx, tx, scanString, `SELECT x.sample_id`+from+searchOrder(q)+` LIMIT ? OFFSET ?`,
				append(args, limit, offset)...); err != nil {
				return err
			}
		}
		out.Rows, err = sampleRows(ctx, tx, dl, ids)
		return err
	})
	if err != nil {
		return bench.SamplePage{}, fmt.Errorf("search samples: %w", err)
	}
	return out, nil
}

// SampleIDs returns the ids of every sample q selects (q's paging is ignored), in
// q's order, for an action on the whole result: at most 100,000.
func (d *DB) SampleIDs(ctx context.Context, actor bench.User, projectID int64, q bench.SampleQuery) ([]string, error) {
	var out []string
	err := d.readAs(ctx, actor, "samples.search", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSearchSamples); err != nil {
			return err
		}
		from, args, err := searchFrom(projectID, q, searchPlan{lateral: true, sorted: true}, d.dialect())
		if err != nil {
			return err
		}
		out, err = queryAll(ctx, tx, scanString, `SELECT x.sample_id`+from+searchOrder(q)+` LIMIT ?`,
			append(args, maxSelection+1)...)
		if err == nil && len(out) > maxSelection {
			return fmt.Errorf("%w: the search finds more than %d samples; narrow it", bench.ErrInvalid, maxSelection)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("search samples: %w", err)
	}
	return out, nil
}

// searchOrder is q's ORDER BY, on the FROM of searchFrom with sorted.
func searchOrder(q bench.SampleQuery) string {
	col := sortOf(q)
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	if col == "x.sample_id" {
		return " ORDER BY x.sample_id" + dir
	}
	return " ORDER BY " + col + dir + ", x.sample_id" // ties by id, as the indexes keep them
}

// sortOf is the column q sorts by (sortColumn; by the time of the last change
// when q names no order it knows).
func sortOf(q bench.SampleQuery) string {
	if col, ok := sortColumn[q.Sort]; ok {
		return col
	}
	return sortColumn[bench.SortUpdated]
}

// searchPlan is how searchFrom finds the samples: walk, lateral and sorted as
// searchFrom says; perRow, on PostgreSQL, tests a walk's words row by row (a quick
// count that stopped: SearchSamples).
type searchPlan struct{ walk, lateral, sorted, perRow bool }

// quickLimit is how far a quick count (bench.SampleQuery.QuickTotal) counts in a
// project of all samples: a thirty-second of it, past which a search of words
// alone walks (SearchSamples), and at least 1,000 (floor, when not 0).
func quickLimit(all, floor int) int {
	if floor <= 0 {
		floor = 1000
	}
	return max(floor, (all+31)/32)
}

// quickTotal counts the samples a search of words alone (q) finds as far as
// quickLimit of the project's size (projectSize, a subquery of the project id),
// words first: past it, the limit and true. A word in every one of 100,000 samples
// is counted so in 18 ms on PostgreSQL, where counting them all takes 160–230 ms
// (the heap of each match visited and joined to its project), and about 17 ms on
// SQLite against 26.
//
// When the words are in fewer samples than that, the same statement sorts the
// matches it counted and returns the page of limit at offset in q's order (ids):
// the page is not found again (PostgreSQL at 100,000 samples, two words in 2,454:
// count 14–17 ms and page 16–22 ms, each reading every match, before).
func (d *DB) quickTotal(ctx context.Context, tx *sql.Tx, projectID int64, q bench.SampleQuery, projectSize string, dl dialect,
	limit, offset int) (total int, atLeast bool, all int, ids []string, err error) {
	if err := tx.QueryRowContext(ctx, `SELECT `+projectSize, projectID).Scan(&all); err != nil {
		return 0, false, 0, nil, err
	}
	most := quickLimit(all, d.quickFloor)
	from, args, err := searchFrom(projectID, q, searchPlan{lateral: true}, dl)
	if err != nil {
		return 0, false, 0, nil, err
	}
	// The matches keep what the page's order reads (searchOrder): the sort column,
	// and the author, whose name sorts by author. The page is sorted only when they
	// are all there: a condition of no row, which both engines test once, before
	// (a quick count that stops sorted its 3,126 matches for nothing, 5–10 ms on
	// SQLite).
	cols, order, authors := "x.sample_id", searchOrder(q), ""
	if col := sortOf(q); col == "u.name" {
		cols, authors = cols+", x.author_id", " JOIN users u ON u.id = x.author_id"
	} else if col != "x.sample_id" {
		cols += ", " + col
	}
	type row struct {
		n  int
		id sql.NullString
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (x row, err error) { return x, r.Scan(&x.n, &x.id) }, `WITH m AS MATERIALIZED (SELECT `+cols+from+` LIMIT ?), c AS (SELECT count(*) AS n FROM m)
		SELECT c.n, p.sample_id FROM c LEFT JOIN (SELECT x.sample_id, row_number() OVER (`+order+`) AS k
			FROM m x`+authors+` WHERE (SELECT n FROM c) <= ?`+order+` LIMIT ? OFFSET ?) p ON TRUE
		ORDER BY p.k`, append(args, most+1, most, limit, offset)...)
	if err != nil {
		return 0, false, 0, nil, err
	}
	n := 0
	for _, r := range rows {
		n = r.n
		if r.id.Valid {
			ids = append(ids, r.id.String)
		}
	}
	if n > most {
		return most, true, all, nil, nil
	}
	return n, false, all, ids, nil
}

// searchFrom is the FROM and WHERE clause (on sample_search x) that selects the
// project's samples q selects. Words are found first, from the full-text index, and
// each found sample's row read by its doc. walk keeps the planner off every index but
// the project's (a unary + on each filtered column, the words tested per row against
// the list of their docs): it then walks the index of the ORDER BY and stops at the
// page's LIMIT.
//
// On PostgreSQL the words-first join is, with lateral, a LATERAL one: the planner cannot tell
// a rare prefix from a common one (it guesses 2 % of the rows for any "word:*"), and
// would walk the sort index testing every sample's words, as SQLite's CROSS JOIN
// forbids; a LATERAL subquery it cannot flatten (OFFSET 0) forbids it there
// (0.18 s → 2 ms for a rare id at 100k samples).
//
// sorted joins what q's sort needs (searchOrder): sorted by author, the authors
// u. A search that walks, or has no filter, then walks the authors in the order
// of their names and each one's samples by the index sample_search_author, and
// stops at the page (migration 35): at 100,000 samples, the page with its count
// and rows in 28 ms on PostgreSQL and 9 ms on SQLite, where looking each row's
// author up and sorting them all took 230–250 ms and 27 ms. SQLite, which has
// no statistics to tell it so, is told (dl.fixedJoin, authors first). A
// narrower search is found by its filters, its authors looked up by key, and
// sorted.
func searchFrom(projectID int64, q bench.SampleQuery, p searchPlan, dl dialect) (string, []any, error) {
	from := " FROM sample_search x"
	conds := []string{"x.project_id = ?"}
	args := []any{projectID}
	plus := ""
	if p.walk && !dl.pg { // SQLite's planner hint; PostgreSQL has no unary + on text, nor needs it
		plus = "+"
	}
	if m := matchQuery(q.Text); m != "" && p.walk && p.perRow && dl.pg {
		// A scalar subquery the planner cannot turn into a join: each row walked reads
		// its words by key (0.9 ms for the page of a word in all 100,000 samples, where
		// finding them all first took 50 ms).
		match, arg := dl.wordsMatch("w.", m)
		conds, args = append(conds, "(SELECT "+match+" FROM sample_words w WHERE w.docid = x.doc)"), append(args, arg)
	} else if m != "" && p.walk {
		match, arg := dl.wordsMatch("", m)
		conds, args = append(conds, plus+"x.doc IN (SELECT docid FROM sample_words WHERE "+match+")"), append(args, arg)
	} else if m != "" {
		from = " FROM sample_words w " + dl.fixedJoin() + " sample_search x ON x.doc = w.docid"
		if p.lateral && dl.pg {
			from = " FROM sample_words w CROSS JOIN LATERAL (SELECT * FROM sample_search x WHERE x.doc = w.docid OFFSET 0) x"
		}
		match, arg := dl.wordsMatch("w.", m)
		conds, args = []string{match, "x.project_id = ?"}, []any{arg, projectID}
	}
	add := func(cond string, a ...any) { conds = append(conds, cond); args = append(args, a...) }
	col := func(name string) string { return plus + "x." + name } // a filtered column
	jsonList := func(vs []string) string { b, _ := json.Marshal(vs); return string(b) }
	if len(q.IDs) > 0 {
		add(col("sample_id")+" IN (SELECT value FROM "+dl.jsonEach()+"(?))", jsonList(q.IDs))
	}
	if len(q.States) > 0 {
		ss := make([]string, len(q.States))
		for i, s := range q.States {
			ss[i] = string(s)
		}
		add(col("status")+" IN (SELECT value FROM "+dl.jsonEach()+"(?))", jsonList(ss))
	}
	if len(q.Kinds) > 0 {
		ks := make([]string, len(q.Kinds))
		for i, k := range q.Kinds {
			ks[i] = string(k)
		}
		add(col("kind")+" IN (SELECT value FROM "+dl.jsonEach()+"(?))", jsonList(ks))
	}
	if q.AuthorID != 0 {
		add(col("author_id")+" = ?", q.AuthorID)
	}
	if q.ImageID != 0 {
		add("("+col("image_id")+" = ? OR x.sample_id IN (SELECT sample_id FROM sample_images WHERE image_id = ?))", q.ImageID, q.ImageID) // any position
	}
	if q.Hop != 0 {
		add(col("hop")+" = ?", q.Hop)
	}
	if q.View != "" {
		add(col("view")+" = ?", string(q.View))
	}
	if q.Categories != "" {
		add(col("categories")+" = ?", q.Categories)
	}
	if q.Task != "" {
		add(col("task")+" = ?", q.Task)
	}
	if q.Split != "" {
		add(col("split")+" = ?", q.Split)
	}
	if q.RejectReason != "" {
		add("instr(x.reasons, ?) > 0", " "+q.RejectReason+" ")
	}
	if q.Rejected {
		add(col("reasons") + " <> ''") // every rejection gives a reason (verify.CheckVerdict)
	}
	if q.Acknowledged {
		add(col("acked") + " = 1")
	}
	if q.Derived {
		add(col("derived") + " = 1")
	}
	if q.BySampling {
		add("EXISTS (SELECT 1 FROM validation_items vi WHERE vi.sample_id = " + col("sample_id") + " AND vi.by_sampling = 1)")
	}
	for _, b := range []struct {
		day, op string
		next    bool
	}{{q.From, ">=", false}, {q.To, "<", true}} {
		if b.day == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, b.day)
		if err != nil {
			return "", nil, fmt.Errorf("%w: %q is not a date (YYYY-MM-DD)", bench.ErrInvalid, b.day)
		}
		if b.next {
			t = t.AddDate(0, 0, 1)
		}
		add(col("updated_at")+" "+b.op+" ?", t.UTC().Format(time.RFC3339Nano))
	}
	if q.Round < 0 || q.Round > 3 {
		return "", nil, fmt.Errorf("%w: round %d; rounds are 1 to 3", bench.ErrInvalid, q.Round)
	}
	if q.VerifierID != 0 || q.Round != 0 {
		// A vote on the current revision of a sample in round 3 belongs to a panel that
		// is still open (verify.Round3: whose votes they are is hidden until it closes).
		sub := `SELECT r.sample_id FROM reviews r WHERE NOT (r.round = 3 AND EXISTS (SELECT 1 FROM samples o
			WHERE o.id = r.sample_id AND o.status = 'round3' AND o.current_rev = r.revision_id))`
		if q.Round == 1 || q.Round == 2 {
			// No round-3 vote to hide: the reviews are read from the index of
			// (verifier_id, round, sample_id) alone (PostgreSQL at 100,000 samples:
			// the count 68–73 → 30–42 ms).
			sub = `SELECT r.sample_id FROM reviews r WHERE TRUE`
		}
		var a []any
		if q.VerifierID != 0 {
			sub += " AND r.verifier_id = ?"
			a = append(a, q.VerifierID)
		}
		if q.Round != 0 {
			sub += " AND r.round = ?"
			a = append(a, q.Round)
		}
		if q.VerifierID == 0 {
			// Without a verifier, that a round 3 holds votes is no secret of whose they are.
			sub = `SELECT r.sample_id FROM reviews r WHERE r.round = ?`
			a = []any{q.Round}
		}
		if q.Rejected {
			sub += " AND r.decision = 'reject'" // a reject closes a round 3 openly
		}
		add(col("sample_id")+" IN ("+sub+")", a...)
	}
	if p.sorted && q.Sort == bench.SortAuthor {
		if from == " FROM sample_search x" && (p.walk || len(conds) == 1) {
			from = " FROM users u " + dl.fixedJoin() + " sample_search x ON x.author_id = u.id"
		} else {
			from += " JOIN users u ON u.id = x.author_id"
		}
	}
	return from + " WHERE " + strings.Join(conds, " AND "), args, nil
}

// matchQuery turns typed words into a full-text query: each word is a phrase of its
// letters and digits, the last one a prefix ("bench-0001" → "bench 0001*"), and every
// word must match.
func matchQuery(text string) string {
	var phrases []string
	for _, w := range strings.Fields(text) {
		toks := strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(toks) == 0 {
			continue
		}
		phrases = append(phrases, `"`+strings.Join(toks, " ")+`*"`)
	}
	return strings.Join(phrases, " ")
}

// sampleRows loads the manager rows of ids, in that order.
func sampleRows(ctx context.Context, tx *sql.Tx, dl dialect, ids []string) ([]bench.SampleRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	b, _ := json.Marshal(ids)
	type extra struct {
		cats, reasons, created string
		acked, derived         bool
	}
	rows := map[string]bench.SampleRow{}
	r, err := tx.QueryContext(ctx, `SELECT `+sampleCols+`, x.categories, x.reasons, x.acked, x.derived, s.created_at`+sampleFrom+`
		JOIN sample_search x ON x.sample_id = s.id WHERE s.id IN (SELECT value FROM `+dl.jsonEach()+`(?))`, string(b))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for r.Next() {
		var e extra
		si, err := scanSample(scanFunc(func(dest ...any) error {
			return r.Scan(append(dest, &e.cats, &e.reasons, &e.acked, &e.derived, &e.created)...)
		}))
		if err != nil {
			return nil, err
		}
		rows[si.ID] = bench.SampleRow{SampleInfo: si, Categories: e.cats, Reasons: strings.Fields(e.reasons),
			Acknowledged: e.acked, Derived: e.derived, CreatedAt: e.created}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	out := make([]bench.SampleRow, 0, len(ids))
	for _, id := range ids {
		if row, ok := rows[id]; ok {
			out = append(out, row)
		}
	}
	return out, nil
}

// scanFunc is a scanner made of a function (to scan more columns than scanSample reads).
type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// indexSample writes sample id's row in sample_search and its words in sample_words
// from its row, its content, its current revision and its rejections.
func indexSample(ctx context.Context, tx *sql.Tx, id string) error {
	reads, write := indexSampleReads(id)
	if err := txDialect(tx).readAll(ctx, tx, reads...); err != nil {
		return fmt.Errorf("search entry of %s: %w", id, err)
	}
	return write(ctx, tx)
}

// indexSampleReads are indexSample's reads, for a caller to run in one readAll
// with its own (statsSample), and what writes the entry once they ran.
func indexSampleReads(id string) ([]read, func(context.Context, *sql.Tx) error) {
	var e searchEntry
	var doc sql.NullInt64
	var words sql.NullString
	var draft, change, reason string
	var rejects []string
	found := false
	reads := []read{
		{`SELECT s.project_id, s.kind, s.status, s.author_id, COALESCE(s.image_id, 0), s.draft,
		s.created_at, s.updated_at, COALESCE(r.change, ''), COALESCE(r.reason, ''), x.doc, w.body
		FROM samples s LEFT JOIN revisions r ON r.id = s.current_rev LEFT JOIN sample_search x ON x.sample_id = s.id
		LEFT JOIN sample_words w ON w.docid = x.doc
		WHERE s.id = ?`, []any{id}, func(r scanner) error {
			found = true
			return r.Scan(&e.project, &e.kind, &e.status, &e.author, &e.image, &draft, &e.created, &e.updated, &change, &reason, &doc, &words)
		}},
		{`SELECT reasons FROM reviews WHERE sample_id = ? AND decision = 'reject'`, []any{id}, func(r scanner) error {
			var j string
			err := r.Scan(&j)
			rejects = append(rejects, j)
			return err
		}},
	}
	return reads, func(ctx context.Context, tx *sql.Tx) error {
		if !found {
			return fmt.Errorf("search entry of %s: %w", id, sql.ErrNoRows)
		}
		e.id = id
		e.content(draft, change, reason)
		for _, j := range rejects {
			e.addReasons(rejectReasons(j))
		}
		if err := e.writeKnown(ctx, tx, doc, words); err != nil {
			return fmt.Errorf("search entry of %s: %w", id, err)
		}
		return nil
	}
}

// unindexSample removes a deleted sample's search row and words.
func unindexSample(ctx context.Context, tx *sql.Tx, id string) error {
	var doc int64
	err := tx.QueryRowContext(ctx, `SELECT doc FROM sample_search WHERE sample_id = ?`, id).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sample_words WHERE docid = ?`, doc); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM sample_search WHERE doc = ?`, doc)
	return err
}

// searchEntry is a sample's sample_search row and words.
type searchEntry struct {
	id, kind, status, view, cats, task, split, created, updated string
	project, author, image                                      int64
	hop                                                         int
	acked, derived                                              bool
	reasons                                                     []string
	words                                                       string
}

// content fills what the sample's content and current revision say.
func (e *searchEntry) content(draft, change, reason string) {
	var s annotate.Sample
	_ = json.Unmarshal([]byte(draft), &s) // an unreadable draft is found by its row only
	e.hop, e.view, e.cats, e.task, e.split = s.Hop, string(s.View), bench.CategorySet(s.Categories), s.Task, s.Split
	e.derived = s.Parent != ""
	e.acked = (change == "submit" || change == "revise") && reason != ""
	parts := []string{e.id, s.Question}
	parts = append(parts, s.Options...)
	parts = append(parts, s.AnswerText)
	for _, st := range s.Steps {
		parts = append(parts, st.Content)
	}
	e.words = strings.Join(parts, "\n")
}

func (e *searchEntry) addReasons(rs []string) {
	for _, r := range rs {
		if !slices.Contains(e.reasons, r) {
			e.reasons = append(e.reasons, r)
		}
	}
}

func (e *searchEntry) write(ctx context.Context, tx *sql.Tx, doc sql.NullInt64) error {
	return e.writeKnown(ctx, tx, doc, sql.NullString{})
}

// writeKnown is write where words, when valid, are the words stored for doc now.
func (e *searchEntry) writeKnown(ctx context.Context, tx *sql.Tx, doc sql.NullInt64, words sql.NullString) error {
	reasons := ""
	if len(e.reasons) > 0 {
		reasons = " " + strings.Join(e.reasons, " ") + " "
	}
	vals := []any{e.project, e.kind, e.status, e.author, e.image, e.hop, e.view, e.cats, e.task, e.split, reasons,
		boolInt(e.acked), boolInt(e.derived), e.created, e.updated}
	if doc.Valid {
		if err := execLater(ctx, tx, `UPDATE sample_search SET project_id = ?, kind = ?, status = ?, author_id = ?, image_id = ?,
			hop = ?, view = ?, categories = ?, task = ?, split = ?, reasons = ?, acked = ?, derived = ?, created_at = ?, updated_at = ?
			WHERE doc = ?`, append(vals, doc.Int64)...); err != nil {
			return err
		}
		// Most writes (a review, a move) leave the words as they were: the full-text
		// index is rewritten only when they changed.
		if !words.Valid {
			_ = tx.QueryRowContext(ctx, `SELECT body FROM sample_words WHERE docid = ?`, doc.Int64).Scan(&words)
		}
		if words.Valid && words.String == e.words {
			return nil
		}
		return execLater(ctx, tx, `UPDATE sample_words SET body = ? WHERE docid = ?`, e.words, doc.Int64)
	}
	var n int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO sample_search (project_id, kind, status, author_id, image_id, hop, view,
		categories, task, split, reasons, acked, derived, created_at, updated_at, sample_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING doc`, append(vals, e.id)...).Scan(&n); err != nil {
		return err
	}
	return execLater(ctx, tx, `INSERT INTO sample_words (docid, body) VALUES (?, ?)`, n, e.words)
}

// rebuildAllSearch fills the search rows of every project (migration 16).
func (d *DB) rebuildAllSearch(ctx context.Context, tx *sql.Tx) error {
	ids, err := queryAll(ctx, tx, scanInt64, `SELECT id FROM projects ORDER BY id`)
	if err != nil {
		return fmt.Errorf("list projects: %w", err)
	}
	for _, id := range ids {
		if err := rebuildSearch(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}

// rebuildSearch writes the search rows of a project's samples anew, for writers that
// insert rows directly (rebuildStats) and migration 16: what indexSample keeps.
func rebuildSearch(ctx context.Context, tx *sql.Tx, projectID int64) error {
	fail := func(err error) error {
		return fmt.Errorf("rebuild the sample search of project %d: %w", projectID, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sample_words WHERE docid IN (SELECT doc FROM sample_search WHERE project_id = ?)`, projectID); err != nil {
		return fail(err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sample_search WHERE project_id = ?`, projectID); err != nil {
		return fail(err)
	}
	reasons := map[string][]string{}
	rr, err := tx.QueryContext(ctx, `SELECT v.sample_id, v.reasons FROM reviews v JOIN samples s ON s.id = v.sample_id
		WHERE s.project_id = ? AND v.decision = 'reject' ORDER BY v.id`, projectID)
	if err != nil {
		return fail(err)
	}
	for rr.Next() {
		var id, js string
		if err := rr.Scan(&id, &js); err != nil {
			rr.Close()
			return fail(err)
		}
		reasons[id] = append(reasons[id], rejectReasons(js)...)
	}
	if err := errors.Join(rr.Err(), rr.Close()); err != nil {
		return fail(err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT s.id, s.kind, s.status, s.author_id, COALESCE(s.image_id, 0), s.draft,
		s.created_at, s.updated_at, COALESCE(r.change, ''), COALESCE(r.reason, '')
		FROM samples s LEFT JOIN revisions r ON r.id = s.current_rev WHERE s.project_id = ?`+notPlanted(ctx, "s.id")+` ORDER BY s.id`, projectID)
	if err != nil {
		return fail(err)
	}
	var entries []searchEntry
	for rows.Next() {
		e := searchEntry{project: projectID}
		var draft, change, reason string
		if err := rows.Scan(&e.id, &e.kind, &e.status, &e.author, &e.image, &draft, &e.created, &e.updated, &change, &reason); err != nil {
			rows.Close()
			return fail(err)
		}
		e.content(draft, change, reason)
		e.addReasons(reasons[e.id])
		entries = append(entries, e)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fail(err)
	}
	for i := range entries {
		if err := entries[i].write(ctx, tx, sql.NullInt64{}); err != nil {
			return fail(err)
		}
	}
	return nil
}

// WithdrawSamples withdraws each of ids (a lead's move, verify.Authorize), in one
// transaction: a sample the protocol does not let move is refused with the reason
// and the others still move. A sample withdrawn already is named in the result's
// Withdrawn, not refused: a script withdrawing a list twice has done its work. Each
// move is audited with reason.
func (d *DB) WithdrawSamples(ctx context.Context, actor bench.User, ids []string, reason string) (bench.SelectionResult, error) {
	return d.moveSelection(ctx, actor, ids, verify.EventWithdraw, reason)
}

// ReopenSamples puts each of ids back in the state it was withdrawn from, like
// WithdrawSamples.
func (d *DB) ReopenSamples(ctx context.Context, actor bench.User, ids []string, reason string) (bench.SelectionResult, error) {
	return d.moveSelection(ctx, actor, ids, verify.EventReopen, reason)
}

func (d *DB) moveSelection(ctx context.Context, actor bench.User, ids []string, ev verify.Event, reason string) (bench.SelectionResult, error) {
	var out bench.SelectionResult
	err := d.act(ctx, actor, "samples."+string(ev), func(tx *sql.Tx) error {
		out = bench.SelectionResult{}
		a, err := requireAction(ctx, tx, actor, verify.ActionSearchSamples)
		if err != nil {
			return err
		}
		for _, id := range ids {
			err := d.leadMoveTx(ctx, tx, a, id, ev, reason)
			switch {
			case err == nil:
				out.Done = append(out.Done, id)
			case errors.Is(err, errWithdrawnAlready):
				out.Withdrawn = append(out.Withdrawn, id)
			case errors.Is(err, bench.ErrForbidden) || errors.Is(err, bench.ErrNotFound):
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: bench.Message(err)})
			default:
				return err
			}
		}
		return d.auditRefusals(ctx, tx, a, "samples."+string(ev), out.Refused)
	})
	if err != nil {
		return bench.SelectionResult{}, fmt.Errorf("%s samples: %w", ev, err)
	}
	return out, nil
}

// auditRefusals writes one audit row per sample an action refused.
func (d *DB) auditRefusals(ctx context.Context, tx *sql.Tx, a bench.User, action string, refused []bench.Refusal) error {
	for _, r := range refused {
		if err := d.audit(ctx, tx, a.ID, "denied:"+action, "sample", r.SampleID, r.Reason); err != nil {
			return err
		}
	}
	return nil
}

// ReassignDrafts gives each of ids, a draft or returned sample, to the author named
// to (an annotator or lead): the new author edits and submits it from then on. A
// sample in review or done, or already that author's, is refused with the reason.
// Each change is audited with reason.
func (d *DB) ReassignDrafts(ctx context.Context, actor bench.User, ids []string, to, reason string) (bench.SelectionResult, error) {
	var out bench.SelectionResult
	err := d.act(ctx, actor, "samples.reassign", func(tx *sql.Tx) error {
		out = bench.SelectionResult{}
		a, err := requireAction(ctx, tx, actor, verify.ActionReassignDrafts)
		if err != nil {
			return err
		}
		var target bench.User
		err = tx.QueryRowContext(ctx, `SELECT id, name, role, grp FROM users WHERE name = ? AND disabled = 0`, to).
			Scan(&target.ID, &target.Name, &target.Role, &target.Group)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no active account named %q", bench.ErrInvalid, to)
		}
		if err != nil {
			return err
		}
		now := d.now()
		for _, id := range ids {
			cur, err := getSample(ctx, tx, id)
			if err == nil {
				err = d.memberOfSampleProject(ctx, tx, a, target, cur)
			}
			switch {
			case errors.Is(err, bench.ErrNotFound):
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: "there is no such sample"})
				continue
			case errors.Is(err, bench.ErrForbidden):
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: bench.Message(err)})
				continue
			case err != nil:
				return err
			case cur.Status != verify.StateDraft && cur.Status != verify.StateReturned:
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: fmt.Sprintf("it is %s; only drafts and returned samples change author", cur.Status.Words())})
				continue
			case cur.AuthorID == target.ID:
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: "it is " + target.Name + "'s already"})
				continue
			}
			if err := statsSample(ctx, tx, id, -1); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE samples SET author_id = ?, version = version + 1, updated_at = ? WHERE id = ?`,
				target.ID, now, id); err != nil {
				return err
			}
			if err := statsSample(ctx, tx, id, 1); err != nil {
				return err
			}
			detail := cur.AuthorName + " → " + target.Name
			if reason != "" {
				detail += ": " + reason
			}
			if err := d.audit(ctx, tx, a.ID, "sample.reassign", "sample", id, detail); err != nil {
				return err
			}
			out.Done = append(out.Done, id)
		}
		return d.auditRefusals(ctx, tx, a, "samples.reassign", out.Refused)
	})
	if err != nil {
		return bench.SelectionResult{}, fmt.Errorf("reassign drafts: %w", err)
	}
	return out, nil
}

// memberOfSampleProject refuses (ErrForbidden) a reassignment of sample cur by
// lead a unless both a and the new author are members of its project.
func (d *DB) memberOfSampleProject(ctx context.Context, tx *sql.Tx, a, author bench.User, cur bench.SampleInfo) error {
	if _, err := requireProjectAction(ctx, tx, a, cur.ProjectID, verify.ActionReassignDrafts); err != nil {
		return hideStranger(err, fmt.Errorf("sample %q: %w", cur.ID, bench.ErrNotFound))
	}
	_, err := projectAuthor(ctx, tx, author, cur.ProjectID)
	return err
}

// ReleaseClaims ends every verifier's claim on each of ids, so that a sample a
// verifier claimed and left is offered again (a late voter's seat on a round 3 closed
// by a reject ends too). A sample without claims is refused as having none. Each
// ended claim is audited with its verifier.
func (d *DB) ReleaseClaims(ctx context.Context, actor bench.User, ids []string) (bench.SelectionResult, error) {
	var out bench.SelectionResult
	err := d.act(ctx, actor, "claims.release", func(tx *sql.Tx) error {
		out = bench.SelectionResult{}
		var denied []bench.Refusal // samples of projects the lead is not a member of
		a, err := requireAction(ctx, tx, actor, verify.ActionReleaseClaims)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := requireSampleAction(ctx, tx, a, id, verify.ActionReleaseClaims); err != nil {
				if _, refused := auditReason(err); !refused && !errors.Is(err, bench.ErrNotFound) {
					return err
				}
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: bench.Message(err)}) // a stranger's sample reads as a missing one
				if why, refused := auditReason(err); refused {
					denied = append(denied, bench.Refusal{SampleID: id, Reason: why})
				}
				continue
			}
			names, err := queryAll(ctx, tx, scanString, `SELECT u.name FROM claims c JOIN users u ON u.id = c.verifier_id
				WHERE c.sample_id = ? ORDER BY u.name`, id)
			if err != nil {
				return err
			}
			if len(names) == 0 {
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: "no verifier holds a claim on it"})
				continue
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ?`, id); err != nil {
				return err
			}
			if err := d.audit(ctx, tx, a.ID, "review.release", "sample", id, "claims of "+strings.Join(names, ", ")); err != nil {
				return err
			}
			if err := d.statsRound3(ctx, tx, id); err != nil {
				return err
			}
			out.Done = append(out.Done, id)
		}
		return d.auditRefusals(ctx, tx, a, "claims.release", denied)
	})
	if err != nil {
		return bench.SelectionResult{}, fmt.Errorf("release claims: %w", err)
	}
	return out, nil
}

// ExportSamples writes the samples ids names, in that order, as CSV or JSON Lines:
// the content each has now (the draft being edited, else the current revision). The
// export is audited with its size.
func (d *DB) ExportSamples(ctx context.Context, actor bench.User, projectID int64, ids []string, format bench.SampleFormat) ([]byte, error) {
	var buf bytes.Buffer
	err := d.act(ctx, actor, "samples.export", func(tx *sql.Tx) error {
		buf.Reset()
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionExportSamples)
		if err != nil {
			return err
		}
		if format != bench.FormatCSV && format != bench.FormatJSONL {
			return fmt.Errorf("%w: unknown format %q (csv or jsonl)", bench.ErrInvalid, format)
		}
		var rows []bench.SampleRow
		for chunk := range slices.Chunk(ids, 1000) {
			rs, err := sampleRows(ctx, tx, d.dialect(), chunk)
			if err != nil {
				return err
			}
			rows = append(rows, rs...)
		}
		if len(rows) != len(ids) {
			return fmt.Errorf("%w: %d of the %d samples are gone", bench.ErrNotFound, len(ids)-len(rows), len(ids))
		}
		for _, r := range rows {
			if r.ProjectID != projectID {
				return fmt.Errorf("%w: %s is not in this project", bench.ErrInvalid, r.ID)
			}
		}
		if err := bench.WriteSamples(&buf, rows, format); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "samples.export", "project", strconv.FormatInt(projectID, 10),
			fmt.Sprintf("%d samples as %s", len(rows), format))
	})
	if err != nil {
		return nil, fmt.Errorf("export samples: %w", err)
	}
	return buf.Bytes(), nil
}

// DeleteDraft deletes the author's own draft that was never submitted, based on the
// version the editor loaded, and returns its content, which CreateSample takes back
// to undo the deletion (under the same id). The deletion is audited.
func (d *DB) DeleteDraft(ctx context.Context, actor bench.User, id string, baseVersion int) (annotate.Sample, error) {
	var out annotate.Sample
	err := d.act(ctx, actor, "sample.delete", func(tx *sql.Tx) error {
		a, cur, err := authorsSample(ctx, tx, actor, id, baseVersion, "delete")
		if err != nil {
			return err
		}
		if !verify.DraftDeletable(cur.Status, cur.Revision) {
			return fmt.Errorf("%w: %s is %s; only drafts never submitted are deleted (a lead may withdraw it)", bench.ErrForbidden, id, cur.Status.Words())
		}
		if err := statsSample(ctx, tx, id, -1); err != nil {
			return err
		}
		if err := unindexSample(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM samples WHERE id = ? AND version = ?`, id, baseVersion); err != nil {
			return err
		}
		out = cur.Content
		out.ID, out.Kind = cur.ID, cur.Kind
		return d.audit(ctx, tx, a.ID, "sample.delete", "sample", id, string(cur.Kind))
	})
	if err != nil {
		return annotate.Sample{}, fmt.Errorf("delete draft %s: %w", id, err)
	}
	return out, nil
}
