package bench

import (
	"math"
	"slices"

	"github.com/montanaflynn/stats"
)

// The dashboard's review times (VerifierRow.MedianSeconds and P90Seconds) are
// stats.Median and stats.Percentile(data, 90) of a verifier's timed reviews. A
// store need not read every time: QuantileRanks says which sorted ranks those
// figures read, and Quantiles computes them from the values at those ranks.

// p90Rank is where stats.Percentile(data, 90) reads n sorted values: between rank k
// and k+1, at fraction f.
func p90Rank(n int) (k int, f float64) {
	rank := (float64(90) / 100) * float64(n-1)
	k = int(rank)
	return k, rank - float64(k)
}

// QuantileRanks lists, ascending and once each, the ranks among n sorted values
// that the median and the 90th percentile read.
func QuantileRanks(n int) []int {
	rs := []int{n / 2}
	if n%2 == 0 {
		rs = append(rs, n/2-1)
	}
	if k, f := p90Rank(n); k+1 < n && f != 0 {
		rs = append(rs, k, k+1)
	} else {
		rs = append(rs, k)
	}
	slices.Sort(rs)
	return slices.Compact(rs)
}

// Quantiles is stats.Median and stats.Percentile(data, 90) of n values (n > 0) of
// which it knows only those at the ranks QuantileRanks lists, through at: the same
// formulas on the same values, so the same results.
func Quantiles(n int, at func(rank int) float64) (median, p90 float64, err error) {
	if n%2 == 0 {
		if median, err = stats.Mean([]float64{at(n/2 - 1), at(n / 2)}); err != nil {
			return 0, 0, err
		}
	} else {
		median = at(n / 2)
	}
	k, f := p90Rank(n)
	p90 = at(k)
	if k+1 < n && f != 0 && at(k+1) != at(k) {
		if delta := at(k+1) - at(k); math.IsInf(delta, 1) {
			p90 = (1-f)*at(k) + f*at(k+1)
		} else {
			p90 = at(k) + f*delta
		}
	}
	return median, p90, nil
}

// SecondsBucket is the whole second a review time is counted in by the review
// times' histogram the store keeps (a verifier's times per second, from which it
// finds the ranks QuantileRanks asks for): rounded down, and math.MaxInt64 for
// times beyond it.
func SecondsBucket(s float64) int64 {
	if s >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(s)
}

// ActivityDay is the UTC day (YYYY-MM-DD) the activity and submission tallies
// count a stored timestamp (RFC 3339 in UTC) in.
func ActivityDay(at string) string {
	if len(at) > 10 {
		return at[:10]
	}
	return at
}
