package score

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// rng is the bootstrap's generator: a PCG stream with the few draws it needs.
type rng struct {
	pcg   *rand.PCG
	spare uint32 // the unused half of the last 64 bits intn drew
	has   bool
}

func newRNG(seed1, seed2 uint64) *rng { return &rng{pcg: rand.NewPCG(seed1, seed2)} }

// float is uniform in [0, 1).
func (g *rng) float() float64 { return float64(g.pcg.Uint64()>>11) * 0x1p-53 }

// u32 is 32 uniform bits: each 64-bit draw serves two calls.
func (g *rng) u32() uint32 {
	if g.has {
		g.has = false
		return g.spare
	}
	x := g.pcg.Uint64()
	g.spare, g.has = uint32(x>>32), true
	return uint32(x)
}

// intn is uniform in [0, n) for 0 < n < 2³² (Lemire's multiply-shift with
// rejection, so exactly uniform); larger n use 64 bits.
func (g *rng) intn(n int) int {
	if n >= 1<<32 {
		un := uint64(n)
		hi, lo := bits.Mul64(g.pcg.Uint64(), un)
		if lo < un {
			thresh := -un % un
			for lo < thresh {
				hi, lo = bits.Mul64(g.pcg.Uint64(), un)
			}
		}
		return int(hi)
	}
	un := uint32(n)
	m := uint64(g.u32()) * uint64(un)
	if uint32(m) < un {
		thresh := -un % un
		for uint32(m) < thresh {
			m = uint64(g.u32()) * uint64(un)
		}
	}
	return int(m >> 32)
}

// binomial draws from Binomial(n, p): by inversion when the mean of the rarer
// outcome is below 40 (a walk of about that many steps, cheaper there than the
// logarithms of the rejection method), otherwise by Hörmann's BTRS transformed
// rejection with squeeze (W. Hörmann, "The generation of binomial random
// variates", J. Statist. Comput. Simul. 46, 1993; valid for means of 10 and
// more), which takes a bounded number of draws at any n.
func (g *rng) binomial(n int, p float64) int {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - g.binomial(n, 1-p)
	case float64(n)*p < 40:
		return g.binomialInversion(n, p)
	}
	return g.binomialBTRS(n, p)
}

// binomialInversion walks the probability mass function from 0 (p <= 0.5).
func (g *rng) binomialInversion(n int, p float64) int {
	q := 1 - p
	s := p / q
	a := float64(n+1) * s
	r0 := math.Exp(float64(n) * math.Log1p(-p)) // q^n
	for {
		u, r, x := g.float(), r0, 0
		for u > r {
			u -= r
			x++
			if x > n {
				break // rounding left mass beyond n: draw again
			}
			r *= a/float64(x) - s
		}
		if x <= n {
			return x
		}
	}
}

// stirlingTail[k] is log(k!) - ((k+½)·log(k+1) - (k+1) + ½·log(2π)) for small k.
var stirlingTail = func() [10]float64 {
	var t [10]float64
	for k := range t {
		lg, _ := math.Lgamma(float64(k + 1))
		t[k] = lg - ((float64(k)+0.5)*math.Log(float64(k+1)) - float64(k+1) + 0.5*math.Log(2*math.Pi))
	}
	return t
}()

func stirling(k float64) float64 {
	if k < 10 {
		return stirlingTail[int(k)]
	}
	k1sq := (k + 1) * (k + 1)
	return (1.0/12 - (1.0/360-1.0/1260/k1sq)/k1sq) / (k + 1)
}

// binomialBTRS is Hörmann's algorithm BTRS for p <= 0.5 and n·p >= 10.
// (binomial uses it from n·p >= 40; the tests also run it from 10.)
func (g *rng) binomialBTRS(n int, p float64) int {
	fn := float64(n)
	q := 1 - p
	spq := math.Sqrt(fn * p * q)
	b := 1.15 + 2.53*spq
	a := -0.0873 + 0.0248*b + 0.01*p
	c := fn*p + 0.5
	vr := 0.92 - 4.2/b
	r := p / q
	alpha := (2.83 + 5.1/b) * spq
	m := math.Floor((fn + 1) * p)
	for {
		u := g.float() - 0.5
		v := g.float()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + c)
		if k < 0 || k > fn {
			continue
		}
		if us >= 0.07 && v <= vr {
			return int(k)
		}
		v = math.Log(v * alpha / (a/(us*us) + b))
		bound := (m+0.5)*math.Log((m+1)/(r*(fn-m+1))) +
			(fn+1)*math.Log((fn-m+1)/(fn-k+1)) +
			(k+0.5)*math.Log(r*(fn-k+1)/(k+1)) +
			stirling(m) + stirling(fn-m) - stirling(k) - stirling(fn-k)
		if v <= bound {
			return int(k)
		}
	}
}
