package ui

import (
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// TestSubsetLabelNamesTheKind: the curate screen's picker names a debiased
// subset by its margin, folds and seed, not as "k 0 of 0" models.
func TestSubsetLabelNamesTheKind(t *testing.T) {
	for _, c := range []struct {
		h    bench.HardSubset
		want string
	}{
		{bench.HardSubset{ID: 1, Kind: bench.SubsetHard, K: 2, N: 3, Target: 10, Seed: 5}, "#1: k 2 of 3, target 10, seed 5"},
		{bench.HardSubset{ID: 2, Kind: bench.SubsetDebiased, Margin: 0.1, Folds: 5, Seed: 1, Frozen: "b@2"}, "#2: debiased, margin 10 points, 5-fold, seed 1 · frozen as b@2"},
		{bench.HardSubset{ID: 3, Kind: bench.SubsetDebiased, Margin: 0.075, Folds: 4, Seed: 0}, "#3: debiased, margin 7.5 points, 4-fold, seed 0"},
	} {
		if got := subsetLabel(c.h); got != c.want {
			t.Errorf("subsetLabel(%+v) = %q, want %q", c.h, got, c.want)
		}
	}
}
