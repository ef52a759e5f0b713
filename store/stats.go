package store

// Summary tables of the dashboard (migration 0008). The store keeps them in the
// transaction of every write that changes what they count, and can build a
// project's anew from its rows (rebuildStats). Which round-3 votes count is
// verify's decision (Round3.Count), asked whenever a write may change
// it, with the project's round-3 panel size (statsPolicy decides every revision again
// after the lead changed it). The one change without a write, a late voter's claim
// running out, is decided again by the dashboard when it reads (dashQuery.settledLate).
// The SQL here is plain: upserts (INSERT … ON CONFLICT (…) DO UPDATE), grouping and
// joins that PostgreSQL runs as well as SQLite; revision content, reasons and audit
// details are read in Go.
//
// Who writes what, in the caller's transaction:
//   - createSample: the sample (stat_samples) and its 'sample.create' audit row
//     (stat_activity);
//   - addRevision: the revision (stat_revisions, stat_submissions) and the sample's
//     new current revision (stat_balance);
//   - setStatus: the sample's state (stat_samples, stat_balance), its 'sample.status'
//     audit row and its round 3s (statsRound3);
//   - SubmitReview and carryReviews: the review (statsReviewAdded), then the sample's
//     round 3s; ClaimReview and ReleaseClaim: the sample's round 3s.
//
// Writers that insert rows directly (DB.BulkWriteSamples) call rebuildStats afterwards.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// afterMigration holds what must run in the transaction of a migration, after its
// SQL, keyed by the migration's number. Migration 8 made the summaries Go's: they
// are built for every project from the rows. The function runs against the schema
// of the version it follows; a later migration that changes the summary tables
// rebuilds them itself.
var afterMigration = map[int]func(d *DB, ctx context.Context, tx *sql.Tx) error{
	8: (*DB).rebuildAllStats,
}

// rebuildAllStats rebuilds the summaries of every project.
func (d *DB) rebuildAllStats(ctx context.Context, tx *sql.Tx) error {
	ids, err := queryAll(ctx, tx, scanInt64, `SELECT id FROM projects ORDER BY id`)
	if err != nil {
		return fmt.Errorf("list projects: %w", err)
	}
	for _, id := range ids {
		if err := d.rebuildStats(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}

// The upserts of the summary tables: each adds n to a row's count.
const (
	upStatSamples = `INSERT INTO stat_samples (project_id, kind, status, author_id, n) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (project_id, kind, status, author_id) DO UPDATE SET n = stat_samples.n + excluded.n`
	upStatBalance = `INSERT INTO stat_balance (project_id, kind, hop, view, task, status, n) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (project_id, kind, hop, view, task, status) DO UPDATE SET n = stat_balance.n + excluded.n`
	upStatActivity = `INSERT INTO stat_activity (project_id, day, state, n) VALUES (?, ?, ?, ?)
		ON CONFLICT (project_id, day, state) DO UPDATE SET n = stat_activity.n + excluded.n`
	upStatSubmissions = `INSERT INTO stat_submissions (project_id, day, author_id, n) VALUES (?, ?, ?, ?)
		ON CONFLICT (project_id, day, author_id) DO UPDATE SET n = stat_submissions.n + excluded.n`
	upStatReasons = `INSERT INTO stat_reasons (project_id, author_id, reason, n) VALUES (?, ?, ?, ?)
		ON CONFLICT (project_id, author_id, reason) DO UPDATE SET n = stat_reasons.n + excluded.n`
	upStatAuthors = `INSERT INTO stat_review_authors (project_id, author_id, round, decision, n) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (project_id, author_id, round, decision) DO UPDATE SET n = stat_review_authors.n + excluded.n`
	upStatVerifiers = `INSERT INTO stat_review_verifiers (project_id, verifier_id, round, decision, result, n) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (project_id, verifier_id, round, decision, result) DO UPDATE SET n = stat_review_verifiers.n + excluded.n`
	upStatKinds = `INSERT INTO stat_review_kinds (project_id, kind, categories, decision, n) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (project_id, kind, categories, decision) DO UPDATE SET n = stat_review_kinds.n + excluded.n`
	upStatSeconds = `INSERT INTO stat_review_seconds (project_id, verifier_id, bucket, n) VALUES (?, ?, ?, ?)
		ON CONFLICT (project_id, verifier_id, bucket) DO UPDATE SET n = stat_review_seconds.n + excluded.n`
	insStatTime = `INSERT INTO stat_review_times (project_id, verifier_id, seconds, review_id) VALUES (?, ?, ?, ?)`
	delStatTime = `DELETE FROM stat_review_times WHERE project_id = ? AND verifier_id = ? AND seconds = ? AND review_id = ?`
)

// statsRev is what the summaries count a revision's reviews under, and what the
// balance reads of it (stat_revisions).
type statsRev struct {
	project    int64
	kind       string
	author     int64
	categories string // bench.CategorySet's form
	balanced   bool   // annotate.Sample read the content: hop, view and task are its
	hop        int
	view, task string
}

// newStatsRev reads a revision's content as annotate.Sample does.
func newStatsRev(project int64, kind string, author int64, content string) statsRev {
	r := statsRev{project: project, kind: kind, author: author, categories: bench.CategorySet(nil)}
	var s annotate.Sample
	if err := json.Unmarshal([]byte(content), &s); err != nil {
		return r
	}
	r.categories, r.balanced, r.hop, r.view, r.task = bench.CategorySet(s.Categories), true, s.Hop, string(s.View), s.Task
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// insertStatsRev records revision id's stat_revisions row.
func insertStatsRev(ctx context.Context, tx *sql.Tx, id int64, r statsRev) error {
	err := execLater(ctx, tx, `INSERT INTO stat_revisions (revision_id, project_id, kind, author_id, categories, balanced, hop, view, task)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, r.project, r.kind, r.author, r.categories, boolInt(r.balanced), r.hop, r.view, r.task)
	if err != nil {
		return fmt.Errorf("summary of revision %d: %w", id, err)
	}
	return nil
}

// loadStatsRev reads revision id's stat_revisions row.
func loadStatsRev(ctx context.Context, tx *sql.Tx, id int64) (statsRev, error) {
	var r statsRev
	err := readRow(ctx, tx, statsRevSQL, []any{id}, r.scan)
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("summary of revision %d: %w", id, bench.ErrNotFound)
	}
	return r, err
}

// statsRevSQL reads a revision's stat_revisions row (statsRev.scan).
const statsRevSQL = `SELECT project_id, kind, author_id, categories, balanced, hop, view, task FROM stat_revisions WHERE revision_id = ?`

func (r *statsRev) scan(row scanner) error {
	var balanced int
	err := row.Scan(&r.project, &r.kind, &r.author, &r.categories, &balanced, &r.hop, &r.view, &r.task)
	r.balanced = balanced == 1
	return err
}

// revSummary is what statsReviewAdded reads of a revision's summaries: its
// stat_revisions row and its round-3 record (stat_rev3), each when there is one.
type revSummary struct {
	rev         statsRev
	found       bool
	rev3        bool // a round-3 record exists
	rev3Counted int
	rev3Result  string
}

// revSummaryReads are the reads of revision id's summaries into s, for a caller's
// batch (reviewFacts reads them with the review's other facts).
func revSummaryReads(id int64, s *revSummary) []read {
	return []read{
		{statsRevSQL, []any{id}, func(r scanner) error { s.found = true; return s.rev.scan(r) }},
		{`SELECT counted, result FROM stat_rev3 WHERE revision_id = ?`, []any{id}, func(r scanner) error {
			s.rev3 = true
			return r.Scan(&s.rev3Counted, &s.rev3Result)
		}},
	}
}

// rejectReasons reads a review's stored reasons; an unreadable list gives none.
func rejectReasons(js string) []string {
	var rs []string
	if json.Unmarshal([]byte(js), &rs) != nil {
		return nil
	}
	return rs
}

// statsSample counts (sign 1) or uncounts (-1) sample id as its row is now in
// stat_samples and, when its current revision is read, stat_balance.
//
// Counting in (sign 1), the sample manager's search row follows (indexSample),
// whose reads go in one batch with its own.
func statsSample(ctx context.Context, tx *sql.Tx, id string, sign int) error {
	_, err := statsSampleCounted(ctx, tx, id, sign)
	return err
}

// statsSampleCounted is statsSample, and says whether the summaries count the
// sample at all: false for a planted copy (planted.go), which they leave out, as
// its activity (statsActivity).
func statsSampleCounted(ctx context.Context, tx *sql.Tx, id string, sign int) (bool, error) {
	var project, author int64
	var kind, status string
	var balanced, hop sql.NullInt64
	var view, task sql.NullString
	found := false
	reads := []read{{`SELECT s.project_id, s.kind, s.status, s.author_id, r.balanced, r.hop, r.view, r.task
		FROM samples s LEFT JOIN stat_revisions r ON r.revision_id = s.current_rev WHERE s.id = ?
			AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = s.id)`, []any{id}, func(r scanner) error {
		found = true
		return r.Scan(&project, &kind, &status, &author, &balanced, &hop, &view, &task)
	}}}
	var index func(context.Context, *sql.Tx) error
	if sign > 0 { // the sample as it is now, for the sample manager (manager.go)
		var more []read
		more, index = indexSampleReads(id)
		reads = append(reads, more...)
	}
	err := txDialect(tx).readAll(ctx, tx, reads...)
	if err == nil && !found {
		if isPlantedCopy(ctx, tx, id) {
			return false, nil // a planted copy (planted.go) is counted nowhere
		}
		err = sql.ErrNoRows
	}
	if err != nil {
		return false, fmt.Errorf("summary of sample %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, upStatSamples, project, kind, status, author, sign); err != nil {
		return false, fmt.Errorf("summary of sample %s: %w", id, err)
	}
	if balanced.Int64 == 1 {
		if _, err := tx.ExecContext(ctx, upStatBalance, project, kind, hop.Int64, view.String, task.String, status, sign); err != nil {
			return false, fmt.Errorf("balance of sample %s: %w", id, err)
		}
	}
	if index != nil {
		return true, index(ctx, tx)
	}
	return true, nil
}

// statsActivity counts the audit row the caller just wrote of a sample the
// summaries count (statsSampleCounted) — its time at and its action and detail, a
// "sample.create" or "sample.status" — in stat_activity, as the rebuild counts the
// audit log (rebuildStatsActivity).
func statsActivity(ctx context.Context, tx *sql.Tx, projectID int64, at, action, detail string) error {
	if _, err := tx.ExecContext(ctx, upStatActivity, projectID, bench.ActivityDay(at), string(bench.ActivityState(action, detail)), 1); err != nil {
		return fmt.Errorf("activity of project %d: %w", projectID, err)
	}
	return nil
}

// statsRevisionAdded records a new revision: its stat_revisions row and, for a
// submission ('submit' or 'revise'), stat_submissions. The sample's balance follows
// when the sample is made to name it (statsSample).
func statsRevisionAdded(ctx context.Context, tx *sql.Tx, id int64, r statsRev, change, createdAt string) error {
	if err := insertStatsRev(ctx, tx, id, r); err != nil {
		return err
	}
	if change != "submit" && change != "revise" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, upStatSubmissions, r.project, bench.ActivityDay(createdAt), r.author, 1); err != nil {
		return fmt.Errorf("submissions of revision %d: %w", id, err)
	}
	return nil
}

// statsReview is a review as the summaries count it.
type statsReview struct {
	id, verifier int64
	round        int
	decision     string
	seconds      float64
}

// countReview adds sign × review rv of revision r to the review summaries, under the
// panel's result (round 3; "" otherwise).
func countReview(ctx context.Context, tx *sql.Tx, r statsRev, rv statsReview, result string, sign int) error {
	if _, err := tx.ExecContext(ctx, upStatAuthors, r.project, r.author, rv.round, rv.decision, sign); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, upStatVerifiers, r.project, rv.verifier, rv.round, rv.decision, result, sign); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, upStatKinds, r.project, r.kind, r.categories, rv.decision, sign); err != nil {
		return err
	}
	if !(rv.seconds > 0) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, upStatSeconds, r.project, rv.verifier, bench.SecondsBucket(rv.seconds), sign); err != nil {
		return err
	}
	q := insStatTime
	if sign < 0 {
		q = delStatTime
	}
	return execLater(ctx, tx, q, r.project, rv.verifier, rv.seconds, rv.id)
}

// moveRound3 moves revision id's round-3 votes (votes; other rounds are skipped)
// from class from to class to in the review summaries, and records to.
func moveRound3(ctx context.Context, tx *sql.Tx, id int64, votes []statsReview, from, to verify.Round3Count) error {
	if from == to {
		return nil
	}
	if from.Counted != to.Counted || from.Result != to.Result {
		r, err := loadStatsRev(ctx, tx, id)
		if err != nil {
			return err
		}
		for _, rv := range votes {
			if rv.round != 3 {
				continue
			}
			if from.Counted {
				if err := countReview(ctx, tx, r, rv, string(from.Result), -1); err != nil {
					return fmt.Errorf("round-3 votes of revision %d: %w", id, err)
				}
			}
			if to.Counted {
				if err := countReview(ctx, tx, r, rv, string(to.Result), 1); err != nil {
					return fmt.Errorf("round-3 votes of revision %d: %w", id, err)
				}
			}
		}
	}
	_, err := tx.ExecContext(ctx, `UPDATE stat_rev3 SET counted = ?, result = ?, waiting = ? WHERE revision_id = ?`,
		boolInt(to.Counted), string(to.Result), boolInt(to.Waiting), id)
	if err != nil {
		return fmt.Errorf("round 3 of revision %d: %w", id, err)
	}
	return nil
}

// statsReviewAdded counts a review just written on revision revID: its reasons
// (every rejection's), and the review itself, at once in rounds 1 and 2 and in round 3
// under the class its revision has recorded (a revision's first round-3 vote records
// it, as not counted). The caller then decides the sample's round 3s again
// (statsRound3), which moves the votes when their class changed.
//
// known is the revision's summaries (revSummary) when the caller read them in its
// transaction under the sample's lock, else nil: they are read here.
func statsReviewAdded(ctx context.Context, tx *sql.Tx, revID int64, rv statsReview, reasons []string, known *revSummary) error {
	sum := known
	if sum == nil {
		sum = &revSummary{}
		if err := txDialect(tx).readAll(ctx, tx, revSummaryReads(revID, sum)...); err != nil {
			return fmt.Errorf("summary of revision %d: %w", revID, err)
		}
	}
	if !sum.found {
		return fmt.Errorf("summary of revision %d: %w", revID, bench.ErrNotFound)
	}
	r := sum.rev
	if rv.decision == string(verify.DecisionReject) {
		for _, reason := range reasons {
			if _, err := tx.ExecContext(ctx, upStatReasons, r.project, r.author, reason, 1); err != nil {
				return fmt.Errorf("reasons of review %d: %w", rv.id, err)
			}
		}
	}
	var class verify.Round3Count
	if rv.round == 3 {
		if sum.rev3 {
			class.Counted, class.Result = sum.rev3Counted == 1, verify.Decision(sum.rev3Result)
		} else if _, err := tx.ExecContext(ctx, `INSERT INTO stat_rev3 (revision_id, project_id, counted, result, waiting) VALUES (?, ?, 0, '', 0)`,
			revID, r.project); err != nil {
			return fmt.Errorf("round 3 of revision %d: %w", revID, err)
		}
		if !class.Counted {
			return nil
		}
	}
	if err := countReview(ctx, tx, r, rv, string(class.Result), 1); err != nil {
		return fmt.Errorf("summary of review %d: %w", rv.id, err)
	}
	return nil
}

// round3Rev is a revision with round-3 votes: what verify.Round3 needs besides the
// claims, and how its votes are counted now.
type round3Rev struct {
	round3Info
	class verify.Round3Count
	votes []statsReview // every review of the revision, oldest first
}

// round3 is r as verify sees it, with the sample's claims, at now.
func (r round3Rev) round3(claims []verify.Claim, now time.Time) verify.Round3 {
	rs := make([]verify.Review, len(r.votes))
	for i, v := range r.votes {
		rs[i] = verify.Review{Round: v.round, Reviewer: uid(v.verifier), Decision: verify.Decision(v.decision)}
	}
	return verify.Round3{Revision: r.number, Current: r.current, Reviews: rs, CurrentReviewed: r.currentReviewed, Claims: claims, Now: now}
}

// loadRound3 reads the revisions with round-3 votes that where picks from stat_rev3
// t joined to revisions r and samples s (arg its one argument), with their reviews,
// in revision order, and the claims on their samples; one read after another (a
// write that may batch them with its own reads uses round3Load.reads).
func loadRound3(ctx context.Context, tx *sql.Tx, where string, arg any) ([]round3Rev, map[string][]verify.Claim, error) {
	var l round3Load
	if err := (dialect{}).readAll(ctx, tx, l.reads(where, arg)...); err != nil {
		return nil, nil, err
	}
	return l.revs, l.claims, nil
}

// round3Load is what loadRound3 reads, filled by its reads.
type round3Load struct {
	revs   []round3Rev
	claims map[string][]verify.Claim
}

// reads are loadRound3's three reads into l, to run in order in one readAll (on
// PostgreSQL one round trip, with whatever else the caller reads beside them).
func (l *round3Load) reads(where string, arg any) []read {
	const joins = ` FROM stat_rev3 t JOIN revisions r ON r.id = t.revision_id JOIN samples s ON s.id = r.sample_id`
	from := joins + ` WHERE ` + where
	index := map[int64]int{} // revision id to its place in l.revs
	return []read{
		{`SELECT t.revision_id, r.number, r.sample_id, t.counted, t.result, t.waiting,
			COALESCE((SELECT cur.number FROM revisions cur WHERE cur.id = s.current_rev), 0),
			EXISTS (SELECT 1 FROM reviews x WHERE x.revision_id = s.current_rev)` + from + ` ORDER BY t.revision_id`, []any{arg}, func(sc scanner) error {
			var x round3Rev
			var counted, waiting int
			var result string
			if err := sc.Scan(&x.revision, &x.number, &x.sample, &counted, &result, &waiting, &x.current, &x.currentReviewed); err != nil {
				return err
			}
			x.class = verify.Round3Count{Counted: counted == 1, Result: verify.Decision(result), Waiting: waiting == 1}
			index[x.revision] = len(l.revs)
			l.revs = append(l.revs, x)
			return nil
		}},
		{`SELECT rv.revision_id, rv.id, rv.round, rv.verifier_id, rv.decision, rv.seconds` + joins +
			` JOIN reviews rv ON rv.revision_id = t.revision_id WHERE ` + where + ` ORDER BY rv.revision_id, rv.id`, []any{arg}, func(sc scanner) error {
			var rev int64
			var v statsReview
			if err := sc.Scan(&rev, &v.id, &v.round, &v.verifier, &v.decision, &v.seconds); err != nil {
				return err
			}
			if i, ok := index[rev]; ok {
				l.revs[i].votes = append(l.revs[i].votes, v)
			}
			return nil
		}},
		{`SELECT c.sample_id, c.round, c.verifier_id, c.expires_at FROM claims c
			WHERE c.sample_id IN (SELECT r.sample_id` + from + `) ORDER BY c.sample_id, c.verifier_id`, []any{arg}, func(sc scanner) error {
			cl, err := scanSampleClaim(sc)
			if err != nil {
				return err
			}
			if l.claims == nil {
				l.claims = map[string][]verify.Claim{}
			}
			l.claims[cl.Sample] = append(l.claims[cl.Sample], cl)
			return nil
		}},
	}
}

// statsRound3 decides again, with verify and the project's policy, the round-3
// votes of every revision of sample id that has them, and moves those whose class
// changed. Every write that may change it calls it: a vote, a new current revision,
// a change of state, a claim taken or given up.
//
// What it reads — the sample's project and policy, the panel its round 3s were
// decided with, the revisions, their votes and the claims — is one batch of reads.
// It takes the project's tally (lockTally) only when the panel recorded is not the
// project's (statsPolicy then decides every revision of the project again): the
// rows it moves otherwise are the sample's own (stat_rev3) and the summaries'
// counts, which are only added to. The panel cannot change meanwhile: a change of
// the settings excludes every sample's writer, and decides the round 3s itself.
func (d *DB) statsRound3(ctx context.Context, tx *sql.Tx, id string) error {
	var l round3Load
	var project bench.Project
	found, fresh := false, false
	reads := append([]read{{`SELECT p.id, p.name, p.settings, p.created_by, p.created_at, COALESCE(sp.panel, -1)
		FROM samples s JOIN projects p ON p.id = s.project_id LEFT JOIN stat_policy sp ON sp.project_id = p.id
		WHERE s.id = ?`, []any{id}, func(r scanner) (err error) {
		var panel int
		project, err = scanProject(scanAlso{r, []any{&panel}})
		found, fresh = err == nil, err == nil && panel == project.Settings.Policy().Round3Panel
		return err
	}}}, l.reads(`r.sample_id = ?`, id)...)
	if err := d.dialect().readAll(ctx, tx, reads...); err != nil {
		return fmt.Errorf("round 3 of sample %s: %w", id, err)
	}
	if len(l.revs) == 0 {
		return nil
	}
	if !found {
		return fmt.Errorf("round 3 of sample %s: %w", id, sql.ErrNoRows)
	}
	p := project.Settings.Policy()
	if !fresh {
		var refreshed bool
		var err error
		if p, refreshed, err = d.statsPolicy(ctx, tx, project.ID); err != nil || refreshed { // a refresh decided every revision of the project
			return err
		}
		// Another writer decided them while this one waited for the tally: read
		// this sample's again, as they are now.
		if l.revs, l.claims, err = loadRound3(ctx, tx, `r.sample_id = ?`, id); err != nil {
			return fmt.Errorf("round 3 of sample %s: %w", id, err)
		}
	}
	return d.redecideRound3(ctx, tx, p, l.revs, l.claims)
}

// scanAlso is a scanner whose rows have the columns also after those a scan asks for.
type scanAlso struct {
	scanner
	also []any
}

func (s scanAlso) Scan(dest ...any) error { return s.scanner.Scan(append(dest, s.also...)...) }

// redecideRound3 decides revs again at d.Now() and moves those whose class changed.
func (d *DB) redecideRound3(ctx context.Context, tx *sql.Tx, p verify.Policy, revs []round3Rev, claims map[string][]verify.Claim) error {
	now := d.Now()
	for _, r := range revs {
		to := r.round3(claims[r.sample], now).Count(p)
		if err := moveRound3(ctx, tx, r.revision, r.votes, r.class, to); err != nil {
			return err
		}
	}
	return nil
}

// statsPolicy returns the project's policy. When its round-3 panel is not the one
// the project's round-3 classes were decided with (stat_policy), it decides every
// one of them again first and reports true.
func (d *DB) statsPolicy(ctx context.Context, tx *sql.Tx, projectID int64) (verify.Policy, bool, error) {
	if err := lockTally(ctx, tx, projectID); err != nil { // it may decide the project's round 3s again
		return verify.Policy{}, false, err
	}
	p, err := projectPolicy(ctx, tx, projectID)
	if err != nil {
		return verify.Policy{}, false, err
	}
	var panel int
	err = tx.QueryRowContext(ctx, `SELECT panel FROM stat_policy WHERE project_id = ?`, projectID).Scan(&panel)
	switch {
	case err == nil && panel == p.Round3Panel:
		return p, false, nil
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return verify.Policy{}, false, fmt.Errorf("summary policy of project %d: %w", projectID, err)
	}
	revs, claims, err := loadRound3(ctx, tx, `t.project_id = ?`, projectID)
	if err != nil {
		return verify.Policy{}, false, fmt.Errorf("round 3s of project %d: %w", projectID, err)
	}
	if err := d.redecideRound3(ctx, tx, p, revs, claims); err != nil {
		return verify.Policy{}, false, err
	}
	return p, true, setStatsPolicy(ctx, tx, projectID, p)
}

// setStatsPolicy records the panel size a project's round-3 classes were decided with.
func setStatsPolicy(ctx context.Context, tx *sql.Tx, projectID int64, p verify.Policy) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO stat_policy (project_id, panel) VALUES (?, ?)
		ON CONFLICT (project_id) DO UPDATE SET panel = excluded.panel`, projectID, p.Round3Panel)
	if err != nil {
		return fmt.Errorf("summary policy of project %d: %w", projectID, err)
	}
	return nil
}

// statsTables are the summary tables with a project_id column, which rebuildStats
// empties.
var statsTables = []string{"stat_samples", "stat_balance", "stat_activity", "stat_submissions", "stat_reasons",
	"stat_revisions", "stat_rev3", "stat_policy", "stat_review_authors", "stat_review_verifiers", "stat_review_kinds",
	"stat_review_seconds", "stat_review_times"}

// rebuildStats recomputes a project's dashboard summaries from its rows (samples,
// revisions, reviews, claims and audit log), deciding every revision's round-3
// votes with verify at d.Now(), for bulk writers that insert rows directly and for
// migration 8. What it writes is what the store's incremental updates keep.
func (d *DB) rebuildStats(ctx context.Context, tx *sql.Tx, projectID int64) error {
	if err := d.rebuildStatsRows(ctx, tx, projectID); err != nil {
		return fmt.Errorf("rebuild the summaries of project %d: %w", projectID, err)
	}
	return nil
}

func (d *DB) rebuildStatsRows(ctx context.Context, tx *sql.Tx, projectID int64) error {
	for _, t := range statsTables {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE project_id = ?`, projectID); err != nil {
			return fmt.Errorf("empty %s: %w", t, err)
		}
	}
	if err := rebuildStatsRevisions(ctx, tx, projectID); err != nil {
		return err
	}
	for _, q := range []string{
		`INSERT INTO stat_samples (project_id, kind, status, author_id, n)
			SELECT project_id, kind, status, author_id, count(*) FROM samples WHERE project_id = ?` + notPlanted(ctx, "samples.id") + `
			GROUP BY project_id, kind, status, author_id`,
		`INSERT INTO stat_balance (project_id, kind, hop, view, task, status, n)
			SELECT s.project_id, s.kind, r.hop, r.view, r.task, s.status, count(*)
			FROM samples s JOIN stat_revisions r ON r.revision_id = s.current_rev
			WHERE s.project_id = ? AND r.balanced = 1
			GROUP BY s.project_id, s.kind, r.hop, r.view, r.task, s.status`,
		`INSERT INTO stat_submissions (project_id, day, author_id, n)
			SELECT r.project_id, substr(v.created_at, 1, 10), v.author_id, count(*)
			FROM stat_revisions r JOIN revisions v ON v.id = r.revision_id
			WHERE r.project_id = ? AND v.change IN ('submit', 'revise')
			GROUP BY r.project_id, substr(v.created_at, 1, 10), v.author_id`,
	} {
		if _, err := tx.ExecContext(ctx, q, projectID); err != nil {
			return err
		}
	}
	if err := rebuildStatsActivity(ctx, tx, projectID); err != nil {
		return err
	}
	if err := rebuildStatsReasons(ctx, tx, projectID); err != nil {
		return err
	}
	p, err := projectPolicy(ctx, tx, projectID)
	if err != nil {
		return err
	}
	if err := d.rebuildStatsReviews(ctx, tx, projectID, p); err != nil {
		return err
	}
	return setStatsPolicy(ctx, tx, projectID, p)
}

// rebuildStatsRevisions writes stat_revisions for every revision of the project,
// reading each one's content in Go, a batch at a time on every core (decoding is
// most of a rebuild's time).
func rebuildStatsRevisions(ctx context.Context, tx *sql.Tx, projectID int64) error {
	type rev struct {
		id      int64
		content string
		statsRev
	}
	var revs, batch []rev
	decode := func() {
		var wg sync.WaitGroup
		parts := runtime.GOMAXPROCS(0)
		for k := range parts {
			part := batch[k*len(batch)/parts : (k+1)*len(batch)/parts]
			wg.Go(func() {
				for i := range part {
					part[i].statsRev = newStatsRev(projectID, part[i].kind, part[i].author, part[i].content)
					part[i].content = ""
				}
			})
		}
		wg.Wait()
		revs, batch = append(revs, batch...), batch[:0]
	}
	rows, err := tx.QueryContext(ctx, `SELECT r.id, s.kind, r.author_id, r.content FROM samples s JOIN revisions r ON r.sample_id = s.id
		WHERE s.project_id = ?`+notPlanted(ctx, "s.id"), projectID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var x rev
		if err := rows.Scan(&x.id, &x.kind, &x.author, &x.content); err != nil {
			rows.Close()
			return err
		}
		if batch = append(batch, x); len(batch) == 4096 {
			decode()
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	decode()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO stat_revisions (revision_id, project_id, kind, author_id, categories, balanced, hop, view, task)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, r := range revs {
		if _, err := ins.ExecContext(ctx, r.id, r.project, r.kind, r.author, r.categories, boolInt(r.balanced), r.hop, r.view, r.task); err != nil {
			return fmt.Errorf("summary of revision %d: %w", r.id, err)
		}
	}
	return nil
}

// rebuildStatsActivity counts the project's "sample.create" and "sample.status"
// audit rows per day and state.
func rebuildStatsActivity(ctx context.Context, tx *sql.Tx, projectID int64) error {
	type key struct{ day, state string }
	counts := map[key]int{}
	rows, err := tx.QueryContext(ctx, `SELECT substr(l.at, 1, 10), l.action, l.detail, count(*)
		FROM samples s JOIN audit_log l ON l.entity = 'sample' AND l.entity_id = s.id
		WHERE s.project_id = ? AND l.action IN ('sample.create', 'sample.status')`+notPlanted(ctx, "s.id")+`
		GROUP BY substr(l.at, 1, 10), l.action, l.detail`, projectID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var day, action, detail string
		var n int
		if err := rows.Scan(&day, &action, &detail, &n); err != nil {
			rows.Close()
			return err
		}
		counts[key{day, string(bench.ActivityState(action, detail))}] += n
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for k, n := range counts {
		if _, err := tx.ExecContext(ctx, upStatActivity, projectID, k.day, k.state, n); err != nil {
			return err
		}
	}
	return nil
}

// rebuildStatsReasons counts the reasons of the project's rejections per author of
// the rejected revision.
func rebuildStatsReasons(ctx context.Context, tx *sql.Tx, projectID int64) error {
	type key struct {
		author int64
		reason string
	}
	counts := map[key]int{}
	rows, err := tx.QueryContext(ctx, `SELECT r.author_id, rv.reasons, count(*)
		FROM stat_revisions r JOIN reviews rv ON rv.revision_id = r.revision_id
		WHERE r.project_id = ? AND rv.decision = 'reject' GROUP BY r.author_id, rv.reasons`, projectID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var author int64
		var reasons string
		var n int
		if err := rows.Scan(&author, &reasons, &n); err != nil {
			rows.Close()
			return err
		}
		for _, reason := range rejectReasons(reasons) {
			counts[key{author, reason}] += n
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	for k, n := range counts {
		if _, err := tx.ExecContext(ctx, upStatReasons, projectID, k.author, k.reason, n); err != nil {
			return err
		}
	}
	return nil
}

// rebuildStatsReviews decides the round-3 votes of every revision that has them
// (stat_rev3) under p and counts the reviews that count.
func (d *DB) rebuildStatsReviews(ctx context.Context, tx *sql.Tx, projectID int64, p verify.Policy) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO stat_rev3 (revision_id, project_id, counted, result, waiting)
		SELECT r.revision_id, r.project_id, 0, '', 0 FROM stat_revisions r
		WHERE r.project_id = ? AND EXISTS (SELECT 1 FROM reviews rv WHERE rv.revision_id = r.revision_id AND rv.round = 3)`, projectID); err != nil {
		return err
	}
	revs, claims, err := loadRound3(ctx, tx, `t.project_id = ?`, projectID)
	if err != nil {
		return err
	}
	now := d.Now()
	class := make(map[int64]verify.Round3Count, len(revs))
	for _, r := range revs {
		c := r.round3(claims[r.sample], now).Count(p)
		class[r.revision] = c
		if c != (verify.Round3Count{}) {
			if _, err := tx.ExecContext(ctx, `UPDATE stat_rev3 SET counted = ?, result = ?, waiting = ? WHERE revision_id = ?`,
				boolInt(c.Counted), string(c.Result), boolInt(c.Waiting), r.revision); err != nil {
				return err
			}
		}
	}
	type authorKey struct {
		author   int64
		round    int
		decision string
	}
	type verifierKey struct {
		verifier         int64
		round            int
		decision, result string
	}
	type kindKey struct{ kind, categories, decision string }
	type secondKey struct{ verifier, bucket int64 }
	authors, verifiers, kinds, seconds := map[authorKey]int{}, map[verifierKey]int{}, map[kindKey]int{}, map[secondKey]int{}
	var times []statsReview // the counted timed reviews
	rows, err := tx.QueryContext(ctx, `SELECT rv.revision_id, r.kind, r.author_id, r.categories, rv.id, rv.round, rv.verifier_id, rv.decision, rv.seconds
		FROM stat_revisions r JOIN reviews rv ON rv.revision_id = r.revision_id WHERE r.project_id = ?`, projectID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var rev int64
		var kind, categories string
		var author int64
		var v statsReview
		if err := rows.Scan(&rev, &kind, &author, &categories, &v.id, &v.round, &v.verifier, &v.decision, &v.seconds); err != nil {
			rows.Close()
			return err
		}
		result := ""
		if v.round == 3 {
			c := class[rev]
			if !c.Counted {
				continue
			}
			result = string(c.Result)
		}
		authors[authorKey{author, v.round, v.decision}]++
		verifiers[verifierKey{v.verifier, v.round, v.decision, result}]++
		kinds[kindKey{kind, categories, v.decision}]++
		if v.seconds > 0 {
			seconds[secondKey{v.verifier, bench.SecondsBucket(v.seconds)}]++
			times = append(times, v)
		}
	}
	if err := closeRows(rows); err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, insStatTime)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, v := range times {
		if _, err := ins.ExecContext(ctx, projectID, v.verifier, v.seconds, v.id); err != nil {
			return err
		}
	}
	for k, n := range authors {
		if _, err := tx.ExecContext(ctx, upStatAuthors, projectID, k.author, k.round, k.decision, n); err != nil {
			return err
		}
	}
	for k, n := range verifiers {
		if _, err := tx.ExecContext(ctx, upStatVerifiers, projectID, k.verifier, k.round, k.decision, k.result, n); err != nil {
			return err
		}
	}
	for k, n := range kinds {
		if _, err := tx.ExecContext(ctx, upStatKinds, projectID, k.kind, k.categories, k.decision, n); err != nil {
			return err
		}
	}
	for k, n := range seconds {
		if _, err := tx.ExecContext(ctx, upStatSeconds, projectID, k.verifier, k.bucket, n); err != nil {
			return err
		}
	}
	return nil
}
