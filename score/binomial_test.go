package score

import (
	"math"
	"testing"
)

func binomialPMF(n, k int, p float64) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// TestBinomialChiSquare compares the sampler's histogram with the exact
// probability mass function, for parameters on both algorithms' paths.
func TestBinomialChiSquare(t *testing.T) {
	for i, tc := range []struct {
		n int
		p float64
	}{
		{20, 0.3},        // inversion
		{100, 0.35},      // inversion, mean 35
		{10, 0.95},       // inversion of the complement
		{1000, 0.5},      // BTRS
		{100000, 0.001},  // BTRS, mean 100
		{200, 0.3},       // BTRS, mean 60
		{1 << 20, 0.37},  // BTRS, large n
		{100000, 0.9999}, // complement, inversion
	} {
		g := newRNG(uint64(i), 99)
		const draws = 200000
		hist := map[int]int{}
		for range draws {
			k := g.binomial(tc.n, tc.p)
			if k < 0 || k > tc.n {
				t.Fatalf("Binomial(%d, %v) drew %d", tc.n, tc.p, k)
			}
			hist[k]++
		}
		// Pool the tails into cells expected to hold at least 20 draws.
		mean := float64(tc.n) * tc.p
		sd := math.Sqrt(mean * (1 - tc.p))
		lo, hi := max(0, int(mean-10*sd)-10), min(tc.n, int(mean+10*sd)+10)
		chi, cells := 0.0, 0
		exp, obs := 0.0, 0
		flush := func() {
			if exp > 0 {
				chi += (float64(obs) - exp) * (float64(obs) - exp) / exp
				cells++
			}
			exp, obs = 0, 0
		}
		for k := lo; k <= hi; k++ {
			exp += draws * binomialPMF(tc.n, k, tc.p)
			obs += hist[k]
			if exp >= 20 {
				flush()
			}
		}
		flush()
		df := float64(cells - 1)
		// Wilson–Hilferty: the chi-square quantile at 1 - 1e-4.
		crit := df * math.Pow(1-2/(9*df)+3.719*math.Sqrt(2/(9*df)), 3)
		if chi > crit {
			t.Errorf("Binomial(%d, %v): chi-square %.1f over %d cells exceeds %.1f", tc.n, tc.p, chi, cells, crit)
		}
	}
}

func TestBinomialEdges(t *testing.T) {
	g := newRNG(1, 1)
	for _, tc := range []struct {
		n    int
		p    float64
		want int
	}{{0, 0.5, 0}, {10, 0, 0}, {10, 1, 10}, {-3, 0.5, 0}} {
		if got := g.binomial(tc.n, tc.p); got != tc.want {
			t.Errorf("binomial(%d, %v) = %d", tc.n, tc.p, got)
		}
	}
	for range 1000 {
		if k := g.intn(7); k < 0 || k >= 7 {
			t.Fatalf("intn(7) = %d", k)
		}
		if f := g.float(); f < 0 || f >= 1 {
			t.Fatalf("float() = %v", f)
		}
	}
}

// TestBTRSLowMeans runs BTRS itself at means from 10, the bottom of its range,
// which binomial leaves to inversion.
func TestBTRSLowMeans(t *testing.T) {
	for i, tc := range []struct {
		n int
		p float64
	}{{60, 0.2}, {25, 0.5}, {1000, 0.015}} {
		g := newRNG(uint64(i), 7)
		const draws = 200000
		hist := make([]int, tc.n+1)
		for range draws {
			hist[g.binomialBTRS(tc.n, tc.p)]++
		}
		chi, cells := 0.0, 0
		exp, obs := 0.0, 0
		for k := 0; k <= tc.n; k++ {
			exp += draws * binomialPMF(tc.n, k, tc.p)
			obs += hist[k]
			if exp >= 20 || k == tc.n {
				chi += (float64(obs) - exp) * (float64(obs) - exp) / exp
				cells++
				exp, obs = 0, 0
			}
		}
		df := float64(cells - 1)
		crit := df * math.Pow(1-2/(9*df)+3.719*math.Sqrt(2/(9*df)), 3)
		if chi > crit {
			t.Errorf("BTRS(%d, %v): chi-square %.1f over %d cells exceeds %.1f", tc.n, tc.p, chi, cells, crit)
		}
	}
}
