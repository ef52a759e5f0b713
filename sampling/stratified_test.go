package sampling

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"
)

func TestStratified(t *testing.T) {
	// The review's case: 30 judged in each of a stratum of 10,000 items (3
	// errors) and one of 30 (none). Pooled, 3/60 = 5 %; by hand:
	//   W_A = 10000/10030, p̂ = W_A·3/30 = 100/1003 ≈ 9.97 %
	//   Var = W_A²·(1 − 30/10000)·0.1·0.9/30 = (1000/1003)²·0.997·0.003
	//   n*  = p̂(1−p̂)/Var = 100·903/(10⁶·0.002991) = 90300/2991 ≈ 30.19
	//   k*  = n*·p̂ ≈ 3.010
	// and the Clopper–Pearson bounds of 3.010 in 30.19 (scipy's beta.ppf).
	review := []StratumCount{{Items: 10000, N: 30, Errors: 3}, {Items: 30, N: 30}}
	tests := []struct {
		name     string
		m        Method
		strata   []StratumCount
		n, k     int
		rate, nS float64 // nS: the effective size n*
		ci       Interval
	}{
		{"strata of different sizes", Exact, review, 60, 3, 100.0 / 1003, 90300.0 / 2991, Interval{0.021129466030016673, 0.2642057561024249}},
		// 1000 and 3000 items, 100 and 300 judged (proportional), 5 % in each:
		// p̂ = 0.05 = 20/400; Var = 0.0475·0.9/400, n* = 400/0.9 → capped at 400.
		{"proportional, equal rates", Exact, []StratumCount{{1000, 100, 5}, {3000, 300, 15}}, 400, 20, 0.05, 400, ClopperPearson(20, 400, 0.95)},
		{"proportional, equal rates, Wilson", Score, []StratumCount{{1000, 100, 5}, {3000, 300, 15}}, 400, 20, 0.05, 400, Wilson(20, 400, 0.95)},
		// No error anywhere: the variance is 0, n* = Σn = 100 and the bound
		// is 1 − 0.025^(1/100).
		{"no errors", Exact, []StratumCount{{500, 50, 0}, {50, 50, 0}}, 100, 0, 0, 100, Interval{0, 1 - math.Pow(0.025, 0.01)}},
		{"all wrong", Exact, []StratumCount{{500, 50, 50}, {50, 50, 50}}, 100, 100, 1, 100, Interval{math.Pow(0.025, 0.01), 1}},
		// One stratum is the simple random sample: its own interval.
		{"one stratum", Exact, []StratumCount{{4000, 300, 12}}, 300, 12, 0.04, 300, ClopperPearson(12, 300, 0.95)},
		// A stratum of no items weighs nothing.
		{"empty stratum", Exact, []StratumCount{{4000, 300, 12}, {}}, 300, 12, 0.04, 300, ClopperPearson(12, 300, 0.95)},
		// A stratum with items and none judged: the batch's rate is not known.
		// Rate is the judged strata's (here one of them, 12/300).
		{"a stratum not judged yet", Exact, []StratumCount{{4000, 300, 12}, {4000, 0, 0}}, 300, 12, 0.04, 0, Interval{0, 1}},
		{"nothing judged", Exact, []StratumCount{{4000, 0, 0}}, 0, 0, 0, 0, Interval{0, 1}},
		{"no strata", Exact, nil, 0, 0, 0, 0, Interval{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Stratified(tc.m, tc.strata, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			if e.N != tc.n || e.Errors != tc.k || !e.Stratified {
				t.Errorf("n %d errors %d stratified %v, want %d, %d, true", e.N, e.Errors, e.Stratified, tc.n, tc.k)
			}
			if math.Abs(e.Rate-tc.rate) > 1e-15 || math.Abs(e.EffectiveN-tc.nS) > 1e-9 {
				t.Errorf("rate %.17g n* %.17g, want %.17g, %.17g", e.Rate, e.EffectiveN, tc.rate, tc.nS)
			}
			if math.Abs(e.CI.Low-tc.ci.Low) > 1e-9 || math.Abs(e.CI.High-tc.ci.High) > 1e-9 {
				t.Errorf("interval [%.15g, %.15g], want [%.15g, %.15g]", e.CI.Low, e.CI.High, tc.ci.Low, tc.ci.High)
			}
		})
	}
}

// With proportional allocation (n_h/N_h the same in every stratum) and the
// same error rate in every stratum, the stratified estimate is the pooled
// one: the same rate and, n* being capped at Σn, the same interval.
func TestStratifiedEqualsPooledUnderProportionalAllocation(t *testing.T) {
	cases := [][]StratumCount{
		{{1000, 100, 5}, {3000, 300, 15}},
		{{4000, 300, 0}, {4000, 300, 0}, {4000, 300, 0}},
		{{200, 20, 1}, {400, 40, 2}, {2000, 200, 10}, {10000, 1000, 50}},
		{{30, 30, 3}, {60, 60, 6}},              // sampled in full
		{{10000, 10, 10}, {20000, 20, 20}},      // all wrong
		{{100000, 385, 7}, {100000, 385, 7}},    // tiny fraction
		{{7, 7, 0}, {700, 700, 0}, {70, 70, 0}}, // no errors, in full
		{{5000, 500, 250}, {15000, 1500, 750}},  // one half
		{{10000, 30, 3}, {20000, 60, 6}},        // small n_h, tiny fractions: the (n_h−1) variance would give n* < Σn
	}
	for i, strata := range cases {
		n, k := 0, 0
		for _, s := range strata {
			n += s.N
			k += s.Errors
			if s.Errors*strata[0].N != strata[0].Errors*s.N || s.N*strata[0].Items != strata[0].N*s.Items {
				t.Fatalf("case %d is not proportional with equal rates", i)
			}
		}
		for _, m := range Methods {
			pooled, err := Estimated(m, k, n, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			e, err := Stratified(m, strata, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(e.Rate-pooled.Rate) > 1e-12 || math.Abs(e.CI.Low-pooled.CI.Low) > 1e-12 || math.Abs(e.CI.High-pooled.CI.High) > 1e-12 {
				t.Errorf("case %d %s: stratified %.15g [%.15g, %.15g], pooled %.15g [%.15g, %.15g]", i, m, e.Rate, e.CI.Low, e.CI.High, pooled.Rate, pooled.CI.Low, pooled.CI.High)
			}
		}
	}
}

// scipyStratified is the stratified estimate and its Korn–Graubard interval
// written out in Python, the bounds by scipy.stats.beta.ppf (Clopper–Pearson)
// and scipy.stats.norm.ppf (Wilson) with non-integer counts.
const scipyStratified = `
import json, sys
from scipy.stats import beta, norm
level, method = float(sys.argv[1]), sys.argv[2]
a = 1 - level
out = []
for arg in sys.argv[3:]:
    strata = [tuple(map(int, s.split("/"))) for s in arg.split(",")]  # items/n/k
    N = sum(s[0] for s in strata)
    p = sum(Nh / N * k / n for Nh, n, k in strata)
    var = sum((Nh / N) ** 2 * (1 - n / Nh) * (k / n) * (1 - k / n) / n for Nh, n, k in strata)
    nsum = sum(n for _, n, _ in strata)
    ns = nsum if var == 0 else min(p * (1 - p) / var, nsum)
    ks = ns * p
    if method == "clopper-pearson":
        lo = 0.0 if ks == 0 else float(beta.ppf(a / 2, ks, ns - ks + 1))
        hi = 1.0 if ks >= ns else float(beta.ppf(1 - a / 2, ks + 1, ns - ks))
    else:
        z = float(norm.ppf(1 - a / 2))
        c = (ks + z * z / 2) / (ns + z * z)
        h = z / (ns + z * z) * (ks * (ns - ks) / ns + z * z / 4) ** 0.5
        lo = 0.0 if ks == 0 else max(0.0, c - h)
        hi = 1.0 if ks >= ns else min(1.0, c + h)
    out.append([p, ns, lo, hi])
print(json.dumps(out))
`

// stratifiedCases spans disproportionate allocations, tiny and large
// sampling fractions, strata sampled in full, n* below and at its cap.
var stratifiedCases = [][]StratumCount{
	{{10000, 30, 3}, {30, 30, 0}},
	{{10000, 30, 1}, {500, 30, 2}, {40, 30, 0}},
	{{20000, 300, 12}, {2000, 300, 0}, {200, 200, 0}},
	{{8000, 600, 12}, {8000, 600, 0}, {4000, 600, 3}},
	{{100000, 50, 1}, {100, 50, 25}},
	{{5000, 385, 9}, {300, 150, 4}, {12, 12, 1}},
	{{1000, 2, 1}, {1000, 1000, 3}},
	{{3000, 100, 99}, {50, 40, 1}},
}

func TestStratifiedMatchesScipy(t *testing.T) {
	py := scipyPython(t)
	for _, level := range []float64{0.95, 0.99} {
		for _, m := range Methods {
			args := []string{"-c", scipyStratified, fmt.Sprint(level), string(m)}
			for _, strata := range stratifiedCases {
				var parts []string
				for _, s := range strata {
					parts = append(parts, fmt.Sprintf("%d/%d/%d", s.Items, s.N, s.Errors))
				}
				args = append(args, strings.Join(parts, ","))
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(py, args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("scipy: %v\n%s", err, stderr.String())
			}
			var want [][4]float64
			if err := json.Unmarshal(stdout.Bytes(), &want); err != nil {
				t.Fatalf("scipy printed %q: %v", stdout.String(), err)
			}
			for i, strata := range stratifiedCases {
				e, err := Stratified(m, strata, level)
				if err != nil {
					t.Fatal(err)
				}
				w := want[i]
				if math.Abs(e.Rate-w[0]) > 1e-12 || math.Abs(e.EffectiveN-w[1]) > 1e-9*w[1] ||
					math.Abs(e.CI.Low-w[2]) > 1e-9 || math.Abs(e.CI.High-w[3]) > 1e-9 {
					t.Errorf("%s at %v, %v: rate %.15g n* %.15g [%.15g, %.15g]; scipy %.15g n* %.15g [%.15g, %.15g]",
						m, level, strata, e.Rate, e.EffectiveN, e.CI.Low, e.CI.High, w[0], w[1], w[2], w[3])
				}
			}
		}
	}
}

func TestStratifiedRefuses(t *testing.T) {
	for _, c := range []struct {
		m      Method
		strata []StratumCount
		level  float64
		want   string
	}{
		{Exact, []StratumCount{{10, 5, 6}}, 0.95, "6 errors in 5 judged of 10 items"},
		{Exact, []StratumCount{{10, 11, 0}}, 0.95, "0 errors in 11 judged of 10 items"},
		{Exact, []StratumCount{{-1, 0, 0}}, 0.95, "of -1 items"},
		{Exact, nil, 1, "confidence level 1"},
		{"bayes", nil, 0.95, `unknown interval method "bayes"`},
	} {
		if _, err := Stratified(c.m, c.strata, c.level); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Stratified(%q, %v, %v) = %v, want an error with %q", c.m, c.strata, c.level, err, c.want)
		}
	}
}

// The batch's line of a refusal says the rate is weighted, not errors/n.
func TestCheckAcceptRestStratifiedBatch(t *testing.T) {
	batch, err := Stratified(Exact, []StratumCount{{10000, 30, 3}, {30, 30, 0}}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := Estimated(Exact, 3, 30, 0.95)
	b, _ := Estimated(Exact, 0, 30, 0.95)
	err = CheckAcceptRest(batch, []Stratum{{Name: "A", Estimate: a, Unsampled: 9970}, {Name: "B", Estimate: b}}, 0.2)
	want := "for the batch: 3 errors in 60, 9.97 % weighted by stratum size, upper bound 26.42 %; A: 3 errors in 30 (10.00 %), upper bound 26.53 %;"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}
