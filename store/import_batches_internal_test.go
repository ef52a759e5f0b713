package store

import (
	"testing"
	"time"
)

// TestNextWriteBatch: a SQLite import's next batch is as many records as the last
// batch's pace gives in the target time, at most halved or doubled at a step and
// within its bounds, so that a loaded machine soon writes batches short enough.
func TestNextWriteBatch(t *testing.T) {
	tests := []struct {
		n    int
		took time.Duration
		want int
	}{
		{500, 50 * time.Millisecond, 500},   // on target
		{500, 40 * time.Millisecond, 625},   // faster: a little more
		{500, 10 * time.Millisecond, 1000},  // much faster: doubled at most
		{500, 80 * time.Millisecond, 312},   // slower: fewer
		{500, 400 * time.Millisecond, 250},  // much slower: halved at most
		{60, 400 * time.Millisecond, 50},    // never below the least
		{4000, 10 * time.Millisecond, 5000}, // never above the most
		{500, 0, 500},                       // no time measured: as it was
	}
	for _, tt := range tests {
		if got := nextWriteBatch(tt.n, tt.took); got != tt.want {
			t.Errorf("after %d records in %v: %d, want %d", tt.n, tt.took, got, tt.want)
		}
	}
}
