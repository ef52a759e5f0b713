package agreement

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAdvanceIsSteps: advancing the generator by n gives the state n draws give.
func TestAdvanceIsSteps(t *testing.T) {
	for _, n := range []uint64{0, 1, 2, 3, 64, 1000, 12345} {
		a, b := rand.NewPCG(7, 7^0x9e3779b97f4a7c15), rand.NewPCG(7, 7^0x9e3779b97f4a7c15)
		for range n {
			a.Uint64()
		}
		advance(b, n)
		if a.Uint64() != b.Uint64() || a.Uint64() != b.Uint64() {
			t.Errorf("advanced by %d: the next draws differ from %d draws'", n, n)
		}
	}
}

// TestBootstrapSharesGiveOneCoresDraws: the replicates shared among 2, 3 or 7
// goroutines are those one goroutine draws, so a seeded interval does not depend
// on the machine's cores.
func TestBootstrapSharesGiveOneCoresDraws(t *testing.T) {
	// Three coders (rows) over 300 units (columns): two agree, the third guesses.
	rng := rand.New(rand.NewPCG(3, 3))
	rows := make([][]string, 3)
	for range 300 {
		v := string(rune('a' + rng.IntN(3)))
		rows[0] = append(rows[0], v)
		rows[1] = append(rows[1], v)
		rows[2] = append(rows[2], string(rune('a'+rng.IntN(3))))
	}
	res, err := Alpha(NewData(rows, func(s string) bool { return s == "" }), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	defer func(f func() int) { bootstrapWorkers = f }(bootstrapWorkers)
	var want *Bootstrap
	for _, w := range []int{1, 2, 3, 7} {
		bootstrapWorkers = func() int { return w }
		b, err := res.Bootstrap(context.Background(), 1000, 42)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
			continue
		}
		if !slices.Equal(b.Alphas, want.Alphas) || b.CI95 != want.CI95 {
			t.Errorf("%d goroutines: CI %v, one goroutine %v", w, b.CI95, want.CI95)
		}
	}
}
