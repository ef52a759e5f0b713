package agreement

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/montanaflynn/stats"
)

// DefaultThresholds are the alphas whose shortfall probability
// [Result.Bootstrap] reports when no thresholds are given.
var DefaultThresholds = []float64{0.800, 0.667}

// Bootstrap is a bootstrapped distribution of alpha.
type Bootstrap struct {
	Draws  int        // bootstrap replicates X
	Seed   uint64     // seed of the PCG generator
	Pairs  int        // pairs M drawn per replicate
	CI95   [2]float64 // 2.5th and 97.5th percentiles of the replicates
	Below  []Below    // probability that alpha falls below each threshold
	Alphas []float64  // the replicates, ascending
}

// Below is the estimated probability P that alpha is smaller than Threshold.
type Below struct {
	Threshold float64
	P         float64
}

// Bootstrap bootstraps the distribution of alpha following Krippendorff's
// algorithm ("Algorithm for bootstrapping a distribution of alpha", 2006/2011;
// Hayes & Krippendorff 2007, the KALPHA macro):
//
//   - pairs of values are drawn with replacement from the observed
//     coincidences, cell (c,k) with probability o_ck/n (o_cc/n on the diagonal,
//     2·o_ck/n for c < k);
//   - each replicate draws M = min(25·Q, P) pairs, where Q is the number of
//     non-zero cells of the v×v coincidence matrix and P the number of value
//     pairs within the pairable units (P = (m-1)n/2 when no value is missing);
//   - a replicate's alpha is 1 - mean(delta)/D_e with the expected
//     disagreement D_e of the data held fixed, and is floored at -1;
//   - of the replicates with alpha = 1, round(X·Σ_c (o_cc/n)^M) are set to 0:
//     they stand for samples holding a single value, whose alpha is 0/0.
//
// CI95 holds the 2.5th and 97.5th percentiles (linear interpolation), Below
// the share of replicates under each threshold ([DefaultThresholds] if none
// are given). The same data, draws and seed give the same result. It stops with
// ctx's error when ctx ends first (checked every 64 replicates).
func (r *Result) Bootstrap(ctx context.Context, draws int, seed uint64, thresholds ...float64) (*Bootstrap, error) {
	if draws < 1 {
		return nil, fmt.Errorf("agreement: bootstrap needs at least one draw, got %d", draws)
	}
	if len(r.cells) == 0 || r.expected == 0 {
		return nil, fmt.Errorf("agreement: bootstrap needs a result computed by Alpha")
	}
	if len(thresholds) == 0 {
		thresholds = DefaultThresholds
	}

	// Cumulative probabilities over the cells, and the chance that one
	// replicate draws a single diagonal cell M times.
	nn := float64(r.Pairable)
	q := 0
	cum := make([]float64, len(r.cells))
	sum := 0.0
	for i, c := range r.cells {
		sum += c.o / nn
		cum[i] = sum
		q += 2
		if c.diag {
			q--
		}
	}
	cum[len(cum)-1] = 1
	m := min(25*q, r.pairs)
	single := 0.0
	for _, c := range r.cells {
		if c.diag {
			single += math.Pow(c.o/nn, float64(m))
		}
	}

	// Replicate i draws the uniforms i·m … (i+1)·m−1 of one seeded stream, so the
	// replicates are shared out among the cores, each starting its share with the
	// stream advanced to its first draw: the same replicates as one core draws
	// (issue 31: the bootstrap ran on one core).
	alphas := make([]float64, draws)
	workers := max(1, min(bootstrapWorkers(), draws/64))
	onesOf := make([]int, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*draws/workers, (w+1)*draws/workers
		pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
		advance(pcg, uint64(lo)*uint64(m))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if (i-lo)%64 == 0 {
					if err := ctx.Err(); err != nil {
						errs[w] = fmt.Errorf("agreement: bootstrap stopped before its %d draws were done: %w", draws, err)
						return
					}
				}
				sum := 0.0
				for range m {
					u := float64(pcg.Uint64()>>11) * 0x1p-53 // uniform in [0, 1)
					sum += r.cells[search(cum, u)].delta
				}
				if sum == 0 {
					onesOf[w]++
				}
				alphas[i] = max(1-sum/(float64(m)*r.expected), -1)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	ones := 0
	for _, n := range onesOf {
		ones += n
	}
	slices.Sort(alphas)
	// The replicates equal to 1 are at the end; zero the first few of them.
	for i, nx := draws-ones, min(ones, int(math.Round(float64(draws)*single))); nx > 0; i, nx = i+1, nx-1 {
		alphas[i] = 0
	}
	slices.Sort(alphas)

	b := &Bootstrap{Draws: draws, Seed: seed, Pairs: m, Alphas: alphas}
	var err error
	if b.CI95[0], err = stats.Percentile(alphas, 2.5); err != nil {
		return nil, fmt.Errorf("agreement: bootstrap percentile: %w", err)
	}
	if b.CI95[1], err = stats.Percentile(alphas, 97.5); err != nil {
		return nil, fmt.Errorf("agreement: bootstrap percentile: %w", err)
	}
	for _, t := range thresholds {
		below, _ := slices.BinarySearch(alphas, t) // count of replicates < t
		b.Below = append(b.Below, Below{t, float64(below) / float64(draws)})
	}
	return b, nil
}

// bootstrapWorkers is how many goroutines draw the replicates: the cores Go uses.
// Tests set it to compare the shares with one core's draws.
var bootstrapWorkers = func() int { return runtime.GOMAXPROCS(0) }

// advance moves p on by n steps of its generator, as n calls of Uint64 would,
// in O(log n): the 128-bit LCG under Go's PCG (math/rand/v2 pcg.go next: state =
// state·mul + inc mod 2^128) jumped ahead by squaring (Brown, "Random number
// generation with arbitrary strides", 1994). The state goes through the PCG's
// binary encoding, the one way into it.
func advance(p *rand.PCG, n uint64) {
	if n == 0 {
		return
	}
	b, _ := p.MarshalBinary()
	state := u128{binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])}
	accMul, accAdd := u128{0, 1}, u128{}
	curMul := u128{2549297995355413924, 4865540595714422341}
	curAdd := u128{6364136223846793005, 1442695040888963407}
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			accMul = accMul.mul(curMul)
			accAdd = accAdd.mul(curMul).add(curAdd)
		}
		curAdd = curMul.add(u128{0, 1}).mul(curAdd)
		curMul = curMul.mul(curMul)
	}
	state = accMul.mul(state).add(accAdd)
	binary.BigEndian.PutUint64(b[4:], state.hi)
	binary.BigEndian.PutUint64(b[12:], state.lo)
	if err := p.UnmarshalBinary(b); err != nil {
		panic(err) // the encoding MarshalBinary gave
	}
}

// u128 is an unsigned 128-bit integer; its arithmetic is mod 2^128.
type u128 struct{ hi, lo uint64 }

func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// search returns the first index i with cum[i] > u.
func search(cum []float64, u float64) int {
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
