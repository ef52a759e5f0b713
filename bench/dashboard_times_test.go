package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/montanaflynn/stats"
)

// TestQuantiles: the median and 90th percentile from only the values at
// QuantileRanks are stats.Median and stats.Percentile(data, 90) of all of them.
func TestQuantiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var cases [][]float64
	for n := 1; n <= 40; n++ {
		vs := make([]float64, n)
		for i := range vs {
			vs[i] = math.Round(rng.Float64()*600*4) / 4 // ties happen
		}
		cases = append(cases, vs)
	}
	cases = append(cases,
		[]float64{1, 2, math.Inf(1)},
		[]float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 9},
		[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, math.MaxFloat64},
		[]float64{0.5, math.Inf(1), math.Inf(1)},
		[]float64{-math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64}, // a difference beyond float64
	)
	for _, vs := range cases {
		slices.Sort(vs)
		ranks := QuantileRanks(len(vs))
		if !slices.IsSorted(ranks) || len(slices.Compact(slices.Clone(ranks))) != len(ranks) {
			t.Errorf("n=%d: ranks %v are not ascending once each", len(vs), ranks)
		}
		read := 0
		at := func(rank int) float64 {
			if !slices.Contains(ranks, rank) {
				t.Fatalf("n=%d: read rank %d, not among %v", len(vs), rank, ranks)
			}
			read++
			return vs[rank]
		}
		median, p90, err := Quantiles(len(vs), at)
		if err != nil {
			t.Fatal(err)
		}
		wantMedian, _ := stats.Median(vs)
		wantP90, _ := stats.Percentile(vs, 90)
		if median != wantMedian || p90 != wantP90 && !(math.IsNaN(p90) && math.IsNaN(wantP90)) {
			t.Errorf("n=%d %v: median %v p90 %v, want %v and %v", len(vs), vs, median, p90, wantMedian, wantP90)
		}
	}
}
