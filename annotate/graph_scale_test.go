package annotate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// messySteps is a random step list of n steps with every problem CheckGraph knows:
// mostly preconditions on earlier steps (so that transitive edges are common), and,
// each with probability about bad, a later step (cycles), an unknown id, the step
// itself, a repeat, a missing or reused id, or blank content.
func messySteps(r *rand.Rand, n int, bad float64) []Step {
	out := make([]Step, n)
	for i := range out {
		out[i] = Step{ID: fmt.Sprintf("s%d", i+1), Content: "do it", Precondition: []string{}}
		switch x := r.Float64(); {
		case x < bad/2:
			out[i].ID = ""
		case x < bad && i > 0:
			out[i].ID = out[r.IntN(i)].ID
		}
		if r.Float64() < bad/2 {
			out[i].Content = " "
		}
	}
	for i := range out {
		k := r.IntN(4)
		if r.Float64() < 0.1 {
			k = r.IntN(n + 1)
		}
		for range k {
			p := ""
			switch x := r.Float64(); {
			case x < bad:
				p = out[r.IntN(n)].ID // any step, possibly later: cycles
			case x < bad*1.3:
				p = "zz"
			case x < bad*1.6:
				p = out[i].ID
			case x < bad*2 && len(out[i].Precondition) > 0:
				p = out[i].Precondition[r.IntN(len(out[i].Precondition))]
			case i > 0:
				p = out[r.IntN(i)].ID
			default:
				continue
			}
			out[i].Precondition = append(out[i].Precondition, p)
		}
	}
	return out
}

// TestCheckGraphMatchesReference holds the near-linear checks to the old ones (a BFS
// per pair of preconditions, graph_ref_test.go), finding for finding, message for
// message and in the same order, on random graphs with every kind of problem, with
// reachability bitsets of one block and of many.
func TestCheckGraphMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	tiny := graphLimits{reach: 0, paths: -1, words: 1}
	for i := range 3000 {
		n := 1 + r.IntN(24)
		bad := []float64{0, 0.03, 0.15}[i%3]
		steps := messySteps(r, n, bad)
		compareWithReference(t, steps, tiny)
		if t.Failed() {
			t.Fatalf("graph %d: %+v", i, steps)
		}
	}
}

func TestCheckGraphMatchesReferenceOnLargerGraphs(t *testing.T) {
	tiny := graphLimits{reach: 0, paths: -1, words: 1} // 64 columns a block
	for _, tt := range []struct {
		n    int
		bad  float64
		seed uint64
	}{{70, 0, 1}, {130, 0, 2}, {130, 0.01, 3}, {200, 0, 4}, {230, 0, 5}, {230, 0.005, 6}} {
		steps := messySteps(rand.New(rand.NewPCG(tt.seed, 2)), tt.n, tt.bad)
		compareWithReference(t, steps, tiny)
	}
	for _, n := range []int{70, 200} {
		compareWithReference(t, randomSteps(n, 3, 5, uint64(n), false), tiny)
		compareWithReference(t, randomSteps(n, 1, 8, uint64(n), true), tiny)
	}
	compareWithReference(t, closureSteps(40), tiny)
}

func compareWithReference(t *testing.T, steps []Step, small graphLimits) {
	t.Helper()
	want := refCheckGraph(steps)
	if got := CheckGraph(steps); !slices.Equal(got, want) {
		t.Errorf("%d steps: CheckGraph differs from the reference:\ngot  %q\nwant %q", len(steps), brief(got), brief(want))
	}
	if got, _ := checkGraph(steps, small); !slices.Equal(got, want) {
		t.Errorf("%d steps: CheckGraph in blocks of %d columns differs from the reference:\ngot  %q\nwant %q", len(steps), 64*small.words, brief(got), brief(want))
	}
	if got, want := RedundantEdges(steps), refRedundantEdges(steps); !slices.Equal(got, want) {
		t.Errorf("%d steps: RedundantEdges = %v, want %v", len(steps), got, want)
	}
	if got, want := Layers(steps), refLayers(steps); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("%d steps: Layers = %q, want %q", len(steps), got, want)
	}
}

// spatiaLQARecord is a SpatiaLQA record, as a model writes it, whose answer has n
// steps each listing every earlier step: the shape that took minutes to lint.
func spatiaLQARecord(n int) string {
	var b strings.Builder
	b.WriteString(`{"id": "sq-big", "image": "0001-office-1/img_003.jpg", "question": "Pick up the laptop", "answer": {`)
	for i := 1; i <= n; i++ {
		pre := make([]string, i-1)
		for j := range pre {
			pre[j] = fmt.Sprintf(`"step%d"`, j+1)
		}
		fmt.Fprintf(&b, `%s"step%d": {"content": "do step %d", "precondition": [%s]}`, map[bool]string{true: "", false: ", "}[i == 1], i, i, strings.Join(pre, ", "))
	}
	b.WriteString("}}")
	return b.String()
}

// TestLintLargeImportedGraph lints a 230-step SpatiaLQA record in which every step
// lists every earlier one: every edge but the chain's is transitive, implied through
// the step right after its source. CheckGraph lists all 26,106; Lint, the graph
// failing steps-count, lists the first 100 and counts the others.
func TestLintLargeImportedGraph(t *testing.T) {
	const n = 230
	recs, bad, err := ImportSpatiaLQA(strings.NewReader(spatiaLQARecord(n)))
	if err != nil || len(bad) > 0 || len(recs) != 1 {
		t.Fatalf("import: %v %v %d records", err, bad, len(recs))
	}
	var transitive []string
	for i := 3; i <= n; i++ {
		for j := 1; j < i-1; j++ {
			transitive = append(transitive, fmt.Sprintf("step-transitive error steps[%d].precondition: redundant edge step%d → step%d: already implied by step%d → step%d → step%d", i-1, j, i, j, j+1, i))
		}
	}
	check := func(name string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d findings, want %d; first ones:\ngot  %q\nwant %q", name, len(got), len(want), got[:min(4, len(got))], want[:min(4, len(want))])
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("first difference at %d:\ngot  %q\nwant %q", i, got[i], want[i])
				}
			}
		}
	}
	check("CheckGraph", brief(CheckGraph(recs[0].Sample.Steps)), transitive)

	fs := Lint(recs[0].Sample, LintEnv{})
	want := []string{fmt.Sprintf("steps-count error steps: a step graph has 2 to 10 steps, this one %d", n)}
	want = append(want, transitive[:listedFindings]...)
	want = append(want, fmt.Sprintf("step-transitive error steps: …and %d more step-transitive errors in this graph, not listed", len(transitive)-listedFindings))
	check("Lint", brief(fs), want)
	if fs[0].Hint != "" {
		t.Errorf("every check ran, yet the steps-count hint says %q", fs[0].Hint)
	}
}

// TestCheckGraphListsAtMost: with a limit, checkGraph lists the first findings of
// each rule and severity in the order of the full list, and counts the others.
func TestCheckGraphListsAtMost(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 300 {
		steps := messySteps(r, 5+r.IntN(40), 0.15)
		limit := 1 + i%3
		full, _ := checkGraph(steps, unbounded)
		got, _ := checkGraph(steps, graphLimits{paths: pathBudget, words: blockWords, list: limit})
		var want []Finding
		count := map[[2]string]int{}
		var keys [][2]string
		for _, f := range full {
			k := [2]string{f.Rule, f.Severity}
			if count[k] == 0 {
				keys = append(keys, k)
			}
			if count[k]++; count[k] <= limit {
				want = append(want, f)
			}
		}
		for _, k := range keys {
			if n := count[k] - limit; n > 0 {
				want = append(want, Finding{Rule: k[0], Severity: k[1], Field: "steps", Hint: "fix the step count first",
					Message: fmt.Sprintf("…and %d more %s %ss in this graph, not listed", n, k[0], k[1])})
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("limit %d on %+v:\ngot  %q\nwant %q", limit, steps, brief(got), brief(want))
		}
	}
}

// TestLintBoundsOversizedGraphs: a graph that fails steps-count and whose
// reachability pass is over budget gets the linear checks only, and says so.
func TestLintBoundsOversizedGraphs(t *testing.T) {
	const n = 60000 // (n + edges) × n/64 ≈ 1.1e8 word operations: over the budget
	specs := nSteps(n)
	specs[n-1] += ",step1,step0"                 // a redundant edge and an unknown id
	specs = append(specs, "extra:step2", "lone") // two more candidate final steps
	s := graphSample(specs...)
	var rules []string
	for _, f := range Lint(s, LintEnv{}) {
		rules = append(rules, f.Rule)
		switch f.Rule {
		case RuleStepsCount:
			if want := "split the task: step-transitive and step-unreachable not checked on a graph this large"; f.Hint != want {
				t.Errorf("steps-count hint %q, want %q", f.Hint, want)
			}
		case RuleStepFinal:
			if !strings.Contains(f.Message, fmt.Sprintf("3 steps are not a precondition of any other step (step%d, extra, lone)", n)) {
				t.Errorf("step-final: %s", f.Message)
			}
		}
	}
	if want := []string{RuleStepsCount, RuleStepUnknownRef, RuleStepFinal}; !slices.Equal(rules, want) {
		t.Errorf("rules %v, want %v", rules, want)
	}
	// CheckGraph itself is not bounded: it finds the redundant edge and the steps
	// that do not lead to the final step.
	var all []string
	for _, f := range MergeFindings(CheckGraph(s.Steps)) {
		all = append(all, f.Rule+" "+f.Field)
	}
	want := []string{"step-unknown-ref steps[59999].precondition", "step-transitive steps[59999].precondition", "step-final steps",
		"step-unreachable steps[60000]", "step-unreachable steps[60001]"}
	if !slices.Equal(all, want) {
		t.Errorf("CheckGraph: %q, want %q", all, want)
	}
}

// TestLintBoundsOnlyOversizedGraphs: the budget applies to graphs that fail
// steps-count only, and only the checks the bitset pass makes are left out.
func TestLintBoundsOnlyOversizedGraphs(t *testing.T) {
	tests := []struct {
		name    string
		steps   []Step
		skipped []string
	}{
		{"acyclic, one final step", steps("a", "b:a", "c:a,b"), []string{RuleStepTransitive}},
		{"acyclic, two final steps", steps("a", "b:a", "c:a"), []string{RuleStepTransitive, RuleStepUnreachable}},
		{"cyclic, one final step", steps("a:b", "b:a", "c:b"), nil},
		{"cyclic, two final steps", steps("a:b", "b:a", "c:b", "d:a"), []string{RuleStepUnreachable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, skipped := checkGraph(tt.steps, graphLimits{reach: 1, paths: -1, words: blockWords})
			if !slices.Equal(skipped, tt.skipped) {
				t.Errorf("skipped %v, want %v", skipped, tt.skipped)
			}
			for _, f := range fs {
				if slices.Contains(skipped, f.Rule) {
					t.Errorf("a skipped rule reported %+v", f)
				}
			}
			if all, _ := checkGraph(tt.steps, unbounded); len(all)-len(fs) == 0 && len(tt.skipped) > 0 {
				t.Errorf("nothing left out: %q", brief(fs))
			}
		})
	}
	// Within the step count, everything is checked whatever the budget.
	s := graphSample("step1", "step2:step1", "step3:step2,step1")
	if fs := Lint(s, LintEnv{}); !slices.ContainsFunc(fs, func(f Finding) bool { return f.Rule == RuleStepTransitive }) {
		t.Errorf("a 3-step graph lost its step-transitive finding: %q", brief(fs))
	}
}

func TestCheckGraphPathBudget(t *testing.T) {
	in := steps("s1", "s2:s1", "s3:s2", "s4:s3,s1", "s5:s4,s3")
	fs, _ := checkGraph(in, graphLimits{paths: 3, words: blockWords})
	want := []string{
		"step-transitive error steps[3].precondition: redundant edge s1 → s4: already implied by s1 → s2 → s3 → s4", // 3 edge visits
		"step-transitive error steps[4].precondition: redundant edge s3 → s5: already implied by s3 → … → s4 → s5",  // budget spent
	}
	if got := brief(fs); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestSetRange(t *testing.T) {
	tests := []struct {
		lo, hi int
		want   []uint64
	}{
		{0, 0, []uint64{0, 0, 0}},
		{3, 4, []uint64{8, 0, 0}},
		{62, 66, []uint64{3 << 62, 3, 0}},
		{0, 128, []uint64{^uint64(0), ^uint64(0), 0}},
		{-5, 2, []uint64{3, 0, 0}},
		{190, 300, []uint64{0, 0, 3 << 62}},
	}
	for _, tt := range tests {
		b := make([]uint64, 3)
		if setRange(b, tt.lo, tt.hi); !slices.Equal(b, tt.want) {
			t.Errorf("setRange(%d, %d) = %x, want %x", tt.lo, tt.hi, b, tt.want)
		}
	}
}

// TestComponentsDeepChain: the component search is iterative, so a chain far
// longer than any record does not need a deep stack.
func TestComponentsDeepChain(t *testing.T) {
	const n = 200000
	layers := Layers(steps(nSteps(n)...))
	if len(layers) != n || layers[n-1][0] != fmt.Sprintf("step%d", n) {
		t.Errorf("%d layers", len(layers))
	}
}
