package sampling

import (
	"fmt"
	"math"
)

// StratumCount is what one stratum of a stratified sample contributes to the
// population's estimate: Items in the stratum (N_h), N of them sampled and
// judged (n_h), Errors of those wrong (k_h).
type StratumCount struct {
	Items  int
	N      int
	Errors int
}

// Stratified is the error rate of a population estimated from a stratified
// random sample, each stratum weighted by its share of the population —
// never the pooled Σk_h/Σn_h, which over-weights a small stratum sampled
// with as many items as a large one. With W_h = N_h/N, p̂_h = k_h/n_h and
// f_h = n_h/N_h:
//
//	p̂      = Σ W_h p̂_h
//	Var(p̂) = Σ W_h² (1−f_h) p̂_h(1−p̂_h) / n_h
//
// (Cochran, Sampling Techniques, 3rd ed., 1977, §5.8, with the binomial
// variance p̂_h(1−p̂_h)/n_h of each stratum's proportion rather than the
// unbiased /(n_h−1): with it a single stratum, or proportional allocation at
// equal rates, gives back the simple random sample's interval exactly, and a
// stratum of one judged item contributes nothing rather than 0/0.)
//
// The interval is Korn and Graubard's (1998, "Confidence intervals for
// proportions with small expected number of positive counts estimated from
// survey data", Survey Methodology 24(2), 193–201; R survey's
// svyciprop(method = "beta")): the effective sample size
// n* = p̂(1−p̂)/Var(p̂), capped at Σn_h and equal to Σn_h when the variance is
// 0, and k* = n*·p̂ go into method's binomial interval, Clopper–Pearson's
// beta quantiles or Wilson's formula taking non-integer counts as they are.
// The degrees-of-freedom adjustment of n* that Korn and Graubard also
// propose is not applied.
//
// The Estimate's N and Errors are the judged items and errors summed over
// the strata (Σn_h, Σk_h), its Rate is p̂, EffectiveN is n*. While a stratum
// that has items has none judged, the batch's rate is not known: the
// interval is [0, 1] and Rate is the estimate over the judged strata alone.
// Strata with no items are ignored.
func Stratified(m Method, strata []StratumCount, level float64) (Estimate, error) {
	if !m.Valid() {
		return Estimate{}, fmt.Errorf("sampling: unknown interval method %q (want %q or %q)", m, Exact, Score)
	}
	if !(level > 0 && level < 1) {
		return Estimate{}, fmt.Errorf("sampling: confidence level %v is not between 0 and 1", level)
	}
	total := 0
	for _, s := range strata {
		if s.Items < 0 || s.N < 0 || s.Errors < 0 || s.Errors > s.N || s.N > s.Items {
			return Estimate{}, fmt.Errorf("sampling: %d errors in %d judged of %d items is not a stratum's count", s.Errors, s.N, s.Items)
		}
		total += s.Items
	}
	e := Estimate{CI: Interval{0, 1}, Stratified: true}
	var rate, variance, judgedWeight float64
	unjudged := false
	for _, s := range strata {
		if s.Items == 0 {
			continue
		}
		if s.N == 0 {
			unjudged = true
			continue
		}
		e.N += s.N
		e.Errors += s.Errors
		w := float64(s.Items) / float64(total)
		p := float64(s.Errors) / float64(s.N)
		judgedWeight += w
		rate += w * p
		if s.Errors > 0 && s.Errors < s.N { // p̂_h(1−p̂_h) = 0 otherwise
			f := float64(s.N) / float64(s.Items)
			variance += w * w * (1 - f) * p * (1 - p) / float64(s.N)
		}
	}
	if e.N == 0 {
		return e, nil
	}
	if unjudged {
		e.Rate = rate / judgedWeight
		return e, nil
	}
	switch e.Errors { // exactly, whatever the weights' rounding
	case 0:
		rate = 0
	case e.N:
		rate = 1
	}
	e.Rate = rate
	e.EffectiveN = effectiveSize(rate, variance, e.N)
	k := math.Min(e.EffectiveN*rate, e.EffectiveN)
	if m == Score {
		e.CI = wilson(k, e.EffectiveN, level)
	} else {
		e.CI = clopperPearson(k, e.EffectiveN, level)
	}
	return e, nil
}

// effectiveSize is Korn and Graubard's n* = p(1−p)/variance, at most n, and
// n when the variance is 0 (every stratum all wrong or all right, or judged
// in full).
func effectiveSize(p, variance float64, n int) float64 {
	if variance <= 0 {
		return float64(n)
	}
	return math.Min(p*(1-p)/variance, float64(n))
}
