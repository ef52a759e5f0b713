package bench

import (
	"errors"
	"fmt"
	"testing"
)

// driverErr stands for a database driver's error: Message must say nothing of it
// but where its detail went, knowing no driver.
type driverErr struct{}

func (driverErr) Error() string { return "no such table: projects" }

// TestMessageOfDatabaseErrors: what people read of a storage failure comes from
// the DatabaseError the store wrapped it in, never from the driver's type.
func TestMessageOfDatabaseErrors(t *testing.T) {
	raw := fmt.Errorf(`project "p": %w`, driverErr{})
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"a database problem", &DatabaseError{Kind: ErrDatabase, Detail: driverErr{}.Error(), Err: raw},
			`Project "p" failed because of a database problem; the details are in the log.`},
		{"wrapped again", fmt.Errorf("open lab.db: %w", &DatabaseError{Kind: ErrDatabase, Detail: driverErr{}.Error(), Err: driverErr{}}),
			`Open lab.db failed because of a database problem; the details are in the log.`},
		{"a full disk", &DatabaseError{Kind: ErrDiskFull, Err: raw},
			"The disk holding the database is full; nothing was changed. Make room on it, then try again (the details are in the log)."},
		{"an unreachable server", &DatabaseError{Kind: ErrUnavailable, Unreachable: true, Err: raw},
			"The PostgreSQL server cannot be reached; nothing was changed. Try again when it is back (the details are in the log)."},
		{"a server that refused the sign-in", &DatabaseError{Kind: ErrUnavailable, Unreachable: true, Refused: RefusedSignIn, Err: raw},
			"The PostgreSQL server refused the user name or password in the database address; nothing was changed. Check the address (the details are in the log)."},
		{"a server without the database", &DatabaseError{Kind: ErrUnavailable, Unreachable: true, Refused: RefusedNoDatabase, Err: raw},
			"The PostgreSQL server has no database of the name in the address; nothing was changed. Check the address, or create the database (the details are in the log)."},
		{"an unmarked driver error is not told apart", raw, `Project "p": no such table: projects.`},
		{"a team server away", fmt.Errorf("%w (lab:8443): %v", ErrOffline, errors.New(`Post "https://lab:8443/v1/call/StatusCounts": EOF`)),
			"The team server cannot be reached. Check the network, or ask the lead whether the server runs, then try again (the details are in the log)."},
		{"a team server away, wrapped", fmt.Errorf("count images: %w", fmt.Errorf("%w (lab:8443): %v", ErrOffline, errors.New("dial tcp: connection refused"))),
			"Count images failed: the team server cannot be reached. Check the network, or ask the lead whether the server runs, then try again (the details are in the log)."},
	} {
		if got := Message(c.err); got != c.want {
			t.Errorf("%s: Message = %q, want %q", c.name, got, c.want)
		}
	}
	e := &DatabaseError{Kind: ErrDatabase, Detail: driverErr{}.Error(), Err: raw}
	if e.Error() != raw.Error() || !errors.Is(e, ErrDatabase) || !errors.As(e, new(driverErr)) {
		t.Errorf("a database problem's text %q or chain changed", e)
	}
	if full := (&DatabaseError{Kind: ErrDiskFull, Err: raw}); full.Error() != "the disk holding the database is full: "+raw.Error() {
		t.Errorf("a full disk's text %q", full)
	}
}
