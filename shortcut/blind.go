package shortcut

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/score"
)

// The text-only ("blind") model of check 3: a conditional logit over a sample's
// options — each option scored by a linear function of features of the question
// and that option only, the scores turned into probabilities by a softmax — fitted
// by stochastic gradient descent with an L2 penalty. Its features are what a
// text-only model learns from: the option's words and character 3-grams,
// question-word × option-word pairs (so that "crimson" in a question can point to
// the option "red"), the option's length, whether it is the longest or the
// shortest, its position, and its overlap with the question. They are hashed into
// 2^18 weights. Held out by k-fold, the probability it puts on a sample's gold
// answer is the sample's bias score.

const (
	hashBits = 18
	dims     = 1 << hashBits
	rate     = 0.2  // the first epoch's step; each later one's is rate/(1+epoch/2)
	penalty  = 1e-4 // L2
)

// epochs is how many passes over its training samples a model makes: 8 on a
// small task, fewer on a large one, which sees as many steps in fewer passes (2
// from 10,000 samples on).
func epochs(n int) int { return min(8, max(2, 20_000/max(1, n))) }

// feat is one hashed feature with its value.
type feat struct {
	i uint32
	v float32
}

// stop are words too common to pair: they carry no cue.
var stop = map[string]bool{"the": true, "a": true, "an": true, "of": true, "is": true, "are": true, "to": true, "in": true,
	"on": true, "and": true, "or": true, "which": true, "what": true, "how": true, "it": true, "this": true, "that": true,
	"be": true, "from": true, "with": true, "at": true, "by": true, "for": true, "as": true, "does": true, "do": true}

// tokens are s's words, lower case.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func content(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !stop[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// hash is FNV-1a of the parts, each followed by a 0 byte, cut to hashBits.
func hash(parts ...string) uint32 {
	h := uint32(offset32)
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h = (h ^ uint32(p[i])) * prime32
		}
		h *= prime32 // ^ 0
	}
	return h & (dims - 1)
}

// hashRunes is hash("c", string(r)) without making the string.
func hashRunes(r []rune) uint32 {
	h := uint32(offset32)
	h = (h ^ 'c') * prime32
	h *= prime32 // the 0 after "c"
	var buf [4]byte
	for _, c := range r {
		n := utf8.EncodeRune(buf[:], c)
		for i := 0; i < n; i++ {
			h = (h ^ uint32(buf[i])) * prime32
		}
	}
	return (h * prime32) & (dims - 1)
}

const (
	offset32 = 2166136261
	prime32  = 16777619
)

// optionFeatures are the features of every option of s.
func optionFeatures(s annotate.Sample) [][]feat {
	q := content(tokens(s.Question))
	if len(q) > 24 {
		q = q[:24]
	}
	longest, shortest := extremes(s.Options)
	maxLen := 1
	for _, o := range s.Options {
		maxLen = max(maxLen, len([]rune(strings.TrimSpace(o))))
	}
	out := make([][]feat, len(s.Options))
	for j, o := range s.Options {
		var f []feat
		add := func(v float32, parts ...string) { f = append(f, feat{hash(parts...), v}) }
		ow := tokens(o)
		for _, w := range ow {
			add(1, "w", w)
		}
		runes := []rune(" " + strings.ToLower(strings.TrimSpace(o)) + " ")
		for k := 0; k+3 <= len(runes); k++ {
			f = append(f, feat{hashRunes(runes[k : k+3]), 0.5})
		}
		oc := content(ow)
		if len(oc) > 8 {
			oc = oc[:8]
		}
		if n := len(q) * len(oc); n > 0 {
			v := float32(1 / math.Sqrt(float64(n)))
			for _, a := range q {
				for _, b := range oc {
					add(v, "p", a, b)
				}
			}
		}
		overlap := 0
		for _, w := range oc {
			if slices.Contains(q, w) {
				overlap++
			}
		}
		if len(oc) > 0 {
			add(float32(overlap)/float32(len(oc)), "overlap")
		}
		add(float32(len([]rune(strings.TrimSpace(o))))/float32(maxLen), "length")
		if j == longest {
			add(1, "longest")
		}
		if j == shortest {
			add(1, "shortest")
		}
		add(1, "position", strconv.Itoa(j))
		out[j] = f
	}
	return out
}

// questionFeatures are the features of a yes/no question: its words and pairs of
// neighbouring words, and a constant (the share of yes).
func questionFeatures(s annotate.Sample) []feat {
	ws := tokens(s.Question)
	f := []feat{{hash("bias"), 1}}
	for i, w := range ws {
		f = append(f, feat{hash("w", w), 1})
		if i > 0 {
			f = append(f, feat{hash("b", ws[i-1], w), 1})
		}
	}
	return f
}

// dot is w·f. The weights are float32: 1 MB of them stay in a core's cache
// where 2 MB of float64 did not (the fit reads them at random).
func dot(w []float32, f []feat) float64 {
	var s float32
	for _, x := range f {
		s += w[x.i] * x.v
	}
	return float64(s)
}

// folds assigns each of n items a fold of k, seeded.
func folds(n, k int, seed uint64) []int {
	perm := rand.New(rand.NewPCG(seed, 0x5eed)).Perm(n)
	out := make([]int, n)
	for pos, i := range perm {
		out[i] = pos % k
	}
	return out
}

// crossFit fits a model k-fold on n samples (folds seeded by opt.Seed): for each
// fold, fresh weights take epochs of stochastic gradient steps (step, with the
// epoch's rate) over the other folds' samples in a seeded shuffled order, then
// predict scores each of the fold's own samples.
func crossFit(n int, opt Options, step func(w []float32, i int, lr float64), predict func(w []float32, i int)) {
	fold := folds(n, opt.Folds, opt.Seed)
	w := make([]float32, dims)
	for k := range opt.Folds {
		clear(w)
		var train []int
		for i := range n {
			if fold[i] != k {
				train = append(train, i)
			}
		}
		rng := rand.New(rand.NewPCG(opt.Seed, uint64(k)+1))
		for e := range epochs(len(train)) {
			lr := rate / (1 + float64(e)/2)
			rng.Shuffle(len(train), func(a, c int) { train[a], train[c] = train[c], train[a] })
			for _, i := range train {
				step(w, i, lr)
			}
		}
		for i := range n {
			if fold[i] == k {
				predict(w, i)
			}
		}
	}
}

// baseline is the held-out outcome of a blind model on a task's samples.
type baseline struct {
	check   string
	n       int
	right   int
	chance  float64
	scores  map[string]float64 // sample id → held-out probability of its gold answer
	correct []string           // samples it answered right, in input order
	what    string             // what it saw, for the detail
}

// result turns b into the task's Result: a finding when the blind model's
// accuracy is opt.Margin or more above chance and its interval lies above chance.
func (b baseline) result(task string, opt Options) Result {
	r := Result{Check: b.check, Task: task, N: b.n, Figure: float64(b.right) / float64(b.n), Chance: b.chance,
		CI: sampling.Wilson(b.right, b.n, 0.95)}
	r.Finding = r.Figure-r.Chance >= opt.Margin && r.CI.Low > r.Chance
	r.Detail = fmt.Sprintf("a model that sees only the %s answers %.0f %% of %d samples right (%d-fold, held out; chance %.0f %%)",
		b.what, 100*r.Figure, b.n, opt.Folds, 100*r.Chance)
	if r.Finding {
		r.Samples = byBias(b.correct, b.scores)
	}
	return r
}

// textBaseline fits the conditional logit k-fold on samples with options and
// scores each on the fold that left it out.
func textBaseline(ss []annotate.Sample, opt Options) baseline {
	feats := make([][][]feat, len(ss))
	for i, s := range ss {
		feats[i] = optionFeatures(s)
	}
	b := baseline{check: CheckTextBaseline, n: len(ss), scores: map[string]float64{}, what: "question and option text"}
	for _, s := range ss {
		b.chance += 1 / float64(len(s.Options))
	}
	b.chance /= float64(len(ss))
	probs := make([][]float64, len(ss))
	p := make([]float64, 0, 8)
	crossFit(len(ss), opt, func(w []float32, i int, lr float64) {
		p = softmax(w, feats[i], p[:0])
		for j, f := range feats[i] {
			g := p[j]
			if j == ss[i].AnswerIndex {
				g--
			}
			step := float32(lr * g)
			for _, x := range f {
				w[x.i] -= step*x.v + float32(lr*penalty)*w[x.i]
			}
		}
	}, func(w []float32, i int) { probs[i] = softmax(w, feats[i], nil) })
	for i, s := range ss {
		b.scores[s.ID] = probs[i][s.AnswerIndex]
		best := 0
		for j := range probs[i] {
			if probs[i][j] > probs[i][best] {
				best = j
			}
		}
		if best == s.AnswerIndex {
			b.right++
			b.correct = append(b.correct, s.ID)
		}
	}
	return b
}

// softmax appends to dst the probabilities of the options with features f.
func softmax(w []float32, f [][]feat, dst []float64) []float64 {
	top := math.Inf(-1)
	for _, o := range f {
		s := dot(w, o)
		dst = append(dst, s)
		top = max(top, s)
	}
	var sum float64
	for j := range dst {
		dst[j] = math.Exp(dst[j] - top)
		sum += dst[j]
	}
	for j := range dst {
		dst[j] /= sum
	}
	return dst
}

// questionBaseline is the blind model of yes/no questions: a logistic model of
// "yes" on the question's words alone, k-fold. Chance is a coin: a set mostly
// answered yes is itself a shortcut.
func questionBaseline(ss []annotate.Sample, opt Options) baseline {
	feats := make([][]feat, len(ss))
	for i, s := range ss {
		feats[i] = questionFeatures(s)
	}
	b := baseline{check: CheckTextBaseline, n: len(ss), chance: 0.5, scores: map[string]float64{}, what: "question"}
	pyes := make([]float64, len(ss))
	crossFit(len(ss), opt, func(w []float32, i int, lr float64) {
		g := 1 / (1 + math.Exp(-dot(w, feats[i])))
		if yesNo(ss[i].AnswerText) == 0 {
			g--
		}
		step := float32(lr * g)
		for _, x := range feats[i] {
			w[x.i] -= step*x.v + float32(lr*penalty)*w[x.i]
		}
	}, func(w []float32, i int) { pyes[i] = 1 / (1 + math.Exp(-dot(w, feats[i]))) })
	for i, s := range ss {
		gold := pyes[i]
		if yesNo(s.AnswerText) == 1 {
			gold = 1 - pyes[i]
		}
		b.scores[s.ID] = gold
		if gold > 0.5 {
			b.right++
			b.correct = append(b.correct, s.ID)
		}
	}
	return b
}

// number reads an open answer as a number.
func number(a string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// numericPriorFinding is the mean MRA at which the prior alone makes a finding:
// answering every question with the task's typical value meets half the
// thresholds on average.
const numericPriorFinding = 0.5

// numericPrior is check 3 for numeric open answers: the prediction of the
// task's mean in log space (of the other folds' answers, k-fold), scored with
// MRA (score.MRA, VSI-Bench's measure). Its figure is the mean MRA with a normal
// 95 % interval; a finding when it reaches numericPriorFinding.
func numericPrior(task string, ss []annotate.Sample, opt Options) Result {
	fold := folds(len(ss), opt.Folds, opt.Seed)
	gold := make([]float64, len(ss))
	for i, s := range ss {
		gold[i], _ = number(s.AnswerText)
	}
	mra := make([]float64, len(ss))
	for k := range opt.Folds {
		var sum float64
		var n int
		for i := range ss {
			if fold[i] != k && gold[i] > 0 {
				sum += math.Log(gold[i])
				n++
			}
		}
		pred := 0.0
		if n > 0 {
			pred = math.Exp(sum / float64(n))
		}
		for i := range ss {
			if fold[i] == k {
				mra[i] = score.MRA(pred, gold[i])
			}
		}
	}
	var mean, sq float64
	for _, m := range mra {
		mean += m
	}
	mean /= float64(len(mra))
	for _, m := range mra {
		sq += (m - mean) * (m - mean)
	}
	half := 1.96 * math.Sqrt(sq/float64(max(1, len(mra)-1))/float64(len(mra)))
	r := Result{Check: CheckNumericPrior, Task: task, N: len(ss), Figure: mean,
		CI: sampling.Interval{Low: max(0, mean-half), High: min(1, mean+half)}}
	r.Finding = r.Figure >= numericPriorFinding
	r.Detail = fmt.Sprintf("answering every question with the task's typical value (the mean in log space) scores a mean MRA of %.2f over %d samples",
		mean, len(ss))
	if r.Finding {
		type scored struct {
			id string
			m  float64
		}
		var xs []scored
		for i, s := range ss {
			if mra[i] > 0 {
				xs = append(xs, scored{s.ID, mra[i]})
			}
		}
		slices.SortStableFunc(xs, func(a, b scored) int {
			switch {
			case a.m > b.m:
				return -1
			case a.m < b.m:
				return 1
			}
			return 0
		})
		for _, x := range xs {
			r.Samples = append(r.Samples, x.id)
		}
	}
	return r
}
