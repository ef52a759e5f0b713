package shortcut

import "math"

// ChiSquareSurvival is the probability that a chi-square variable of df degrees
// of freedom exceeds x: the regularized upper incomplete gamma function
// Q(df/2, x/2), by its series below a+1 and its continued fraction above
// (Numerical Recipes §6.2). It is 1 for x ≤ 0 and NaN for df ≤ 0.
func ChiSquareSurvival(x, df float64) float64 {
	if df <= 0 || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	a, z := df/2, x/2
	lg, _ := math.Lgamma(a)
	if z < a+1 {
		// P(a, z) by its series; Q = 1 − P.
		sum, term := 1/a, 1/a
		for n := 1; n < 1000; n++ {
			term *= z / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*1e-16 {
				break
			}
		}
		return max(0, 1-sum*math.Exp(-z+a*math.Log(z)-lg))
	}
	// Q(a, z) by Lentz's continued fraction.
	const tiny = 1e-300
	b := z + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Exp(-z+a*math.Log(z)-lg) * h
}
