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
