package shortcut

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// python finds Debian's python3 with the modules named, or skips when
// BENCHWRIGHT_SKIP_CONSUMERS=1 (as the other reference tests do).
func python(t *testing.T, modules ...string) string {
	t.Helper()
	if os.Getenv("BENCHWRIGHT_SKIP_CONSUMERS") == "1" {
		t.Skip("BENCHWRIGHT_SKIP_CONSUMERS=1: the reference values were not computed")
	}
	imp := "import " + strings.Join(modules, ", ")
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", imp).Run() == nil {
			return py
		}
	}
	t.Fatalf("no python3 with %v: scripts/dev test installs them", modules)
	return ""
}

func runPython(t *testing.T, py, script string, in any, out any) {
	t.Helper()
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(data), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("python's answer %q: %v", stdout.String(), err)
	}
}

// TestChiSquareSurvivalIsScipys: the p-values are scipy.stats.chi2.sf's.
func TestChiSquareSurvivalIsScipys(t *testing.T) {
	py := python(t, "scipy.stats")
	cases := [][2]float64{{0.5, 1}, {3.84, 1}, {6.63, 1}, {0.1, 3}, {2, 3}, {7.81, 3}, {11.34, 3}, {40, 3}, {1, 2}, {9.21, 2},
		{25, 7}, {3, 7}, {120, 4}, {0.001, 5}, {15, 15}, {60, 30}}
	var want []float64
	runPython(t, py, `
import json, sys
from scipy.stats import chi2
print(json.dumps([float(chi2.sf(x, df)) for x, df in json.load(sys.stdin)]))`, cases, &want)
	for i, c := range cases {
		got := ChiSquareSurvival(c[0], c[1])
		if math.Abs(got-want[i]) > 1e-12+1e-9*want[i] {
			t.Errorf("chi-square %v with %v df: p %.15g, scipy %.15g", c[0], c[1], got, want[i])
		}
	}
}

// TestAnswerPositionIsScipys: the letters' test is scipy.stats.chisquare of the
// counts against the expected counts (samples of 3 and 4 options mixed).
func TestAnswerPositionIsScipys(t *testing.T) {
	py := python(t, "scipy.stats")
	rng := rand.New(rand.NewPCG(3, 4))
	var ss []annotate.Sample
	obs := make([]float64, 4)
	exp := make([]float64, 4)
	for i := range 90 {
		n := 3 + i%2
		a := rng.IntN(n)
		if i%5 == 0 {
			a = 0
		}
		ss = append(ss, annotate.Sample{ID: fmt.Sprint(i), Kind: annotate.KindMCQ, Options: make([]string, n), AnswerIndex: a})
		obs[a]++
		for l := range n {
			exp[l] += 1 / float64(n)
		}
	}
	r := answerPosition("t", ss, nil, Options{}.withDefaults())
	var want [2]float64
	runPython(t, py, `
import json, sys
from scipy.stats import chisquare
o, e = json.load(sys.stdin)
s, p = chisquare(o, f_exp=e)
print(json.dumps([float(s), float(p)]))`, [][]float64{obs, exp}, &want)
	if math.Abs(r.P-want[1]) > 1e-9 {
		t.Errorf("p %.12g, scipy %.12g (statistic %v)", r.P, want[1], want[0])
	}
	if !strings.Contains(r.Detail, fmt.Sprintf("chi-square %.1f", want[0])) {
		t.Errorf("detail %q, scipy's statistic %.3f", r.Detail, want[0])
	}
}

var (
	nouns  = []string{"table", "chair", "lamp", "mug", "sofa", "shelf", "door", "window", "plant", "book", "bottle", "laptop", "box", "rug", "bag", "clock"}
	colors = map[string]string{"crimson": "red", "azure": "blue", "emerald": "green", "golden": "yellow", "ebony": "black", "ivory": "white"}
)

// gen makes n samples of a task; plant shapes each (rng, the options, the answer
// index drawn uniformly) and returns the answer index.
func gen(task string, n int, seed uint64, plant func(rng *rand.Rand, q *string, opts []string, a int) int) []annotate.Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []annotate.Sample
	for i := range n {
		opts := make([]string, 4)
		perm := rng.Perm(len(nouns))
		for j := range opts {
			opts[j] = "the " + nouns[perm[j]]
		}
		q := fmt.Sprintf("Which object is %s of the %s?", []string{"left", "right", "behind", "in front"}[rng.IntN(4)], nouns[perm[5]])
		a := rng.IntN(4)
		if plant != nil {
			a = plant(rng, &q, opts, a)
		}
		out = append(out, annotate.Sample{ID: fmt.Sprintf("%s-%03d", task, i), Kind: annotate.KindMCQ, Task: task, Question: q, Options: opts, AnswerIndex: a})
	}
	return out
}

// planted is a project of five tasks: one clean, one whose answer is always the
// longest option, one whose answer is "A" 60 % of the time, one whose answer is
// given away by one word of the question, and yes/no questions whose answer is
// given away by a word.
func planted() []annotate.Sample {
	ss := gen("clean", 150, 1, nil)
	ss = append(ss, gen("longest", 150, 2, func(rng *rand.Rand, _ *string, opts []string, a int) int {
		opts[a] += " on the far side of the room"
		return a
	})...)
	ss = append(ss, gen("letter", 200, 3, func(rng *rand.Rand, _ *string, _ []string, a int) int {
		if rng.Float64() < 0.6 {
			return 0
		}
		return 1 + rng.IntN(3)
	})...)
	syn := slices.Sorted(func(yield func(string) bool) {
		for k := range colors {
			if !yield(k) {
				return
			}
		}
	})
	ss = append(ss, gen("cue", 150, 4, func(rng *rand.Rand, q *string, opts []string, a int) int {
		s := syn[rng.IntN(len(syn))]
		*q = fmt.Sprintf("Which %s thing is near the %s?", s, nouns[rng.IntN(len(nouns))])
		used := map[string]bool{colors[s]: true}
		for j := range opts {
			if j == a {
				opts[j] = colors[s]
				continue
			}
			for {
				c := colors[syn[rng.IntN(len(syn))]]
				if !used[c] {
					used[c] = true
					opts[j] = c
					break
				}
			}
		}
		return a
	})...)
	rng := rand.New(rand.NewPCG(5, 1))
	for i := range 120 {
		yes := rng.IntN(2) == 0
		word := "touching"
		if !yes {
			word = "apart from"
		}
		ss = append(ss, annotate.Sample{ID: fmt.Sprintf("yn-%03d", i), Kind: annotate.KindJudgment, Task: "yesno",
			Question:   fmt.Sprintf("Is the %s %s the %s?", nouns[rng.IntN(len(nouns))], word, nouns[rng.IntN(len(nouns))]),
			AnswerText: map[bool]string{true: "yes", false: "no"}[yes]})
	}
	return ss
}

// TestPlantedShortcutsAreFoundAndNothingElse: on a project with a shortcut
// planted in four tasks and one clean task, the audit reports exactly the planted
// ones, each with the samples that drive it.
func TestPlantedShortcutsAreFoundAndNothingElse(t *testing.T) {
	rep := Audit(planted(), Options{Seed: 7})
	var got []string
	for _, r := range rep.Findings() {
		got = append(got, r.Task+" "+r.Check)
		if len(r.Samples) == 0 {
			t.Errorf("%s %s: a finding without samples", r.Task, r.Check)
		}
	}
	want := []string{
		"cue text-baseline",
		"letter answer-position", "letter text-baseline", // a blind model learns to answer A
		"longest option-length", "longest text-baseline", // and to pick the longest
		"yesno text-baseline",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings %v\nwant %v", got, want)
		for _, r := range rep.Results {
			t.Logf("%s %s: %.2f (chance %.2f, CI %.2f–%.2f) %s", r.Task, r.Check, r.Figure, r.Chance, r.CI.Low, r.CI.High, r.Detail)
		}
	}
	for _, r := range rep.Results {
		switch {
		case r.Task == "cue" && r.Check == CheckTextBaseline && r.Figure < 0.95:
			t.Errorf("the cue-word task: blind accuracy %.2f, want about 1", r.Figure)
		case r.Task == "longest" && r.Check == CheckOptionLength && r.Figure != 1:
			t.Errorf("the longest-option task: %.2f pick the longest, want 1", r.Figure)
		case r.Task == "clean" && r.Check == CheckTextBaseline && r.CI.Low > r.Chance:
			t.Errorf("the clean task: blind accuracy %.2f (%.2f–%.2f) above chance %.2f", r.Figure, r.CI.Low, r.CI.High, r.Chance)
		}
	}
	if len(rep.Bias) != 770 {
		t.Errorf("%d bias scores, want one per sample (770)", len(rep.Bias))
	}
}

// TestPruneBringsTasksToChance: with the cue planted in a third of a task's
// samples, the pruning removes mostly those, until the task is within the margin
// of chance; the clean task loses nothing.
func TestPruneBringsTasksToChance(t *testing.T) {
	ss := gen("clean", 150, 1, nil)
	cued := map[string]bool{}
	part := gen("mixed", 240, 9, nil)
	for i := range part {
		if i%3 == 0 {
			s := &part[i]
			s.Question = "Which object is the leftmost one?"
			s.Options[s.AnswerIndex] = "the umbrella"
			cued[s.ID] = true
		}
	}
	ss = append(ss, part...)
	p := Prune(ss, Options{Seed: 7})
	if got := Audit(ss, Options{Seed: 7}).Prune; !slices.EqualFunc(got.Removed, p.Removed, func(a, b Pruned) bool { return a == b }) {
		t.Errorf("the audit's pruning proposal (%d samples) is not Prune's (%d)", len(got.Removed), len(p.Removed))
	}
	if !p.Done {
		t.Fatalf("the pruning did not end: %s", p.Detail)
	}
	hit := 0
	for _, r := range p.Removed {
		if r.Task == "clean" {
			t.Errorf("removed %s of the clean task", r.ID)
		}
		if cued[r.ID] {
			hit++
		}
	}
	if len(p.Removed) == 0 || float64(hit) < 0.8*float64(len(p.Removed)) {
		t.Errorf("removed %d samples, %d of them cued", len(p.Removed), hit)
	}
	for _, o := range p.Tasks {
		if o.After-o.Chance >= 0.10 {
			t.Errorf("%s still at %.2f (chance %.2f)", o.Task, o.After, o.Chance)
		}
		if o.Task == "mixed" && o.Before-o.Chance < 0.10 {
			t.Errorf("the mixed task started at %.2f: the plant is too weak to test anything", o.Before)
		}
	}
}

// TestNumericPrior: open numeric answers all near one value are answerable by
// the prior; answers spread over orders of magnitude are not.
func TestNumericPrior(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	var ss []annotate.Sample
	for i := range 60 {
		ss = append(ss, annotate.Sample{ID: fmt.Sprintf("near-%d", i), Kind: annotate.KindOpen, Task: "near",
			Question: "How far is the door, in metres?", AnswerText: fmt.Sprintf("%.2f", 3+0.2*rng.NormFloat64())})
		ss = append(ss, annotate.Sample{ID: fmt.Sprintf("far-%d", i), Kind: annotate.KindOpen, Task: "spread",
			Question: "How many grains are there?", AnswerText: fmt.Sprintf("%.0f", math.Pow(10, 1+4*rng.Float64()))})
	}
	rep := Audit(ss, Options{Seed: 1})
	found := map[string]bool{}
	for _, r := range rep.Results {
		if r.Check != CheckNumericPrior {
			t.Errorf("%s: check %s on open answers", r.Task, r.Check)
		}
		found[r.Task] = r.Finding
	}
	if !found["near"] || found["spread"] {
		t.Errorf("numeric-prior findings %v, want near only", found)
	}
}

// TestQuestionBaselineIsALogisticModel: the yes/no blind model is L2-penalised
// logistic regression on the question's hashed words and word pairs. scikit-learn's
// LogisticRegression, fitted on the same features, folds and penalty, answers the
// same held-out samples right within a few of them (the fits differ only in the
// optimiser: stochastic gradient steps here, L-BFGS there), on a set whose cue
// word gives the answer away in 70 % of the questions.
func TestQuestionBaselineIsALogisticModel(t *testing.T) {
	py := python(t, "sklearn.linear_model", "numpy")
	rng := rand.New(rand.NewPCG(21, 1))
	var ss []annotate.Sample
	for i := range 300 {
		yes := rng.IntN(2) == 0
		word := []string{"near", "beside", "under", "over"}[rng.IntN(4)]
		if rng.Float64() < 0.7 {
			word = map[bool]string{true: "touching", false: "apart from"}[yes]
		}
		ss = append(ss, annotate.Sample{ID: fmt.Sprint(i), Kind: annotate.KindJudgment,
			Question:   fmt.Sprintf("Is the %s %s the %s?", nouns[rng.IntN(len(nouns))], word, nouns[rng.IntN(len(nouns))]),
			AnswerText: map[bool]string{true: "yes", false: "no"}[yes]})
	}
	opt := Options{Seed: 3}.withDefaults()
	b := questionBaseline(ss, opt)
	type row struct {
		Idx  []uint32  `json:"idx"`
		Val  []float32 `json:"val"`
		Yes  int       `json:"yes"`
		Fold int       `json:"fold"`
	}
	fold := folds(len(ss), opt.Folds, opt.Seed)
	var rows []row
	for i, s := range ss {
		r := row{Yes: 1 - yesNo(s.AnswerText), Fold: fold[i]}
		for _, f := range questionFeatures(s) {
			r.Idx, r.Val = append(r.Idx, f.i), append(r.Val, f.v)
		}
		rows = append(rows, r)
	}
	var right int
	runPython(t, py, fmt.Sprintf(`
import json, sys
import numpy as np
from sklearn.linear_model import LogisticRegression
rows = json.load(sys.stdin)
cols = sorted({i for r in rows for i in r["idx"]})
at = {c: k for k, c in enumerate(cols)}
X = np.zeros((len(rows), len(cols)))
for n, r in enumerate(rows):
    for i, v in zip(r["idx"], r["val"]):
        X[n, at[i]] += v
y = np.array([r["yes"] for r in rows])
fold = np.array([r["fold"] for r in rows])
right = 0
for k in range(%d):
    tr, te = fold != k, fold == k
    # The penalty here is penalty·‖w‖²/2 per sample; sklearn's is ‖w‖²/(2C) over the sum.
    m = LogisticRegression(C=1 / (%g * tr.sum()), fit_intercept=False, max_iter=5000).fit(X[tr], y[tr])
    right += int((m.predict(X[te]) == y[te]).sum())
print(json.dumps(right))`, opt.Folds, penalty), rows, &right)
	if d := b.right - right; d < -9 || d > 9 { // 3 points: 85 % is the best a model of the cue can do
		t.Errorf("held out, the blind model answers %d of %d right, scikit-learn's logistic regression %d", b.right, len(ss), right)
	}
	if acc := float64(right) / float64(len(ss)); acc < 0.7 || acc > 0.95 {
		t.Errorf("scikit-learn answers %.2f right: the cue does not test the fit", acc)
	}
	t.Logf("held out: %d of %d here, %d with scikit-learn", b.right, len(ss), right)
}

// TestHashRunesIsHash: the 3-grams' hash without a string is the hash of the string.
func TestHashRunesIsHash(t *testing.T) {
	for _, s := range []string{" th", "the", "é à", "日本語", "ab"} {
		if got, want := hashRunes([]rune(s)), hash("c", s); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

// TestPruneTakesAWhollyBiasedTask: a task whose every answer is the longest
// option is proposed whole — what is left of it would still be answered blind —
// and not pruned down to the size no check judges (19 samples, every one still
// longest); the clean task loses nothing.
func TestPruneTakesAWhollyBiasedTask(t *testing.T) {
	ss := gen("clean", 150, 1, nil)
	ss = append(ss, gen("longest", 40, 2, func(rng *rand.Rand, _ *string, opts []string, a int) int {
		opts[a] += " on the far side of the room"
		return a
	})...)
	p := Prune(ss, Options{Seed: 7})
	by := map[string]int{}
	for _, r := range p.Removed {
		by[r.Task]++
	}
	if by["longest"] != 40 || by["clean"] != 0 || !p.Done || strings.Contains(p.Detail, "still") {
		t.Errorf("removed %v, done %v: %s", by, p.Done, p.Detail)
	}
	for _, o := range p.Tasks {
		if o.Task == "longest" && (o.Before != 1 || o.Left != 0 || o.After != 0) {
			t.Errorf("longest: %+v", o)
		}
	}
}
