package bench

import "github.com/benchwright/benchwright/score"

// NewSampleOutcomes says, per sample of gs in its order, which models did not
// get it right, from the results of each run (results[k] are runs[k]'s, one per
// sample of gs in its order, as score.ScoreAll gives them). Blind runs are not
// counted among the models: the models whose blind run got a sample right are
// listed in its BlindRight (score.RightIDs).
func NewSampleOutcomes(gs []score.Gold, runs []ModelRun, results [][]score.Result) []SampleOutcome {
	seeing := 0
	for _, r := range runs {
		if !r.Blind {
			seeing++
		}
	}
	out := make([]SampleOutcome, len(gs))
	at := make(map[string]int, len(gs))
	for i, g := range gs {
		out[i] = SampleOutcome{SampleID: g.Sample.ID, Models: seeing}
		at[g.Sample.ID] = i
	}
	for k, r := range runs {
		if r.Blind {
			for _, id := range score.RightIDs(results[k]) {
				out[at[id]].BlindRight = append(out[at[id]].BlindRight, r.Model)
			}
			continue
		}
		for i, res := range results[k] {
			if !res.Correct {
				out[i].Wrong = append(out[i].Wrong, r.Model)
			}
		}
	}
	return out
}
