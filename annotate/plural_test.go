package annotate

import "testing"

// Plural writes the counts of the sentences people read in the lint, verify's
// refusals, the contract's and the store's ("the audit found 2 errors").
func TestPlural(t *testing.T) {
	tests := []struct {
		n    int
		noun string
		want string
	}{
		{0, "error", "0 errors"},
		{1, "error", "1 error"},
		{2, "project", "2 projects"},
		{1000, "claim", "1000 claims"},
		{-1, "image", "-1 images"},
	}
	for _, tt := range tests {
		if got := Plural(tt.n, tt.noun); got != tt.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
}
