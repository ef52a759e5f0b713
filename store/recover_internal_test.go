package store

import (
	"errors"
	"sync"
	"testing"
)

// TestPanicInAWorkerIsAnError: a panic in a goroutine the store starts for a
// request (caught) comes back as an error wrapping ErrFault; the process lives.
func TestPanicInAWorkerIsAnError(t *testing.T) {
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			errs[i] = caught("work", func() error {
				if i%2 == 1 {
					var m map[string]int
					m["x"] = 1 // a nil map: a runtime panic
				}
				return nil
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if want := i%2 == 1; errors.Is(err, ErrFault) != want {
			t.Errorf("worker %d: %v", i, err)
		}
	}
}
