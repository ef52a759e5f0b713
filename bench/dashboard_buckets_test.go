package bench

import (
	"math"
	"testing"
)

// The store's review-time histogram and activity tallies are keyed by these
// buckets; the dashboard's quantiles read a bucket's times back by its bounds
// (second ≤ t < second+1, the last bucket open-ended).
func TestSecondsBucket(t *testing.T) {
	tests := []struct {
		s    float64
		want int64
	}{
		{0, 0},
		{0.4, 0},
		{1, 1},
		{59.999, 59},
		{3600.5, 3600},
		{9.3e18, math.MaxInt64}, // just beyond int64
		{1e300, math.MaxInt64},
		{math.Inf(1), math.MaxInt64},
	}
	for _, tt := range tests {
		if got := SecondsBucket(tt.s); got != tt.want {
			t.Errorf("SecondsBucket(%v) = %d, want %d", tt.s, got, tt.want)
		}
	}
}

func TestActivityDay(t *testing.T) {
	tests := []struct{ at, want string }{
		{"2026-11-29T10:56:32.123456Z", "2026-11-29"},
		{"2026-11-29T23:59:59Z", "2026-11-29"},
		{"2026-11-29", "2026-11-29"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ActivityDay(tt.at); got != tt.want {
			t.Errorf("ActivityDay(%q) = %q, want %q", tt.at, got, tt.want)
		}
	}
}
