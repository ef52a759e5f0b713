package score

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/montanaflynn/stats"

	"github.com/benchwright/benchwright/annotate"
)

// LRRTaskScore is LRR-Bench's score of one task (§III-D, eq. 1,
// ../shared/seeds/lrr-bench.txt:187) with its weight: w · 2(p − 50) · 1[p ≥ 50],
// p the task's accuracy in percent. A task answered at chance or worse scores 0;
// a perfect one scores 100 · w.
func LRRTaskScore(p, w float64) float64 {
	if p < 50 {
		return 0
	}
	return w * 2 * (p - 50)
}

// lrrWeight is task t's weight: opt.LRRWeights[t], 1 when not named.
func lrrWeight(opt Options, t string) float64 {
	if w, ok := opt.LRRWeights[t]; ok {
		return w
	}
	return 1
}

// lrrTask is one task's judgment samples in a set, grouped by what a sample
// adds: its correct results and its results (1 and 1, or 0 and 1, for a model; a
// human baseline's results of one item are one sample), in order of first appearance.
type lrrTask struct {
	name   string
	types  [][2]int // correct, results
	counts []int    // samples of each type
	n      int      // samples
}

// p is the task's accuracy in percent when counts[k] samples of type k are drawn.
func (t *lrrTask) p(counts []int) float64 {
	c, m := 0, 0
	for k, x := range counts {
		c += x * t.types[k][0]
		m += x * t.types[k][1]
	}
	return 100 * float64(c) / float64(m)
}

// draw resamples the task's n samples with replacement into counts: the counts
// of the types are multinomial, drawn as conditional binomials. Answers that are
// all alike (several people answering each item as one person did) draw exactly
// as that one person's.
func (t *lrrTask) draw(r *rng, counts []int) {
	left, pool := t.n, t.n
	for k, c := range t.counts {
		x := left
		if k < len(t.counts)-1 {
			x = r.binomial(left, float64(c)/float64(pool))
		}
		counts[k] = x
		left -= x
		pool -= c
	}
}

// lrrFigures sets f.LRRScore and f.LRRScoreMax for the set of results idx: the
// tasks are the Task labels of its judgment samples (samples without a task are
// left out), p_i the share of task i's judgment results that are correct. With
// opt.Draws > 0 the interval is a stratified bootstrap: each replicate resamples
// every task's samples within the task (its size held fixed, as a benchmark's
// tasks are), one sample's results together. It leaves f alone when the set has
// no judgment sample with a task.
func lrrFigures(ctx context.Context, f *Figures, golds []Gold, results []Result, idx []int32, opt Options, r *rng) error {
	at := map[string]int{}
	var tasks []*lrrTask
	per := map[string]*[2]int{} // sample id → its correct results and results
	var ids []string            // the judgment samples with a task, in order
	task := map[string]string{} // sample id → task
	n := 0
	for _, i := range idx {
		s := golds[i].Sample
		if s.Kind != annotate.KindJudgment || s.Task == "" {
			continue
		}
		n++
		x, ok := per[s.ID]
		if !ok {
			x = &[2]int{}
			per[s.ID] = x
			ids = append(ids, s.ID)
			task[s.ID] = s.Task
		}
		x[1]++
		if results[i].Correct {
			x[0]++
		}
	}
	if n == 0 {
		return nil
	}
	typeAt := map[string]map[[2]int]int{}
	for _, id := range ids {
		name := task[id]
		k, ok := at[name]
		if !ok {
			k = len(tasks)
			at[name] = k
			tasks = append(tasks, &lrrTask{name: name})
			typeAt[name] = map[[2]int]int{}
		}
		t := tasks[k]
		ty := *per[id]
		j, ok := typeAt[name][ty]
		if !ok {
			j = len(t.types)
			typeAt[name][ty] = j
			t.types, t.counts = append(t.types, ty), append(t.counts, 0)
		}
		t.counts[j]++
		t.n++
	}
	value, most := 0.0, 0.0
	for _, t := range tasks {
		w := lrrWeight(opt, t.name)
		value += LRRTaskScore(t.p(t.counts), w)
		most += 100 * w
	}
	if math.IsInf(most, 0) {
		return fmt.Errorf("score: lrr_score_max is not a finite number (are the task weights too large?)")
	}
	f.LRRScore = &Metric{Value: value, N: n}
	f.LRRScoreMax = &most
	if opt.Draws <= 0 {
		return nil
	}
	vals := make([]float64, opt.Draws)
	widest := 0
	for _, t := range tasks {
		widest = max(widest, len(t.types))
	}
	buf := make([]int, widest)
	for d := range vals {
		if d%64 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("score: bootstrap: %w", err)
			}
		}
		v := 0.0
		for _, t := range tasks {
			counts := buf[:len(t.types)]
			t.draw(r, counts)
			v += LRRTaskScore(t.p(counts), lrrWeight(opt, t.name))
		}
		vals[d] = v
	}
	lo, err := stats.Percentile(vals, 2.5)
	if err != nil {
		return fmt.Errorf("score: bootstrap percentile of lrr_score: %w", err)
	}
	hi, err := stats.Percentile(vals, 97.5)
	if err != nil {
		return fmt.Errorf("score: bootstrap percentile of lrr_score: %w", err)
	}
	f.LRRScore.CI = &[2]float64{lo, hi}
	if slices.ContainsFunc(vals, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }) {
		return fmt.Errorf("score: lrr_score is not a finite number (are the task weights too large?)")
	}
	return nil
}
