package bench

import (
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// The dashboard's tables built from the counts a store keeps (store/stats.go):
// which rows a table has, what they add up and in which order they come. A
// store loads the counts; these functions make the tables of them.

// compareKinds sorts kinds as annotate.Kinds does, unknown ones after them by name.
func compareKinds(a, b string) int {
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

// NewFunnelTable is the funnel of the sample counts per kind and state: every
// state of each kind present (zeros included), the kinds in annotate.Kinds order
// and unknown ones after them by name.
func NewFunnelTable(counts map[string]map[verify.State]int) FunnelTable {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, compareKinds)
	var out FunnelTable
	for _, k := range kinds {
		for _, s := range verify.States {
			out = append(out, FunnelRow{Kind: k, State: s, Count: counts[k][s]})
		}
	}
	return out
}

// Sort orders the activity by day, then by state in verify.States order (other
// states after them by name).
func (t ActivityTable) Sort() {
	slices.SortFunc(t, func(a, b ActivityRow) int {
		if c := strings.Compare(a.Day, b.Day); c != 0 {
			return c
		}
		if c := StateIndex(a.State) - StateIndex(b.State); c != 0 {
			return c
		}
		return strings.Compare(string(a.State), string(b.State))
	})
}

// BalanceGroup counts the accepted and in-review samples of one kind, hop,
// view and task.
type BalanceGroup struct {
	Kind       string
	Hop        int
	View, Task string
	Accepted   int
	InReview   int
}

// NewBalanceTable matches the groups to the targets: one cell per target, in
// their order, adding up the groups it matches; then, in the groups' order, one
// cell per kind and hop/view (hop QA) or task for the groups no target asks for.
func NewBalanceTable(targets []BalanceTarget, groups []BalanceGroup) BalanceTable {
	matches := func(t BalanceTarget, g BalanceGroup) bool {
		return t.Kind == g.Kind && (t.Hop == 0 || t.Hop == g.Hop) && (t.View == "" || t.View == g.View) && (t.Task == "" || t.Task == g.Task)
	}
	var out BalanceTable
	for _, t := range targets {
		c := BalanceCell{Kind: t.Kind, Hop: t.Hop, View: t.View, Task: t.Task, Target: t.Count}
		for _, g := range groups {
			if matches(t, g) {
				c.Accepted += g.Accepted
				c.InReview += g.InReview
			}
		}
		out = append(out, c)
	}
	for _, g := range groups {
		if slices.ContainsFunc(targets, func(t BalanceTarget) bool { return matches(t, g) }) {
			continue
		}
		c := BalanceCell{Kind: g.Kind, Task: g.Task}
		if g.Kind == string(annotate.KindHopQA) {
			c = BalanceCell{Kind: g.Kind, Hop: g.Hop, View: g.View}
		}
		i := slices.IndexFunc(out, func(x BalanceCell) bool {
			return x.Target == 0 && x.Kind == c.Kind && x.Hop == c.Hop && x.View == c.View && x.Task == c.Task
		})
		if i < 0 {
			out, i = append(out, c), len(out)
		}
		out[i].Accepted += g.Accepted
		out[i].InReview += g.InReview
	}
	for i := range out {
		out[i].Shortfall = max(out[i].Target-out[i].Accepted, 0)
	}
	return out
}

// KindTally counts the counted reviews with one decision of revisions of one
// kind and category set.
type KindTally struct {
	Kind, Set string
	Decision  verify.Decision
	N         int
}

// NewErrorTable adds up the tallies per kind and category set, by kind
// (annotate.Kinds order), then sets of fewer categories first, then by name.
func NewErrorTable(tallies []KindTally) ErrorTable {
	var out ErrorTable
	for _, t := range tallies {
		i := slices.IndexFunc(out, func(x ErrorRow) bool { return x.Kind == t.Kind && x.Set == t.Set })
		if i < 0 {
			out, i = append(out, ErrorRow{Kind: t.Kind, Set: t.Set}), len(out)
		}
		out[i].Reviews += t.N
		if t.Decision == verify.DecisionReject {
			out[i].Rejected += t.N
		}
	}
	slices.SortFunc(out, func(a, b ErrorRow) int {
		if c := compareKinds(a.Kind, b.Kind); c != 0 {
			return c
		}
		if c := strings.Count(a.Set, "+") - strings.Count(b.Set, "+"); c != 0 {
			return c
		}
		return strings.Compare(a.Set, b.Set)
	})
	return out
}

// SortReasons orders reasons by count, most frequent first, then by name, and
// returns them.
func SortReasons(rs []ReasonCount) []ReasonCount {
	slices.SortFunc(rs, func(a, b ReasonCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return rs
}

// TotalReasons adds up every author's reasons (SortReasons' order).
func TotalReasons(perAuthor map[int64][]ReasonCount) ReasonTable {
	total := map[string]int{}
	for _, rs := range perAuthor {
		for _, r := range rs {
			total[r.Reason] += r.Count
		}
	}
	var out []ReasonCount
	for r, n := range total {
		out = append(out, ReasonCount{Reason: r, Count: n})
	}
	return SortReasons(out)
}

// KeepOwn makes d an annotator's view (Own): only the rows of name in
// Annotators and Throughput, and their own reasons (SortReasons' order).
func (d *Dashboard) KeepOwn(name string, reasons []ReasonCount) {
	d.Own = true
	d.Annotators = slices.DeleteFunc(d.Annotators, func(r AnnotatorRow) bool { return r.Name != name })
	d.Throughput = slices.DeleteFunc(d.Throughput, func(r ThroughputRow) bool { return r.Name != name })
	d.Reasons = SortReasons(reasons)
}

// DashboardPerson is someone as a project's dashboard names them: their role
// and group in the project ("" for those who are no longer members, whose work
// stays).
type DashboardPerson struct{ Name, Role, Group string }

// ReviewTally counts the counted reviews of one person (the author of the
// reviewed revision, or the verifier) in one round with one decision.
type ReviewTally struct {
	Who      int64
	Round    int
	Decision verify.Decision
	N        int
}

// AuthorSamples counts an author's samples, and of those the accepted ones.
type AuthorSamples struct {
	Author            int64
	Samples, Accepted int
}

// DaySubmissions counts an author's submissions on a day.
type DaySubmissions struct {
	Day    string
	Author int64
	N      int
}

// NewAnnotatorTables makes the authors' rows and their submissions per day:
// a row for everyone with samples, submissions or reviews of rounds 1-3 on
// their revisions (tallies by author), by name, each with their three most
// frequent reasons (SortReasons' order); the submissions by day, then name.
func NewAnnotatorTables(people map[int64]DashboardPerson, samples []AuthorSamples, subs []DaySubmissions, tallies []ReviewTally,
	reasons map[int64][]ReasonCount) (AnnotatorTable, ThroughputTable) {
	rows := map[int64]*AnnotatorRow{}
	row := func(id int64) *AnnotatorRow {
		if rows[id] == nil {
			rows[id] = &AnnotatorRow{Name: people[id].Name}
		}
		return rows[id]
	}
	for _, s := range samples {
		a := row(s.Author)
		a.Samples += s.Samples
		a.Accepted += s.Accepted
	}
	var through ThroughputTable
	for _, s := range subs {
		a := row(s.Author)
		a.Submitted += s.N
		a.Days++
		through = append(through, ThroughputRow{Day: s.Day, Name: a.Name, Submitted: s.N})
	}
	for _, t := range tallies {
		if t.Round >= 1 && t.Round <= 3 {
			a := row(t.Who)
			a.Reviews[t.Round-1] += t.N
			if t.Decision == verify.DecisionReject {
				a.Rejected[t.Round-1] += t.N
			}
		}
	}
	var out AnnotatorTable
	for id, a := range rows {
		rs := SortReasons(slices.Clone(reasons[id]))
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
	return out, through
}

// ReviewTimes is one verifier's timed counted reviews: how many, and the median
// and 90th percentile of their seconds.
type ReviewTimes struct {
	Verifier    int64
	N           int
	Median, P90 float64
}

// PanelTally counts a verifier's counted round-3 votes on revisions whose panel
// has a result (verify.Round3Count.Result), and of those the votes equal to it.
type PanelTally struct {
	Verifier       int64
	Votes, Matches int
}

// NewVerifierTable makes the verifiers' rows, by name: one for every verifier
// of the project and everyone else with reviews (tallies by verifier), times or
// panel votes.
func NewVerifierTable(people map[int64]DashboardPerson, tallies []ReviewTally, times []ReviewTimes, panel []PanelTally) VerifierTable {
	rows := map[int64]*VerifierRow{}
	row := func(id int64) *VerifierRow {
		if rows[id] == nil {
			u := people[id]
			rows[id] = &VerifierRow{Name: u.Name, Group: u.Group}
		}
		return rows[id]
	}
	for id, u := range people {
		if u.Role == RoleVerifier {
			row(id)
		}
	}
	for _, t := range tallies {
		v := row(t.Who)
		if t.Round >= 1 && t.Round <= 3 {
			v.Rounds[t.Round-1] += t.N
		}
		v.Reviews += t.N
		if t.Decision == verify.DecisionApprove {
			v.Approved += t.N
		}
	}
	for _, t := range times {
		v := row(t.Verifier)
		v.Timed, v.MedianSeconds, v.P90Seconds = t.N, t.Median, t.P90
	}
	for _, p := range panel {
		v := row(p.Verifier)
		v.PanelVotes += p.Votes
		v.PanelMatches += p.Matches
	}
	var out VerifierTable
	for _, v := range rows {
		out = append(out, *v)
	}
	slices.SortFunc(out, func(a, b VerifierRow) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ActivityState is the state an audit row of a sample counts for in the
// activity: draft for "sample.create", the state after "→ " in the detail of
// "sample.status" ("round1 → round2"), else "".
func ActivityState(action, detail string) verify.State {
	if action == "sample.create" {
		return verify.StateDraft
	}
	if c, ok := ParseStatusChange(detail); ok {
		return c.To
	}
	return ""
}
