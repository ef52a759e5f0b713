package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestGuessesDoNotLockOthersOut: wrong passwords for a name from one address
// make that address wait, not the account's owner signing in from another; an
// IPv6 address waits with its whole /64.
func TestGuessesDoNotLockOthersOut(t *testing.T) {
	p := storetest.Seed(t, nil)
	db := p.DB
	now := time.Now().UTC()
	db.Now = func() time.Time { return now }
	from := func(addr string) context.Context { return store.WithClientAddr(context.Background(), addr) }
	signIn := func(addr, password string) error {
		_, err := db.Authenticate(from(addr), "ann1", password)
		return err
	}
	cases := []struct{ guesser, sameGuesser, owner string }{
		{"192.0.2.7", "192.0.2.7", "198.51.100.3"},
		{"2001:db8:1:2::7", "2001:db8:1:2::99", "2001:db8:1:3::7"},
	}
	for _, c := range cases {
		for range 4 {
			if err := signIn(c.guesser, "wrong-password"); !errors.Is(err, bench.ErrUnauthorized) && !errors.Is(err, bench.ErrTooManyFailures) {
				t.Fatalf("a guess from %s: %v", c.guesser, err)
			}
		}
		if err := signIn(c.sameGuesser, storetest.Password); !errors.Is(err, bench.ErrTooManyFailures) {
			t.Errorf("the right password from the guessing address %s: %v, want ErrTooManyFailures", c.sameGuesser, err)
		}
		if err := signIn(c.owner, storetest.Password); err != nil {
			t.Errorf("the owner from %s after guesses from %s: %v, want signed in", c.owner, c.guesser, err)
		}
		if err := signIn(c.guesser, storetest.Password); !errors.Is(err, bench.ErrTooManyFailures) {
			t.Errorf("the guessing address %s after the owner signed in: %v, want it still waits", c.guesser, err)
		}
		now = now.Add(10 * time.Minute) // every wait over before the next case
		if err := signIn(c.guesser, storetest.Password); err != nil {
			t.Errorf("the right password from %s after the wait: %v", c.guesser, err)
		}
	}
}
