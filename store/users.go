package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/benchwright/benchwright/verify"
	"strings"
	"unicode"

	"golang.org/x/crypto/bcrypt"
)

// Roles a user can have.
const (
	RoleAnnotator = "annotator"
	RoleVerifier  = "verifier"
	RoleLead      = "lead"
)

// bcryptCost is the work factor of stored password hashes.
var bcryptCost = bcrypt.DefaultCost

// MinPasswordLen is the shortest password accepted for a new account.
const MinPasswordLen = 4

// User is a person who signs in. The password hash never leaves the store.
type User struct {
	ID    int64
	Name  string
	Role  string
	Group string
}

// ValidRole reports whether r is a known role.
func ValidRole(r string) bool {
	return r == RoleAnnotator || r == RoleVerifier || r == RoleLead
}

func validUserName(name string) error {
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

func hashPassword(pw string) (string, error) {
	if len(pw) < MinPasswordLen {
		return "", fmt.Errorf("%w: password must have at least %d characters", ErrInvalid, MinPasswordLen)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// HasUsers reports whether any account exists (first start creates the lead).
func (d *DB) HasUsers(ctx context.Context) (bool, error) {
	var n int
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
		return false, fmt.Errorf("count users: %w", err)
	}
	return n > 0, nil
}

// CreateFirstLead creates the first account, a lead, on a database without users.
// It is refused once any account exists: from then on leads add users.
func (d *DB) CreateFirstLead(ctx context.Context, name, password string) (User, error) {
	var u User
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: accounts exist already; a lead adds new users", ErrForbidden)
		}
		var err error
		u, err = d.insertUser(ctx, tx, 0, name, RoleLead, "", password)
		return err
	})
	if err != nil {
		return User{}, fmt.Errorf("create first lead %q: %w", name, err)
	}
	return u, nil
}

// AddUser creates an account; only a lead may.
func (d *DB) AddUser(ctx context.Context, actor User, name, role, group, password string) (User, error) {
	var u User
	err := d.act(ctx, actor, "user.create", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionManageUsers)
		if err != nil {
			return err
		}
		u, err = d.insertUser(ctx, tx, a.ID, name, role, group, password)
		return err
	})
	if err != nil {
		return User{}, fmt.Errorf("add user %q: %w", name, err)
	}
	return u, nil
}

func (d *DB) insertUser(ctx context.Context, tx *sql.Tx, actorID int64, name, role, group, password string) (User, error) {
	if err := validUserName(name); err != nil {
		return User{}, err
	}
	group, err := canonicalGroup(ctx, tx, group)
	if err != nil {
		return User{}, invalidIf(err, verify.ErrInvalidPolicy)
	}
	if !ValidRole(role) {
		return User{}, fmt.Errorf("%w: role %q is not one of annotator, verifier, lead", ErrInvalid, role)
	}
	hash, err := hashPassword(password)
	if err != nil {
		return User{}, err
	}
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE name = ?`, name).Scan(&exists); err != nil {
		return User{}, err
	}
	if exists > 0 {
		return User{}, fmt.Errorf("%w: a user named %q exists already", ErrConflict, name)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO users (name, role, grp, password_hash, created_at) VALUES (?, ?, ?, ?, ?)`,
		name, role, group, hash, d.now())
	if err != nil {
		return User{}, err
	}
	id, _ := res.LastInsertId()
	if actorID == 0 {
		actorID = id
	}
	u := User{ID: id, Name: name, Role: role, Group: group}
	if err := d.audit(ctx, tx, actorID, "user.create", "user", name, fmt.Sprintf("role=%s group=%s", role, group)); err != nil {
		return User{}, err
	}
	return u, nil
}

// SetRole changes a user's role and group; only a lead may, and the last lead cannot
// demote themselves (a project is never left without a lead).
func (d *DB) SetRole(ctx context.Context, actor User, name, role, group string) (User, error) {
	var u User
	err := d.act(ctx, actor, "user.role", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionManageUsers)
		if err != nil {
			return err
		}
		if !ValidRole(role) {
			return fmt.Errorf("%w: role %q is not one of annotator, verifier, lead", ErrInvalid, role)
		}
		u, err = userByName(ctx, tx, name)
		if err != nil {
			return err
		}
		if group, err = canonicalGroup(ctx, tx, group); err != nil {
			return invalidIf(err, verify.ErrInvalidPolicy)
		}
		if u.Role == RoleLead && role != RoleLead {
			var leads int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE role = 'lead' AND disabled = 0`).Scan(&leads); err != nil {
				return err
			}
			if leads <= 1 {
				return fmt.Errorf("%w: %s is the only lead; make someone else lead first", ErrForbidden, name)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET role = ?, grp = ? WHERE id = ?`, role, group, u.ID); err != nil {
			return err
		}
		u.Role, u.Group = role, group
		return d.audit(ctx, tx, a.ID, "user.role", "user", name, fmt.Sprintf("role=%s group=%s", role, group))
	})
	if err != nil {
		return User{}, fmt.Errorf("set role of %q: %w", name, err)
	}
	return u, nil
}

// Authenticate checks a name and password and returns the user. Failures are audited
// and are ErrUnauthorized whether the name or the password was wrong.
func (d *DB) Authenticate(ctx context.Context, name, password string) (User, error) {
	var u User
	var hash string
	var disabled bool
	err := d.db.QueryRowContext(ctx, `SELECT id, name, role, grp, password_hash, disabled FROM users WHERE name = ?`, name).
		Scan(&u.ID, &u.Name, &u.Role, &u.Group, &hash, &disabled)
	if err == nil && !disabled && bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil {
		return u, nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("sign in %q: %w", name, err)
	}
	_ = d.inTx(ctx, func(tx *sql.Tx) error {
		return d.audit(ctx, tx, 0, "auth.fail", "user", name, "")
	})
	return User{}, fmt.Errorf("sign in %q: %w", name, ErrUnauthorized)
}

// Users lists all accounts by name.
func (d *DB) Users(ctx context.Context) ([]User, error) {
	us, err := queryAll(ctx, d.rdb, scanUser, `SELECT id, name, role, grp FROM users WHERE disabled = 0 ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return us, nil
}

func scanUser(r scanner) (User, error) {
	var u User
	err := r.Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	return u, err
}

// UserByName looks an account up.
func (d *DB) UserByName(ctx context.Context, name string) (User, error) {
	var u User
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		u, err = userByName(ctx, tx, name)
		return err
	})
	return u, err
}

func userByName(ctx context.Context, tx *sql.Tx, name string) (User, error) {
	var u User
	err := tx.QueryRowContext(ctx, `SELECT id, name, role, grp FROM users WHERE name = ? AND disabled = 0`, name).
		Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("%w: no user named %q", ErrNotFound, name)
	}
	return u, err
}

// requireAction reloads the acting user inside the transaction (a role may have
// changed since sign-in) and refuses unless verify's access table lets their role
// take action a.
func requireAction(ctx context.Context, tx *sql.Tx, actor User, a verify.Action) (User, error) {
	var u User
	err := tx.QueryRowContext(ctx, `SELECT id, name, role, grp FROM users WHERE id = ? AND disabled = 0`, actor.ID).
		Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, fmt.Errorf("%w: the account you signed in with no longer exists or is disabled", ErrForbidden)
	}
	if err != nil {
		return User{}, err
	}
	if err := verify.Permit(a, vuser(u)); err != nil {
		return User{}, fmt.Errorf("%w: %w", ErrForbidden, err)
	}
	return u, nil
}

func article(role string) string {
	if role == RoleAnnotator {
		return "an annotator"
	}
	return "a " + role
}

// canonicalGroup is group in its stored form (verify.NormalizeGroup), spelled as
// the existing group it names when there is one: "a" joins group "A". A name
// verify refuses is returned as that refusal (verify.ErrInvalidPolicy), for the
// caller to place.
func canonicalGroup(ctx context.Context, tx *sql.Tx, group string) (string, error) {
	g, err := verify.NormalizeGroup(group)
	if err != nil {
		return "", err
	}
	if g == "" {
		return "", nil
	}
	groups, err := queryAll(ctx, tx, scanString, `SELECT DISTINCT grp FROM users WHERE grp <> '' ORDER BY grp`)
	if err != nil {
		return "", err
	}
	for _, existing := range groups {
		if verify.SameGroup(existing, g) {
			return existing, nil
		}
	}
	return g, nil
}

// invalidIf marks err as ErrInvalid when it is a kind refusal (bad input), and
// leaves other errors (the database's) as they are.
func invalidIf(err, kind error) error {
	if errors.Is(err, kind) {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return err
}
