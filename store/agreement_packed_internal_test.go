package store

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/agreement"
)

// TestSortByRevision: the counting sort by revision, then by cmp within each
// revision, gives what a sort by cmp gives, for revision ids dense or spread
// (where it sorts by cmp alone), however many judgements a revision has.
func TestSortByRevision(t *testing.T) {
	// cmp orders by revision, round, then coder: the reviews' unique index, with
	// the coder index standing for the verifier's id.
	byIndex := func(a, b agreement.Judgement) int {
		return cmp.Or(cmp.Compare(a.Revision, b.Revision), cmp.Compare(a.Round, b.Round), cmp.Compare(a.Coder, b.Coder))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int, lo, span int64, coders int32) []agreement.Judgement {
		seen := map[[3]int64]bool{}
		var out []agreement.Judgement
		for len(out) < n {
			j := agreement.Judgement{Revision: lo + rng.Int64N(span), Round: int8(1 + rng.IntN(3)), Coder: rng.Int32N(coders), Reject: rng.IntN(2) == 0}
			k := [3]int64{j.Revision, int64(j.Round), int64(j.Coder)}
			if !seen[k] {
				seen[k] = true
				out = append(out, j)
			}
		}
		return out
	}
	for _, tt := range []struct {
		name string
		list []agreement.Judgement
	}{
		{"none", nil},
		{"one", random(1, 5, 1, 1)},
		{"dense, a few per revision", random(2000, 1, 700, 9)},
		{"dense, many per revision", random(500, 100, 5, 60)},
		{"ids far from zero", random(1000, 1<<40, 900, 9)},
		{"spread ids", random(300, 1, 1<<40, 9)},
		{"sorted already", func() []agreement.Judgement {
			l := random(300, 1, 200, 9)
			slices.SortFunc(l, byIndex)
			return l
		}()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.list)
			slices.SortFunc(want, byIndex)
			got := slices.Clone(tt.list)
			sortByRevision(got, byIndex)
			if !slices.Equal(got, want) {
				t.Errorf("sorted by revision:\n got %v\nwant %v", got, want)
			}
		})
	}
}
