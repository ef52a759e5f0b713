package shortcut

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkReport100k is the whole shortcut report of issue 29's goal (< 10 s on
// 100,000 samples): every check on ten tasks of 10,000 four-option questions, two
// of them with a planted cue, and the pruning proposal. floor-s is one pass over
// every option's features (what any text-only model must at least read), measured
// in the same run.
func BenchmarkReport100k(b *testing.B) {
	var ss = gen("clean-0", 0, 0, nil)
	for k := range 10 {
		part := gen(fmt.Sprintf("task-%d", k), 10_000, uint64(k), nil)
		if k < 2 {
			for i := range part {
				if i%4 == 0 {
					part[i].Question = "Which object is the leftmost one?"
					part[i].Options[part[i].AnswerIndex] = "the umbrella"
				}
			}
		}
		ss = append(ss, part...)
	}
	start := time.Now()
	n := 0
	for _, s := range ss {
		for _, f := range optionFeatures(s) {
			n += len(f)
		}
	}
	floor := time.Since(start)
	b.ResetTimer()
	for range b.N {
		rep := Audit(ss, Options{Seed: 1})
		b.ReportMetric(float64(len(rep.Findings())), "findings")
		b.ReportMetric(float64(len(rep.Prune.Removed)), "pruned")
	}
	b.ReportMetric(floor.Seconds(), "floor-s")
	_ = n
}
