package bench

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/verify"
)

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
	BalanceNone    = "no target"
)

// Level says how far the cell is from its target: BalanceMet, BalancePartial or
// BalanceFar, or BalanceNone for a cell no target asked for (it was "met").
func (c BalanceCell) Level() string {
	switch {
	case c.Target == 0:
		return BalanceNone
	case c.Shortfall == 0:
		return BalanceMet
	case 2*c.Accepted >= c.Target:
		return BalancePartial
	}
	return BalanceFar
}

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
	// BySampling counts the accepted samples that were accepted by sampling with
	// their generated batch's rest (store/validation.go), never reviewed one by one.
	BySampling int
	// Own marks an annotator's view: Annotators, Throughput and Reasons hold only the
	// annotator's own work, and Verifiers is empty.
	Own bool
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

// StateIndex is the place of state s in verify.States, after them all when it is
// not one.
func StateIndex(s verify.State) int {
	if i := slices.Index(verify.States, s); i >= 0 {
		return i
	}
	return len(verify.States)
}

// ByState totals the funnel per state, in verify.States order.
func (t FunnelTable) ByState() []int {
	out := make([]int, len(verify.States))
	for _, r := range t {
		if i := StateIndex(r.State); i < len(out) {
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
