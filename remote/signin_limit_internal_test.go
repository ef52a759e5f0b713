package remote

import (
	"testing"
	"time"
)

// TestAddrLimiterSaysWhy: an address waits after five attempts that are wrong
// passwords or not yet answered; the refusal says "at once" when the wrong
// passwords alone would not make it wait (six people behind one router signing
// in together were told of wrong passwords none of them typed), and right
// passwords take their attempts back.
func TestAddrLimiterSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		wrong, pending, undo int
		wait, atOnce         bool
	}{
		{"five at once, none answered", 0, 5, 0, true, true},
		{"five wrong passwords", 5, 0, 0, true, false},
		{"three wrong, two not answered", 3, 2, 0, true, true},
		{"four wrong, one not answered", 4, 1, 0, true, true},
		{"five right passwords", 0, 5, 5, false, false},
		{"four wrong", 4, 0, 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
			l := newAddrLimiter()
			l.now = func() time.Time { return now }
			for i := range tc.wrong + tc.pending {
				if w, _ := l.begin("10.0.0.7"); w > 0 {
					t.Fatalf("attempt %d waits %v", i+1, w)
				}
				if i < tc.wrong {
					l.settle("10.0.0.7")
				}
			}
			for range tc.undo {
				l.undo("10.0.0.7")
			}
			wait, atOnce := l.begin("10.0.0.7")
			if (wait > 0) != tc.wait || atOnce != tc.atOnce {
				t.Errorf("wait %v, at once %v; want a wait %v, at once %v", wait, atOnce, tc.wait, tc.atOnce)
			}
			if w, _ := l.begin("10.0.0.8"); w > 0 {
				t.Errorf("another address waits %v", w)
			}
		})
	}
}
