// Package shortcut finds the samples of a benchmark a model could answer without
// looking at its images (issue 29), before a release is frozen: a correct letter
// that is mostly one letter, a correct option that is mostly the longest, and
// questions whose text alone gives the answer away to a small text-only model
// trained on the benchmark itself — "train on the test set" (Brown et al., arXiv
// 2511.04655), which VSI-Bench-Debiased was pruned with, and MMStar's point (arXiv
// 2403.20330) that many items need no image. Every figure comes with its 95 %
// interval and what chance would give, per task; the text-only model gives every
// sample a bias score, and Prune proposes the smallest set of samples whose removal
// brings every task back to chance. NearPairs and NearDuplicates find the same
// picture imported twice (perceptual hashes, a heuristic confirmed by Alike on the
// thumbnails), which the audit refuses across train and test.
//
// Plain Go on annotate.Sample: no SQL, no fyne. The store feeds it a project's
// samples, bwctl any benchmark file.
package shortcut

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/sampling"
)

// The checks' names, stable (bwctl shortcuts --json, bwctl audit).
const (
	CheckAnswerPosition = "answer-position"
	CheckOptionLength   = "option-length"
	CheckTextBaseline   = "text-baseline"
	CheckNumericPrior   = "numeric-prior"
)

// Options are a lead's settings of the audit; zero fields take the defaults.
type Options struct {
	// Margin is how far above chance (a share, 0.10 = ten points) a figure must
	// be to make a finding. Default 0.10.
	Margin float64
	// Level is the answer-position test's level: a finding needs its p-value
	// below it. Default 0.01.
	Level float64
	// Folds is the text-only model's k of k-fold cross-validation. Default 5.
	Folds int
	// Seed makes the folds and the model's training order; the same seed gives
	// the same report.
	Seed uint64
	// MinSamples is the fewest samples of a task a check judges. Default 20.
	MinSamples int
}

func (o Options) withDefaults() Options {
	if o.Margin <= 0 {
		o.Margin = 0.10
	}
	if o.Level <= 0 || o.Level >= 1 {
		o.Level = 0.01
	}
	if o.Folds < 2 {
		o.Folds = 5
	}
	if o.MinSamples <= 0 {
		o.MinSamples = 20
	}
	return o
}

// Result is one check on one task, a finding or not.
type Result struct {
	Check   string
	Task    string
	Finding bool
	N       int               // samples the check looked at
	Figure  float64           // the share (or, numeric-prior, the mean MRA) found
	Chance  float64           // what chance gives
	CI      sampling.Interval // the figure's 95 % interval
	P       float64           // answer-position: the chi-square test's p-value; else 0
	// Samples are those that drive a finding, highest bias first (the text-only
	// model's score, else file order); nil without a finding.
	Samples []string
	Detail  string // in words
	// Pairs are near-duplicate-image's pairs of the task (NearResults); else nil.
	Pairs []NearDuplicate
	// Shares are answer-position's share of each correct letter (A first) and
	// option-length's shares of samples whose correct option is the longest and
	// the shortest, for charts; else nil.
	Shares []float64
}

// Report is the whole audit of a set of samples.
type Report struct {
	Results []Result // by task, then check
	// Bias is every scored sample's bias score: the probability the text-only
	// model, not trained on it (k-fold), puts on its gold answer.
	Bias map[string]float64
	// Prune is check 4: the samples whose removal brings every task's blind
	// accuracy within the margin of chance (see Prune).
	Prune Pruning
}

// taskOf is the group a sample is judged in: its task, else its kind.
func taskOf(s annotate.Sample) string {
	if t := strings.TrimSpace(s.Task); t != "" {
		return t
	}
	return string(s.Kind)
}

// choice tells whether s is answered by picking one of its options.
func choice(s annotate.Sample) bool {
	return (s.Kind == annotate.KindHopQA || s.Kind == annotate.KindMCQ) && len(s.Options) >= 2 &&
		s.AnswerIndex >= 0 && s.AnswerIndex < len(s.Options)
}

// groupByTask groups the samples keep takes (every one when keep is nil) by task
// (taskOf), in their order; tasks lists the tasks sorted.
func groupByTask(samples []annotate.Sample, keep func(annotate.Sample) bool) (tasks []string, of map[string][]annotate.Sample) {
	of = map[string][]annotate.Sample{}
	for _, s := range samples {
		if keep != nil && !keep(s) {
			continue
		}
		t := taskOf(s)
		if _, ok := of[t]; !ok {
			tasks = append(tasks, t)
		}
		of[t] = append(of[t], s)
	}
	slices.Sort(tasks)
	return tasks, of
}

// Audit runs every check on samples, per task.
func Audit(samples []annotate.Sample, opt Options) Report {
	opt = opt.withDefaults()
	tasks, byTask := groupByTask(samples, nil)
	rep := Report{Bias: map[string]float64{}}
	fitted := map[string]baseline{} // what prune's first round would fit (blindOf)
	for _, t := range tasks {
		ss := byTask[t]
		choices, yesno, numeric := split(ss)
		if len(choices) >= opt.MinSamples {
			bias := textBaseline(choices, opt)
			fitted[t] = bias
			for id, b := range bias.scores {
				rep.Bias[id] = b
			}
			rep.Results = append(rep.Results, answerPosition(t, choices, bias.scores, opt), optionLength(t, choices, bias.scores, opt),
				bias.result(t, opt))
		}
		if len(yesno) >= opt.MinSamples {
			bias := questionBaseline(yesno, opt)
			if _, ok := fitted[t]; !ok {
				fitted[t] = bias
			}
			for id, b := range bias.scores {
				rep.Bias[id] = b
			}
			rep.Results = append(rep.Results, bias.result(t, opt))
		}
		if len(numeric) >= opt.MinSamples {
			rep.Results = append(rep.Results, numericPrior(t, numeric, opt))
		}
	}
	rep.Prune = prune(samples, opt, fitted)
	return rep
}

// Balance runs the two checks that need no model, answer-letter balance and
// option length (checks 1 and 2), on samples per task: what the integrity audit
// (bwctl audit, a freeze's audit) reports as warnings. Their samples are in file
// order (no bias scores without the text-only model).
func Balance(samples []annotate.Sample, opt Options) []Result {
	opt = opt.withDefaults()
	tasks, byTask := groupByTask(samples, choice)
	var out []Result
	for _, t := range tasks {
		if ss := byTask[t]; len(ss) >= opt.MinSamples {
			out = append(out, answerPosition(t, ss, nil, opt), optionLength(t, ss, nil, opt))
		}
	}
	return out
}

// split sorts a task's samples by what judges them: choices (hop QA and MCQ with
// options), yes/no judgments, and numeric open answers; the rest none.
func split(ss []annotate.Sample) (choices, yesno, numeric []annotate.Sample) {
	for _, s := range ss {
		switch {
		case choice(s):
			choices = append(choices, s)
		case s.Kind == annotate.KindJudgment && yesNo(s.AnswerText) >= 0:
			yesno = append(yesno, s)
		case s.Kind == annotate.KindOpen:
			if _, ok := number(s.AnswerText); ok {
				numeric = append(numeric, s)
			}
		}
	}
	return choices, yesno, numeric
}

// Findings are the results that are findings.
func (r Report) Findings() []Result {
	var out []Result
	for _, x := range r.Results {
		if x.Finding {
			out = append(out, x)
		}
	}
	return out
}

// byBias orders ids highest bias first (then by id), those without a score last.
func byBias(ids []string, bias map[string]float64) []string {
	out := slices.Clone(ids)
	slices.SortStableFunc(out, func(a, b string) int {
		ba, oka := bias[a]
		bb, okb := bias[b]
		switch {
		case oka && okb && ba != bb:
			return cmp.Compare(bb, ba)
		case oka != okb:
			if oka {
				return -1
			}
			return 1
		}
		return 0
	})
	return out
}

// answerPosition is check 1: is the correct letter spread as chance spreads it?
// Each sample of n options gives each of its letters 1/n of an expected answer;
// the letters' counts are tested against those (chi-square, letters − 1 degrees
// of freedom). A finding: the test rejects at opt.Level and a letter's share is
// opt.Margin or more off its expected share.
func answerPosition(task string, ss []annotate.Sample, bias map[string]float64, opt Options) Result {
	width := 0
	for _, s := range ss {
		width = max(width, len(s.Options))
	}
	obs := make([]float64, width)
	exp := make([]float64, width)
	for _, s := range ss {
		obs[s.AnswerIndex]++
		for l := range s.Options {
			exp[l] += 1 / float64(len(s.Options))
		}
	}
	chi2, df := 0.0, -1
	for l := range obs {
		if exp[l] > 0 {
			chi2 += (obs[l] - exp[l]) * (obs[l] - exp[l]) / exp[l]
			df++
		}
	}
	p := ChiSquareSurvival(chi2, float64(df))
	n := float64(len(ss))
	worst := 0
	for l := range obs {
		if math.Abs(obs[l]-exp[l]) > math.Abs(obs[worst]-exp[worst]) {
			worst = l
		}
	}
	r := Result{Check: CheckAnswerPosition, Task: task, N: len(ss), Figure: obs[worst] / n, Chance: exp[worst] / n,
		CI: sampling.Wilson(int(obs[worst]), len(ss), 0.95), P: p}
	r.Finding = p < opt.Level && math.Abs(r.Figure-r.Chance) >= opt.Margin
	shares := make([]string, width)
	for l := range obs {
		shares[l] = fmt.Sprintf("%s %.0f %%", letter(l), 100*obs[l]/n)
		r.Shares = append(r.Shares, obs[l]/n)
	}
	r.Detail = fmt.Sprintf("%s is the answer of %.0f %% of %d samples (chance %.0f %%; %s; chi-square %.1f, p %.2g)",
		letter(worst), 100*r.Figure, len(ss), 100*r.Chance, strings.Join(shares, ", "), chi2, p)
	if r.Finding {
		var ids []string
		for _, s := range ss {
			if (s.AnswerIndex == worst) == (r.Figure > r.Chance) {
				ids = append(ids, s.ID)
			}
		}
		r.Samples = byBias(ids, bias)
	}
	return r
}

// letter is the label of option l: A, B, …
func letter(l int) string {
	if l < 26 {
		return string(rune('A' + l))
	}
	return fmt.Sprintf("option %d", l+1)
}

// optionLength is check 2: how often is the correct option the longest (or the
// shortest) one? "Pick the longest" scores that share; chance is the mean of
// 1/n. Of the two, the one further above chance is reported. A finding: it is
// opt.Margin or more above chance and its interval lies above chance.
func optionLength(task string, ss []annotate.Sample, bias map[string]float64, opt Options) Result {
	var chance float64
	var longest, shortest []string
	for _, s := range ss {
		chance += 1 / float64(len(s.Options))
		l, sh := extremes(s.Options)
		if l == s.AnswerIndex {
			longest = append(longest, s.ID)
		}
		if sh == s.AnswerIndex {
			shortest = append(shortest, s.ID)
		}
	}
	n := len(ss)
	chance /= float64(n)
	hits, which := longest, "longest"
	if len(shortest) > len(longest) {
		hits, which = shortest, "shortest"
	}
	r := Result{Check: CheckOptionLength, Task: task, N: n, Figure: float64(len(hits)) / float64(n), Chance: chance,
		CI: sampling.Wilson(len(hits), n, 0.95)}
	r.Finding = r.Figure-r.Chance >= opt.Margin && r.CI.Low > r.Chance
	r.Shares = []float64{float64(len(longest)) / float64(n), float64(len(shortest)) / float64(n)}
	r.Detail = fmt.Sprintf("the correct option is the longest in %.0f %% and the shortest in %.0f %% of %d samples (chance %.0f %%): picking the %s scores %.0f %%",
		100*float64(len(longest))/float64(n), 100*float64(len(shortest))/float64(n), n, 100*chance, which, 100*r.Figure)
	if r.Finding {
		r.Samples = byBias(hits, bias)
	}
	return r
}

// extremes returns the index of the one longest and the one shortest option (in
// characters), -1 when two share the length: picking it is then a guess.
func extremes(opts []string) (longest, shortest int) {
	longest, shortest = 0, 0
	ln := func(i int) int { return len([]rune(strings.TrimSpace(opts[i]))) }
	for i := 1; i < len(opts); i++ {
		if ln(i) > ln(longest) {
			longest = i
		}
		if ln(i) < ln(shortest) {
			shortest = i
		}
	}
	for i := range opts {
		if i != longest && ln(i) == ln(longest) {
			longest = -1
			break
		}
	}
	for i := range opts {
		if i != shortest && ln(i) == ln(shortest) {
			shortest = -1
			break
		}
	}
	return longest, shortest
}

// yesNo is 0 for a "yes" answer, 1 for "no", -1 for anything else.
func yesNo(a string) int {
	switch strings.ToLower(strings.TrimSpace(a)) {
	case "yes":
		return 0
	case "no":
		return 1
	}
	return -1
}
