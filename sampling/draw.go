package sampling

import (
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Draw chooses a seeded stratified sample. strata[i] is item i's stratum;
// size(stratum, available) says how many of that stratum's available items to
// draw (values below 0 count as 0, above available as available). Draw
// returns the chosen items' indices in increasing order.
//
// Each stratum is drawn on its own random stream, derived from seed and the
// stratum's name, by a partial Fisher–Yates shuffle of its items in index
// order; so the draw is the same for the same seed whatever other strata
// there are, and drawing more from a stratum with the same seed keeps every
// item a smaller draw chose.
func Draw(strata []string, size func(stratum string, available int) int, seed int64) []int {
	members := map[string][]int{}
	var names []string
	for i, s := range strata {
		if _, ok := members[s]; !ok {
			names = append(names, s)
		}
		members[s] = append(members[s], i)
	}
	var out []int
	for _, name := range names {
		items := members[name]
		n := min(max(size(name, len(items)), 0), len(items))
		r := rand.New(rand.NewPCG(uint64(seed), streamOf(name)))
		for i := 0; i < n; i++ {
			j := i + r.IntN(len(items)-i)
			items[i], items[j] = items[j], items[i]
		}
		out = append(out, items[:n]...)
	}
	slices.Sort(out)
	return out
}

// streamOf is the random stream a stratum draws from.
func streamOf(stratum string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(stratum))
	return bits.RotateLeft64(h.Sum64(), 17)
}

// PerStratum is the size rule "n items from every stratum" (all of a stratum
// that has fewer).
func PerStratum(n int) func(stratum string, available int) int {
	return func(_ string, available int) int { return min(n, available) }
}

// ForMargin is the size rule "enough items from every stratum that the
// stratum's error rate is known to ± margin at the given confidence level",
// by [SizeForMargin] with the stratum's size as the population.
func ForMargin(margin, level, expected float64) func(stratum string, available int) int {
	return func(_ string, available int) int { return SizeForMargin(margin, level, expected, available) }
}

// SizeForMargin is the sample size at which a proportion near expected,
// estimated from a simple random sample of a population of the given size,
// has a confidence interval of half-width margin at the given level
// (0.95 for 95 %). It uses the normal approximation with the finite
// population correction:
//
//	n₀ = z² p(1−p) / margin²,  n = ⌈n₀ / (1 + (n₀−1)/N)⌉
//
// where z is the standard normal quantile of (1+level)/2 and p = expected;
// expected outside (0, 1) is taken as 0.5, the largest (safest) size. A
// population ≤ 0 means an unbounded one. The exact intervals of
// [ClopperPearson] are somewhat wider than this approximation when the rate
// is near 0 or 1; enlarge the sample if the interval comes out too wide.
func SizeForMargin(margin, level, expected float64, population int) int {
	if margin <= 0 || level <= 0 || level >= 1 {
		return max(population, 0)
	}
	p := expected
	if p <= 0 || p >= 1 {
		p = 0.5
	}
	z := NormalQuantile((1 + level) / 2)
	n0 := z * z * p * (1 - p) / (margin * margin)
	if population <= 0 {
		return int(math.Ceil(n0 - 1e-9))
	}
	n := n0 / (1 + (n0-1)/float64(population))
	return min(int(math.Ceil(n-1e-9)), population)
}
