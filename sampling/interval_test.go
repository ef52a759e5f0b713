package sampling

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// scipyPython finds Debian's python3 with scipy, or skips when
// BENCHWRIGHT_SKIP_CONSUMERS=1 (as release's consumer tests do).
func scipyPython(t *testing.T) string {
	t.Helper()
	if os.Getenv("BENCHWRIGHT_SKIP_CONSUMERS") == "1" {
		t.Skip("BENCHWRIGHT_SKIP_CONSUMERS=1: scipy's reference values were not computed")
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import scipy.stats").Run() == nil {
			return py
		}
	}
	t.Fatal("no python3 with scipy: apt-get install python3-scipy (scripts/dev test does), or set BENCHWRIGHT_SKIP_CONSUMERS=1")
	return ""
}

// scipyClopperPearson computes, with scipy.stats.beta.ppf, the Clopper–Pearson
// bounds of each (k, n) at level, the textbook formula written in Python.
const scipyClopperPearson = `
import json, sys
from scipy.stats import beta
level = float(sys.argv[1])
a = 1 - level
out = []
for pair in sys.argv[2:]:
    k, n = map(int, pair.split("/"))
    lo = 0.0 if k == 0 else float(beta.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - a / 2, k + 1, n - k))
    out.append([lo, hi])
print(json.dumps(out))
`

// ScipyClopperPearson returns scipy's Clopper–Pearson bounds for each (k, n).
func ScipyClopperPearson(t *testing.T, level float64, kn [][2]int) []Interval {
	t.Helper()
	args := []string{"-c", scipyClopperPearson, fmt.Sprint(level)}
	for _, p := range kn {
		args = append(args, fmt.Sprintf("%d/%d", p[0], p[1]))
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(scipyPython(t), args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scipy: %v\n%s", err, stderr.String())
	}
	var raw [][2]float64
	if err := json.Unmarshal(stdout.Bytes(), &raw); err != nil {
		t.Fatalf("scipy printed %q: %v", stdout.String(), err)
	}
	out := make([]Interval, len(raw))
	for i, r := range raw {
		out[i] = Interval{r[0], r[1]}
	}
	return out
}

// clopperPearsonCases spans small and large n, with k = 0, k = n and rates
// from tiny to one half.
var clopperPearsonCases = [][2]int{
	{0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}, {0, 10}, {1, 10}, {5, 10}, {10, 10},
	{0, 30}, {3, 30}, {29, 30}, {0, 100}, {1, 100}, {7, 100}, {50, 100}, {100, 100},
	{0, 385}, {12, 385}, {0, 1000}, {1, 1000}, {25, 1000}, {500, 1000}, {999, 1000}, {1000, 1000},
	{0, 5000}, {3, 5000}, {250, 5000}, {0, 20000}, {1, 20000}, {2, 20000}, {40, 20000},
	{1000, 20000}, {10000, 20000}, {19999, 20000}, {20000, 20000},
}

func TestClopperPearsonMatchesScipy(t *testing.T) {
	for _, level := range []float64{0.95, 0.99, 0.9} {
		want := ScipyClopperPearson(t, level, clopperPearsonCases)
		for i, kn := range clopperPearsonCases {
			got := ClopperPearson(kn[0], kn[1], level)
			if math.Abs(got.Low-want[i].Low) > 1e-9 || math.Abs(got.High-want[i].High) > 1e-9 {
				t.Errorf("level %v, k=%d n=%d: [%.15g, %.15g], scipy [%.15g, %.15g]", level, kn[0], kn[1], got.Low, got.High, want[i].Low, want[i].High)
			}
		}
	}
}

// The bounds have closed forms at k = 0 and k = n, and I_x(a, b) at the
// quantile gives back p.
func TestBetaQuantileClosedForms(t *testing.T) {
	for _, n := range []int{1, 2, 17, 385, 20000} {
		want := 1 - math.Pow(0.025, 1/float64(n)) // I_x(1, n) = 1-(1-x)^n
		if got := ClopperPearson(0, n, 0.95).High; math.Abs(got-want) > 1e-12 {
			t.Errorf("n=%d k=0: high %.15g, want %.15g", n, got, want)
		}
		if got := ClopperPearson(n, n, 0.95).Low; math.Abs(got-(1-want)) > 1e-12 {
			t.Errorf("n=%d k=n: low %.15g, want %.15g", n, got, 1-want)
		}
	}
	for _, c := range []struct{ p, a, b float64 }{{0.025, 3, 4}, {0.975, 41, 19960}, {0.5, 0.5, 0.5}, {1e-6, 2, 2}, {0.999, 200, 3}} {
		x := BetaQuantile(c.p, c.a, c.b)
		if got := BetaCDF(x, c.a, c.b); math.Abs(got-c.p) > 1e-12*math.Max(1, c.p/1e-6) {
			t.Errorf("I(B⁻¹(%v; %v, %v)) = %.15g", c.p, c.a, c.b, got)
		}
	}
	if !math.IsNaN(BetaQuantile(0.5, 0, 1)) || !math.IsNaN(BetaQuantile(1.5, 1, 1)) {
		t.Error("out-of-range arguments should give NaN")
	}
}

func TestWilson(t *testing.T) {
	// Newcombe (1998), "Two-sided confidence intervals for the single
	// proportion", Statistics in Medicine 17, table I, method 3, to 4 places.
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{20, 20, 1 - 0.1611, 1}, // the mirror of 0/20
	}
	for _, tc := range tests {
		got := Wilson(tc.k, tc.n, 0.95)
		if math.Abs(got.Low-tc.low) > 5.1e-5 || math.Abs(got.High-tc.high) > 5.1e-5 {
			t.Errorf("Wilson(%d, %d) = [%.6f, %.6f], want [%.4f, %.4f]", tc.k, tc.n, got.Low, got.High, tc.low, tc.high)
		}
	}
}

func TestBinomialRefuses(t *testing.T) {
	for _, c := range []struct {
		m     Method
		k, n  int
		level float64
		want  string
	}{
		{Exact, 3, 2, 0.95, "3 errors in 2 items"},
		{Exact, 1, 2, 1.2, "confidence level 1.2"},
		{"bayes", 1, 2, 0.95, `unknown interval method "bayes"`},
	} {
		if _, err := Binomial(c.m, c.k, c.n, c.level); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Binomial(%q, %d, %d, %v) = %v, want an error with %q", c.m, c.k, c.n, c.level, err, c.want)
		}
	}
	if iv, err := Binomial(Exact, 0, 0, 0.95); err != nil || iv != (Interval{0, 1}) {
		t.Errorf("no items: %v, %v; want [0, 1]", iv, err)
	}
}

func TestCheckAcceptRest(t *testing.T) {
	est := func(k, n int) Estimate { e, _ := Estimated(Exact, k, n, 0.95); return e }
	tests := []struct {
		name   string
		batch  Estimate
		strata []Stratum
		want   string // "" = allowed
	}{
		{"below", est(1, 600), []Stratum{{Name: "T1", Estimate: est(0, 300), Unsampled: 9000}, {Name: "T3", Estimate: est(1, 300), Unsampled: 9000}}, ""},
		{"batch too high", est(30, 600), []Stratum{{Name: "T1", Estimate: est(15, 300), Unsampled: 9000}, {Name: "T3", Estimate: est(15, 300), Unsampled: 9000}},
			"not below the threshold of 5.00 % for the batch: 30 errors in 600 (5.00 %), upper bound 7.06 %; T1: 15 errors in 300 (5.00 %), upper bound 8.11 %; T3:"},
		{"one stratum too high", est(8, 600), []Stratum{{Name: "T1", Estimate: est(0, 300), Unsampled: 9000}, {Name: "T3", Estimate: est(8, 300), Unsampled: 9000}},
			"for T3: 8 errors in 300 (2.67 %), upper bound 5.19 %"},
		{"a fully sampled stratum does not count", est(1, 310), []Stratum{{Name: "T1", Estimate: est(0, 300), Unsampled: 9000}, {Name: "T9", Estimate: est(1, 10)}}, ""},
		{"pending", est(0, 500), []Stratum{{Name: "T1", Estimate: est(0, 500), Pending: 3, Unsampled: 100}}, "3 sampled items still wait for round 1"},
		{"nothing left", est(0, 500), []Stratum{{Name: "T1", Estimate: est(0, 500)}}, "there is no rest to accept"},
		{"no judged items", est(0, 0), []Stratum{{Name: "T1", Unsampled: 100}}, "the batch: no judged items"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckAcceptRest(tc.batch, tc.strata, 0.05)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
