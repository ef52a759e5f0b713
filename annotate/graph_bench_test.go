package annotate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomSteps is a dense-ish step graph of n steps: step i lists lo to hi distinct
// random earlier steps (fewer near the start), so that many edges are transitive and
// several steps are sinks. With oneFinal the last step instead lists every step no
// other step needs, so that the graph has exactly one final step.
func randomSteps(n, lo, hi int, seed uint64, oneFinal bool) []Step {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]Step, n)
	needed := make([]bool, n)
	for i := range out {
		out[i] = Step{ID: fmt.Sprintf("step%d", i+1), Content: fmt.Sprintf("do step %d", i+1), Precondition: []string{}}
		if oneFinal && i == n-1 && i > 0 {
			for j := range i {
				if !needed[j] {
					out[i].Precondition = append(out[i].Precondition, out[j].ID)
				}
			}
			break
		}
		k := min(i, lo+r.IntN(hi-lo+1))
		var picked []int
		for len(picked) < k {
			if j := r.IntN(i); !slices.Contains(picked, j) {
				picked = append(picked, j)
			}
		}
		for _, j := range picked {
			needed[j] = true
			out[i].Precondition = append(out[i].Precondition, out[j].ID)
		}
	}
	return out
}

// closureSteps is the worst shape seen in imports: every step lists every earlier
// step, so that all but the chain's edges are transitive.
func closureSteps(n int) []Step {
	out := make([]Step, n)
	for i := range out {
		out[i] = Step{ID: fmt.Sprintf("step%d", i+1), Content: fmt.Sprintf("do step %d", i+1), Precondition: []string{}}
		for j := range i {
			out[i].Precondition = append(out[i].Precondition, out[j].ID)
		}
	}
	return out
}

var benchSink []Finding

// The shapes the step-graph benchmarks lint: random (steps listing 3 to 5 random
// earlier steps, many of them transitive, about a fifth of the steps final), one
// final step (the same, the last step listing every other sink), and closure (every
// step listing every earlier one, the worst shape seen in imports).
var benchShapes = []struct {
	name  string
	steps func(n int) []Step
}{
	{"random", func(n int) []Step { return randomSteps(n, 3, 5, uint64(n), false) }},
	{"onefinal", func(n int) []Step { return randomSteps(n, 3, 5, uint64(n), true) }},
	{"closure", closureSteps},
}

func benchLint(b *testing.B, shape string, n int) {
	i := slices.IndexFunc(benchShapes, func(s struct {
		name  string
		steps func(n int) []Step
	}) bool {
		return s.name == shape
	})
	s := Sample{ID: "sq-big", Kind: KindStepGraph, Image: "0001-office-1/img_003.jpg", Scene: "0001-office-1",
		Question: "Pick up the laptop", Steps: benchShapes[i].steps(n)}
	b.ReportAllocs()
	for b.Loop() {
		benchSink = Lint(s, LintEnv{})
	}
}

// BenchmarkLintStepGraph lints step graphs of every shape and size (all but the
// 10-step ones fail steps-count and get the bounded checks).
func BenchmarkLintStepGraph(b *testing.B) {
	for _, shape := range benchShapes {
		for _, n := range []int{10, 100, 200, 230, 1000, 10000} {
			if shape.name == "closure" && n > 1000 { // 50M preconditions: the linear checks alone
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) { benchLint(b, shape.name, n) })
		}
	}
}

// BenchmarkLintStepGraph10k is the benchmark: a 10,000-step graph, each step
// listing 3 to 5 random earlier steps, linted with every check.
func BenchmarkLintStepGraph10k(b *testing.B) { benchLint(b, "random", 10000) }

// BenchmarkCheckGraph is CheckGraph, unbounded (every finding listed), on the
// graphs BenchmarkReferenceCheckGraph gives the old checks, and on 10,000 steps.
func BenchmarkCheckGraph(b *testing.B) {
	for _, tt := range []struct {
		shape string
		n     int
	}{{"random", 100}, {"random", 200}, {"closure", 100}, {"closure", 200}, {"random", 10000}} {
		steps := closureSteps(tt.n)
		if tt.shape == "random" {
			steps = randomSteps(tt.n, 3, 5, uint64(tt.n), false)
		}
		b.Run(fmt.Sprintf("%s/%d", tt.shape, tt.n), func(b *testing.B) {
			for b.Loop() {
				benchSink = CheckGraph(steps)
			}
		})
	}
}

// BenchmarkRedundantEdges10k is what the step-graph editor asks on every change.
func BenchmarkRedundantEdges10k(b *testing.B) {
	steps := randomSteps(10000, 3, 5, 10000, false)
	for b.Loop() {
		_ = RedundantEdges(steps)
	}
}

// BenchmarkReferenceCheckGraph is the old checks (graph_ref_test.go), for the
// before/after comparison with BenchmarkCheckGraph (closure/200, not run here,
// took 65 s).
func BenchmarkReferenceCheckGraph(b *testing.B) {
	for _, tt := range []struct {
		shape string
		n     int
	}{{"random", 100}, {"random", 200}, {"closure", 50}, {"closure", 100}} {
		steps := closureSteps(tt.n)
		if tt.shape == "random" {
			steps = randomSteps(tt.n, 3, 5, uint64(tt.n), false)
		}
		b.Run(fmt.Sprintf("%s/%d", tt.shape, tt.n), func(b *testing.B) {
			for b.Loop() {
				benchSink = refCheckGraph(steps)
			}
		})
	}
}
