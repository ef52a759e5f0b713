package plant

import (
	"math/rand/v2"

	"github.com/benchwright/benchwright/annotate"
)

// Follows draws from rng whether a copy follows one real review, with the
// probability r/(100−r) that makes ratePercent (r) percent of all the items a
// verifier reviews copies.
func Follows(rng *rand.Rand, ratePercent int) bool {
	return rng.Float64()*float64(100-ratePercent) < float64(ratePercent)
}

// Choices lists the mutations a copy of s can be made with among those allowed
// permits: Clean first, then those of Applicable in its order.
func Choices(s annotate.Sample, width, height int, allowed func(Mutation) bool) []Mutation {
	var out []Mutation
	if allowed(Clean) {
		out = append(out, Clean)
	}
	for _, m := range Applicable(s, width, height) {
		if allowed(m) {
			out = append(out, m)
		}
	}
	return out
}
