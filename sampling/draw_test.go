package sampling

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// strataOf makes n items spread over the given strata in turn.
func strataOf(n int, names ...string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = names[i%len(names)]
	}
	return out
}

func TestDraw(t *testing.T) {
	items := strataOf(1000, "t1", "t2", "t3", "t3") // t3 has twice as many
	tests := []struct {
		name string
		size func(string, int) int
		want map[string]int
	}{
		{"n per stratum", PerStratum(30), map[string]int{"t1": 30, "t2": 30, "t3": 30}},
		{"more than available", PerStratum(400), map[string]int{"t1": 250, "t2": 250, "t3": 400}},
		{"all", PerStratum(10000), map[string]int{"t1": 250, "t2": 250, "t3": 500}},
		{"negative is none", func(string, int) int { return -3 }, map[string]int{}},
		{"per stratum rule", func(s string, avail int) int {
			if s == "t2" {
				return 0
			}
			return avail / 10
		}, map[string]int{"t1": 25, "t3": 50}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Draw(items, tc.size, 7)
			if !slices.IsSorted(got) {
				t.Fatalf("indices not sorted: %v", got[:min(10, len(got))])
			}
			if len(slices.Compact(slices.Clone(got))) != len(got) {
				t.Fatal("an index is drawn twice")
			}
			counts := map[string]int{}
			for _, i := range got {
				counts[items[i]]++
			}
			if !reflect.DeepEqual(counts, tc.want) {
				t.Errorf("per stratum %v, want %v", counts, tc.want)
			}
			if again := Draw(items, tc.size, 7); !slices.Equal(got, again) {
				t.Error("the same seed drew differently")
			}
		})
	}
}

func TestDrawSeedsDiffer(t *testing.T) {
	items := strataOf(1000, "a", "b")
	if slices.Equal(Draw(items, PerStratum(20), 1), Draw(items, PerStratum(20), 2)) {
		t.Error("seeds 1 and 2 drew the same items")
	}
}

// Enlarging a draw with the same seed keeps what the smaller draw chose, and a
// stratum's draw does not depend on the other strata.
func TestDrawNested(t *testing.T) {
	items := strataOf(5000, "a", "b", "c")
	small := Draw(items, PerStratum(40), 99)
	large := Draw(items, PerStratum(120), 99)
	for _, i := range small {
		if _, ok := slices.BinarySearch(large, i); !ok {
			t.Fatalf("item %d of the 40-per-stratum draw is missing from the 120 draw", i)
		}
	}
	onlyA := func(s string, avail int) int {
		if s == "a" {
			return 40
		}
		return 0
	}
	var aOfSmall []int
	for _, i := range small {
		if items[i] == "a" {
			aOfSmall = append(aOfSmall, i)
		}
	}
	if got := Draw(items, onlyA, 99); !slices.Equal(got, aOfSmall) {
		t.Error("stratum a drew differently when the other strata drew nothing")
	}
}

// Every item of a stratum is about equally likely to be drawn.
func TestDrawUniform(t *testing.T) {
	items := strataOf(20, "x")
	hits := make([]int, 20)
	const runs = 20000
	for seed := range int64(runs) {
		for _, i := range Draw(items, PerStratum(5), seed) {
			hits[i]++
		}
	}
	// expected 5000 each; the sd of a count is sqrt(20000·0.25·0.75) ≈ 61
	for i, h := range hits {
		if h < 5000-300 || h > 5000+300 {
			t.Errorf("item %d drawn %d times in %d draws, want about 5000", i, h, runs)
		}
	}
}

func TestSizeForMargin(t *testing.T) {
	tests := []struct {
		margin, level, expected float64
		population, want        int
	}{
		{0.05, 0.95, 0.5, 0, 385},      // the textbook 384.15 → 385
		{0.03, 0.95, 0.5, 0, 1068},     // 1067.07
		{0.05, 0.95, 0.5, 1000, 278},   // 384.15/(1+383.15/1000) = 277.7
		{0.05, 0.95, 0.05, 0, 73},      // 72.99
		{0.02, 0.99, 0.1, 20000, 1390}, // n0 = 1492.85; /(1+1491.85/20000) = 1389.2
		{0.05, 0.95, 0, 100, 80},       // expected 0 → 0.5: 384.15/(1+3.8315) = 79.5
		{0.05, 0.95, 0.5, 50, 45},      // 384.15/(1+7.663) = 44.3
		{0, 0.95, 0.5, 50, 50},         // no margin: everything
	}
	for _, tc := range tests {
		if got := SizeForMargin(tc.margin, tc.level, tc.expected, tc.population); got != tc.want {
			t.Errorf("SizeForMargin(%v, %v, %v, %d) = %d, want %d", tc.margin, tc.level, tc.expected, tc.population, got, tc.want)
		}
	}
	if got := ForMargin(0.05, 0.95, 0.5)("t1", 1000); got != 278 {
		t.Errorf("ForMargin for a stratum of 1000 = %d, want 278", got)
	}
}

func ExampleDraw() {
	// Ten generated items in two tasks; draw two of each, seeded.
	tasks := []string{"T1", "T1", "T3", "T1", "T3", "T3", "T1", "T3", "T1", "T3"}
	chosen := Draw(tasks, PerStratum(2), 42)
	for _, i := range chosen {
		fmt.Println(i, tasks[i])
	}
	fmt.Println(slices.Equal(Draw(tasks, PerStratum(2), 42), chosen))
	// Output:
	// 1 T1
	// 5 T3
	// 6 T1
	// 9 T3
	// true
}
