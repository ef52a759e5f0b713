package bench_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/plant"
	"github.com/benchwright/benchwright/shortcut"
)

// TestPlantSettings: the plant_* keys take their values, refuse others with the
// key named, default to off, and their changes are said in words.
func TestPlantSettings(t *testing.T) {
	tests := []struct {
		key, value string
		bad        string // a word of the refusal; "" when accepted
		shown      string // the value Values shows after
	}{
		{"plant_rate", "10", "", "10"},
		{"plant_rate", "50", "", "50"},
		{"plant_rate", "51", "to 50", ""},
		{"plant_rate", "-1", "from 0", ""},
		{"plant_rate", "ten", "whole number", ""},
		{"plant_mutations", "answer-moved, clean,answer-moved", "", "answer-moved,clean"},
		{"plant_mutations", "", "", ""},
		{"plant_mutations", "all", "", ""},
		{"plant_mutations", "answer-moved,nonsense", `"nonsense" is not a mutation`, ""},
		{"plant_rounds", "3,1", "", "1,3"},
		{"plant_rounds", "4", "rounds are 1, 2 and 3", ""},
		{"plant_rounds", "one", "round numbers", ""},
		{"plant_pause_below", "30", "", "30"},
		{"plant_pause_below", "101", "to 100", ""},
		{"plant_min_items", "20", "", "20"},
		{"plant_min_items", "-2", "from 1", ""},
		{"plant_feedback", "true", "", "true"},
		{"plant_feedback", "maybe", "true or false", ""},
		{"near_duplicate_distance", "12", "", "12"},
		{"near_duplicate_distance", "0", "", "0"},
		{"near_duplicate_distance", "21", "to 20", ""},
		{"near_duplicate_distance", "-1", "from 1", ""},
		{"near_duplicate_distance", "close", "whole number", ""},
	}
	for _, tt := range tests {
		s := bench.DefaultSettings()
		err := s.Set(tt.key, tt.value)
		if err == nil {
			err = s.Validate()
		}
		if tt.bad != "" {
			if err == nil || !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), tt.key) || !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("%s = %q: error %v, want one naming the key and %q", tt.key, tt.value, err, tt.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s = %q: %v", tt.key, tt.value, err)
			continue
		}
		i := slices.IndexFunc(s.Values(), func(v bench.Setting) bool { return v.Key == tt.key })
		if i < 0 || s.Values()[i].Value != tt.shown {
			t.Errorf("%s = %q: Values shows %+v, want %q", tt.key, tt.value, s.Values(), tt.shown)
		}
	}
	d := bench.DefaultSettings()
	if d.PlantsRound(1) || d.PlantFeedback || d.PlantMinimum() != bench.DefaultPlantMinItems {
		t.Errorf("planting is on by default: %+v", d)
	}
	on := d
	on.PlantRate, on.PlantRounds = 10, []int{3}
	if !on.PlantsRound(3) || on.PlantsRound(1) || !on.PlantsMutation("box-moved") {
		t.Errorf("PlantsRound/PlantsMutation of %+v", on)
	}
	changes := bench.DiffSettings(d, on)
	var words []string
	for _, c := range changes {
		words = append(words, c.Words())
	}
	want := []string{"changed the percent of claims that are planted check items from 0 to 10", "set the rounds that get planted check items to 3"}
	if !slices.Equal(words, want) {
		t.Errorf("changes said as %q, want %q", words, want)
	}
}

// TestPlantMutationNamesArePlants: plant_mutations takes exactly plant's
// mutations and clean.
func TestPlantMutationNamesArePlants(t *testing.T) {
	want := []string{string(plant.Clean)}
	for _, m := range plant.Mutations {
		want = append(want, string(m))
	}
	if got := bench.PlantMutationNames(); !slices.Equal(got, want) {
		t.Errorf("plant_mutations takes %q, plant has %q", got, want)
	}
}

// NearDistance is near_duplicate_distance, or shortcut's default when unset.
func TestNearDistance(t *testing.T) {
	s := bench.DefaultSettings()
	if got := s.NearDistance(); got != shortcut.DefaultNearDistance {
		t.Errorf("unset: %d, want the default %d", got, shortcut.DefaultNearDistance)
	}
	if err := s.Set("near_duplicate_distance", "3"); err != nil {
		t.Fatal(err)
	}
	if got := s.NearDistance(); got != 3 {
		t.Errorf("set to 3: %d", got)
	}
}
