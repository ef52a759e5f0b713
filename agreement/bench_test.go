package agreement

import (
	"context"
	"math/rand/v2"
	"testing"
)

// benchData is 100,000 units × 5 coders of values 1..5: each coder gives
// the unit's true value with probability 0.8, another value otherwise, and
// leaves 5% of cells missing.
func benchData() *Data {
	const units, coders = 100_000, 5
	rng := rand.New(rand.NewPCG(1, 2))
	var b Builder
	vals := make([]string, coders)
	labels := []string{"1", "2", "3", "4", "5"}
	for range units {
		truth := rng.IntN(5)
		for c := range vals {
			switch x := rng.Float64(); {
			case x < 0.05:
				vals[c] = ""
			case x < 0.85:
				vals[c] = labels[truth]
			default:
				vals[c] = labels[rng.IntN(5)]
			}
		}
		b.AddUnit(vals...)
	}
	return b.Data()
}

func BenchmarkAlpha100kx5(b *testing.B) {
	d := benchData()
	for _, level := range []Level{Nominal, Interval} {
		b.Run(level.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Alpha(d, level); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkBootstrap(b *testing.B) {
	worked, err := Alpha(workedData(), Interval)
	if err != nil {
		b.Fatal(err)
	}
	big, err := Alpha(benchData(), Interval)
	if err != nil {
		b.Fatal(err)
	}
	for name, r := range map[string]*Result{"worked": worked, "100kx5": big} {
		b.Run(name+"/draws=1000", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, err := r.Bootstrap(context.Background(), 1000, uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTables is the agreement tables of 20,000 revisions' random judgements
// (about what a project of 20,000 samples holds), with 1,000-draw intervals: the
// statistics `bwctl agreement` computes once the store has read the reviews.
func BenchmarkTables(b *testing.B) {
	js := randomJudgements(b, 20_000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := js.Tables(context.Background(), 1000, 1); err != nil {
			b.Fatal(err)
		}
	}
}
