package bench

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
