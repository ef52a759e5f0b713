package sampling

import (
	"fmt"
	"math"
)

// Interval is a confidence interval [Low, High] for a proportion.
type Interval struct {
	Low, High float64
}

// Method names a binomial confidence interval.
type Method string

// The interval methods.
const (
	Exact   Method = "clopper-pearson" // exact: never narrower than its level promises
	Score   Method = "wilson"          // Wilson's score interval: closer to the level on average, narrower
	Level95        = 0.95              // the level used unless a lead sets another
)

// Methods lists the interval methods.
var Methods = []Method{Exact, Score}

// Valid reports whether m is a known method.
func (m Method) Valid() bool { return m == Exact || m == Score }

// Binomial returns the method's interval for k errors in n items at the given
// level (0 < level < 1). n = 0 gives [0, 1]: nothing is known.
func Binomial(m Method, k, n int, level float64) (Interval, error) {
	if n < 0 || k < 0 || k > n {
		return Interval{}, fmt.Errorf("sampling: %d errors in %d items is not a count", k, n)
	}
	if !(level > 0 && level < 1) {
		return Interval{}, fmt.Errorf("sampling: confidence level %v is not between 0 and 1", level)
	}
	switch m {
	case Exact:
		return ClopperPearson(k, n, level), nil
	case Score:
		return Wilson(k, n, level), nil
	}
	return Interval{}, fmt.Errorf("sampling: unknown interval method %q (want %q or %q)", m, Exact, Score)
}

// ClopperPearson is the exact (Clopper–Pearson) interval for k errors in n
// items at the given level:
//
//	low  = B⁻¹(α/2; k, n−k+1)    (0 when k = 0)
//	high = B⁻¹(1−α/2; k+1, n−k)  (1 when k = n)
//
// with α = 1 − level and B⁻¹ the beta quantile ([BetaQuantile]); these are
// scipy.stats.beta.ppf's values. Arguments out of range give [0, 1].
func ClopperPearson(k, n int, level float64) Interval {
	if n <= 0 || k < 0 || k > n || !(level > 0 && level < 1) {
		return Interval{0, 1}
	}
	return clopperPearson(float64(k), float64(n), level)
}

// clopperPearson is [ClopperPearson] for 0 ≤ k ≤ n, n > 0 not necessarily
// whole (the effective counts of [Stratified]).
func clopperPearson(k, n, level float64) Interval {
	alpha := 1 - level
	iv := Interval{0, 1}
	if k > 0 {
		iv.Low = BetaQuantile(alpha/2, k, n-k+1)
	}
	if k < n {
		iv.High = BetaQuantile(1-alpha/2, k+1, n-k)
	}
	return iv
}

// Wilson is Wilson's score interval for k errors in n items at the given
// level:
//
//	(p̂ + z²/2n ± z √(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)
//
// with z the standard normal quantile of (1+level)/2. Arguments out of range
// give [0, 1].
func Wilson(k, n int, level float64) Interval {
	if n <= 0 || k < 0 || k > n || !(level > 0 && level < 1) {
		return Interval{0, 1}
	}
	return wilson(float64(k), float64(n), level)
}

// wilson is [Wilson] for 0 ≤ k ≤ n, n > 0 not necessarily whole (the
// effective counts of [Stratified]).
func wilson(kf, nf, level float64) Interval {
	z := NormalQuantile((1 + level) / 2)
	z2 := z * z
	center := (kf + z2/2) / (nf + z2)
	half := z / (nf + z2) * math.Sqrt(kf*(nf-kf)/nf+z2/4)
	iv := Interval{math.Max(0, center-half), math.Min(1, center+half)}
	if kf == 0 {
		iv.Low = 0
	}
	if kf == nf {
		iv.High = 1
	}
	return iv
}

// NormalQuantile is the standard normal distribution's quantile function
// (0 < p < 1): −√2 erfc⁻¹(2p).
func NormalQuantile(p float64) float64 {
	return -math.Sqrt2 * math.Erfcinv(2*p)
}

// BetaQuantile is the inverse of the regularized incomplete beta function:
// the x in [0, 1] with I_x(a, b) = p, for a, b > 0 and 0 ≤ p ≤ 1 (NaN
// otherwise). It is Newton's method on [BetaCDF], kept inside a bracket that
// bisection shrinks whenever a Newton step would leave it, to full float64
// precision.
func BetaQuantile(p, a, b float64) float64 {
	switch {
	case !(a > 0 && b > 0) || !(p >= 0 && p <= 1):
		return math.NaN()
	case p == 0:
		return 0
	case p == 1:
		return 1
	}
	lbeta := logBeta(a, b)
	lo, hi := 0.0, 1.0
	x := a / (a + b) // the mean: a start on the right side of the mass
	for range 400 {
		f := BetaCDF(x, a, b) - p
		if f == 0 {
			return x
		}
		if f < 0 {
			lo = x
		} else {
			hi = x
		}
		next := math.NaN()
		if d := math.Exp((a-1)*math.Log(x) + (b-1)*math.Log1p(-x) - lbeta); d > 0 && !math.IsInf(d, 0) {
			next = x - f/d
		}
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if math.Abs(next-x) <= 1e-15*x {
			return next
		}
		x = next
	}
	return x
}

// BetaCDF is the regularized incomplete beta function I_x(a, b), the beta
// distribution's cumulative distribution function, by its continued fraction
// (modified Lentz), on the side of the mean where it converges fast.
func BetaCDF(x, a, b float64) float64 {
	switch {
	case !(a > 0 && b > 0) || math.IsNaN(x):
		return math.NaN()
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lfront := a*math.Log(x) + b*math.Log1p(-x) - logBeta(a, b)
	if x < (a+1)/(a+b+2) {
		return math.Exp(lfront) * betaFraction(x, a, b) / a
	}
	return 1 - math.Exp(lfront)*betaFraction(1-x, b, a)/b
}

// logBeta is ln B(a, b).
func logBeta(a, b float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	return la + lb - lab
}

// betaFraction evaluates the continued fraction of I_x(a, b)
// (Numerical Recipes §6.4), converging for x < (a+1)/(a+b+2).
func betaFraction(x, a, b float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 100000; m++ {
		mf := float64(m)
		m2 := 2 * mf
		aa := mf * (b - mf) * x / ((qam + m2) * (a + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + mf) * (qab + mf) * x / ((a + m2) * (qap + m2))
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return h
}
