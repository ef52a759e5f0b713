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
