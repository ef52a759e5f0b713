// Package augment derives candidate samples from verified ones: new step graphs as
// SpatiaLQA grew its set (spatialqa.txt §3.2, lines 98–104; spec §1b), and
// LRR-Bench's negatives of yes/no questions about image sequences (shuffle.go):
//
//   - subgraph extraction (Subgraph): every step with at least one ancestor gives a
//     sample made of that step and all its ancestors, preconditions kept, whose
//     question is that step's action;
//   - graph expansion (Expand): a final step "Pick up B" and an intermediate step
//     "Remove A (from …)" give the question "Place B on A": "Remove A" becomes
//     "Pick up A", and "Put down A" (after "Pick up A") and "Place B on A" (after
//     "Pick up B" and "Put down A") are appended;
//   - shuffled order (Shuffle): a yes/no question about a sequence of images, shown
//     in another order drawn from a seed, with the answer flipped.
//
// A derived sample keeps its parent's image, scene, task and split, records its
// parent and transform, and is a candidate only: a person accepts, edits or discards
// it (the store keeps the decision and the lineage). Where a step's wording does not
// fit the pattern the candidate says so in Edit and is offered for manual editing,
// never produced wrong. Step graphs and their rules are annotate's; this package
// only builds graphs and checks them with annotate.CheckGraph. Plain Go: no UI, no SQL.
package augment

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Transform is how a candidate was derived from its parent.
type Transform string

// The transforms of spatialqa.txt §3.2, and LRR-Bench's shuffled negative.
const (
	Subgraph Transform = "subgraph"
	Expand   Transform = "expand"
	Shuffle  Transform = "shuffle"
)

// Transforms lists every transform in a stable order.
var Transforms = []Transform{Subgraph, Expand, Shuffle}

// Valid reports whether t is a known transform.
func (t Transform) Valid() bool { return t == Subgraph || t == Expand || t == Shuffle }

// ParseTransform reads a transform name; "" is not one.
func ParseTransform(s string) (Transform, error) {
	if t := Transform(strings.TrimSpace(s)); t.Valid() {
		return t, nil
	}
	return "", fmt.Errorf("unknown transform %q: use subgraph, expand or shuffle", s)
}

// Applies reports whether t derives from samples of kind k: the step-graph
// transforms from step graphs, Shuffle from yes/no questions.
func (t Transform) Applies(k annotate.Kind) bool {
	if t == Shuffle {
		return k == annotate.KindJudgment
	}
	return k == annotate.KindStepGraph
}

// MaxSteps is the most steps a derived step graph may have (spatialqa.txt: the
// released set has 2–10; annotate.Lint's steps-count rule).
const MaxSteps = 10

// Candidate is one derived sample, not yet accepted.
type Candidate struct {
	Transform Transform
	// Anchor is the id of the parent's step the candidate was made from: the step
	// whose subgraph it is, or the "Remove A" step it expands.
	Anchor string
	// Sample is the derived sample: no id yet, Parent and Transform set, the
	// parent's image, scene, task and split, steps numbered step1…stepN.
	Sample annotate.Sample
	// Origin[i] is the id of the parent's step that Sample.Steps[i] comes from, ""
	// for a step the transform added.
	Origin []string
	// Edit, when not empty, says why the candidate needs manual editing before it
	// can be accepted: the wording did not fit the pattern, or the result would
	// break a step-graph rule. Sample is then the best attempt, for the editor.
	Edit string
}

// Key names the candidate among its parent's: "subgraph:step3".
func (c Candidate) Key() string { return string(c.Transform) + ":" + c.Anchor }

// ErrParent is returned for a parent that cannot be augmented: not a step graph,
// or a graph with lint errors; for Shuffle, not a yes/no question about a sequence.
var ErrParent = errors.New("not an augmentable sample")

// Derive returns the candidates of the given transforms (all of them that apply to
// the parent's kind when none is given) for parent, in transform order, then in
// the parent's step order. A step-graph transform needs a step graph that
// annotate.CheckGraph finds no error in; Shuffle a yes/no question about two or
// more images.
func Derive(parent annotate.Sample, ts ...Transform) ([]Candidate, error) {
	if len(ts) == 0 {
		for _, t := range Transforms {
			if t.Applies(parent.Kind) {
				ts = append(ts, t)
			}
		}
	}
	if slices.Contains(ts, Shuffle) {
		if why := shuffleParent(parent); why != "" {
			return nil, fmt.Errorf("%w: %s", ErrParent, why)
		}
		if len(ts) > 1 {
			return nil, fmt.Errorf("%w: %s: shuffle derives from yes/no questions, the other transforms from step graphs", ErrParent, parent.ID)
		}
		return shuffles(parent), nil
	}
	if parent.Kind != annotate.KindStepGraph {
		return nil, fmt.Errorf("%w: %s is a %s sample", ErrParent, parent.ID, parent.Kind)
	}
	if fs := annotate.CheckGraph(parent.Steps); annotate.HasErrors(fs) {
		for _, f := range fs {
			if f.Severity == annotate.SeverityError {
				return nil, fmt.Errorf("%w: %s: %s", ErrParent, parent.ID, f.Message)
			}
		}
	}
	var out []Candidate
	for _, t := range ts {
		switch t {
		case Subgraph:
			out = append(out, subgraphs(parent)...)
		case Expand:
			out = append(out, expansions(parent)...)
		default:
			return nil, fmt.Errorf("unknown transform %q", t)
		}
	}
	return out, nil
}

// graph is the parent's precondition graph by step index.
type graph struct {
	steps []annotate.Step
	index map[string]int
	pre   [][]int
	final int // the step no other step lists; -1 when there is not exactly one
}

func newGraph(steps []annotate.Step) graph {
	g := graph{steps: steps, index: map[string]int{}, pre: make([][]int, len(steps)), final: -1}
	for i, s := range steps {
		g.index[s.ID] = i
	}
	listed := make([]bool, len(steps))
	for i, s := range steps {
		for _, p := range s.Precondition {
			if j, ok := g.index[p]; ok {
				g.pre[i] = append(g.pre[i], j)
				listed[j] = true
			}
		}
	}
	for i := range steps {
		if !listed[i] {
			if g.final >= 0 {
				g.final = -1
				break
			}
			g.final = i
		}
	}
	return g
}

// ancestors marks v and every step that leads to it.
func (g graph) ancestors(v int) []bool {
	seen := make([]bool, len(g.steps))
	seen[v] = true
	stack := []int{v}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range g.pre[x] {
			if !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return seen
}

// subgraphs: one candidate per step with an ancestor, unless its subgraph is the
// whole parent (the final step of a graph whose every step leads to it).
func subgraphs(parent annotate.Sample) []Candidate {
	g := newGraph(parent.Steps)
	var out []Candidate
	for v, s := range parent.Steps {
		if len(g.pre[v]) == 0 {
			continue
		}
		keep := g.ancestors(v)
		n := 0
		for _, k := range keep {
			if k {
				n++
			}
		}
		if n == len(parent.Steps) {
			continue
		}
		var steps []annotate.Step
		var origin []string
		for i, st := range parent.Steps {
			if keep[i] {
				steps = append(steps, st)
				origin = append(origin, st.ID)
			}
		}
		c := candidate(parent, Subgraph, s.ID, strings.TrimSpace(s.Content), steps, origin)
		out = append(out, c)
	}
	return out
}

var (
	pickUpRe = regexp.MustCompile(`(?i)^\s*pick\s+up\s+(.*?)\s*[.!]?\s*$`)
	removeRe = regexp.MustCompile(`(?i)^\s*remove\s+(.*?)(?:\s+(?:from|off)\b.*?)?\s*[.!]?\s*$`)
	// several is wording that names more than one object, or more than the object.
	several = regexp.MustCompile(`(?i)(\band\b|,|;|\bthen\b|\bfrom\b|\boff\b|\bwith\b|\bonto\b|\binto\b)`)
	article = regexp.MustCompile(`(?i)^(the|a|an)\s+`)
)

// object reads the object an action names (the rest of the content after the verb);
// problem says why it does not fit: empty, or several objects or a place.
func object(re *regexp.Regexp, content string) (obj string, matched bool, problem string) {
	m := re.FindStringSubmatch(content)
	if m == nil {
		return "", false, ""
	}
	obj = strings.Join(strings.Fields(m[1]), " ")
	switch {
	case obj == "":
		return "", true, "names no object"
	case several.MatchString(obj):
		return obj, true, fmt.Sprintf("%q does not name one object", obj)
	}
	return obj, true, ""
}

// sameObject reports whether two object phrases name the same thing, ignoring case,
// spacing and a leading article.
func sameObject(a, b string) bool {
	norm := func(s string) string { return article.ReplaceAllString(annotate.NormalizeQuestion(s), "") }
	return norm(a) == norm(b)
}

// expansions: for a final step "Pick up B", one candidate per intermediate step
// "Remove A …". A parent whose final step is not a pick-up gives none.
func expansions(parent annotate.Sample) []Candidate {
	g := newGraph(parent.Steps)
	if g.final < 0 {
		return nil
	}
	fin := parent.Steps[g.final]
	b, ok, bProblem := object(pickUpRe, fin.Content)
	if !ok {
		return nil
	}
	var out []Candidate
	for r, rs := range parent.Steps {
		if r == g.final {
			continue
		}
		a, ok, aProblem := object(removeRe, rs.Content)
		if !ok {
			continue
		}
		var problems []string
		if bProblem != "" {
			problems = append(problems, fmt.Sprintf("the final step %s %q: %s", fin.ID, fin.Content, bProblem))
		}
		if aProblem != "" {
			problems = append(problems, fmt.Sprintf("step %s %q: %s", rs.ID, rs.Content, aProblem))
		}
		if aProblem == "" && bProblem == "" && sameObject(a, b) {
			problems = append(problems, fmt.Sprintf("step %s removes %q, the object the task picks up", rs.ID, a))
		}
		a, b := cmpOr(a, "A"), cmpOr(b, "B")
		steps := make([]annotate.Step, 0, len(parent.Steps)+2)
		origin := make([]string, 0, len(parent.Steps)+2)
		for i, st := range parent.Steps {
			if i == r {
				st.Content = "Pick up " + a
			}
			steps = append(steps, st)
			origin = append(origin, st.ID)
		}
		putDown, place := freeID(parent.Steps, "put_down"), freeID(parent.Steps, "place")
		question := "Place " + b + " on " + a
		steps = append(steps,
			annotate.Step{ID: putDown, Content: "Put down " + a, Precondition: []string{rs.ID}},
			annotate.Step{ID: place, Content: question, Precondition: []string{fin.ID, putDown}})
		origin = append(origin, "", "")
		c := candidate(parent, Expand, rs.ID, question, steps, origin)
		if c.Edit != "" {
			problems = append(problems, c.Edit)
		}
		c.Edit = strings.Join(problems, "; ")
		out = append(out, c)
	}
	return out
}

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// freeID is an id no step of steps has: base, or base2, base3, ….
func freeID(steps []annotate.Step, base string) string {
	id := base
	for n := 2; ; n++ {
		taken := false
		for _, s := range steps {
			taken = taken || s.ID == id
		}
		if !taken {
			return id
		}
		id = base + strconv.Itoa(n)
	}
}

// candidate renumbers steps step1…stepN (preconditions renamed with them), drops
// any precondition another path implies, and checks the result: a graph that
// breaks a step-graph rule or has more than MaxSteps steps is marked for editing.
func candidate(parent annotate.Sample, t Transform, anchor, question string, steps []annotate.Step, origin []string) Candidate {
	rename := map[string]string{}
	for i, s := range steps {
		rename[s.ID] = "step" + strconv.Itoa(i+1)
	}
	out := make([]annotate.Step, len(steps))
	for i, s := range steps {
		pre := make([]string, 0, len(s.Precondition))
		for _, p := range s.Precondition {
			if id, ok := rename[p]; ok {
				pre = append(pre, id)
			}
		}
		out[i] = annotate.Step{ID: rename[s.ID], Content: s.Content, Precondition: pre}
	}
	for _, e := range annotate.RedundantEdges(out) {
		out = annotate.RemovePrecondition(out, e.From, e.To)
	}
	c := Candidate{Transform: t, Anchor: anchor, Origin: origin, Sample: annotate.Sample{
		Kind: annotate.KindStepGraph, Image: parent.Image, Scene: parent.Scene, Question: question,
		Steps: out, Task: parent.Task, Split: parent.Split, Parent: parent.ID, Transform: string(t),
	}}
	var problems []string
	if len(out) > MaxSteps {
		problems = append(problems, fmt.Sprintf("%d steps, more than %d: merge or drop steps", len(out), MaxSteps))
	}
	for _, f := range annotate.CheckGraph(out) {
		if f.Severity == annotate.SeverityError {
			problems = append(problems, f.Message)
		}
	}
	c.Edit = strings.Join(problems, "; ")
	return c
}
