package agreement

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
)

func TestBootstrapWorkedExample(t *testing.T) {
	for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
		t.Run(level.String(), func(t *testing.T) {
			r, err := Alpha(workedData(), level)
			if err != nil {
				t.Fatal(err)
			}
			b, err := r.Bootstrap(context.Background(), 5000, 1)
			if err != nil {
				t.Fatal(err)
			}
			// 55 pairs within the 11 pairable units; 25·Q is larger.
			if b.Draws != 5000 || b.Pairs != 55 || len(b.Alphas) != 5000 || !slices.IsSorted(b.Alphas) {
				t.Errorf("draws %d, pairs %d, %d alphas (sorted %v); want 5000, 55, 5000, true", b.Draws, b.Pairs, len(b.Alphas), slices.IsSorted(b.Alphas))
			}
			if lo, hi := b.CI95[0], b.CI95[1]; !(lo < r.Alpha && r.Alpha < hi) || lo < -1 || hi > 1 {
				t.Errorf("CI95 [%v, %v] does not hold alpha %v inside [-1, 1]", lo, hi, r.Alpha)
			}
			// D_e is held fixed and pairs are drawn from the observed
			// coincidences, so the replicates centre on alpha.
			mean := 0.0
			for _, a := range b.Alphas {
				mean += a / float64(len(b.Alphas))
			}
			if math.Abs(mean-r.Alpha) > 0.01 {
				t.Errorf("mean of replicates %v, alpha %v", mean, r.Alpha)
			}
			if len(b.Below) != 2 || b.Below[0].Threshold != 0.8 || b.Below[1].Threshold != 0.667 {
				t.Fatalf("below = %v, want thresholds 0.8 and 0.667", b.Below)
			}
			for _, q := range b.Below {
				if q.P < 0 || q.P > 1 {
					t.Errorf("q(alpha < %v) = %v, outside [0, 1]", q.Threshold, q.P)
				}
			}
			if b.Below[1].P > b.Below[0].P || b.Below[0].P == 0 || b.Below[0].P == 1 {
				t.Errorf("q(alpha<0.8) = %v, q(alpha<0.667) = %v", b.Below[0].P, b.Below[1].P)
			}
		})
	}
}

func TestBootstrapSeed(t *testing.T) {
	r, err := Alpha(workedData(), Interval)
	if err != nil {
		t.Fatal(err)
	}
	run := func(seed uint64) *Bootstrap {
		t.Helper()
		b, err := r.Bootstrap(context.Background(), 1000, seed, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, b, c := run(42), run(42), run(43)
	if !slices.Equal(a.Alphas, b.Alphas) || a.CI95 != b.CI95 || a.Below[0] != b.Below[0] {
		t.Errorf("seed 42 twice: CI95 %v vs %v", a.CI95, b.CI95)
	}
	if slices.Equal(a.Alphas, c.Alphas) {
		t.Errorf("seeds 42 and 43 gave the same replicates (CI95 %v)", a.CI95)
	}
	if a.Seed != 42 || len(a.Below) != 1 || a.Below[0].Threshold != 0.5 {
		t.Errorf("seed %d, below %v", a.Seed, a.Below)
	}
}

// Two units that agree perfectly on different values: every replicate draws
// only diagonal pairs (alpha 1), and with M = 2 pairs the chance that a
// replicate holds a single value is 0.5² + 0.5², so half become 0.
func TestBootstrapSingleValueCorrection(t *testing.T) {
	r, err := Alpha(NewData([][]string{{"a", "b"}, {"a", "b"}}, nil), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Bootstrap(context.Background(), 1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for _, a := range b.Alphas {
		switch a {
		case 0:
			zeros++
		case 1:
		default:
			t.Fatalf("replicate %v, want 0 or 1", a)
		}
	}
	if b.Pairs != 2 || zeros != 500 {
		t.Errorf("pairs %d, zeros %d; want 2, 500", b.Pairs, zeros)
	}
}

// Units (0,10) and (5,5) at the interval level: D_e = 100/3, and M = 2 pairs
// per replicate, each (0,10) with probability 1/2 (delta 100) or (5,5)
// (delta 0). Replicates are 1-3 = -2 floored to -1 (p 1/4), -0.5 (p 1/2), or
// 1, which the single-value correction turns to 0 in round(2000/4) cases.
func TestBootstrapFloor(t *testing.T) {
	r, err := Alpha(NewData([][]string{{"0", "5"}, {"10", "5"}}, nil), Interval)
	if err != nil {
		t.Fatal(err)
	}
	if r.Alpha != -0.5 {
		t.Fatalf("alpha = %v, want -0.5", r.Alpha)
	}
	b, err := r.Bootstrap(context.Background(), 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	count := map[float64]int{}
	for _, a := range b.Alphas {
		count[a]++
	}
	ones := count[0] + count[1] // replicates with no disagreement
	if count[-1]+count[-0.5]+ones != 2000 || count[-1] < 400 || count[-1] > 600 || count[-0.5] < 900 || count[-0.5] > 1100 {
		t.Errorf("replicate counts %v, want about 500 × -1, 1000 × -0.5, 500 × 0 or 1", count)
	}
	if count[0] != min(ones, 500) {
		t.Errorf("%d replicates set to 0 of %d with alpha 1, want min(%d, round(2000/4))", count[0], ones, ones)
	}
}

func TestBootstrapErrors(t *testing.T) {
	r, err := Alpha(workedData(), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Bootstrap(context.Background(), 0, 1); err == nil {
		t.Error("0 draws: no error")
	}
	if _, err := new(Result).Bootstrap(context.Background(), 100, 1); err == nil {
		t.Error("zero Result: no error")
	}
}

func TestBootstrapStopsWhenCancelled(t *testing.T) {
	res, err := Alpha(workedData(), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := res.Bootstrap(ctx, 100000, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("Bootstrap with a cancelled context: %v, want context.Canceled", err)
	}
}
