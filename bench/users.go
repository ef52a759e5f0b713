package bench

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Roles a user can have.
const (
	RoleAnnotator = "annotator"
	RoleVerifier  = "verifier"
	RoleLead      = "lead"
)

// MinPasswordLen is the fewest characters of a password a person chooses
// (CreateFirstLead, AddUser, SetPassword). Shorter passwords stored before the
// minimum rose keep working until they are changed.
const MinPasswordLen = 10

// User is a person who signs in. The password hash never leaves the store.
type User struct {
	ID    int64
	Name  string
	Role  string
	Group string

	owner bool // Owner: the database's holder, not an account
}

// ValidRole reports whether r is a known role.
func ValidRole(r string) bool {
	return r == RoleAnnotator || r == RoleVerifier || r == RoleLead
}

// Owner is the holder of a database file — or of the PostgreSQL credentials —
// without signing in (bwctl's reads of a local file without --as, tests reading
// back what they stored). Anyone who can open the database can read every row of
// it with any SQL tool, so the store lets Owner make the plain reads of any
// project and export a release, and nothing more. It is not an account: a team
// server never acts as it, since the server fills every User parameter from the
// request's session, and a User decoded from JSON or written as a literal is
// never Owner.
func Owner() User { return User{owner: true} }

// IsOwner tells whether u is Owner.
func (u User) IsOwner() bool { return u.owner }

// Sign-in throttling: after FreeSignInFailures wrong passwords in a row a name
// waits firstSignInDelay before its next attempt, twice as long after each further
// failure, at most maxSignInDelay; a successful sign-in ends the wait and the
// count (the store counts the failures).
const (
	FreeSignInFailures = 3
	firstSignInDelay   = time.Second
	maxSignInDelay     = 5 * time.Minute
)

// SignInDelay is how long a name with failures wrong passwords in a row waits
// after the last of them.
func SignInDelay(failures int) time.Duration {
	if failures < FreeSignInFailures {
		return 0
	}
	d := firstSignInDelay
	for i := FreeSignInFailures; i < failures && d < maxSignInDelay; i++ {
		d *= 2
	}
	return min(d, maxSignInDelay)
}

// WaitWords says a wait for people, rounded up: "1 second", "8 seconds", "5 minutes".
func WaitWords(w time.Duration) string {
	s := int((w + time.Second - 1) / time.Second)
	switch {
	case s <= 1:
		return "1 second"
	case s <= 90:
		return fmt.Sprintf("%d seconds", s)
	}
	return fmt.Sprintf("%d minutes", (s+59)/60)
}

// CheckUserName is the rule for an account's name: 1 to 64 bytes of letters,
// digits and . _ - @. A name that breaks it is ErrInvalid, with why.
func CheckUserName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: user name is empty", ErrInvalid)
	}
	if len(name) > 64 {
		return fmt.Errorf("%w: user name %q is longer than 64 characters", ErrInvalid, name)
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-@", r)) {
			return fmt.Errorf("%w: user name %q may hold only letters, digits and . _ - @", ErrInvalid, name)
		}
	}
	return nil
}

// RoleWithArticle is a role in a sentence: "an annotator", "a lead".
func RoleWithArticle(role string) string {
	if role == RoleAnnotator {
		return "an annotator"
	}
	return "a " + role
}
