package plant

import (
	"cmp"
	"slices"

	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/verify"
)

// Review is one review of a planted copy.
type Review struct {
	Verifier string
	Round    int
	Item     string   // the planted copy
	Mutation Mutation // Clean for a clean copy
	Outcome  verify.PlantOutcome
}

// Rate is a share with its exact (Clopper–Pearson) 95 % interval.
type Rate struct {
	K, N  int
	Value float64 // K/N; 0 when N is 0
	CI    sampling.Interval
}

func rate(k, n int) Rate {
	r := Rate{K: k, N: n, CI: sampling.ClopperPearson(k, n, 0.95)}
	if n > 0 {
		r.Value = float64(k) / float64(n)
	}
	return r
}

// VerifierFigures are one verifier's reviews of planted copies in one round.
type VerifierFigures struct {
	Verifier string
	Round    int
	// Planted counts the copies with an error seen; Caught, Partly and Missed
	// split them (verify.ReviewOfPlanted).
	Planted, Caught, Partly, Missed int
	// Clean counts the clean copies seen; FalseAlarms those rejected.
	Clean, FalseAlarms int
	CatchRate          Rate // Caught of Planted
	FalseAlarmRate     Rate // FalseAlarms of Clean
	ByMutation         map[Mutation]Rate
}

// Figures are every verifier's figures per round, ordered by verifier then round.
func Figures(rs []Review) []VerifierFigures {
	type key struct {
		v string
		r int
	}
	by := map[key]*VerifierFigures{}
	caught := map[key]map[Mutation][2]int{}
	for _, r := range rs {
		k := key{r.Verifier, r.Round}
		f := by[k]
		if f == nil {
			f = &VerifierFigures{Verifier: r.Verifier, Round: r.Round}
			by[k] = f
			caught[k] = map[Mutation][2]int{}
		}
		switch r.Outcome {
		case verify.PlantRight:
			f.Clean++
		case verify.PlantFalseAlarm:
			f.Clean++
			f.FalseAlarms++
		default:
			f.Planted++
			c := caught[k][r.Mutation]
			c[1]++
			switch r.Outcome {
			case verify.PlantCaught:
				f.Caught++
				c[0]++
			case verify.PlantPartly:
				f.Partly++
			case verify.PlantMissed:
				f.Missed++
			}
			caught[k][r.Mutation] = c
		}
	}
	out := make([]VerifierFigures, 0, len(by))
	for k, f := range by {
		f.CatchRate, f.FalseAlarmRate = rate(f.Caught, f.Planted), rate(f.FalseAlarms, f.Clean)
		f.ByMutation = map[Mutation]Rate{}
		for m, c := range caught[k] {
			f.ByMutation[m] = rate(c[0], c[1])
		}
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b VerifierFigures) int {
		return cmp.Or(cmp.Compare(a.Verifier, b.Verifier), cmp.Compare(a.Round, b.Round))
	})
	return out
}

// PanelCatch is, per round, the share of the planted errors reviewed in that round
// that at least one of its verifiers caught.
func PanelCatch(rs []Review) map[int]Rate {
	type key struct {
		round int
		item  string
	}
	seen := map[key]bool{} // planted item in round → caught by anyone
	for _, r := range rs {
		if r.Mutation == Clean {
			continue
		}
		k := key{r.Round, r.Item}
		seen[k] = seen[k] || r.Outcome == verify.PlantCaught
	}
	counts := map[int][2]int{}
	for k, c := range seen {
		n := counts[k.round]
		n[1]++
		if c {
			n[0]++
		}
		counts[k.round] = n
	}
	out := map[int]Rate{}
	for round, n := range counts {
		out[round] = rate(n[0], n[1])
	}
	return out
}

// Pause tells whether a lead's pause rule holds for f: at least minItems planted
// errors seen and the catch rate's upper bound below threshold.
func (f VerifierFigures) Pause(threshold float64, minItems int) bool {
	return f.Planted >= max(1, minItems) && f.CatchRate.CI.High < threshold
}
