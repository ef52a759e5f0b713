package annotate

// The step-graph checks as they were before they were made near-linear (a BFS per
// pair of preconditions per step): kept as the reference the fast ones must agree
// with, finding for finding, on graphs of normal size.

import (
	"fmt"
	"slices"
	"strings"
)

// refGraph is the precondition graph of a step list. Its nodes are the steps with
// a non-empty id, first occurrence only; edges ignore unknown ids and self-loops.
type refGraph struct {
	ids  []string       // node -> id, in step order
	node map[string]int // id -> node
	at   []int          // node -> index in the step list
	pre  [][]int        // pre[v]: distinct preconditions of v, in list order
	post [][]int        // post[u]: steps that list u, in step order
}

func newRefGraph(steps []Step) *refGraph {
	g := &refGraph{node: map[string]int{}}
	for i, s := range steps {
		if _, dup := g.node[s.ID]; s.ID == "" || dup {
			continue
		}
		g.node[s.ID] = len(g.ids)
		g.ids = append(g.ids, s.ID)
		g.at = append(g.at, i)
	}
	g.pre = make([][]int, len(g.ids))
	g.post = make([][]int, len(g.ids))
	for v, i := range g.at {
		for _, p := range steps[i].Precondition {
			u, ok := g.node[p]
			if !ok || u == v || slices.Contains(g.pre[v], u) {
				continue
			}
			g.pre[v] = append(g.pre[v], u)
			g.post[u] = append(g.post[u], v)
		}
	}
	return g
}

// components returns the strongly connected components in topological order of the
// condensation (a component comes after every component it depends on), members in
// step order, and the component of each node.
func (g *refGraph) components() (comps [][]int, comp []int) {
	n := len(g.ids)
	comp = make([]int, n)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	var visit func(v int)
	visit = func(v int) { // Tarjan along pre edges: a component is emitted after its preconditions'
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range g.pre[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
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
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return comps, comp
}

// path returns a shortest path from u to w along dependency edges (u first), or nil.
func (g *refGraph) path(u, w int) []int {
	parent := map[int]int{u: -1}
	queue := []int{u}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range g.post[x] {
			if y == w {
				p := []int{w}
				for z := x; z >= 0; z = parent[z] {
					p = append(p, z)
				}
				slices.Reverse(p)
				return p
			}
			if _, seen := parent[y]; !seen {
				parent[y] = x
				queue = append(queue, y)
			}
		}
	}
	return nil
}

func (g *refGraph) names(nodes []int) []string {
	s := make([]string, len(nodes))
	for i, v := range nodes {
		s[i] = g.ids[v]
	}
	return s
}

func (g *refGraph) field(v int, sub string) string {
	return fmt.Sprintf("steps[%d]%s", g.at[v], sub)
}

// refRedundantEdge is a transitive edge with the longer path that implies it.
type refRedundantEdge struct {
	from, to int
	via      []int
}

// redundant finds the transitive edges of an acyclic graph: u → v is redundant when
// u also reaches another precondition of v.
func (g *refGraph) redundant() []refRedundantEdge {
	var out []refRedundantEdge
	for v := range g.ids {
		for _, u := range g.pre[v] {
			for _, w := range g.pre[v] {
				if w == u {
					continue
				}
				if p := g.path(u, w); p != nil {
					out = append(out, refRedundantEdge{u, v, append(p, v)})
					break
				}
			}
		}
	}
	return out
}

func (g *refGraph) acyclic() bool {
	comps, _ := g.components()
	return len(comps) == len(g.ids)
}

// refCheckGraph is CheckGraph as it was.
func refCheckGraph(steps []Step) []Finding {
	var fs []Finding
	first := map[string]int{}
	for i, s := range steps {
		field := fmt.Sprintf("steps[%d]", i)
		switch j, dup := first[s.ID]; {
		case s.ID == "":
			fs = append(fs, errorf(RuleSchema, field+".id", fmt.Sprintf("step %d has no id", i+1), `give it an id such as "step`+fmt.Sprint(i+1)+`"`))
		case dup:
			fs = append(fs, errorf(RuleSchema, field+".id", fmt.Sprintf("step id %q is also used by step #%d", s.ID, j+1), "give every step its own id"))
		default:
			first[s.ID] = i
		}
		if strings.TrimSpace(s.Content) == "" {
			fs = append(fs, errorf(RuleSchema, field+".content", fmt.Sprintf("step %s has no content", stepName(s, i)), "describe one action on one object"))
		}
	}
	for i, s := range steps {
		field, name := fmt.Sprintf("steps[%d].precondition", i), stepName(s, i)
		for k, p := range s.Precondition {
			switch _, known := first[p]; {
			case p != "" && p == s.ID:
				fs = append(fs, errorf(RuleStepSelfRef, field, fmt.Sprintf("%s lists itself as a precondition", name), fmt.Sprintf("remove %q from its preconditions", p)))
			case !known:
				fs = append(fs, errorf(RuleStepUnknownRef, field, fmt.Sprintf("%s lists %q, which is not a step", name, p), "remove it or use an existing step id"))
			case slices.Contains(s.Precondition[:k], p):
				fs = append(fs, warnf(RuleSchema, field, fmt.Sprintf("%s lists %q twice", name, p), "remove the repeat"))
			}
		}
	}

	g := newRefGraph(steps)
	comps, _ := g.components()
	cyclic := false
	for _, c := range comps {
		if len(c) < 2 {
			continue
		}
		cyclic = true
		msg := "precondition cycle: " + strings.Join(g.names(g.cycleThrough(c[0], c)), " → ")
		fs = append(fs, errorf(RuleStepCycle, g.field(c[0], ".precondition"), msg, "remove one precondition on the cycle"))
	}
	if !cyclic {
		for _, r := range g.redundant() {
			e := Edge{g.ids[r.from], g.ids[r.to]}
			fs = append(fs, errorf(RuleStepTransitive, g.field(r.to, ".precondition"),
				fmt.Sprintf("redundant edge %s: already implied by %s", e, strings.Join(g.names(r.via), " → ")),
				fmt.Sprintf("remove %s from the preconditions of %s", e.From, e.To)))
		}
	}
	return append(fs, g.finalFindings()...)
}

// cycleThrough returns a shortest cycle through v inside its component c, v first and last.
func (g *refGraph) cycleThrough(v int, c []int) []int {
	for _, w := range g.pre[v] { // w → v closes a cycle v →…→ w → v
		if slices.Contains(c, w) {
			if p := g.path(v, w); p != nil {
				return append(p, v)
			}
		}
	}
	return c // not reached: v has a precondition inside its component
}

func (g *refGraph) finalFindings() []Finding {
	var sinks []int
	for v := range g.ids {
		if len(g.post[v]) == 0 {
			sinks = append(sinks, v)
		}
	}
	var fs []Finding
	switch {
	case len(g.ids) == 0:
		return nil
	case len(sinks) == 0:
		return []Finding{errorf(RuleStepFinal, "steps", "no final step: every step is a precondition of another", "break the cycle so that the task step comes last")}
	case len(sinks) > 1:
		fs = append(fs, errorf(RuleStepFinal, "steps",
			fmt.Sprintf("%d steps are not a precondition of any other step (%s); exactly one, the final step, should be", len(sinks), strings.Join(g.names(sinks), ", ")),
			"make the extra steps preconditions of a later step, or delete them"))
	}
	// The final step is the sink with the most steps leading to it, the last listed on a tie.
	var final int
	var reaches []bool
	best := -1
	for _, v := range sinks {
		r, n := g.ancestors(v)
		if n >= best {
			final, reaches, best = v, r, n
		}
	}
	for v, ok := range reaches {
		if !ok {
			fs = append(fs, warnf(RuleStepUnreachable, g.field(v, ""),
				fmt.Sprintf("%s does not lead to the final step %s", g.ids[v], g.ids[final]),
				"make it a precondition of the step that needs it, or delete it"))
		}
	}
	return fs
}

// ancestors marks v and every step that leads to it, and counts them.
func (g *refGraph) ancestors(v int) ([]bool, int) {
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
	return seen, len(queue)
}

// refLayers is Layers as it was.
func refLayers(steps []Step) [][]string {
	g := newRefGraph(steps)
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

// refRedundantEdges is RedundantEdges as it was.
func refRedundantEdges(steps []Step) []Edge {
	g := newRefGraph(steps)
	if !g.acyclic() {
		return nil
	}
	var out []Edge
	for _, r := range g.redundant() {
		out = append(out, Edge{g.ids[r.from], g.ids[r.to]})
	}
	return out
}
