package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/montanaflynn/stats"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// Dashboard is a project's progress and its people's work in aggregates. Days are UTC
// dates (YYYY-MM-DD) of the stored timestamps.
type Dashboard struct {
	Funnel     FunnelTable     // samples per kind and state
	Activity   ActivityTable   // samples reaching each state per day
	Balance    BalanceTable    // accepted samples against the balance targets
	Annotators AnnotatorTable  // authors: samples, submissions, rejections, reasons
	Throughput ThroughputTable // submissions per author and day
	Reasons    ReasonTable     // reject reasons, most frequent first
	Verifiers  VerifierTable   // workload, time, approvals, agreement with the panel
	Errors     ErrorTable      // rejected reviews per kind and category set
	// Own marks an annotator's view: Annotators, Throughput and Reasons hold only the
	// annotator's own work, and Verifiers is empty.
	Own bool
}

// FunnelRow counts the samples of one kind in one state.
type FunnelRow struct {
	Kind  string
	State verify.State
	Count int
}

// ActivityRow counts the samples that reached a state on a day (draft: created).
type ActivityRow struct {
	Day   string
	State verify.State
	Count int
}

// BalanceCell is one cell of the balance grid: the samples of Kind with Hop and View
// (hop QA) or Task (other kinds). A target's zero Hop, empty View or empty Task
// matches any value. Cells without a target hold samples no target asked for.
type BalanceCell struct {
	Kind      string
	Hop       int
	View      string
	Task      string
	Target    int
	Accepted  int
	InReview  int // in rounds 1–3
	Shortfall int // max(Target-Accepted, 0)
}

// The levels of a balance cell.
const (
	BalanceMet     = "met"     // the target is reached
	BalancePartial = "partial" // half of the target or more
	BalanceFar     = "far"     // less than half of the target
)

// Level says how far the cell is from its target: BalanceMet, BalancePartial or BalanceFar.
func (c BalanceCell) Level() string {
	switch {
	case c.Shortfall == 0:
		return BalanceMet
	case 2*c.Accepted >= c.Target:
		return BalancePartial
	}
	return BalanceFar
}

// ReasonCount is how often a reason code was given.
type ReasonCount struct {
	Reason string
	Count  int
}

// AnnotatorRow is one author's work: everyone who authored samples or revisions
// (a verifier's correction counts for the verifier). Reviews and rejections are of
// the revisions the author wrote.
type AnnotatorRow struct {
	Name       string
	Samples    int    // samples authored
	Accepted   int    // of those, accepted
	Submitted  int    // revisions submitted: first submissions and revisions after a return
	Days       int    // days with a submission
	Reviews    [3]int // reviews of the author's revisions, per round
	Rejected   [3]int // of those, rejections
	TopReasons []ReasonCount
}

// PerDay is the mean number of submissions on the days the author submitted.
func (a AnnotatorRow) PerDay() float64 {
	if a.Days == 0 {
		return 0
	}
	return float64(a.Submitted) / float64(a.Days)
}

// RejectionRate is the share of round's (1-3) reviews that rejected, and false when
// there were none.
func (a AnnotatorRow) RejectionRate(round int) (float64, bool) {
	if a.Reviews[round-1] == 0 {
		return 0, false
	}
	return float64(a.Rejected[round-1]) / float64(a.Reviews[round-1]), true
}

// ThroughputRow counts an author's submissions on a day.
type ThroughputRow struct {
	Day       string
	Name      string
	Submitted int
}

// ReasonRow is a reject reason and how often it was given.
type ReasonRow = ReasonCount

// VerifierRow is one verifier's work: every verifier, and anyone else who reviewed.
type VerifierRow struct {
	Name          string
	Group         string
	Reviews       int
	Rounds        [3]int // reviews per round
	Approved      int
	Timed         int     // reviews with a recorded time
	MedianSeconds float64 // over the timed reviews
	P90Seconds    float64
	PanelVotes    int // round-3 votes on revisions whose panel has a result
	PanelMatches  int // of those, votes equal to the panel's result
}

// ApprovalRate is the share of the verifier's reviews that approved (0 without reviews).
func (v VerifierRow) ApprovalRate() float64 {
	if v.Reviews == 0 {
		return 0
	}
	return float64(v.Approved) / float64(v.Reviews)
}

// PanelAgreement is the share of the verifier's round-3 votes that match the
// panel's result (rejected if anyone rejected, accepted if the panel approved), and
// false without such votes.
func (v VerifierRow) PanelAgreement() (float64, bool) {
	if v.PanelVotes == 0 {
		return 0, false
	}
	return float64(v.PanelMatches) / float64(v.PanelVotes), true
}

// ErrorRow counts the reviews and rejections of one kind and category set (hop QA:
// "att+rel" and so on, sorted; "none" for samples without categories).
type ErrorRow struct {
	Kind     string
	Set      string
	Reviews  int
	Rejected int
}

// ErrorRate is Rejected / Reviews.
func (e ErrorRow) ErrorRate() float64 {
	if e.Reviews == 0 {
		return 0
	}
	return float64(e.Rejected) / float64(e.Reviews)
}

// Dashboard table types, each exportable as CSV with stable columns.
type (
	FunnelTable     []FunnelRow
	ActivityTable   []ActivityRow
	BalanceTable    []BalanceCell
	AnnotatorTable  []AnnotatorRow
	ThroughputTable []ThroughputRow
	ReasonTable     []ReasonRow
	VerifierTable   []VerifierRow
	ErrorTable      []ErrorRow
)

// Dashboard aggregates a project for any signed-in user, in one read transaction of
// a fixed number of grouped queries (none per sample). Annotators get the funnel, the
// activity, the balance, the error rates and their own row (Dashboard.Own); verifiers
// and leads get everything.
//
// Round-3 votes of a revision whose round 3 is still open are secret
// (verify.CanSeeRound3Votes): they count nowhere, not even in workloads, until the
// round closes. Review times of 0 (not recorded) are left out of the medians.
func (d *DB) Dashboard(ctx context.Context, actor User, projectID int64) (Dashboard, error) {
	var out Dashboard
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "see the dashboard")
		if err != nil {
			return err
		}
		p, err := statsProject(ctx, tx, projectID)
		if err != nil {
			return err
		}
		q := dashQuery{ctx: ctx, tx: tx, project: projectID, panel: p.Settings.Policy().Round3Panel}
		if q.open, err = q.openRound3(); err != nil {
			return err
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
		tallies, err := q.reviewTallies()
		if err != nil {
			return fmt.Errorf("reviews: %w", err)
		}
		var perAuthor map[int64][]ReasonCount
		if out.Annotators, out.Throughput, perAuthor, err = q.annotators(names, tallies); err != nil {
			return fmt.Errorf("annotators: %w", err)
		}
		out.Errors = errorRates(tallies)
		if a.Role == RoleAnnotator {
			out.Own = true
			out.Annotators = slices.DeleteFunc(out.Annotators, func(r AnnotatorRow) bool { return r.Name != a.Name })
			out.Throughput = slices.DeleteFunc(out.Throughput, func(r ThroughputRow) bool { return r.Name != a.Name })
			out.Reasons = dashSortReasons(perAuthor[a.ID])
			return nil
		}
		total := map[string]int{}
		for _, rs := range perAuthor {
			for _, r := range rs {
				total[r.Reason] += r.Count
			}
		}
		for r, n := range total {
			out.Reasons = append(out.Reasons, ReasonCount{r, n})
		}
		out.Reasons = dashSortReasons(out.Reasons)
		if out.Verifiers, err = q.verifiers(names, tallies); err != nil {
			return fmt.Errorf("verifiers: %w", err)
		}
		return nil
	})
	if err != nil {
		return Dashboard{}, fmt.Errorf("dashboard of project %d: %w", projectID, err)
	}
	return out, nil
}

// dashQuery runs the dashboard's queries on one project inside one transaction.
type dashQuery struct {
	ctx     context.Context
	tx      *sql.Tx
	project int64
	panel   int
	open    string // JSON array of the revisions whose round 3 is open
}

// openRound3 lists, as a JSON array, the current revisions whose round 3 is open: no
// rejection and fewer approvals than the panel has seats. Drafts, samples in rounds
// 1–2 and returned ones cannot have one, so only the others are looked at.
func (q *dashQuery) openRound3() (string, error) {
	ids, err := queryAll(q.ctx, q.tx, scanInt64, `SELECT rv.revision_id FROM samples s JOIN reviews rv ON rv.revision_id = s.current_rev
		WHERE s.project_id = ? AND s.status NOT IN ('draft', 'round1', 'round2', 'returned') AND rv.round = 3
		GROUP BY rv.revision_id HAVING sum(rv.decision = 'reject') = 0 AND count(*) < ?`, q.project, q.panel)
	if err != nil {
		return "", fmt.Errorf("open round-3 panels: %w", err)
	}
	js, _ := json.Marshal(ids)
	if ids == nil {
		js = []byte("[]")
	}
	return string(js), nil
}

// visibleCTE is a common table expression "vis" of the project's reviews that may be
// counted (open round-3 votes left out), with the sample's kind, narrowed by the
// condition where on rv (or "1"); it takes the arguments q.visArgs gives.
func visibleCTE(where string) string {
	return `WITH vis AS (SELECT rv.*, s.kind FROM samples s JOIN reviews rv ON rv.sample_id = s.id
	WHERE s.project_id = ? AND NOT (rv.round = 3 AND rv.revision_id IN (SELECT value FROM json_each(?))) AND (` + where + `)) `
}

func (q *dashQuery) visArgs(more ...any) []any { return append([]any{q.project, q.open}, more...) }

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

type dashUser struct{ name, role, group string }

func (q *dashQuery) users() (map[int64]dashUser, error) {
	out := map[int64]dashUser{}
	err := q.rows(func(r scanner) error {
		var id int64
		var u dashUser
		if err := r.Scan(&id, &u.name, &u.role, &u.group); err != nil {
			return err
		}
		out[id] = u
		return nil
	}, `SELECT id, name, role, grp FROM users`)
	return out, err
}

// dashKindOrder sorts kinds as annotate.Kinds does, unknown ones after them by name.
func dashKindOrder(a, b string) int {
	ia, ib := slices.Index(annotate.Kinds, annotate.Kind(a)), slices.Index(annotate.Kinds, annotate.Kind(b))
	if ia < 0 {
		ia = len(annotate.Kinds)
	}
	if ib < 0 {
		ib = len(annotate.Kinds)
	}
	if ia != ib {
		return ia - ib
	}
	return strings.Compare(a, b)
}

func dashStateIndex(s verify.State) int {
	if i := slices.Index(verify.States, s); i >= 0 {
		return i
	}
	return len(verify.States)
}

// funnel counts per kind and state: every state of each kind present, zeros included.
func (q *dashQuery) funnel() (FunnelTable, error) {
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
	}, `SELECT kind, status, count(*) FROM samples WHERE project_id = ? GROUP BY kind, status`, q.project)
	if err != nil {
		return nil, err
	}
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, dashKindOrder)
	var out FunnelTable
	for _, k := range kinds {
		for _, s := range verify.States {
			out = append(out, FunnelRow{k, s, counts[k][s]})
		}
	}
	return out, nil
}

// ByState totals the funnel per state, in verify.States order.
func (t FunnelTable) ByState() []int {
	out := make([]int, len(verify.States))
	for _, r := range t {
		if i := dashStateIndex(r.State); i < len(out) {
			out[i] += r.Count
		}
	}
	return out
}

// Kinds lists the funnel's kinds in order.
func (t FunnelTable) Kinds() []string {
	var out []string
	for _, r := range t {
		if !slices.Contains(out, r.Kind) {
			out = append(out, r.Kind)
		}
	}
	return out
}

// activity counts, from the audit log, the samples created (draft) and moved into
// each state per day.
func (q *dashQuery) activity() (ActivityTable, error) {
	counts := map[[2]string]int{}
	err := q.rows(func(r scanner) error {
		var day, action, detail string
		var n int
		if err := r.Scan(&day, &action, &detail, &n); err != nil {
			return err
		}
		state := string(verify.StateDraft)
		if action == "sample.status" {
			_, state, _ = strings.Cut(detail, "→ ") // setStatus writes "from → to"
		}
		counts[[2]string{day, state}] += n
		return nil
	}, `SELECT substr(l.at, 1, 10), l.action, l.detail, count(*)
		FROM samples s JOIN audit_log l ON l.entity = 'sample' AND l.entity_id = s.id
		WHERE s.project_id = ? AND l.action IN ('sample.create', 'sample.status')
		GROUP BY 1, 2, 3`, q.project)
	if err != nil {
		return nil, err
	}
	out := make(ActivityTable, 0, len(counts))
	for k, n := range counts {
		out = append(out, ActivityRow{Day: k[0], State: verify.State(k[1]), Count: n})
	}
	slices.SortFunc(out, func(a, b ActivityRow) int {
		if c := strings.Compare(a.Day, b.Day); c != 0 {
			return c
		}
		if c := dashStateIndex(a.State) - dashStateIndex(b.State); c != 0 {
			return c
		}
		return strings.Compare(string(a.State), string(b.State))
	})
	return out, nil
}

// Days lists the activity's days in order, and per day the number of samples that
// reached any state.
func (t ActivityTable) Days() ([]string, []int) {
	var days []string
	var n []int
	for _, r := range t {
		if len(days) == 0 || days[len(days)-1] != r.Day {
			days, n = append(days, r.Day), append(n, 0)
		}
		n[len(n)-1] += r.Count
	}
	return days, n
}

// balance matches the accepted and in-review samples to the targets.
func (q *dashQuery) balance(targets []BalanceTarget) (BalanceTable, error) {
	type group struct {
		kind, view, task string
		hop              int
		accepted, review int
	}
	var groups []group
	err := q.rows(func(r scanner) error {
		var g group
		var state string
		var n int
		if err := r.Scan(&g.kind, &g.hop, &g.view, &g.task, &state, &n); err != nil {
			return err
		}
		if state == string(verify.StateAccepted) {
			g.accepted = n
		} else {
			g.review = n
		}
		groups = append(groups, g)
		return nil
	}, `SELECT s.kind, COALESCE(json_extract(r.content, '$.hop'), 0), COALESCE(json_extract(r.content, '$.view'), ''),
			COALESCE(json_extract(r.content, '$.task'), ''), s.status, count(*)
		FROM samples s JOIN revisions r ON r.id = s.current_rev
		WHERE s.project_id = ? AND s.status IN ('accepted', 'round1', 'round2', 'round3')
		GROUP BY 1, 2, 3, 4, 5`, q.project)
	if err != nil {
		return nil, err
	}
	matches := func(t BalanceTarget, g group) bool {
		return t.Kind == g.kind && (t.Hop == 0 || t.Hop == g.hop) && (t.View == "" || t.View == g.view) && (t.Task == "" || t.Task == g.task)
	}
	var out BalanceTable
	for _, t := range targets {
		c := BalanceCell{Kind: t.Kind, Hop: t.Hop, View: t.View, Task: t.Task, Target: t.Count}
		for _, g := range groups {
			if matches(t, g) {
				c.Accepted += g.accepted
				c.InReview += g.review
			}
		}
		out = append(out, c)
	}
	// Samples no target asks for, one cell per kind and hop/view (hop QA) or task.
	for _, g := range groups {
		if slices.ContainsFunc(targets, func(t BalanceTarget) bool { return matches(t, g) }) {
			continue
		}
		c := BalanceCell{Kind: g.kind, Task: g.task}
		if g.kind == string(annotate.KindHopQA) {
			c = BalanceCell{Kind: g.kind, Hop: g.hop, View: g.view}
		}
		i := slices.IndexFunc(out, func(x BalanceCell) bool {
			return x.Target == 0 && x.Kind == c.Kind && x.Hop == c.Hop && x.View == c.View && x.Task == c.Task
		})
		if i < 0 {
			out, i = append(out, c), len(out)
		}
		out[i].Accepted += g.accepted
		out[i].InReview += g.review
	}
	for i := range out {
		out[i].Shortfall = max(out[i].Target-out[i].Accepted, 0)
	}
	return out, nil
}

// annotators gathers each author's samples, submissions per day, reviews and
// rejections per round and reasons.
func (q *dashQuery) annotators(users map[int64]dashUser, tallies []reviewTally) (AnnotatorTable, ThroughputTable, map[int64][]ReasonCount, error) {
	rows := map[int64]*AnnotatorRow{}
	row := func(id int64) *AnnotatorRow {
		if rows[id] == nil {
			rows[id] = &AnnotatorRow{Name: users[id].name}
		}
		return rows[id]
	}
	err := q.rows(func(r scanner) error {
		var id int64
		var n, acc int
		if err := r.Scan(&id, &n, &acc); err != nil {
			return err
		}
		a := row(id)
		a.Samples, a.Accepted = n, acc
		return nil
	}, `SELECT author_id, count(*), sum(status = 'accepted') FROM samples WHERE project_id = ? GROUP BY author_id`, q.project)
	if err != nil {
		return nil, nil, nil, err
	}
	var through ThroughputTable
	err = q.rows(func(r scanner) error {
		var t ThroughputRow
		var id int64
		if err := r.Scan(&t.Day, &id, &t.Submitted); err != nil {
			return err
		}
		a := row(id)
		t.Name = a.Name
		a.Submitted += t.Submitted
		a.Days++
		through = append(through, t)
		return nil
	}, `SELECT substr(r.created_at, 1, 10) AS day, r.author_id, count(*)
		FROM samples s JOIN revisions r ON r.sample_id = s.id
		WHERE s.project_id = ? AND r.change IN ('submit', 'revise')
		GROUP BY day, r.author_id`, q.project)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, t := range tallies {
		if t.round >= 1 && t.round <= 3 {
			a := row(t.author)
			a.Reviews[t.round-1] += t.n
			if t.decision == string(verify.DecisionReject) {
				a.Rejected[t.round-1] += t.n
			}
		}
	}
	reasons := map[int64][]ReasonCount{}
	err = q.rows(func(r scanner) error {
		var id int64
		var rc ReasonCount
		if err := r.Scan(&id, &rc.Reason, &rc.Count); err != nil {
			return err
		}
		reasons[id] = append(reasons[id], rc)
		return nil
	}, visibleCTE("rv.decision = 'reject'")+`SELECT r.author_id, j.value, count(*)
		FROM vis JOIN revisions r ON r.id = vis.revision_id, json_each(vis.reasons) j
		GROUP BY r.author_id, j.value`, q.visArgs()...)
	if err != nil {
		return nil, nil, nil, err
	}
	var out AnnotatorTable
	for id, a := range rows {
		rs := dashSortReasons(slices.Clone(reasons[id]))
		a.TopReasons = rs[:min(len(rs), 3)]
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b AnnotatorRow) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(through, func(a, b ThroughputRow) int {
		if c := strings.Compare(a.Day, b.Day); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, through, reasons, nil
}

// dashSortReasons orders reasons by count, most frequent first, then by name.
func dashSortReasons(rs []ReasonCount) []ReasonCount {
	slices.SortFunc(rs, func(a, b ReasonCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return rs
}

// verifiers gathers workload, approvals, review times and agreement with the panel.
func (q *dashQuery) verifiers(users map[int64]dashUser, tallies []reviewTally) (VerifierTable, error) {
	rows := map[int64]*VerifierRow{}
	row := func(id int64) *VerifierRow {
		if rows[id] == nil {
			u := users[id]
			rows[id] = &VerifierRow{Name: u.name, Group: u.group}
		}
		return rows[id]
	}
	for id, u := range users {
		if u.role == RoleVerifier {
			row(id)
		}
	}
	for _, t := range tallies {
		v := row(t.verifier)
		if t.round >= 1 && t.round <= 3 {
			v.Rounds[t.round-1] += t.n
		}
		v.Reviews += t.n
		if t.decision == string(verify.DecisionApprove) {
			v.Approved += t.n
		}
	}
	// Review times, sorted per verifier, for the median and the 90th percentile.
	times := map[int64][]float64{}
	err := q.rows(func(r scanner) error {
		var id int64
		var s float64
		if err := r.Scan(&id, &s); err != nil {
			return err
		}
		times[id] = append(times[id], s)
		return nil
	}, visibleCTE("rv.seconds > 0")+`SELECT verifier_id, seconds FROM vis`, q.visArgs()...)
	if err != nil {
		return nil, err
	}
	for id, ts := range times {
		v := row(id)
		v.Timed = len(ts)
		if v.MedianSeconds, err = stats.Median(ts); err != nil {
			return nil, err
		}
		if v.P90Seconds, err = stats.Percentile(ts, 90); err != nil {
			return nil, err
		}
	}
	err = q.rows(func(r scanner) error {
		var id int64
		var n, match int
		if err := r.Scan(&id, &n, &match); err != nil {
			return err
		}
		v := row(id)
		v.PanelVotes, v.PanelMatches = n, match
		return nil
	}, visibleCTE("rv.round = 3")+`, panel AS (SELECT revision_id,
			CASE WHEN sum(decision = 'reject') > 0 THEN 'reject' WHEN count(*) >= ? THEN 'approve' END AS result
			FROM vis GROUP BY revision_id)
		SELECT vis.verifier_id, count(*), sum(vis.decision = panel.result)
		FROM vis JOIN panel ON panel.revision_id = vis.revision_id
		WHERE panel.result IS NOT NULL GROUP BY vis.verifier_id`, q.visArgs(q.panel)...)
	if err != nil {
		return nil, err
	}
	var out VerifierTable
	for _, v := range rows {
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b VerifierRow) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// dashCategorySet turns a stored categories array into "att+rel" (sorted), or "none".
func dashCategorySet(js string) string {
	var cats []string
	_ = json.Unmarshal([]byte(js), &cats)
	if len(cats) == 0 {
		return "none"
	}
	slices.Sort(cats)
	return strings.Join(slices.Compact(cats), "+")
}

// errorRates counts reviews and rejections per kind and category set of the reviewed revision.
func errorRates(tallies []reviewTally) ErrorTable {
	var out ErrorTable
	for _, t := range tallies {
		set := dashCategorySet(t.categories)
		i := slices.IndexFunc(out, func(x ErrorRow) bool { return x.Kind == t.kind && x.Set == set })
		if i < 0 {
			out, i = append(out, ErrorRow{Kind: t.kind, Set: set}), len(out)
		}
		out[i].Reviews += t.n
		if t.decision == string(verify.DecisionReject) {
			out[i].Rejected += t.n
		}
	}
	slices.SortFunc(out, func(a, b ErrorRow) int {
		if c := dashKindOrder(a.Kind, b.Kind); c != 0 {
			return c
		}
		if c := strings.Count(a.Set, "+") - strings.Count(b.Set, "+"); c != 0 {
			return c
		}
		return strings.Compare(a.Set, b.Set)
	})
	return out
}

// reviewTally counts the visible reviews that share an author of the reviewed
// revision, a verifier, a round, a decision, a kind and the revision's categories.
type reviewTally struct {
	author, verifier int64
	round            int
	decision, kind   string
	categories       string // the revision's categories as stored (JSON)
	n                int
}

// reviewTallies is the one pass over the visible reviews that the annotator, verifier
// and error tables share.
func (q *dashQuery) reviewTallies() ([]reviewTally, error) {
	var out []reviewTally
	err := q.rows(func(r scanner) error {
		var t reviewTally
		if err := r.Scan(&t.author, &t.verifier, &t.round, &t.decision, &t.kind, &t.categories, &t.n); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	}, visibleCTE("1")+`SELECT r.author_id, vis.verifier_id, vis.round, vis.decision, vis.kind,
			COALESCE(json_extract(r.content, '$.categories'), '[]'), count(*)
		FROM vis JOIN revisions r ON r.id = vis.revision_id GROUP BY 1, 2, 3, 4, 5, 6`, q.visArgs()...)
	return out, err
}

func csvInt(n int) string { return strconv.Itoa(n) }

// rateCol is a share with four decimals, or "" when ok is false.
func rateCol(r float64, ok bool) string {
	if !ok {
		return ""
	}
	return csvFloat(r, 4)
}

// WriteCSV writes kind, state, count.
func (t FunnelTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, r := range t {
		rows[i] = []string{r.Kind, string(r.State), csvInt(r.Count)}
	}
	return writeCSVTable(w, []string{"kind", "state", "count"}, rows)
}

// WriteCSV writes day, state, count.
func (t ActivityTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, r := range t {
		rows[i] = []string{r.Day, string(r.State), csvInt(r.Count)}
	}
	return writeCSVTable(w, []string{"day", "state", "count"}, rows)
}

// WriteCSV writes kind, hop, view, task, target, accepted, in_review, shortfall, level
// (hop 0 and empty view or task: any).
func (t BalanceTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, c := range t {
		rows[i] = []string{c.Kind, csvInt(c.Hop), c.View, c.Task, csvInt(c.Target), csvInt(c.Accepted), csvInt(c.InReview), csvInt(c.Shortfall), c.Level()}
	}
	return writeCSVTable(w, []string{"kind", "hop", "view", "task", "target", "accepted", "in_review", "shortfall", "level"}, rows)
}

// WriteCSV writes name, samples, accepted, submitted, days, per_day, then per round
// (1-3) reviews, rejected and rejection_rate, then top_reasons ("reason:count" joined
// by spaces).
func (t AnnotatorTable) WriteCSV(w io.Writer) error {
	header := []string{"name", "samples", "accepted", "submitted", "days", "per_day"}
	for r := 1; r <= 3; r++ {
		header = append(header, fmt.Sprintf("round%d_reviews", r), fmt.Sprintf("round%d_rejected", r), fmt.Sprintf("round%d_rejection_rate", r))
	}
	header = append(header, "top_reasons")
	rows := make([][]string, len(t))
	for i, a := range t {
		row := []string{a.Name, csvInt(a.Samples), csvInt(a.Accepted), csvInt(a.Submitted), csvInt(a.Days), csvFloat(a.PerDay(), 2)}
		for r := 1; r <= 3; r++ {
			row = append(row, csvInt(a.Reviews[r-1]), csvInt(a.Rejected[r-1]), rateCol(a.RejectionRate(r)))
		}
		var rs []string
		for _, x := range a.TopReasons {
			rs = append(rs, x.Reason+":"+csvInt(x.Count))
		}
		rows[i] = append(row, strings.Join(rs, " "))
	}
	return writeCSVTable(w, header, rows)
}

// WriteCSV writes day, name, submitted.
func (t ThroughputTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, r := range t {
		rows[i] = []string{r.Day, r.Name, csvInt(r.Submitted)}
	}
	return writeCSVTable(w, []string{"day", "name", "submitted"}, rows)
}

// WriteCSV writes reason, count.
func (t ReasonTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, r := range t {
		rows[i] = []string{r.Reason, csvInt(r.Count)}
	}
	return writeCSVTable(w, []string{"reason", "count"}, rows)
}

// WriteCSV writes name, group, reviews, round1..round3, approved, approval_rate, timed,
// median_seconds, p90_seconds, panel_votes, panel_matches, panel_agreement.
func (t VerifierTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, v := range t {
		rows[i] = []string{v.Name, v.Group, csvInt(v.Reviews), csvInt(v.Rounds[0]), csvInt(v.Rounds[1]), csvInt(v.Rounds[2]),
			csvInt(v.Approved), rateCol(v.ApprovalRate(), v.Reviews > 0), csvInt(v.Timed),
			rateCol(v.MedianSeconds, v.Timed > 0), rateCol(v.P90Seconds, v.Timed > 0),
			csvInt(v.PanelVotes), csvInt(v.PanelMatches), rateCol(v.PanelAgreement())}
	}
	return writeCSVTable(w, []string{"name", "group", "reviews", "round1", "round2", "round3", "approved", "approval_rate", "timed",
		"median_seconds", "p90_seconds", "panel_votes", "panel_matches", "panel_agreement"}, rows)
}

// WriteCSV writes kind, set, reviews, rejected, error_rate.
func (t ErrorTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, e := range t {
		rows[i] = []string{e.Kind, e.Set, csvInt(e.Reviews), csvInt(e.Rejected), rateCol(e.ErrorRate(), e.Reviews > 0)}
	}
	return writeCSVTable(w, []string{"kind", "set", "reviews", "rejected", "error_rate"}, rows)
}
