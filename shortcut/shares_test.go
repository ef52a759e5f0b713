package shortcut

import (
	"slices"
	"testing"
)

// TestShares: answer-position's Shares are each letter's share of correct
// answers, option-length's the shares of longest and shortest correct options
// (what the Shortcuts tab charts).
func TestShares(t *testing.T) {
	ss := letterTask("t", 40, 4, func(i int) int { return []int{0, 0, 1, 3}[i%4] })
	for i := range ss {
		ss[i].Options[ss[i].AnswerIndex] = "a much longer correct option" // longest always
		if i%8 == 0 {
			ss[i].Options[ss[i].AnswerIndex] = "c" // shortest
		}
	}
	rs := Balance(ss, Options{})
	want := map[string][]float64{CheckAnswerPosition: {0.5, 0.25, 0, 0.25}, CheckOptionLength: {35.0 / 40, 5.0 / 40}}
	for _, r := range rs {
		if !slices.Equal(r.Shares, want[r.Check]) {
			t.Errorf("%s: shares %v, want %v", r.Check, r.Shares, want[r.Check])
		}
	}
}
