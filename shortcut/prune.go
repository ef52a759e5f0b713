package shortcut

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
)

// Pruned is one sample the pruning proposes to leave out.
type Pruned struct {
	ID    string
	Task  string
	Score float64 // its bias score when it was chosen
	Round int     // 1 for the first round
}

// TaskOutcome is a task's blind accuracy before and after the pruning.
type TaskOutcome struct {
	Task          string
	N, Left       int
	Before, After float64 // the blind model's held-out accuracy
	Chance        float64
}

// Pruning is check 4's proposal.
type Pruning struct {
	Removed []Pruned // in the order chosen
	Tasks   []TaskOutcome
	// Done says every task ended within the margin of chance; false when the
	// rounds ran out first (Detail says which tasks stay biased).
	Done   bool
	Detail string
}

// pruneRounds bounds the pruning; pruneShare is the share of a biased task's
// samples (at least one) each round removes.
const (
	pruneRounds = 30
	pruneShare  = 0.05
)

// Prune is "train on the test set"'s iterative bias pruning (Brown et al.,
// arXiv 2511.04655, the procedure VSI-Bench-Debiased was made with): fit the
// blind model k-fold, remove from each task whose blind accuracy is opt.Margin
// or more above chance the pruneShare of its samples with the highest bias
// score among those the model answers right, fit again on what is left, until
// every task is within the margin. A task that would fall below
// opt.MinSamples while still biased loses, in that round, every sample the model
// answers: so a task whose every sample has the shortcut is proposed whole. The
// lead reviews the list and curates it into a subset (store's debiased subsets);
// nothing is removed here.
func Prune(samples []annotate.Sample, opt Options) Pruning {
	return prune(samples, opt.withDefaults(), nil)
}

// prune is Prune with the first round's fits, by task, where the caller has them.
func prune(samples []annotate.Sample, opt Options, fitted map[string]baseline) Pruning {
	removed := map[string]bool{}
	var out Pruning
	first := map[string]TaskOutcome{}
	settled := map[string]bool{} // tasks within the margin: nothing of them goes, so they are not fitted again
	var order []string
	for round := 1; ; round++ {
		tasks, byTask := groupByTask(samples, func(s annotate.Sample) bool { return !removed[s.ID] && !settled[taskOf(s)] })
		biased := 0
		for _, t := range tasks {
			b, ok := fitted[t]
			if round > 1 || !ok {
				if b, ok = blindOf(byTask[t], opt); !ok {
					continue
				}
			}
			acc := float64(b.right) / float64(b.n)
			o, seen := first[t]
			if !seen {
				o = TaskOutcome{Task: t, N: b.n, Before: acc, Chance: b.chance}
				order = append(order, t)
			}
			o.Left, o.After = b.n, acc
			first[t] = o
			if acc-b.chance < opt.Margin {
				settled[t] = true
				continue
			}
			if round > pruneRounds {
				continue
			}
			biased++
			k := max(1, int(pruneShare*float64(b.n)))
			if b.n-k < opt.MinSamples {
				// Fewer would be left than the model is judged on, so it could not
				// be fitted again: everything this fit answers goes, and what is
				// left is what it answered wrong (a task whose every sample has the
				// shortcut goes whole, not down to the size no check looks at).
				k = len(b.correct)
				o.Left = b.n - k
				o.After = 0
				if o.Left > 0 {
					o.After = float64(b.right-k) / float64(o.Left)
				}
				first[t] = o
				settled[t] = true
			}
			for _, id := range byBias(b.correct, b.scores)[:min(k, len(b.correct))] {
				removed[id] = true
				out.Removed = append(out.Removed, Pruned{ID: id, Task: t, Score: b.scores[id], Round: round})
			}
		}
		if biased == 0 || round > pruneRounds {
			out.Done = biased == 0
			break
		}
	}
	for _, t := range order {
		out.Tasks = append(out.Tasks, first[t])
	}
	var stay []string
	for _, o := range out.Tasks {
		if o.After-o.Chance >= opt.Margin {
			stay = append(stay, o.Task)
		}
	}
	out.Detail = fmt.Sprintf("removing %d of %d samples brings every task's blind accuracy within %.0f points of chance", len(out.Removed), len(samples), 100*opt.Margin)
	if len(stay) > 0 {
		out.Detail = fmt.Sprintf("after %d rounds (%d samples removed) these tasks are still answerable blind: %v", pruneRounds, len(out.Removed), stay)
	}
	return out
}

// blindOf fits the blind model that fits a task's samples: the option model on
// the samples with options, else the question model on yes/no samples.
func blindOf(ss []annotate.Sample, opt Options) (baseline, bool) {
	choices, yesno, _ := split(ss)
	switch {
	case len(choices) >= opt.MinSamples:
		return textBaseline(choices, opt), true
	case len(yesno) >= opt.MinSamples:
		return questionBaseline(yesno, opt), true
	}
	return baseline{}, false
}
