package plant

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFollows: r percent of all the items reviewed are copies, so a copy follows
// a real review with probability r/(100−r).
func TestFollows(t *testing.T) {
	for _, tt := range []struct {
		rate int
		want float64
	}{{0, 0}, {10, 10.0 / 90}, {20, 0.25}, {50, 1}, {100, 1}} {
		rng := rand.New(rand.NewPCG(7, uint64(tt.rate)))
		const n = 20000
		k := 0
		for range n {
			if Follows(rng, tt.rate) {
				k++
			}
		}
		if got := float64(k) / n; math.Abs(got-tt.want) > 0.01 {
			t.Errorf("rate %d%%: a copy after %.3f of the reviews, want %.3f", tt.rate, got, tt.want)
		}
	}
}

func TestChoices(t *testing.T) {
	s := fixtures()["hop"]
	all := Applicable(s, 640, 480)
	if len(all) < 2 {
		t.Fatalf("the fixture takes %v", all)
	}
	tests := []struct {
		name    string
		allowed func(Mutation) bool
		want    []Mutation
	}{
		{"everything", func(Mutation) bool { return true }, append([]Mutation{Clean}, all...)},
		{"nothing", func(Mutation) bool { return false }, nil},
		{"clean only", func(m Mutation) bool { return m == Clean }, []Mutation{Clean}},
		{"errors only", func(m Mutation) bool { return m != Clean }, all},
		{"one the sample cannot take", func(m Mutation) bool { return m == StepsSwapped || m == all[1] }, []Mutation{all[1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Choices(s, 640, 480, tt.allowed); !slices.Equal(got, tt.want) {
				t.Errorf("Choices = %v, want %v", got, tt.want)
			}
		})
	}
}
