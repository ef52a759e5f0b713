package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os/exec"
	"slices"
	"testing"
)

var inf = math.Inf(1)

func TestLinearSumAssignmentKnown(t *testing.T) {
	// Expected pairs are what scipy 1.10 returns for the same matrices.
	for _, tc := range []struct {
		name       string
		cost       [][]float64
		maximize   bool
		rows, cols []int
		total      float64
	}{
		{"classic", [][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}, false, []int{0, 1, 2}, []int{1, 0, 2}, 5},
		{"wide", [][]float64{{1, 2, 3, 4}, {2, 4, 6, 8}, {3, 6, 9, 12}}, false, []int{0, 1, 2}, []int{2, 1, 0}, 10},
		{"tall", [][]float64{{7, 3}, {2, 9}, {5, 5}, {1, 8}}, false, []int{0, 3}, []int{1, 0}, 4},
		{"constant square: identity", [][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, false, []int{0, 1, 2}, []int{0, 1, 2}, 0},
		{"constant tall", [][]float64{{0, 0}, {0, 0}, {0, 0}, {0, 0}}, false, []int{0, 1}, []int{0, 1}, 0},
		{"constant wide", [][]float64{{1, 1, 1, 1}, {1, 1, 1, 1}}, false, []int{0, 1}, []int{0, 1}, 2},
		{"binary cost", [][]float64{{0, 0, 1}, {0, 1, 1}, {1, 1, 0}}, false, []int{0, 1, 2}, []int{1, 0, 2}, 0},
		{"ties", [][]float64{{1, 1, 2}, {1, 1, 2}, {2, 2, 1}}, false, []int{0, 1, 2}, []int{0, 1, 2}, 3},
		{"maximize", [][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}, true, []int{0, 1, 2}, []int{0, 2, 1}, 11},
		{"forbidden pairs", [][]float64{{inf, 1}, {2, inf}}, false, []int{0, 1}, []int{1, 0}, 3},
		{"negative", [][]float64{{-1, -5}, {-3, 0}}, false, []int{0, 1}, []int{1, 0}, -8},
		{"empty", [][]float64{}, false, []int{}, []int{}, 0},
		{"no columns", [][]float64{{}, {}}, false, []int{}, []int{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, cols, err := LinearSumAssignment(tc.cost, tc.maximize)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rows, tc.rows) || !slices.Equal(cols, tc.cols) {
				t.Errorf("got rows %v cols %v, want %v %v", rows, cols, tc.rows, tc.cols)
			}
			if got := total(tc.cost, rows, cols); got != tc.total {
				t.Errorf("total %v, want %v", got, tc.total)
			}
		})
	}
}

func TestLinearSumAssignmentErrors(t *testing.T) {
	if _, _, err := LinearSumAssignment([][]float64{{inf, inf}, {1, 2}}, false); !errors.Is(err, ErrInfeasible) {
		t.Errorf("infeasible: %v", err)
	}
	if _, _, err := LinearSumAssignment([][]float64{{math.NaN(), 1}, {1, 2}}, false); err == nil {
		t.Error("NaN accepted")
	}
	if _, _, err := LinearSumAssignment([][]float64{{math.Inf(-1), 1}, {1, 2}}, false); err == nil {
		t.Error("-Inf accepted when minimizing")
	}
	if _, _, err := LinearSumAssignment([][]float64{{inf, 1}, {1, 2}}, true); err == nil {
		t.Error("+Inf accepted when maximizing")
	}
	if _, _, err := LinearSumAssignment([][]float64{{1, 2}, {1}}, false); err == nil {
		t.Error("ragged matrix accepted")
	}
}

func total(cost [][]float64, rows, cols []int) float64 {
	s := 0.0
	for k := range rows {
		s += cost[rows[k]][cols[k]]
	}
	return s
}

// bruteForce is the optimal total over every assignment of min(n, m) pairs.
func bruteForce(cost [][]float64) float64 {
	n := len(cost)
	m := len(cost[0])
	tall := n > m
	if tall { // assign every column to a distinct row instead
		n, m = m, n
	}
	at := func(i, j int) float64 {
		if tall {
			return cost[j][i]
		}
		return cost[i][j]
	}
	best := math.Inf(1)
	used := make([]bool, m)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			best = min(best, sum)
			return
		}
		for j := range m {
			if !used[j] {
				used[j] = true
				rec(i+1, sum+at(i, j))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// randomMatrix has small integer entries, so that ties are common and totals exact.
func randomMatrix(r *rand.Rand, maxDim, maxVal int) [][]float64 {
	n, m := 1+r.IntN(maxDim), 1+r.IntN(maxDim)
	c := make([][]float64, n)
	for i := range c {
		c[i] = make([]float64, m)
		for j := range c[i] {
			c[i][j] = float64(r.IntN(maxVal + 1))
		}
	}
	return c
}

func TestLinearSumAssignmentBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 3000 {
		cost := randomMatrix(r, 6, []int{1, 3, 20}[k%3])
		rows, cols, err := LinearSumAssignment(cost, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != min(len(cost), len(cost[0])) || !slices.IsSorted(rows) {
			t.Fatalf("%v: rows %v", cost, rows)
		}
		seen := map[int]bool{}
		for _, c := range cols {
			if seen[c] {
				t.Fatalf("%v: column %d used twice", cost, c)
			}
			seen[c] = true
		}
		if got, want := total(cost, rows, cols), bruteForce(cost); got != want {
			t.Fatalf("%v: total %v, brute force %v", cost, got, want)
		}
	}
}

func TestMaxMatching(t *testing.T) {
	T, F := true, false
	for _, tc := range []struct {
		name string
		m    [][]bool
		want [][2]int
	}{
		{"one-to-many filtered", [][]bool{{T, T, F}, {T, F, F}, {F, F, T}}, [][2]int{{0, 1}, {1, 0}, {2, 2}}},
		{"more gold than predicted", [][]bool{{T}, {T}, {F}}, [][2]int{{0, 0}}},
		{"more predicted than gold", [][]bool{{F, T, T}}, [][2]int{{0, 1}}},
		{"nothing matches", [][]bool{{F, F}, {F, F}}, nil},
		{"all match: identity", [][]bool{{T, T}, {T, T}}, [][2]int{{0, 0}, {1, 1}}},
	} {
		got, err := MaxMatching(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: MaxMatching = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// scipyPython finds a Python with scipy: python3 on PATH, else Debian's.
func scipyPython() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if p, err := exec.LookPath(py); err == nil && exec.Command(p, "-c", "import scipy.optimize").Run() == nil {
			return p
		}
	}
	return ""
}

const scipyScript = `
import json, sys
import numpy as np
from scipy.optimize import linear_sum_assignment
out = []
for m in json.load(sys.stdin):
    c = np.array(m, dtype=float)
    r, k = linear_sum_assignment(c)
    out.append({"rows": r.tolist(), "cols": k.tolist(), "total": float(c[r, k].sum())})
json.dump(out, sys.stdout)
`

// TestLinearSumAssignmentScipy compares with scipy.optimize.linear_sum_assignment
// on random matrices, square and rectangular, with many ties: the totals must be
// equal, and since the algorithm and its tie-breaking are scipy's, the pairs too.
func TestLinearSumAssignmentScipy(t *testing.T) {
	py := scipyPython()
	if py == "" {
		t.Skip("no python3 with scipy (Debian: apt-get install python3-scipy); the comparison with scipy.optimize.linear_sum_assignment did not run")
	}
	r := rand.New(rand.NewPCG(3, 4))
	var ms [][][]float64
	for k := range 2000 {
		switch k % 4 {
		case 0:
			ms = append(ms, randomMatrix(r, 8, 1)) // 0/1: SpatiaLQA's 1 - M
		case 1:
			ms = append(ms, randomMatrix(r, 12, 4))
		case 2:
			ms = append(ms, randomMatrix(r, 25, 1000))
		default: // continuous
			c := randomMatrix(r, 10, 1)
			for i := range c {
				for j := range c[i] {
					c[i][j] = r.Float64()*10 - 5
				}
			}
			ms = append(ms, c)
		}
	}
	in, err := json.Marshal(ms)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", scipyScript)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scipy: %v: %s", err, stderr.String())
	}
	var want []struct {
		Rows, Cols []int
		Total      float64
	}
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(ms) {
		t.Fatalf("bad scipy output (%v): %.200s", err, out)
	}
	samePairs := 0
	for i, m := range ms {
		rows, cols, err := LinearSumAssignment(m, false)
		if err != nil {
			t.Fatal(err)
		}
		got := total(m, rows, cols)
		if math.Abs(got-want[i].Total) > 1e-9*max(1, math.Abs(got)) {
			t.Fatalf("matrix %d %v: total %v, scipy %v", i, m, got, want[i].Total)
		}
		if slices.Equal(rows, want[i].Rows) && slices.Equal(cols, want[i].Cols) {
			samePairs++
		} else {
			t.Errorf("matrix %d %v: pairs %v %v, scipy %v %v", i, m, rows, cols, want[i].Rows, want[i].Cols)
		}
	}
	t.Logf("%d matrices: equal totals, %d with the same pairs as scipy", len(ms), samePairs)
}
