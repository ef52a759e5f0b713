package sampling

import (
	"fmt"
	"strings"
)

// Estimate is an error rate estimated from a judged sample: Errors of N
// judged items were wrong, Rate = Errors/N, CI its confidence interval. A
// [Stratified] estimate weights each stratum by its size instead: its Rate
// is not Errors/N, and its interval rests on EffectiveN.
type Estimate struct {
	N          int      `json:"n"`
	Errors     int      `json:"errors"`
	Rate       float64  `json:"rate"`
	CI         Interval `json:"ci"`
	Stratified bool     `json:"stratified,omitempty"`
	EffectiveN float64  `json:"effective_n,omitempty"` // Korn–Graubard's n* of a stratified estimate
}

// Estimated is the estimate for errors of n judged items, its interval by
// method at level.
func Estimated(m Method, errors, n int, level float64) (Estimate, error) {
	iv, err := Binomial(m, errors, n, level)
	if err != nil {
		return Estimate{}, err
	}
	e := Estimate{N: n, Errors: errors, CI: iv}
	if n > 0 {
		e.Rate = float64(errors) / float64(n)
	}
	return e, nil
}

// Below reports whether the interval's upper bound is below threshold: the
// error rate is below it at the interval's confidence.
func (e Estimate) Below(threshold float64) bool { return e.N > 0 && e.CI.High < threshold }

// Stratum is one stratum's state in a validation: its estimate from the
// sampled items judged so far, how many sampled items still wait for their
// judgement, and how many items were not sampled (the rest a lead may accept).
type Stratum struct {
	Name string
	Estimate
	Pending   int // sampled, not judged yet
	Unsampled int // not in the sample
}

// CheckAcceptRest says whether the unsampled rest of a batch may be accepted
// on the strength of its sample, and if not, why, with the numbers. The rule:
// every sampled item has been judged, the batch's upper bound is below
// threshold, and so is the upper bound of every stratum that has unsampled
// items (a stratum sampled in full leaves nothing to accept). batch is the
// [Stratified] estimate of the strata. A nil error means the rest may be
// accepted.
func CheckAcceptRest(batch Estimate, strata []Stratum, threshold float64) error {
	if !(threshold > 0 && threshold < 1) {
		return fmt.Errorf("the error-rate threshold %v is not between 0 and 1", threshold)
	}
	pending, rest := 0, 0
	for _, s := range strata {
		pending += s.Pending
		rest += s.Unsampled
	}
	if pending > 0 {
		return fmt.Errorf("%d sampled %s still %s round 1; judge %s first", pending, plural(pending, "item"), plural3(pending, "waits for", "wait for"), plural3(pending, "it", "them"))
	}
	if rest == 0 {
		return fmt.Errorf("every item of the batch was sampled; there is no rest to accept")
	}
	var high []string
	if !batch.Below(threshold) {
		high = append(high, "the batch: "+describe(batch))
	}
	for _, s := range strata {
		if s.Unsampled > 0 && !s.Below(threshold) {
			high = append(high, s.Name+": "+describe(s.Estimate))
		}
	}
	if len(high) > 0 {
		return fmt.Errorf("the upper bound of the error rate is not below the threshold of %s for %s; enlarge the sample or fix the set",
			percent(threshold), strings.Join(high, "; "))
	}
	return nil
}

// describe reads "3 errors in 120 (2.50 %), upper bound 7.13 %", or for a
// stratified estimate "3 errors in 60, 10.00 % weighted by stratum size,
// upper bound 26.45 %".
func describe(e Estimate) string {
	if e.N == 0 {
		return "no judged items"
	}
	if e.Stratified {
		return fmt.Sprintf("%d %s in %d, %s weighted by stratum size, upper bound %s", e.Errors, plural(e.Errors, "error"), e.N, percent(e.Rate), percent(e.CI.High))
	}
	return fmt.Sprintf("%d %s in %d (%s), upper bound %s", e.Errors, plural(e.Errors, "error"), e.N, percent(e.Rate), percent(e.CI.High))
}

func percent(x float64) string { return fmt.Sprintf("%.2f %%", 100*x) }

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func plural3(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
