package bench

import "testing"

func TestBlindRunOf(t *testing.T) {
	tests := []struct {
		name  string
		model string
		ok    bool
	}{
		{"m (blind)", "m", true},
		{RunName("Qwen2.5-VL 7B", true), "Qwen2.5-VL 7B", true},
		{"m", "m", false},
		{" (blind)", "", false},
		{"m (blind) (blind)", "m (blind)", true},
		{"m(blind)", "m(blind)", false},
	}
	for _, tt := range tests {
		model, ok := BlindRunOf(tt.name)
		if model != tt.model || ok != tt.ok {
			t.Errorf("BlindRunOf(%q) = %q, %v; want %q, %v", tt.name, model, ok, tt.model, tt.ok)
		}
	}
}

func TestDebiasTaskWords(t *testing.T) {
	tests := []struct {
		task    DebiasTask
		changed bool
		words   string
	}{
		{DebiasTask{Task: "longest", N: 40, Left: 0, Before: 1, After: 0, Chance: 0.25}, true,
			"longest: blind accuracy 100.0 % → 0.0 % (chance 25.0 %), 0 of 40 samples left"},
		{DebiasTask{Task: "clean-a", N: 40, Left: 40, Before: 0.275, After: 0.275, Chance: 0.25}, false,
			"clean-a: blind accuracy 27.5 % → 27.5 % (chance 25.0 %), 40 of 40 samples left"},
	}
	for _, tt := range tests {
		if got := tt.task.Changed(); got != tt.changed {
			t.Errorf("%s: Changed() = %v, want %v", tt.task.Task, got, tt.changed)
		}
		if got := tt.task.String(); got != tt.words {
			t.Errorf("String() = %q, want %q", got, tt.words)
		}
	}
}
