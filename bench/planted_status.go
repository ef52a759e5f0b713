package bench

import "github.com/benchwright/benchwright/plant"

// NewPlantStatus is the contract's form of plant's figures of the judged
// reviews rs of planted copies: per verifier and round (plant.Figures) and the
// panel's catch per round (plant.PanelCatch), with no one paused and none
// pending (a store adds those).
func NewPlantStatus(rs []plant.Review) PlantStatus {
	rate := func(r plant.Rate) PlantRate {
		return PlantRate{Value: r.Value, CI: [2]float64{r.CI.Low, r.CI.High}, K: r.K, N: r.N}
	}
	out := PlantStatus{Figures: []PlantFigures{}, Panel: map[int]PlantRate{}, Paused: []PlantPause{}}
	for _, f := range plant.Figures(rs) {
		pf := PlantFigures{Verifier: f.Verifier, Round: f.Round, Planted: f.Planted, Caught: f.Caught, Partial: f.Partly,
			Missed: f.Missed, Clean: f.Clean, FalseAlarms: f.FalseAlarms, CatchRate: rate(f.CatchRate), FalseAlarmRate: rate(f.FalseAlarmRate)}
		if len(f.ByMutation) > 0 {
			pf.ByMutation = map[string]PlantRate{}
			for m, r := range f.ByMutation {
				pf.ByMutation[string(m)] = rate(r)
			}
		}
		out.Figures = append(out.Figures, pf)
	}
	for round, r := range plant.PanelCatch(rs) {
		out.Panel[round] = rate(r)
	}
	return out
}
