package annotate

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Edge is a precondition edge: step From must be done before step To
// (From is listed in To's precondition).
type Edge struct{ From, To string }

// String renders the edge as "step1 → step3".
func (e Edge) String() string { return e.From + " → " + e.To }

// Limits of the step-graph checks. Everything but the reachability pass is linear in
// the steps and preconditions; that pass (step-transitive, and step-unreachable when
// there are several candidate final steps) costs about (steps + edges) × ⌈steps/64⌉
// word operations.
const (
	// reachBudget bounds the reachability pass of a graph that already fails
	// steps-count (see Lint). 10,000 steps with 3 to 5 preconditions each cost
	// about 7.5M (Lint: 20 ms); the budget is reached near 28,000 such steps, or
	// 2,000 steps each listing every earlier one (Lint: 0.12 and 0.25 s). A graph
	// over it gets the linear checks only.
	reachBudget = 1 << 26
	// pathBudget bounds the edge visits spent finding, for the messages, the
	// shortest path that implies each redundant edge. Past it a message names the
	// path by its ends ("a → … → c → d"). A graph of normal size never gets near it.
	pathBudget = 1 << 22
	// blockWords bounds the memory of the reachability pass (16 MiB): the columns
	// are taken in blocks of as many steps as fit.
	blockWords = 1 << 21
	// listedFindings is how many findings of each rule a graph that fails
	// steps-count lists (a 10-step graph has at most 45 edges); one more finding
	// counts the rest. A 230-step import that lists every earlier step as a
	// precondition has 26,106 transitive edges.
	listedFindings = 100
)

// graphLimits bound checkGraph's work.
type graphLimits struct {
	reach int // word operations of the reachability pass; 0: unbounded
	paths int // edge visits spent naming paths; negative: unbounded
	words int // words of memory of the reachability pass
	list  int // findings listed of each rule and severity; 0: all
}

var (
	unbounded = graphLimits{reach: 0, paths: pathBudget, words: blockWords, list: 0}
	bounded   = graphLimits{reach: reachBudget, paths: pathBudget, words: blockWords, list: listedFindings}
)

// report collects findings, listing at most limit of each rule and severity (0: all)
// and counting the others.
type report struct {
	fs     []Finding
	limit  int
	counts []ruleCount // in the order first seen
}

type ruleCount struct {
	rule, severity string
	n              int
}

// listed counts one more finding of rule and severity and says whether to list it.
func (r *report) listed(rule, severity string) bool {
	if r.limit <= 0 {
		return true
	}
	i := slices.IndexFunc(r.counts, func(c ruleCount) bool { return c.rule == rule && c.severity == severity })
	if i < 0 {
		i = len(r.counts)
		r.counts = append(r.counts, ruleCount{rule, severity, 0})
	}
	r.counts[i].n++
	return r.counts[i].n <= r.limit
}

func (r *report) add(f Finding) {
	if r.listed(f.Rule, f.Severity) {
		r.fs = append(r.fs, f)
	}
}

// findings returns the listed findings and, for every rule and severity past the
// limit, one finding on "steps" saying how many more there are.
func (r *report) findings() []Finding {
	for _, c := range r.counts {
		if n := c.n - r.limit; n > 0 {
			r.fs = append(r.fs, Finding{Rule: c.rule, Severity: c.severity, Field: "steps",
				Message: fmt.Sprintf("…and %d more %s %ss in this graph, not listed", n, c.rule, c.severity),
				Hint:    "fix the step count first"})
		}
	}
	return r.fs
}

// stepGraph is the precondition graph of a step list. Its nodes are the steps with
// a non-empty id, first occurrence only; edges ignore unknown ids and self-loops.
type stepGraph struct {
	ids   []string       // node -> id, in step order
	node  map[string]int // id -> node
	at    []int          // node -> index in the step list
	pre   [][]int        // pre[v]: distinct preconditions of v, in list order
	post  [][]int        // post[u]: steps that list u, in step order
	edges int            // number of edges
}

// newStepGraph builds the graph of steps; ref[i][k] is the node that
// steps[i].Precondition[k] names, or -1.
func newStepGraph(steps []Step) (g *stepGraph, ref [][]int) {
	g = &stepGraph{node: map[string]int{}}
	for i, s := range steps {
		if _, dup := g.node[s.ID]; s.ID == "" || dup {
			continue
		}
		g.node[s.ID] = len(g.ids)
		g.ids = append(g.ids, s.ID)
		g.at = append(g.at, i)
	}
	n := len(g.ids)
	g.pre = make([][]int, n)
	g.post = make([][]int, n)
	ref = make([][]int, len(steps))
	listed := make([]int, n) // listed[u] == v+1: v already lists u
	v := 0                   // the next node, in step order
	for i, s := range steps {
		self := v < n && g.at[v] == i
		ref[i] = make([]int, len(s.Precondition))
		for k, p := range s.Precondition {
			u, ok := g.node[p]
			if !ok {
				u = -1
			}
			ref[i][k] = u
			if !self || u < 0 || u == v || listed[u] == v+1 {
				continue
			}
			listed[u] = v + 1
			g.pre[v] = append(g.pre[v], u)
			g.post[u] = append(g.post[u], v)
			g.edges++
		}
		if self {
			v++
		}
	}
	return g, ref
}

// components returns the strongly connected components in topological order of the
// condensation (a component comes after every component it depends on), members in
// step order, and the component of each node. It is Tarjan's algorithm along pre
// edges, iterative so that a long chain does not grow the goroutine stack.
func (g *stepGraph) components() (comps [][]int, comp []int) {
	n := len(g.ids)
	comp = make([]int, n)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	type frame struct{ v, next int } // a visit in progress: next is the index in pre[v]
	var calls []frame
	next := 0
	enter := func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v, 0})
	}
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		enter(root)
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.next < len(g.pre[v]) {
				w := g.pre[v][f.next]
				f.next++
				if index[w] < 0 {
					enter(w)
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 { // back in the caller: a component is emitted after its preconditions'
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var c []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = len(comps)
				c = append(c, w)
				if w == v {
					break
				}
			}
			slices.Sort(c)
			comps = append(comps, c)
		}
	}
	return comps, comp
}

// pathFinder finds paths along dependency edges, reusing its scratch space.
type pathFinder struct {
	g      *stepGraph
	parent []int
	mark   []int // mark[x] == search: x was reached in the current search
	search int
	queue  []int
	budget int // edge visits left; negative: unbounded
}

func newPathFinder(g *stepGraph, budget int) *pathFinder {
	n := len(g.ids)
	return &pathFinder{g: g, parent: make([]int, n), mark: make([]int, n), budget: budget}
}

// path returns the shortest path from u to w (u first) that a breadth-first search
// in step order finds, going only through nodes for which keep holds (a search
// that may leave out nodes that cannot lie on a path to w and still finds the same
// path). It returns nil, true when there is no path and nil, false when the budget
// ran out.
func (f *pathFinder) path(u, w int, keep func(int) bool) ([]int, bool) {
	f.search++
	f.mark[u], f.parent[u] = f.search, -1
	f.queue = append(f.queue[:0], u)
	for i := 0; i < len(f.queue); i++ {
		x := f.queue[i]
		for _, y := range f.g.post[x] {
			if f.budget == 0 {
				return nil, false
			}
			if f.budget > 0 {
				f.budget--
			}
			if y == w {
				p := []int{w}
				for z := x; z >= 0; z = f.parent[z] {
					p = append(p, z)
				}
				slices.Reverse(p)
				return p, true
			}
			if f.mark[y] != f.search && keep(y) {
				f.mark[y], f.parent[y] = f.search, x
				f.queue = append(f.queue, y)
			}
		}
	}
	return nil, true
}

func (g *stepGraph) names(nodes []int) []string {
	s := make([]string, len(nodes))
	for i, v := range nodes {
		s[i] = g.ids[v]
	}
	return s
}

func (g *stepGraph) field(v int, sub string) string {
	return fmt.Sprintf("steps[%d]%s", g.at[v], sub)
}

// reachCost estimates the word operations of reach.
func (g *stepGraph) reachCost() int {
	n := len(g.ids)
	return (n + g.edges) * ((n + 63) / 64)
}

// reach is the reachability pass, one walk over the components in topological order
// per block of columns. Each component c gets a bitset of the steps outside c that
// lead to it (its strict ancestors; columns are the steps in topological order), the
// union of its preconditions' bitsets and the preconditions themselves. From them:
//
//   - with wantVia (the graph must be acyclic): for every edge u = pre[v][i],
//     via[v][i] is the first other precondition w of v (in list order) that u leads
//     to, so that u → v is implied by u →…→ w → v; -1 when there is none. u → v is
//     redundant exactly when u is in the union of the bitsets of v's preconditions,
//     and the first such w is found by intersecting, precondition by precondition,
//     with the set of v's redundant preconditions not yet explained.
//   - for every node in sinks: count[s], the number of steps that lead to s, itself
//     included.
//
// It takes O((n + m) · n/64) word operations and about maxWords words of memory.
func (g *stepGraph) reach(comps [][]int, comp []int, wantVia bool, sinks []int, maxWords int) (via [][]int, count []int) {
	n, nc := len(g.ids), len(comps)
	if n == 0 {
		return nil, nil
	}
	start := make([]int, nc+1) // the columns of component c are start[c] to start[c+1]-1
	pos := make([]int, n)      // node -> column
	order := make([]int, n)    // column -> node
	for ci, c := range comps {
		start[ci+1] = start[ci] + len(c)
		for k, v := range c {
			pos[v], order[start[ci]+k] = start[ci]+k, v
		}
	}
	if wantVia {
		via = make([][]int, n)
		for v, pre := range g.pre {
			if len(pre) > 1 {
				via[v] = slices.Repeat([]int{-1}, len(pre))
			}
		}
	}
	if len(sinks) > 0 {
		count = make([]int, n)
		for _, s := range sinks {
			count[s] = len(comps[comp[s]])
		}
	}
	words := (n + 63) / 64
	block := max(1, min(words, maxWords/nc)) // words per bitset
	rows := make([]uint64, nc*block)
	pending := make([]uint64, block)
	edgeOf := make([]int, n) // edgeOf[u] = i while looking at v with pre[v][i] == u
	for c0 := 0; c0 < n; c0 += 64 * block {
		c1 := min(n, c0+64*block)
		bw := (c1 - c0 + 63) / 64
		first := comp[order[c0]] // components before it have no ancestors in the block
		clear(rows[:(nc-first)*bw])
		row := func(ci int) []uint64 { return rows[(ci-first)*bw:][:bw] }
		// used is the number of words of component ci's bitset that can be non-zero:
		// its ancestors come before it.
		used := func(ci int) int { return min(bw, max(0, start[ci]-c0+63)/64) }
		for ci := first; ci < nc; ci++ {
			r := row(ci)
			for _, v := range comps[ci] {
				for _, x := range g.pre[v] {
					if cx := comp[x]; cx != ci && cx >= first {
						rx := row(cx)
						for k := range used(cx) {
							r[k] |= rx[k]
						}
					}
				}
				if wantVia && via[v] != nil {
					g.explain(v, r, via[v], c0, c1, pos, order, edgeOf, pending[:bw], func(w int) []uint64 {
						if cw := comp[w]; cw >= first {
							return row(cw)[:used(cw)]
						}
						return nil
					})
				}
				for _, x := range g.pre[v] {
					if cx := comp[x]; cx != ci && cx >= first {
						setRange(r, start[cx]-c0, start[cx+1]-c0)
					}
				}
			}
		}
		for _, s := range sinks {
			if cs := comp[s]; cs >= first {
				for _, w := range row(cs)[:used(cs)] {
					count[s] += bits.OnesCount64(w)
				}
			}
		}
	}
	return via, count
}

// explain fills via for node v (see reach) within the block of columns c0 to c1-1:
// union is the union of the bitsets of v's preconditions, ancestors(w) the bitset of
// precondition w.
func (g *stepGraph) explain(v int, union []uint64, via []int, c0, c1 int, pos, order, edgeOf []int, pending []uint64, ancestors func(w int) []uint64) {
	clear(pending)
	left, lo, hi := 0, len(pending), 0
	for i, u := range g.pre[v] {
		q := pos[u] - c0
		if q < 0 || q >= c1-c0 || union[q>>6]&(1<<(q&63)) == 0 {
			continue
		}
		pending[q>>6] |= 1 << (q & 63)
		edgeOf[u] = i
		left++
		lo, hi = min(lo, q>>6), max(hi, q>>6+1)
	}
	for _, w := range g.pre[v] {
		if left == 0 {
			return
		}
		aw := ancestors(w)
		for k := lo; k < min(hi, len(aw)); k++ {
			hits := aw[k] & pending[k]
			if hits == 0 {
				continue
			}
			pending[k] &^= hits
			for ; hits != 0; hits &= hits - 1 {
				u := order[c0+k*64+bits.TrailingZeros64(hits)]
				via[edgeOf[u]] = w
				left--
			}
		}
	}
}

// setRange sets bits lo to hi-1 of b, clipped to b's length.
func setRange(b []uint64, lo, hi int) {
	lo, hi = max(lo, 0), min(hi, len(b)*64)
	for ; lo < hi && lo&63 != 0; lo++ {
		b[lo>>6] |= 1 << (lo & 63)
	}
	for ; lo+64 <= hi; lo += 64 {
		b[lo>>6] = ^uint64(0)
	}
	for ; lo < hi; lo++ {
		b[lo>>6] |= 1 << (lo & 63)
	}
}

// CheckGraph runs the step-graph rules of spec §6 on a step list and returns their
// findings, Sample left empty:
//   - schema: a step without an id, a duplicate id, a step without content (errors);
//     a precondition listed twice (warning);
//   - step-unknown-ref, step-self-ref: per offending precondition;
//   - step-cycle: one finding per cycle (strongly connected component), naming the
//     steps on it in order, e.g. "step1 → step2 → step1". A self-loop is a cycle of
//     length 1 and is reported only as step-self-ref;
//   - step-transitive: per redundant edge, e.g. "step1 → step3", with the path that
//     implies it; only checked once the graph is acyclic (a cycle makes "implied" moot);
//   - step-final: unless exactly one step is a precondition of no other step;
//   - step-unreachable (warning): a step from which the final step cannot be reached.
//     The §6 table gives step-final the severity error, so this warning has its own
//     id rather than reusing step-final at another severity. When there are several
//     candidate final steps, the one most steps lead to (the last listed on a tie) is
//     taken as the final step.
//
// The work is linear in the steps and preconditions, but for one reachability pass
// of O((steps + edges) · steps/64) word operations (bitsets over a topological order)
// that step-transitive and, with several candidate final steps, step-unreachable
// need. The path a step-transitive message names is the shortest one; past a budget
// of search work (never reached by graphs of a normal size) it is named by its ends,
// "a → … → c → d".
//
// The step count is checked by Lint (it depends on whether the sample is hand-written).
// For a graph that fails it, Lint bounds this work: it lists the first 100 findings
// of each rule and counts the others, and skips the reachability pass when it would
// cost more than reachBudget, saying so in the steps-count finding.
func CheckGraph(steps []Step) []Finding {
	fs, _ := checkGraph(steps, unbounded)
	return fs
}

// checkGraph is CheckGraph within lim; skipped names the rules that the reachability
// pass would have checked had it been within lim.reach.
func checkGraph(steps []Step, lim graphLimits) (fs []Finding, skipped []string) {
	r := &report{limit: lim.list}
	g, ref := newStepGraph(steps)
	for i, s := range steps {
		field := fmt.Sprintf("steps[%d]", i)
		switch v, ok := g.node[s.ID]; {
		case s.ID == "":
			r.add(errorf(RuleSchema, field+".id", fmt.Sprintf("step %d has no id", i+1), `give it an id such as "step`+fmt.Sprint(i+1)+`"`))
		case ok && g.at[v] != i:
			r.add(errorf(RuleSchema, field+".id", fmt.Sprintf("step id %q is also used by step #%d", s.ID, g.at[v]+1), "give every step its own id"))
		}
		if strings.TrimSpace(s.Content) == "" {
			r.add(errorf(RuleSchema, field+".content", fmt.Sprintf("step %s has no content", stepName(s, i)), "describe one action on one object"))
		}
	}
	listed := make([]int, len(g.ids)) // listed[u] == i+1: steps[i] lists u
	for i, s := range steps {
		field, name := fmt.Sprintf("steps[%d].precondition", i), stepName(s, i)
		self, ok := g.node[s.ID]
		if !ok {
			self = -1
		}
		for k, p := range s.Precondition {
			switch u := ref[i][k]; {
			case u >= 0 && u == self:
				r.add(errorf(RuleStepSelfRef, field, fmt.Sprintf("%s lists itself as a precondition", name), fmt.Sprintf("remove %q from its preconditions", p)))
			case u < 0:
				r.add(errorf(RuleStepUnknownRef, field, fmt.Sprintf("%s lists %q, which is not a step", name, p), "remove it or use an existing step id"))
			case listed[u] == i+1:
				r.add(warnf(RuleSchema, field, fmt.Sprintf("%s lists %q twice", name, p), "remove the repeat"))
			default:
				listed[u] = i + 1
			}
		}
	}

	comps, comp := g.components()
	paths := newPathFinder(g, -1)
	cyclic := false
	for _, c := range comps {
		if len(c) < 2 {
			continue
		}
		cyclic = true
		v := c[0]
		msg := "precondition cycle: " + strings.Join(g.names(g.cycleThrough(v, comp, paths)), " → ")
		r.add(errorf(RuleStepCycle, g.field(v, ".precondition"), msg, "remove one precondition on the cycle"))
	}
	var sinks []int
	for v := range g.ids {
		if len(g.post[v]) == 0 {
			sinks = append(sinks, v)
		}
	}
	wantVia, wantCount := !cyclic, len(sinks) > 1
	if lim.reach > 0 && (wantVia || wantCount) && g.reachCost() > lim.reach {
		if wantVia {
			skipped = append(skipped, RuleStepTransitive)
		}
		if wantCount {
			skipped = append(skipped, RuleStepUnreachable)
		}
		wantVia, wantCount = false, false
	}
	var via [][]int
	var count []int
	if wantVia || wantCount {
		countSinks := sinks
		if !wantCount {
			countSinks = nil
		}
		via, count = g.reach(comps, comp, wantVia, countSinks, lim.words)
	}
	if wantVia {
		g.transitiveFindings(r, via, comp, lim.paths)
	}
	switch {
	case len(g.ids) == 0:
	case len(sinks) == 0:
		r.add(errorf(RuleStepFinal, "steps", "no final step: every step is a precondition of another", "break the cycle so that the task step comes last"))
	default:
		if len(sinks) > 1 {
			r.add(errorf(RuleStepFinal, "steps",
				fmt.Sprintf("%d steps are not a precondition of any other step (%s); exactly one, the final step, should be", len(sinks), strings.Join(g.names(sinks), ", ")),
				"make the extra steps preconditions of a later step, or delete them"))
		}
		if len(sinks) == 1 || wantCount {
			g.unreachableFindings(r, sinks, count)
		}
	}
	return r.findings(), skipped
}

// transitiveFindings reports the redundant edges that reach found, in step order,
// each with the shortest path that implies it (named by its ends once pathBudget is
// spent).
func (g *stepGraph) transitiveFindings(r *report, via [][]int, comp []int, budget int) {
	paths := newPathFinder(g, budget)
	for v, vs := range via {
		for i, w := range vs {
			if w < 0 || !r.listed(RuleStepTransitive, SeverityError) {
				continue
			}
			u := g.pre[v][i]
			e := Edge{g.ids[u], g.ids[v]}
			// Only the steps before w in the topological order can lie on a path to w.
			implied := e.From + " → … → " + g.ids[w] + " → " + e.To
			if p, _ := paths.path(u, w, func(y int) bool { return comp[y] < comp[w] }); p != nil {
				implied = strings.Join(g.names(append(p, v)), " → ")
			}
			r.fs = append(r.fs, errorf(RuleStepTransitive, g.field(v, ".precondition"),
				fmt.Sprintf("redundant edge %s: already implied by %s", e, implied),
				fmt.Sprintf("remove %s from the preconditions of %s", e.From, e.To)))
		}
	}
}

// cycleThrough returns a shortest cycle through v inside its component, v first and
// last. The search stays inside the component: every step on a cycle through v is in it.
func (g *stepGraph) cycleThrough(v int, comp []int, paths *pathFinder) []int {
	inside := func(y int) bool { return comp[y] == comp[v] }
	for _, w := range g.pre[v] { // w → v closes a cycle v →…→ w → v
		if comp[w] == comp[v] {
			if p, _ := paths.path(v, w, inside); p != nil {
				return append(p, v)
			}
		}
	}
	return []int{v} // not reached: v has a precondition inside its component
}

// unreachableFindings warns about the steps that do not lead to the final step: the
// sink most steps lead to (count, from reach; not needed for a single sink), the
// last listed on a tie.
func (g *stepGraph) unreachableFindings(r *report, sinks, count []int) {
	final := sinks[0]
	for _, s := range sinks[1:] {
		if count[s] >= count[final] {
			final = s
		}
	}
	for v, ok := range g.ancestors(final) {
		if !ok && r.listed(RuleStepUnreachable, SeverityWarning) {
			r.fs = append(r.fs, warnf(RuleStepUnreachable, g.field(v, ""),
				fmt.Sprintf("%s does not lead to the final step %s", g.ids[v], g.ids[final]),
				"make it a precondition of the step that needs it, or delete it"))
		}
	}
}

// ancestors marks v and every step that leads to it.
func (g *stepGraph) ancestors(v int) []bool {
	seen := make([]bool, len(g.ids))
	seen[v] = true
	queue := []int{v}
	for i := 0; i < len(queue); i++ {
		for _, u := range g.pre[queue[i]] {
			if !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	return seen
}

func stepName(s Step, i int) string {
	if s.ID != "" {
		return s.ID
	}
	return fmt.Sprintf("step #%d", i+1)
}

// Layers groups step ids into columns for drawing the graph left to right: a step
// sits one column right of its deepest precondition. Steps on a cycle share a column,
// unknown ids and self-references are ignored, and steps without an id, or repeating
// an earlier id, are left out. Within a column steps keep their list order.
func Layers(steps []Step) [][]string {
	g, _ := newStepGraph(steps)
	comps, comp := g.components()
	depth := make([]int, len(comps))
	var layers [][]string
	for ci, c := range comps { // topological order: preconditions' components first
		for _, v := range c {
			for _, u := range g.pre[v] {
				if comp[u] != ci {
					depth[ci] = max(depth[ci], depth[comp[u]]+1)
				}
			}
		}
		for len(layers) <= depth[ci] {
			layers = append(layers, nil)
		}
	}
	for v, id := range g.ids {
		d := depth[comp[v]]
		layers[d] = append(layers[d], id)
	}
	return layers
}

// RedundantEdges returns the transitive precondition edges (an edge implied by a
// longer path), in step order. It returns nil while the graph has a cycle. Its work
// is that of CheckGraph's reachability pass.
func RedundantEdges(steps []Step) []Edge {
	g, _ := newStepGraph(steps)
	comps, comp := g.components()
	if len(comps) != len(g.ids) {
		return nil
	}
	via, _ := g.reach(comps, comp, true, nil, blockWords)
	var out []Edge
	for v, vs := range via {
		for i, w := range vs {
			if w >= 0 {
				out = append(out, Edge{g.ids[g.pre[v][i]], g.ids[v]})
			}
		}
	}
	return out
}

// RemovePrecondition returns a copy of steps in which step to no longer lists from
// as a precondition. The input is not modified.
func RemovePrecondition(steps []Step, from, to string) []Step {
	out := make([]Step, len(steps))
	for i, s := range steps {
		s.Precondition = slices.Clone(s.Precondition)
		if s.ID == to {
			s.Precondition = slices.DeleteFunc(s.Precondition, func(p string) bool { return p == from })
		}
		out[i] = s
	}
	return out
}
