package score

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/benchwright/benchwright/annotate"
)

// ScoreSample scores one prediction against its gold sample by the rules of the
// sample's kind (see the package documentation). A prediction for another
// sample, an unknown kind, or a malformed StepMatch is an error; a response from
// which nothing can be read is not: it is scored wrong, with ParseError saying why.
func ScoreSample(g Gold, p Prediction, opt Options) (Result, error) {
	if p.SampleID != g.Sample.ID {
		return Result{}, fmt.Errorf("score: prediction for %q scored against sample %q", p.SampleID, g.Sample.ID)
	}
	r := Result{SampleID: g.Sample.ID, Kind: g.Sample.Kind}
	switch g.Sample.Kind {
	case annotate.KindHopQA:
		scoreHop(g, &r, p.Response)
	case annotate.KindMCQ:
		scoreMCQ(g, &r, p.Response)
	case annotate.KindJudgment:
		scoreJudgment(g, &r, p.Response, opt.YesNo)
	case annotate.KindOpen:
		scoreOpen(g, &r, p.Response)
	case annotate.KindStepGraph:
		if err := scoreStepGraph(g, p, &r, opt.CollapseUnmatchedEdges); err != nil {
			return Result{}, err
		}
	default:
		return Result{}, fmt.Errorf("score: sample %q: unknown kind %q", g.Sample.ID, g.Sample.Kind)
	}
	if p.Circular { // every rotated copy must be right too (circular.go)
		if err := scoreCircular(g, &r, p); err != nil {
			return Result{}, err
		}
	}
	return r, nil
}

// ScoreAll scores a model's predictions against the gold samples and returns
// one result per gold sample, in the gold order. A gold sample without a
// prediction is scored as an empty response and marked Missing. Two gold samples
// with one id, two predictions for one sample, or a prediction for a sample not in
// golds are errors (the last so that a prediction file for another release is
// not silently scored on its overlap). Work is spread over opt.Workers goroutines;
// ctx cancels it.
func ScoreAll(ctx context.Context, golds []Gold, preds []Prediction, opt Options) ([]Result, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	at := make(map[string]int, len(golds))
	for i, g := range golds {
		if _, dup := at[g.Sample.ID]; dup {
			return nil, fmt.Errorf("score: two gold samples have id %q", g.Sample.ID)
		}
		at[g.Sample.ID] = i
	}
	byGold := make([]int, len(golds))
	for i := range byGold {
		byGold[i] = -1
	}
	var unknown []string
	for j, p := range preds {
		i, ok := at[p.SampleID]
		if !ok {
			if len(unknown) < 5 {
				unknown = append(unknown, fmt.Sprintf("%q", p.SampleID))
			}
			continue
		}
		if byGold[i] >= 0 {
			return nil, fmt.Errorf("score: two predictions for sample %q (entries %d and %d)", p.SampleID, byGold[i]+1, j+1)
		}
		byGold[i] = j
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("score: predictions for samples not in the release, e.g. %v", unknown)
	}

	results := make([]Result, len(golds))
	const chunk = 256
	var next int64
	var mu sync.Mutex
	var firstErr error
	take := func() (int, int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr != nil || int(next) >= len(golds) {
			return 0, 0, false
		}
		lo := int(next)
		next += chunk
		return lo, min(lo+chunk, len(golds)), true
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	var wg sync.WaitGroup
	for range workers(opt.Workers, (len(golds)+chunk-1)/chunk) {
		wg.Go(func() {
			for {
				lo, hi, ok := take()
				if !ok {
					return
				}
				if err := ctx.Err(); err != nil {
					fail(fmt.Errorf("score: %w", err))
					return
				}
				for i := lo; i < hi; i++ {
					p := Prediction{SampleID: golds[i].Sample.ID}
					if j := byGold[i]; j >= 0 {
						p = preds[j]
					}
					r, err := ScoreSample(golds[i], p, opt)
					if err != nil {
						fail(err)
						return
					}
					r.Missing = byGold[i] < 0
					results[i] = r
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return results, nil
}

// workers is the number of goroutines for jobs jobs: n, or GOMAXPROCS when n <= 0,
// at most jobs and at least 1.
func workers(n, jobs int) int {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return max(1, min(n, jobs))
}

// Evaluate scores a model's predictions (ScoreAll) and summarizes them
// (Summarize): the report and the per-sample results.
func Evaluate(ctx context.Context, model string, golds []Gold, preds []Prediction, opt Options) (*Report, []Result, error) {
	results, err := ScoreAll(ctx, golds, preds, opt)
	if err != nil {
		return nil, nil, err
	}
	rep, err := Summarize(ctx, model, golds, results, opt)
	if err != nil {
		return nil, nil, err
	}
	return rep, results, nil
}

var errMisaligned = errors.New("results do not line up with the gold samples")
