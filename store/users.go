package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// bcryptCost is the work factor of stored password hashes.
var bcryptCost = bcrypt.DefaultCost

// maxPasswordBytes is the most bcrypt reads of a password.
const maxPasswordBytes = 72

// minPasswordLen is the minimum in force: MinPasswordLen except in test binaries
// that lowered it with SetPasswordMinimumForTests.
var minPasswordLen = bench.MinPasswordLen

// SetPasswordMinimumForTests sets the password minimum to n characters and returns
// a func that restores the one before. Tests of other rules lower it so that their
// fixtures keep short passwords such as "secret"; it panics outside a test binary,
// so a program always requires MinPasswordLen.
func SetPasswordMinimumForTests(n int) (restore func()) {
	if !testing.Testing() {
		panic("store.SetPasswordMinimumForTests called outside a test binary")
	}
	old := minPasswordLen
	minPasswordLen = n
	return func() { minPasswordLen = old }
}

// compareHash is bcrypt's comparison; tests count the calls through it.
var compareHash = bcrypt.CompareHashAndPassword

// dummyHash is a hash of bcryptCost that no password matches by chance: a name
// without an account is compared against it, so that an unknown name costs a
// sign-in the same bcrypt work as a known one and timing does not tell them apart.
var dummyHash = sync.OnceValue(func() []byte {
	h, err := bcrypt.GenerateFromPassword([]byte("benchwright: no such account"), bcryptCost)
	if err != nil {
		panic(err) // only an invalid cost fails, and bcryptCost is valid
	}
	return h
})

// validPassword is the rule for a password a person chooses: the one place that
// says how long it must be.
func validPassword(pw string) error {
	if utf8.RuneCountInString(pw) < minPasswordLen {
		return fmt.Errorf("%w: a password needs at least %d characters", bench.ErrInvalid, minPasswordLen)
	}
	return nil
}

// hashPassword checks a password people chose against the rule and hashes it.
func hashPassword(pw string) (string, error) {
	if err := validPassword(pw); err != nil {
		return "", err
	}
	return bcryptHash(pw)
}

// bcryptHash hashes pw however short (CreateDemoAccounts: a published password);
// every other caller goes through hashPassword. Past 72 bytes bcrypt would ignore
// the rest without a word, so such a password is refused.
func bcryptHash(pw string) (string, error) {
	if len(pw) > maxPasswordBytes {
		return "", fmt.Errorf("%w: password must have at most %d bytes", bench.ErrInvalid, maxPasswordBytes)
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
		return false, fmt.Errorf("count users: %w", dbError(err))
	}
	return n > 0, nil
}

// CreateFirstLead creates the first account, a lead, on a database without users.
// It is refused once any account exists: from then on leads add users.
func (d *DB) CreateFirstLead(ctx context.Context, name, password string) (bench.User, error) {
	var u bench.User
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: accounts exist already; a lead adds new users", bench.ErrForbidden)
		}
		var err error
		u, err = d.insertUser(ctx, tx, 0, name, bench.RoleLead, "", password, hashPassword)
		return err
	})
	if err != nil {
		return bench.User{}, fmt.Errorf("create first lead %q: %w", name, err)
	}
	return u, nil
}

// CreateDemoAccounts creates the accounts of a demo database, in one transaction and
// only on a database without any: accounts[0], who must be a lead, is the first
// lead and adds the others. All get password, which need not follow MinPasswordLen:
// a demo's password is published (the README's "demo"), so its length protects
// nothing. Because it is refused once any account exists, it cannot give a person's
// account a short password; people choose theirs through CreateFirstLead, AddUser
// and SetPassword, which hold to the rule.
func (d *DB) CreateDemoAccounts(ctx context.Context, accounts []bench.User, password string) ([]bench.User, error) {
	var out []bench.User
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: accounts exist already; demo accounts go into an empty database", bench.ErrForbidden)
		}
		if len(accounts) == 0 || accounts[0].Role != bench.RoleLead {
			return fmt.Errorf("%w: the first demo account must be a lead", bench.ErrInvalid)
		}
		if password == "" {
			return fmt.Errorf("%w: the demo password is empty", bench.ErrInvalid)
		}
		var lead int64
		for _, a := range accounts {
			u, err := d.insertUser(ctx, tx, lead, a.Name, a.Role, a.Group, password, bcryptHash)
			if err != nil {
				return err
			}
			if lead == 0 {
				lead = u.ID
			}
			out = append(out, u)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("create demo accounts: %w", err)
	}
	return out, nil
}

// AddUser creates an account with its own role and group; only a lead (of any
// project, or an account whose own role is lead) may. The account joins every
// project the lead leads, with that role and group (none for a first lead who
// has not created one yet: the account then belongs to no project until a lead
// adds it, AddMember).
func (d *DB) AddUser(ctx context.Context, actor bench.User, name, role, group, password string) (bench.User, error) {
	var u bench.User
	err := d.act(ctx, actor, "user.create", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionManageUsers)
		if err != nil {
			return err
		}
		if u, err = d.insertUser(ctx, tx, a.ID, name, role, group, password, hashPassword); err != nil {
			return err
		}
		return d.joinProjectsOf(ctx, tx, a.ID, u)
	})
	if err != nil {
		return bench.User{}, fmt.Errorf("add user %q: %w", name, err)
	}
	return u, nil
}

// AddUserToProject is AddUser for one project: the account joins project
// projectID only, with role and group there; the lead must lead it.
func (d *DB) AddUserToProject(ctx context.Context, actor bench.User, projectID int64, name, role, group, password string) (bench.User, error) {
	var u bench.User
	err := d.act(ctx, actor, "user.create", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionManageMembers)
		if err != nil {
			return err
		}
		if u, err = d.insertUser(ctx, tx, a.ID, name, role, group, password, hashPassword); err != nil {
			return err
		}
		return d.joinProject(ctx, tx, projectID, u, a.ID)
	})
	if err != nil {
		return bench.User{}, fmt.Errorf("add user %q: %w", name, err)
	}
	return u, nil
}

// insertUser adds an account with password hashed by hash: hashPassword, which holds
// it to the rule, or for CreateDemoAccounts only, bcryptHash.
func (d *DB) insertUser(ctx context.Context, tx *sql.Tx, actorID int64, name, role, group, password string, hash func(string) (string, error)) (bench.User, error) {
	if err := bench.CheckUserName(name); err != nil {
		return bench.User{}, err
	}
	group, err := canonicalGroup(ctx, tx, group)
	if err != nil {
		return bench.User{}, invalidIf(err, verify.ErrInvalidPolicy)
	}
	if !bench.ValidRole(role) {
		return bench.User{}, fmt.Errorf("%w: role %q is not one of annotator, verifier, lead", bench.ErrInvalid, role)
	}
	hashed, err := hash(password)
	if err != nil {
		return bench.User{}, err
	}
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE name = ?`, name).Scan(&exists); err != nil {
		return bench.User{}, err
	}
	if exists > 0 {
		return bench.User{}, fmt.Errorf("%w: a user named %q exists already", bench.ErrConflict, name)
	}
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO users (name, role, grp, password_hash, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
		name, role, group, hashed, d.now()).Scan(&id)
	if err != nil {
		return bench.User{}, err
	}
	if actorID == 0 {
		actorID = id
	}
	u := bench.User{ID: id, Name: name, Role: role, Group: group}
	if err := d.audit(ctx, tx, actorID, "user.create", "user", name, fmt.Sprintf("role=%s group=%s", role, group)); err != nil {
		return bench.User{}, err
	}
	return u, nil
}

// SetRole changes an account's role and group everywhere: its own (the role it
// joins projects with) and the one it holds in every project it belongs to. It
// is a change to the whole account, so only a lead of every project the account
// belongs to may (verify.PermitAccount), of an account they see (Users); a lead
// of some of them changes the role in one project with SetMemberRole. No
// project is left without a lead (verify.CheckLeave), and the last lead of the
// database cannot demote themselves.
func (d *DB) SetRole(ctx context.Context, actor bench.User, name, role, group string) (bench.User, error) {
	var u bench.User
	err := d.act(ctx, actor, "user.role", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionManageUsers)
		if err != nil {
			return err
		}
		if !bench.ValidRole(role) {
			return fmt.Errorf("%w: role %q is not one of annotator, verifier, lead", bench.ErrInvalid, role)
		}
		u, err = visibleUser(ctx, tx, a, name)
		if err != nil {
			return err
		}
		if err := checkAccountChange(ctx, tx, a, u, verify.ActionManageUsers); err != nil {
			return err
		}
		if group, err = canonicalGroup(ctx, tx, group); err != nil {
			return invalidIf(err, verify.ErrInvalidPolicy)
		}
		if role != bench.RoleLead {
			var leads int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users u WHERE u.disabled = 0 AND u.id <> ? AND `+accountRole+` = 'lead'`, u.ID).Scan(&leads); err != nil {
				return err
			}
			if leads == 0 {
				return fmt.Errorf("%w: %s is the only lead; make someone else lead first", bench.ErrForbidden, name)
			}
			if err := checkStillLed(ctx, tx, u); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET role = ?, grp = ? WHERE id = ?`, role, group, u.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE project_members SET role = ?, grp = ? WHERE user_id = ?`, role, group, u.ID); err != nil {
			return err
		}
		u.Role, u.Group = role, group
		return d.audit(ctx, tx, a.ID, "user.role", "user", name, fmt.Sprintf("role=%s group=%s", role, group))
	})
	if err != nil {
		return bench.User{}, fmt.Errorf("set role of %q: %w", name, err)
	}
	return u, nil
}

// Authenticate checks a name and password and returns the user. Failures are audited
// and are ErrUnauthorized whether the name or the password was wrong; a name without
// an account (or a disabled one) costs the same bcrypt comparison as a known one, so
// that the time taken does not tell them apart either.
//
// After freeFailures wrong passwords in a row a name waits before its next attempt
// (bench.SignInDelay, doubling with each further failure): an attempt during the wait is
// refused with ErrTooManyFailures and audited, before any comparison. Each attempt is
// counted in the database before its comparison, so the wait holds across processes
// and restarts and parallel attempts cannot share one; success ends the count.
//
// The count is kept per name and client address (ClientAddr, an IPv6 address by
// its /64; local work is one address): the wait holds for the address that typed
// the wrong passwords, and a right password from an address that has not been
// guessing signs in, so that nobody can lock another out by guessing at their
// name. A team server also limits each address across all names.
//
// The comparison is slow on purpose, so it runs between two short write
// transactions rather than holding the write lock.
func (d *DB) Authenticate(ctx context.Context, name, password string) (bench.User, error) {
	var u bench.User
	var hash []byte
	var known, disabled bool
	var wait time.Duration
	var atOnce bool // the wait is of attempts sent at once, not of wrong passwords
	client := signInClient(ClientAddr(ctx))
	flight := name + "\x00" + client
	d.signIns.add(flight, 1)
	defer d.signIns.add(flight, -1)
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var h string
		err := tx.QueryRowContext(ctx, `SELECT id, name, role, grp, password_hash, disabled FROM users WHERE name = ?`, name).
			Scan(&u.ID, &u.Name, &u.Role, &u.Group, &h, &disabled)
		switch {
		case err == nil:
			known, hash = true, []byte(h)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if bench.CheckUserName(name) != nil {
			return nil // no account can have this name: nothing to protect, nothing to store
		}
		var failures int
		var last string
		err = tx.QueryRowContext(ctx, `SELECT failures, last_at FROM sign_in_failures WHERE name = ? AND client = ?`, name, client).Scan(&failures, &last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if at, err := time.Parse(time.RFC3339Nano, last); err == nil && failures > 0 {
			if wait = at.Add(bench.SignInDelay(failures)).Sub(d.Now()); wait > 0 {
				// Of the failures counted, this process's sign-ins still being
				// answered are not wrong passwords (yet).
				atOnce = bench.SignInDelay(failures-(d.signIns.add(flight, 0)-1)) == 0
				return d.audit(ctx, tx, 0, "auth.fail", "user", name,
					fmt.Sprintf("refused: %d wrong passwords in a row, wait %s", failures, bench.WaitWords(wait)))
			}
		}
		// Counted as a failure now; a right password deletes the row below.
		_, err = tx.ExecContext(ctx, `INSERT INTO sign_in_failures (name, client, failures, last_at) VALUES (?, ?, 1, ?)
			ON CONFLICT (name, client) DO UPDATE SET failures = sign_in_failures.failures + 1, last_at = excluded.last_at`, name, client, d.now())
		return err
	})
	if err != nil {
		return bench.User{}, fmt.Errorf("sign in %q: %w", name, err)
	}
	if wait > 0 {
		refusal := bench.ErrTooManyFailures
		if atOnce {
			refusal = bench.ErrSignInsAtOnce
		}
		return bench.User{}, fmt.Errorf("%w for %s: try again in %s", refusal, name, bench.WaitWords(wait))
	}
	if !known {
		hash = dummyHash()
	}
	if compareHash(hash, []byte(password)) == nil && known && !disabled {
		err := d.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `DELETE FROM sign_in_failures WHERE name = ? AND client = ?`, name, client)
			return err
		})
		if err != nil {
			return bench.User{}, fmt.Errorf("sign in %q: %w", name, err)
		}
		return u, nil
	}
	_ = d.inTx(ctx, func(tx *sql.Tx) error {
		return d.audit(ctx, tx, 0, "auth.fail", "user", name, "")
	})
	return bench.User{}, fmt.Errorf("sign in %q: %w", name, bench.ErrUnauthorized)
}

// SetPassword gives the account name a new password, which must follow the rule
// for passwords people choose (MinPasswordLen). Anyone may change their own (bwctl
// checks the current one by signing in first); another's only a lead of every
// project that account belongs to (verify.PermitAccount), of an account they see
// (Users): a lead of one project must not sign in as a member of another. The
// name's count of wrong passwords ends with it. Audited as user.password, without
// the password.
func (d *DB) SetPassword(ctx context.Context, actor bench.User, name, password string) error {
	err := d.act(ctx, actor, "user.password", func(tx *sql.Tx) error {
		a, err := requireSelfOrAction(ctx, tx, actor, name, verify.ActionManageUsers)
		if err != nil {
			return err
		}
		u, err := visibleUser(ctx, tx, a, name)
		if err != nil {
			return err
		}
		if u.ID != a.ID {
			if err := checkAccountChange(ctx, tx, a, u, verify.ActionManageUsers); err != nil {
				return err
			}
		}
		hash, err := hashPassword(password)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, u.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM sign_in_failures WHERE name = ?`, name); err != nil {
			return err
		}
		// A new password ends the account's team-server sessions: a leaked
		// password's sessions must not outlive the reset.
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL`, d.now(), u.ID); err != nil {
			return err
		}
		detail := "own password"
		if a.ID != u.ID {
			detail = "set by " + a.Name
		}
		return d.audit(ctx, tx, a.ID, "user.password", "user", name, detail)
	})
	if err != nil {
		return fmt.Errorf("set the password of %q: %w", name, err)
	}
	return nil
}

// Users lists by name the accounts actor sees: their own, every account that
// shares a project with them, and for a lead the accounts in no project (which a
// lead may add to one). Owner sees every account.
func (d *DB) Users(ctx context.Context, actor bench.User) ([]bench.User, error) {
	var us []bench.User
	err := d.readAs(ctx, actor, "users.read", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionReadProject)
		if err != nil {
			return err
		}
		cond, args := `1 = 1`, []any(nil)
		if !a.IsOwner() {
			cond, args = visibleUsers(a)
		}
		us, err = queryAll(ctx, tx, scanUser, `SELECT u.id, u.name, u.role, u.grp FROM users u WHERE u.disabled = 0 AND `+cond+` ORDER BY u.name`, args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return us, nil
}

func scanUser(r scanner) (bench.User, error) {
	var u bench.User
	err := r.Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	return u, err
}

// UserByName looks up an account actor sees (Users); any other is not found,
// as one that does not exist.
func (d *DB) UserByName(ctx context.Context, actor bench.User, name string) (bench.User, error) {
	var u bench.User
	err := d.readAs(ctx, actor, "users.read", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionReadProject)
		if err != nil {
			return err
		}
		u, err = visibleUser(ctx, tx, a, name)
		return err
	})
	return u, err
}

func userByName(ctx context.Context, tx *sql.Tx, name string) (bench.User, error) {
	var u bench.User
	err := tx.QueryRowContext(ctx, `SELECT id, name, role, grp FROM users WHERE name = ? AND disabled = 0`, name).
		Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	if errors.Is(err, sql.ErrNoRows) {
		return bench.User{}, fmt.Errorf("%w: no user named %q", bench.ErrNotFound, name)
	}
	return u, err
}

// requireAction reloads the acting user inside the transaction (a role may have
// changed since sign-in) and refuses unless verify's access table lets a role
// the account holds somewhere — its own, or in any project — take action a.
//
// It decides the actions that are not on one project (accounts, creating a
// project), where the account's role is accountRole's; for an action on a project
// it is only the first sieve (no role anywhere that may: refused without a word
// about the project), and requireProjectAction (members.go) decides with the role
// held in that project.
func requireAction(ctx context.Context, tx *sql.Tx, actor bench.User, a verify.Action) (bench.User, error) {
	u, roles, err := loadActor(ctx, tx, actor)
	if err != nil {
		return bench.User{}, err
	}
	return permitActor(u, roles, a)
}

// permitActor is requireAction's verdict on u, who holds roles (loadActor).
func permitActor(u bench.User, roles []string, a verify.Action) (bench.User, error) {
	if u.IsOwner() {
		if !ownerMay(a) {
			return bench.User{}, refuseOwner(a)
		}
		return u, nil
	}
	for _, r := range roles {
		if verify.Permitted(a, verify.Role(r)) {
			return u, nil
		}
	}
	if err := verify.Permit(a, vuser(u)); err != nil {
		return bench.User{}, fmt.Errorf("%w: %w", bench.ErrForbidden, err)
	}
	return u, nil
}

// requireSelfOrAction is requireAction, except that a user acting on their own
// account, name, needs no role.
func requireSelfOrAction(ctx context.Context, tx *sql.Tx, actor bench.User, name string, a verify.Action) (bench.User, error) {
	u, _, err := loadActor(ctx, tx, actor)
	if err == nil && !u.IsOwner() && u.Name == name {
		return u, nil
	}
	return requireAction(ctx, tx, actor, a)
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
	groups, err := queryAll(ctx, tx, scanString, `SELECT grp FROM users WHERE grp <> '' UNION SELECT grp FROM project_members WHERE grp <> '' ORDER BY 1`)
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
		return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	return err
}

// signInsInFlight counts, per name and client, the sign-ins this process is
// answering. Each attempt is counted in sign_in_failures before its password is
// compared, so attempts sent at once (a lab's six people behind one address
// signing in as one account) can make the next one wait; its refusal then says
// so rather than speak of wrong passwords (Authenticate). Another process's
// attempts on the same database are not known here.
type signInsInFlight struct {
	mu sync.Mutex
	n  map[string]int
}

// add adds k to key's count and returns the count.
func (s *signInsInFlight) add(key string, k int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == nil {
		s.n = map[string]int{}
	}
	v := s.n[key] + k
	if v <= 0 {
		delete(s.n, key)
		return 0
	}
	s.n[key] = v
	return v
}
