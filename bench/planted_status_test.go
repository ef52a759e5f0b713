package bench

import (
	"testing"

	"github.com/benchwright/benchwright/plant"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/verify"
)

func TestNewPlantStatus(t *testing.T) {
	ci := func(k, n int) [2]float64 { i := sampling.ClopperPearson(k, n, 0.95); return [2]float64{i.Low, i.High} }
	tests := []struct {
		name string
		rs   []plant.Review
		want func(t *testing.T, s PlantStatus)
	}{
		{"none: empty lists and map, never nil", nil, func(t *testing.T, s PlantStatus) {
			if s.Figures == nil || s.Panel == nil || s.Paused == nil || len(s.Figures)+len(s.Panel)+len(s.Paused) != 0 {
				t.Errorf("status %+v", s)
			}
		}},
		{"one verifier, two rounds", []plant.Review{
			{Verifier: "vera", Round: 1, Item: "a", Mutation: plant.BoxMoved, Outcome: verify.PlantCaught},
			{Verifier: "vera", Round: 1, Item: "b", Mutation: plant.BoxMoved, Outcome: verify.PlantMissed},
			{Verifier: "vera", Round: 1, Item: "c", Mutation: plant.AnswerMoved, Outcome: verify.PlantPartly},
			{Verifier: "vera", Round: 1, Item: "c2", Mutation: plant.AnswerMoved, Outcome: verify.PlantPartly},
			{Verifier: "vera", Round: 1, Item: "d", Mutation: plant.Clean, Outcome: verify.PlantFalseAlarm},
			{Verifier: "vera", Round: 2, Item: "e", Mutation: plant.Clean, Outcome: verify.PlantRight},
		}, func(t *testing.T, s PlantStatus) {
			if len(s.Figures) != 2 {
				t.Fatalf("figures %+v", s.Figures)
			}
			f := s.Figures[0]
			if f.Verifier != "vera" || f.Round != 1 || f.Planted != 4 || f.Caught != 1 || f.Partial != 2 || f.Missed != 1 ||
				f.Clean != 1 || f.FalseAlarms != 1 {
				t.Errorf("round 1 %+v", f)
			}
			if want := (PlantRate{Value: 0.25, CI: ci(1, 4), K: 1, N: 4}); f.CatchRate != want {
				t.Errorf("catch rate %+v, want %+v", f.CatchRate, want)
			}
			if want := (PlantRate{Value: 1, CI: ci(1, 1), K: 1, N: 1}); f.FalseAlarmRate != want {
				t.Errorf("false alarm rate %+v, want %+v", f.FalseAlarmRate, want)
			}
			if want := (PlantRate{Value: 0.5, CI: ci(1, 2), K: 1, N: 2}); f.ByMutation[string(plant.BoxMoved)] != want {
				t.Errorf("by mutation %+v", f.ByMutation)
			}
			if s.Figures[1].Round != 2 || s.Figures[1].Clean != 1 || s.Figures[1].ByMutation != nil {
				t.Errorf("round 2 %+v", s.Figures[1])
			}
			if want := (PlantRate{Value: 0.25, CI: ci(1, 4), K: 1, N: 4}); s.Panel[1] != want {
				t.Errorf("panel %+v, want round 1 %+v", s.Panel, want)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.want(t, NewPlantStatus(tt.rs)) })
	}
}
