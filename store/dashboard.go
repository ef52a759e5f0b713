package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Dashboard aggregates a project for any signed-in user, in one read transaction of
// a fixed number of queries on the summary tables that every write keeps current
// (stats.go; none per sample, none over the samples, reviews or audit log).
// Annotators get the funnel, the activity, the balance, the error rates and their
// own row (Dashboard.Own); verifiers and leads get everything.
//
// Round-3 votes count only once they are settled (verify.Round3.Settled), exactly as
// in Agreement: the votes of a revision whose round 3 is still open, or was closed by
// a reject while a panel member may still vote late on it, count nowhere, not even in
// workloads, until the round closes and every late vote is cast or its claim ended.
// Review times of 0 (not recorded) are left out of the medians.
//
// The round-3 decisions in the summaries are made with the project's round-3 panel
// size; after the lead changed it, the first read (or write) decides them again, in a
// write transaction of its own, before the dashboard reads.
func (d *DB) Dashboard(ctx context.Context, actor bench.User, projectID int64) (bench.Dashboard, error) {
	var out bench.Dashboard
	read := func(tx *sql.Tx) error {
		out = bench.Dashboard{}
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSeeDashboard)
		if err != nil {
			return err
		}
		p, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		q := dashQuery{ctx: ctx, tx: tx, project: projectID, policy: p.Settings.Policy(), now: d.Now()}
		if err := q.current(); err != nil {
			return err
		}
		if err := q.settledLate(); err != nil {
			return fmt.Errorf("late round 3s: %w", err)
		}
		if out.Funnel, err = q.funnel(); err != nil {
			return fmt.Errorf("funnel: %w", err)
		}
		if out.Activity, err = q.activity(); err != nil {
			return fmt.Errorf("activity: %w", err)
		}
		if out.Balance, err = q.balance(p.Settings.Balance); err != nil {
			return fmt.Errorf("balance: %w", err)
		}
		names, err := q.users()
		if err != nil {
			return err
		}
		var perAuthor map[int64][]bench.ReasonCount
		if out.Annotators, out.Throughput, perAuthor, err = q.annotators(names); err != nil {
			return fmt.Errorf("annotators: %w", err)
		}
		if out.Errors, err = q.errorRates(); err != nil {
			return fmt.Errorf("error rates: %w", err)
		}
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM validation_items vi JOIN validation_batches b ON b.id = vi.batch_id
			JOIN samples s ON s.id = vi.sample_id WHERE b.project_id = ? AND vi.by_sampling = 1 AND s.status = ?`,
			projectID, string(verify.StateAccepted)).Scan(&out.BySampling); err != nil {
			return fmt.Errorf("accepted by sampling: %w", err)
		}
		if !verify.Permitted(verify.ActionSeeTeamWork, verify.Role(a.Role)) {
			out.KeepOwn(a.Name, perAuthor[a.ID])
			return nil
		}
		out.Reasons = bench.TotalReasons(perAuthor)
		if out.Verifiers, err = q.verifiers(names); err != nil {
			return fmt.Errorf("verifiers: %w", err)
		}
		return nil
	}
	err := d.readAs(ctx, actor, "dashboard.read", read)
	for tries := 0; errors.Is(err, errStaleRound3) && tries < 3; tries++ {
		// The round-3 decisions were made with another panel size: decide them again.
		if err = d.inTx(ctx, func(tx *sql.Tx) error {
			_, _, err := d.statsPolicy(ctx, tx, projectID)
			return err
		}); err == nil {
			err = d.readAs(ctx, actor, "dashboard.read", read)
		}
	}
	if err != nil {
		return bench.Dashboard{}, fmt.Errorf("dashboard of project %d: %w", projectID, err)
	}
	return out, nil
}

// errStaleRound3 says that a project's round-3 decisions (stat_rev3) were made with a
// panel size other than the project's.
var errStaleRound3 = errors.New("the round-3 summaries follow an earlier panel size")

// dashQuery runs the dashboard's queries on one project inside one transaction.
type dashQuery struct {
	ctx     context.Context
	tx      *sql.Tx
	project int64
	policy  verify.Policy
	now     time.Time
	// late are the round-3 votes of revisions the summaries hold back as waiting for
	// late voters (stat_rev3.waiting) that have settled since, with no write: the
	// last late voter's claim ran out. The dashboard counts them as the summaries will.
	late []dashVote
}

// dashVote is a counted review that the summaries do not hold yet: the review, its
// revision's facts and its panel's result.
type dashVote struct {
	rev    statsRev
	rv     statsReview
	result string
}

// current refuses (errStaleRound3) summaries whose round-3 decisions were made with
// another panel size than the project's.
func (q *dashQuery) current() error {
	var panel int
	err := q.tx.QueryRowContext(q.ctx, `SELECT panel FROM stat_policy WHERE project_id = ?`, q.project).Scan(&panel)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && panel != q.policy.Round3Panel:
		return errStaleRound3
	case err != nil:
		return fmt.Errorf("summary policy: %w", err)
	}
	return nil
}

// settledLate asks verify again, now, about the revisions the summaries hold back
// as waiting for late voters, and keeps the votes of those that have settled in q.late.
func (q *dashQuery) settledLate() error {
	revs, claims, err := loadRound3(q.ctx, q.tx, `t.project_id = ? AND t.waiting = 1`, q.project)
	if err != nil || len(revs) == 0 {
		return err
	}
	facts := map[int64]statsRev{}
	err = q.rows(func(r scanner) error {
		var id int64
		var x statsRev
		var balanced int
		if err := r.Scan(&id, &x.project, &x.kind, &x.author, &x.categories, &balanced, &x.hop, &x.view, &x.task); err != nil {
			return err
		}
		x.balanced = balanced == 1
		facts[id] = x
		return nil
	}, `SELECT r.revision_id, r.project_id, r.kind, r.author_id, r.categories, r.balanced, r.hop, r.view, r.task
		FROM stat_rev3 t JOIN stat_revisions r ON r.revision_id = t.revision_id WHERE t.project_id = ? AND t.waiting = 1`, q.project)
	if err != nil {
		return err
	}
	for _, r := range revs {
		c := r.round3(claims[r.sample], q.now).Count(q.policy)
		if !c.Counted {
			continue
		}
		rev, ok := facts[r.revision]
		if !ok {
			return fmt.Errorf("summary of revision %d: %w", r.revision, bench.ErrNotFound)
		}
		for _, v := range r.votes {
			if v.round == 3 {
				q.late = append(q.late, dashVote{rev, v, string(c.Result)})
			}
		}
	}
	return nil
}

// rows runs a query and calls scan for every row.
func (q *dashQuery) rows(scan func(scanner) error, query string, args ...any) error {
	rows, err := q.tx.QueryContext(q.ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// users names everyone as the project's dashboard names them.
func (q *dashQuery) users() (map[int64]bench.DashboardPerson, error) {
	out := map[int64]bench.DashboardPerson{}
	err := q.rows(func(r scanner) error {
		var id int64
		var u bench.DashboardPerson
		if err := r.Scan(&id, &u.Name, &u.Role, &u.Group); err != nil {
			return err
		}
		out[id] = u
		return nil
	}, `SELECT u.id, u.name, COALESCE(m.role, ''), COALESCE(m.grp, '') FROM users u
		LEFT JOIN project_members m ON m.user_id = u.id AND m.project_id = ?`, q.project)
	return out, err
}

// funnel counts per kind and state: every state of each kind present, zeros included.
func (q *dashQuery) funnel() (bench.FunnelTable, error) {
	counts := map[string]map[verify.State]int{}
	err := q.rows(func(r scanner) error {
		var kind, state string
		var n int
		if err := r.Scan(&kind, &state, &n); err != nil {
			return err
		}
		if counts[kind] == nil {
			counts[kind] = map[verify.State]int{}
		}
		counts[kind][verify.State(state)] = n
		return nil
	}, `SELECT kind, status, sum(n) FROM stat_samples WHERE project_id = ? GROUP BY kind, status HAVING sum(n) > 0`, q.project)
	if err != nil {
		return nil, err
	}
	return bench.NewFunnelTable(counts), nil
}

// activity counts the samples created (draft) and moved into each state per day, as
// the audit log records them (stat_activity).
func (q *dashQuery) activity() (bench.ActivityTable, error) {
	var out bench.ActivityTable
	err := q.rows(func(r scanner) error {
		var a bench.ActivityRow
		var state string
		if err := r.Scan(&a.Day, &state, &a.Count); err != nil {
			return err
		}
		a.State = verify.State(state)
		out = append(out, a)
		return nil
	}, `SELECT day, state, n FROM stat_activity WHERE project_id = ? AND n > 0`, q.project)
	if err != nil {
		return nil, err
	}
	out.Sort()
	return out, nil
}

// balance matches the accepted and in-review samples to the targets.
func (q *dashQuery) balance(targets []bench.BalanceTarget) (bench.BalanceTable, error) {
	var groups []bench.BalanceGroup
	err := q.rows(func(r scanner) error {
		var g bench.BalanceGroup
		var state string
		var n int
		if err := r.Scan(&g.Kind, &g.Hop, &g.View, &g.Task, &state, &n); err != nil {
			return err
		}
		if state == string(verify.StateAccepted) {
			g.Accepted = n
		} else {
			g.InReview = n
		}
		groups = append(groups, g)
		return nil
	}, `SELECT kind, hop, view, task, status, n FROM stat_balance
		WHERE project_id = ? AND status IN ('accepted', 'round1', 'round2', 'round3') AND n > 0
		ORDER BY kind, hop, view, task, status`, q.project)
	if err != nil {
		return nil, err
	}
	return bench.NewBalanceTable(targets, groups), nil
}

// annotators gathers each author's samples, submissions per day, reviews and
// rejections per round and reasons.
func (q *dashQuery) annotators(users map[int64]bench.DashboardPerson) (bench.AnnotatorTable, bench.ThroughputTable, map[int64][]bench.ReasonCount, error) {
	samples, err := queryAll(q.ctx, q.tx, func(r scanner) (a bench.AuthorSamples, err error) {
		err = r.Scan(&a.Author, &a.Samples, &a.Accepted)
		return a, err
	}, `SELECT author_id, sum(n), sum(CASE WHEN status = 'accepted' THEN n ELSE 0 END) FROM stat_samples
		WHERE project_id = ? GROUP BY author_id HAVING sum(n) > 0`, q.project)
	if err != nil {
		return nil, nil, nil, err
	}
	subs, err := queryAll(q.ctx, q.tx, func(r scanner) (s bench.DaySubmissions, err error) {
		err = r.Scan(&s.Day, &s.Author, &s.N)
		return s, err
	}, `SELECT day, author_id, n FROM stat_submissions WHERE project_id = ? AND n > 0`, q.project)
	if err != nil {
		return nil, nil, nil, err
	}
	tallies, err := q.reviewTallies("stat_review_authors", "author_id")
	if err != nil {
		return nil, nil, nil, err
	}
	for _, l := range q.late {
		tallies = append(tallies, bench.ReviewTally{Who: l.rev.author, Round: l.rv.round, Decision: verify.Decision(l.rv.decision), N: 1})
	}
	// Reasons count for every rejection, as the funnel counts every returned sample.
	reasons := map[int64][]bench.ReasonCount{}
	err = q.rows(func(r scanner) error {
		var id int64
		var rc bench.ReasonCount
		if err := r.Scan(&id, &rc.Reason, &rc.Count); err != nil {
			return err
		}
		reasons[id] = append(reasons[id], rc)
		return nil
	}, `SELECT author_id, reason, n FROM stat_reasons WHERE project_id = ? AND n > 0`, q.project)
	if err != nil {
		return nil, nil, nil, err
	}
	out, through := bench.NewAnnotatorTables(users, samples, subs, tallies, reasons)
	return out, through, reasons, nil
}

// verifiers gathers workload, approvals, review times and agreement with the panel.
func (q *dashQuery) verifiers(users map[int64]bench.DashboardPerson) (bench.VerifierTable, error) {
	tallies, err := q.reviewTallies("stat_review_verifiers", "verifier_id")
	if err != nil {
		return nil, err
	}
	for _, l := range q.late {
		tallies = append(tallies, bench.ReviewTally{Who: l.rv.verifier, Round: l.rv.round, Decision: verify.Decision(l.rv.decision), N: 1})
	}
	times, err := q.reviewTimes()
	if err != nil {
		return nil, err
	}
	// The counted round-3 votes of panels with a result (verify.Round3.Count: 'reject' once a
	// member rejected, 'approve' once the approvals fill the panel), and of those the
	// votes equal to it.
	panel, err := queryAll(q.ctx, q.tx, func(r scanner) (p bench.PanelTally, err error) {
		err = r.Scan(&p.Verifier, &p.Votes, &p.Matches)
		return p, err
	}, `SELECT verifier_id, sum(n), sum(CASE WHEN decision = result THEN n ELSE 0 END)
		FROM stat_review_verifiers WHERE project_id = ? AND round = 3 AND result <> ''
		GROUP BY verifier_id HAVING sum(n) > 0`, q.project)
	if err != nil {
		return nil, err
	}
	for _, l := range q.late {
		if l.result != "" {
			p := bench.PanelTally{Verifier: l.rv.verifier, Votes: 1}
			if l.rv.decision == l.result {
				p.Matches = 1
			}
			panel = append(panel, p)
		}
	}
	return bench.NewVerifierTable(users, tallies, times, panel), nil
}

// reviewTimes finds each verifier's median and 90th percentile review time without
// reading every time: the whole-second histogram (stat_review_seconds) places the
// two to four ranks the figures need, and only the times of those seconds are read,
// in order, from stat_review_times. The times of q.late join the histogram, and a
// second holding some of them is read whole and merged with them.
func (q *dashQuery) reviewTimes() ([]bench.ReviewTimes, error) {
	type bucket struct {
		second   int64
		start, n int       // the rank of the second's first time, and its times
		stored   int       // of those, the ones in stat_review_times
		extra    []float64 // the others: times of q.late
	}
	hists := map[int64][]bucket{}
	err := q.rows(func(r scanner) error {
		var id int64
		var b bucket
		if err := r.Scan(&id, &b.second, &b.stored); err != nil {
			return err
		}
		hists[id] = append(hists[id], b)
		return nil
	}, `SELECT verifier_id, bucket, n FROM stat_review_seconds WHERE project_id = ? AND n > 0
		ORDER BY verifier_id, bucket`, q.project) // one row per second: the primary key's order, no sort
	if err != nil {
		return nil, err
	}
	for _, l := range q.late {
		if !(l.rv.seconds > 0) {
			continue
		}
		hist, second := hists[l.rv.verifier], bench.SecondsBucket(l.rv.seconds)
		i, found := slices.BinarySearchFunc(hist, second, func(b bucket, s int64) int { return cmp.Compare(b.second, s) })
		if !found {
			hist = slices.Insert(hist, i, bucket{second: second})
		}
		hist[i].extra = append(hist[i].extra, l.rv.seconds)
		hists[l.rv.verifier] = hist
	}
	out := make([]bench.ReviewTimes, 0, len(hists))
	for id, hist := range hists {
		t := bench.ReviewTimes{Verifier: id}
		for i := range hist {
			slices.Sort(hist[i].extra)
			hist[i].start, hist[i].n = t.N, hist[i].stored+len(hist[i].extra)
			t.N += hist[i].n
		}
		ranks := bench.QuantileRanks(t.N)
		vals := make([]float64, len(ranks))
		b := 0
		for k := 0; k < len(ranks); {
			for hist[b].start+hist[b].n <= ranks[k] {
				b++
			}
			// One read per second, from the first rank needed in it to the last; a
			// second with times of q.late is read whole and merged with them.
			first := k
			for k++; k < len(ranks) && ranks[k] < hist[b].start+hist[b].n; k++ {
			}
			from, want := ranks[first]-hist[b].start, ranks[k-1]-ranks[first]+1
			if len(hist[b].extra) > 0 {
				from, want = 0, hist[b].stored
			}
			got, err := q.secondsOf(id, hist[b].second, from, want)
			if err != nil {
				return nil, err
			}
			if len(got) != want {
				return nil, fmt.Errorf("times of user %d: the summary counts %d in second %d, stat_review_times holds fewer",
					id, hist[b].stored, hist[b].second)
			}
			if len(hist[b].extra) > 0 {
				got = append(got, hist[b].extra...)
				slices.Sort(got)
				got = got[ranks[first]-hist[b].start:]
			}
			for j := first; j < k; j++ {
				vals[j] = got[ranks[j]-ranks[first]]
			}
		}
		at := func(rank int) float64 { return vals[slices.Index(ranks, rank)] }
		if t.Median, t.P90, err = bench.Quantiles(t.N, at); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// secondsOf reads, in order, limit of a verifier's counted timed review times within
// the whole second from second to second+1, after skipping offset of them.
func (q *dashQuery) secondsOf(verifier, second int64, offset, limit int) ([]float64, error) {
	if limit == 0 {
		return nil, nil
	}
	// One lower bound only, so that the index range starts there.
	from, below := "seconds >= ?", any(second+1)
	if second == 0 {
		from = "seconds > ?"
	}
	if second == math.MaxInt64 { // bench.SecondsBucket saturates here
		below = math.Inf(1)
	}
	return queryAll(q.ctx, q.tx, func(r scanner) (v float64, err error) { err = r.Scan(&v); return },
		`SELECT seconds FROM stat_review_times WHERE project_id = ? AND verifier_id = ? AND `+from+` AND seconds < ?
		ORDER BY seconds LIMIT ? OFFSET ?`, q.project, verifier, second, below, limit, offset)
}

// errorRates counts the counted reviews and rejections per kind and category set
// of the reviewed revision.
func (q *dashQuery) errorRates() (bench.ErrorTable, error) {
	tallies, err := queryAll(q.ctx, q.tx, func(r scanner) (t bench.KindTally, err error) {
		var decision string
		err = r.Scan(&t.Kind, &t.Set, &decision, &t.N)
		t.Decision = verify.Decision(decision)
		return t, err
	}, `SELECT kind, categories, decision, sum(n) FROM stat_review_kinds WHERE project_id = ?
		GROUP BY kind, categories, decision HAVING sum(n) > 0`, q.project)
	if err != nil {
		return nil, err
	}
	for _, l := range q.late {
		tallies = append(tallies, bench.KindTally{Kind: l.rev.kind, Set: l.rev.categories, Decision: verify.Decision(l.rv.decision), N: 1})
	}
	return bench.NewErrorTable(tallies), nil
}

// reviewTallies reads a review summary's counts per who, round and decision.
func (q *dashQuery) reviewTallies(table, who string) ([]bench.ReviewTally, error) {
	return queryAll(q.ctx, q.tx, func(r scanner) (t bench.ReviewTally, err error) {
		var decision string
		err = r.Scan(&t.Who, &t.Round, &decision, &t.N)
		t.Decision = verify.Decision(decision)
		return t, err
	}, `SELECT `+who+`, round, decision, sum(n) FROM `+table+` WHERE project_id = ?
		GROUP BY `+who+`, round, decision HAVING sum(n) > 0`, q.project)
}
