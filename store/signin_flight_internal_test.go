package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// TestSignInsAtOnceAreNotWrongPasswords: every sign-in counts as a failure
// before its password is compared, so five sent at once make a sixth wait. The
// refusal says "at once" when the attempts still being answered are what make
// it wait, and speaks of wrong passwords when those alone would; either way it
// is ErrTooManyFailures.
func TestSignInsAtOnceAreNotWrongPasswords(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name           string
		counted, ahead int // failures counted in the database; of them, sign-ins still being answered
		want           string
	}{
		{"five being answered", 5, 5, "too many sign-ins at once for lead"},
		{"two wrong, three being answered", 5, 3, "too many sign-ins at once for lead"},
		{"five wrong passwords", 5, 0, "too many wrong passwords for lead"},
		{"five wrong, one being answered", 6, 1, "too many wrong passwords for lead"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(ctx, filepath.Join(t.TempDir(), "bw.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.CreateFirstLead(ctx, "lead", "lead-long-password"); err != nil {
				t.Fatal(err)
			}
			if _, err := d.db.ExecContext(ctx, `INSERT INTO sign_in_failures (name, client, failures, last_at) VALUES (?, ?, ?, ?)`,
				"lead", signInClient(""), tc.counted, d.now()); err != nil {
				t.Fatal(err)
			}
			flight := "lead\x00" + signInClient("")
			d.signIns.add(flight, tc.ahead)
			_, err = d.Authenticate(ctx, "lead", "lead-long-password")
			if !errors.Is(err, bench.ErrTooManyFailures) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v; want ErrTooManyFailures saying %q", err, tc.want)
			}
			if n := d.signIns.add(flight, 0); n != tc.ahead {
				t.Errorf("%d sign-ins counted as being answered after the refusal, want the %d before it", n, tc.ahead)
			}
		})
	}
}
