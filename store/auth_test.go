package store

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"golang.org/x/crypto/bcrypt"
)

// The store's other tests keep their short fixture passwords ("secret"): they test
// other rules. The tests of the password rule below restore the real minimum.
func init() { SetPasswordMinimumForTests(4) }

// realPasswordMinimum makes the production minimum apply until the test ends.
func realPasswordMinimum(t *testing.T) {
	t.Cleanup(SetPasswordMinimumForTests(bench.MinPasswordLen))
}

// authWorld is a database whose clock stands still until the test moves it, with a
// lead and an annotator ann1.
type authWorld struct {
	db        *DB
	path      string
	now       time.Time
	lead, ann bench.User
}

const (
	leadPassword = "lead-password"
	annPassword  = "ann1-password"
)

func newAuthWorld(t *testing.T) *authWorld {
	t.Helper()
	ctx := context.Background()
	w := &authWorld{path: filepath.Join(t.TempDir(), "bw.db"), now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	w.db = w.open(t)
	var err error
	if w.lead, err = w.db.CreateFirstLead(ctx, "lead", leadPassword); err != nil {
		t.Fatal(err)
	}
	if w.ann, err = w.db.AddUser(ctx, w.lead, "ann1", bench.RoleAnnotator, "", annPassword); err != nil {
		t.Fatal(err)
	}
	return w
}

// open opens the world's file once more (as a second process would), on its clock.
func (w *authWorld) open(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), w.path)
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return w.now }
	t.Cleanup(func() { db.Close() })
	return db
}

// countComparisons counts, until the test ends, the bcrypt comparisons and the
// hashes they compared against.
func countComparisons(t *testing.T) *[][]byte {
	var hashes [][]byte
	compareHash = func(hash, pw []byte) error {
		hashes = append(hashes, hash)
		return bcrypt.CompareHashAndPassword(hash, pw)
	}
	t.Cleanup(func() { compareHash = bcrypt.CompareHashAndPassword })
	return &hashes
}

func auditCountOf(t *testing.T, db *DB, action string) int {
	t.Helper()
	counts, err := db.AuditCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return counts[action]
}

// TestNewPasswordsNeedTenCharacters: every way to choose a password refuses one of
// nine characters and takes one of ten, and a short password stored before the rule
// still signs in.
func TestNewPasswordsNeedTenCharacters(t *testing.T) {
	realPasswordMinimum(t)
	ctx := context.Background()
	if bench.MinPasswordLen != 10 {
		t.Fatalf("MinPasswordLen = %d, want 10", bench.MinPasswordLen)
	}
	db, err := Open(ctx, filepath.Join(t.TempDir(), "bw.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const nine, ten = "123456789", "1234567890"
	if _, err := db.CreateFirstLead(ctx, "lead", nine); !errors.Is(err, bench.ErrInvalid) ||
		!strings.Contains(bench.Message(err), "a password needs at least 10 characters") {
		t.Fatalf("first lead with 9 characters: %v", err)
	}
	lead, err := db.CreateFirstLead(ctx, "lead", ten)
	if err != nil {
		t.Fatalf("first lead with 10 characters: %v", err)
	}
	if _, err := db.AddUser(ctx, lead, "ann", bench.RoleAnnotator, "", nine); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("add user with 9 characters: %v", err)
	}
	// Characters, not bytes: nine letters of two bytes each are still nine.
	if _, err := db.AddUser(ctx, lead, "ann", bench.RoleAnnotator, "", strings.Repeat("é", 9)); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("add user with 9 two-byte characters: %v", err)
	}
	if _, err := db.AddUser(ctx, lead, "ann", bench.RoleAnnotator, "", ten); err != nil {
		t.Fatalf("add user with 10 characters: %v", err)
	}
	if err := db.SetPassword(ctx, lead, "ann", nine); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("set password with 9 characters: %v", err)
	}
	// bcrypt reads 72 bytes: a longer password would be cut short without a word.
	if err := db.SetPassword(ctx, lead, "ann", strings.Repeat("x", 73)); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("set password of 73 bytes: %v", err)
	}
	// An account from before the rule keeps its short password until it changes it.
	old, err := bcrypt.GenerateFromPassword([]byte("demo"), bcryptCost)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.db.Exec(`UPDATE users SET password_hash = ? WHERE name = 'ann'`, string(old)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Authenticate(ctx, "ann", "demo"); err != nil {
		t.Fatalf("an existing short password no longer signs in: %v", err)
	}
}

// TestDemoAccountsOnlyInAnEmptyDatabase: the demo's published short password is
// taken only by CreateDemoAccounts, only on a database without accounts, and the
// rule still holds for everything people do in it afterwards.
func TestDemoAccountsOnlyInAnEmptyDatabase(t *testing.T) {
	realPasswordMinimum(t)
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "bw.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	accounts := []bench.User{{Name: "lead", Role: bench.RoleLead}, {Name: "ann1", Role: bench.RoleAnnotator}, {Name: "ver1", Role: bench.RoleVerifier, Group: "A"}}
	if _, err := db.CreateDemoAccounts(ctx, accounts[1:], "demo"); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("demo accounts led by an annotator: %v, want ErrInvalid", err)
	}
	got, err := db.CreateDemoAccounts(ctx, accounts, "demo")
	if err != nil {
		t.Fatalf("demo accounts: %v", err)
	}
	if len(got) != 3 || got[2].Name != "ver1" || got[2].Group != "A" || got[0].Role != bench.RoleLead {
		t.Fatalf("demo accounts %+v", got)
	}
	for _, a := range accounts {
		if _, err := db.Authenticate(ctx, a.Name, "demo"); err != nil {
			t.Errorf("%s cannot sign in with the demo password: %v", a.Name, err)
		}
	}
	if _, err := db.CreateDemoAccounts(ctx, []bench.User{{Name: "lead2", Role: bench.RoleLead}}, "demo"); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("demo accounts in a database with accounts: %v, want ErrForbidden", err)
	}
	if _, err := db.AddUser(ctx, got[0], "ann2", bench.RoleAnnotator, "", "demo"); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("a lead adds a user with the short demo password: %v, want ErrInvalid", err)
	}
	if err := db.SetPassword(ctx, got[1], "ann1", "demo2"); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("a demo user chooses a short password: %v, want ErrInvalid", err)
	}
	if n := auditCountOf(t, db, "user.create"); n != 3 {
		t.Errorf("user.create audit rows %d, want 3", n)
	}
}

// TestWrongPasswordsMakeTheNameWait drives one name through wrong passwords on a
// standing clock: after three the right password is refused too, the wait doubles,
// refusals are audited and cost no comparison, the wait holds in another
// connection to the file, other names are not held up, and success ends it.
func TestWrongPasswordsMakeTheNameWait(t *testing.T) {
	ctx := context.Background()
	w := newAuthWorld(t)
	db := w.db
	wrong := func() {
		t.Helper()
		if _, err := db.Authenticate(ctx, "ann1", "not-the-password"); !errors.Is(err, bench.ErrUnauthorized) {
			t.Fatalf("wrong password: %v, want ErrUnauthorized", err)
		}
	}
	refused := func(db *DB, password, wait string) {
		t.Helper()
		_, err := db.Authenticate(ctx, "ann1", password)
		if !errors.Is(err, bench.ErrTooManyFailures) || errors.Is(err, bench.ErrUnauthorized) {
			t.Fatalf("attempt during the wait: %v, want ErrTooManyFailures", err)
		}
		if got, want := bench.Message(err), "Too many wrong passwords for ann1: try again in "+wait+"."; got != want {
			t.Fatalf("message %q, want %q", got, want)
		}
	}
	for range bench.FreeSignInFailures {
		wrong()
	}
	hashes := countComparisons(t)
	fails := auditCountOf(t, db, "auth.fail")
	refused(db, annPassword, "1 second")
	refused(db, "not-the-password", "1 second")
	if len(*hashes) != 0 {
		t.Errorf("a refused attempt ran %d bcrypt comparisons; the wait is checked first", len(*hashes))
	}
	if got := auditCountOf(t, db, "auth.fail"); got != fails+2 {
		t.Errorf("auth.fail rows %d after two refusals, want %d", got, fails+2)
	}
	// Refusals do not lengthen the wait: one second after the third failure, a guess.
	w.now = w.now.Add(time.Second)
	wrong()
	refused(db, annPassword, "2 seconds")
	w.now = w.now.Add(2 * time.Second)
	wrong()
	w.now = w.now.Add(4 * time.Second)
	wrong() // six in a row
	refused(db, annPassword, "8 seconds")
	w.now = w.now.Add(3 * time.Second)
	refused(w.open(t), annPassword, "5 seconds") // the count is in the file, not in memory
	if _, err := db.Authenticate(ctx, "lead", leadPassword); err != nil {
		t.Fatalf("another name is held up by ann1's wait: %v", err)
	}
	// The wait is at most five minutes, however many failures.
	if _, err := db.db.Exec(`UPDATE sign_in_failures SET failures = 1000 WHERE name = 'ann1'`); err != nil {
		t.Fatal(err)
	}
	refused(db, annPassword, "5 minutes")
	w.now = w.now.Add(5 * time.Minute)
	if _, err := db.Authenticate(ctx, "ann1", annPassword); err != nil {
		t.Fatalf("right password after the wait: %v", err)
	}
	// Success ended the count: two more failures do not make ann1 wait.
	wrong()
	wrong()
	if _, err := db.Authenticate(ctx, "ann1", annPassword); err != nil {
		t.Fatalf("right password after two failures: %v", err)
	}
}

// TestUnknownNamesWaitAlike: a name without an account waits after wrong passwords
// just like an account, so the wait does not tell which names exist.
func TestUnknownNamesWaitAlike(t *testing.T) {
	ctx := context.Background()
	w := newAuthWorld(t)
	for range bench.FreeSignInFailures {
		if _, err := w.db.Authenticate(ctx, "nobody", "guess-guess"); !errors.Is(err, bench.ErrUnauthorized) {
			t.Fatalf("unknown name: %v", err)
		}
	}
	_, err := w.db.Authenticate(ctx, "nobody", "guess-guess")
	if got, want := bench.Message(err), "Too many wrong passwords for nobody: try again in 1 second."; got != want {
		t.Fatalf("unknown name after 3 failures: %q, want %q", got, want)
	}
}

// TestUnknownNamesCostTheSameComparison: a sign-in runs exactly one bcrypt
// comparison whether the name is known, unknown, disabled or impossible, and an
// unknown name is compared against the fixed dummy hash, of the same cost as an
// account's.
func TestUnknownNamesCostTheSameComparison(t *testing.T) {
	ctx := context.Background()
	w := newAuthWorld(t)
	if _, err := w.db.AddUser(ctx, w.lead, "gone", bench.RoleAnnotator, "", "gone-password"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.db.Exec(`UPDATE users SET disabled = 1 WHERE name = 'gone'`); err != nil {
		t.Fatal(err)
	}
	var annHash string
	if err := w.db.db.QueryRow(`SELECT password_hash FROM users WHERE name = 'ann1'`).Scan(&annHash); err != nil {
		t.Fatal(err)
	}
	hashes := countComparisons(t)
	for _, c := range []struct{ name, password string }{
		{"ann1", "wrong-password"}, {"nobody", "wrong-password"}, {"nobody2", annPassword},
		{"gone", "gone-password"}, {"no such name!", "x"}, {"ann1", annPassword},
	} {
		before := len(*hashes)
		_, err := w.db.Authenticate(ctx, c.name, c.password)
		if (err == nil) != (c.name == "ann1" && c.password == annPassword) {
			t.Errorf("%s signs in: %v", c.name, err)
		}
		if n := len(*hashes) - before; n != 1 {
			t.Errorf("%s: %d bcrypt comparisons, want 1", c.name, n)
			continue
		}
		if h := (*hashes)[len(*hashes)-1]; c.name == "ann1" && string(h) != annHash {
			t.Errorf("ann1 was compared against %q, not its own hash", h)
		} else if strings.HasPrefix(c.name, "no") && !bytes.Equal(h, dummyHash()) {
			t.Errorf("%s was compared against %q, not the dummy hash", c.name, h)
		}
	}
	dummyCost, err := bcrypt.Cost(dummyHash())
	if err != nil {
		t.Fatal(err)
	}
	if annCost, _ := bcrypt.Cost([]byte(annHash)); dummyCost != annCost {
		t.Errorf("dummy hash cost %d, accounts' %d", dummyCost, annCost)
	}
}

// TestSetPassword: people change their own password without a role, only a lead
// sets another's, the change is audited without the password, and a lead's new
// password ends a wait.
func TestSetPassword(t *testing.T) {
	ctx := context.Background()
	w := newAuthWorld(t)
	db := w.db
	signsIn := func(name, password string) bool {
		_, err := db.Authenticate(ctx, name, password)
		return err == nil
	}
	if err := db.SetPassword(ctx, w.ann, "ann1", "ann1-second-password"); err != nil {
		t.Fatalf("annotator changes own password: %v", err)
	}
	if signsIn("ann1", annPassword) || !signsIn("ann1", "ann1-second-password") {
		t.Fatal("after the change the old password signs in, or the new one does not")
	}
	if err := db.SetPassword(ctx, w.ann, "lead", "taken-over-lead"); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("annotator sets the lead's password: %v, want ErrForbidden", err)
	}
	if signsIn("lead", "taken-over-lead") {
		t.Fatal("the refused password signs in")
	}
	if got := auditCountOf(t, db, "denied:user.password"); got != 1 {
		t.Errorf("denied:user.password rows %d, want 1", got)
	}
	if err := db.SetPassword(ctx, w.lead, "nobody", "some-password"); !errors.Is(err, bench.ErrNotFound) {
		t.Fatalf("set the password of an unknown name: %v, want ErrNotFound", err)
	}
	// ann1 forgets the password and waits; the lead's new one ends the wait.
	for range bench.FreeSignInFailures {
		signsIn("ann1", "forgotten-password")
	}
	if err := db.SetPassword(ctx, w.lead, "ann1", "ann1-third-password"); err != nil {
		t.Fatalf("lead sets ann1's password: %v", err)
	}
	if !signsIn("ann1", "ann1-third-password") {
		t.Fatal("the password the lead set does not sign in")
	}
	rows, err := db.db.Query(`SELECT actor_id, entity_id, detail FROM audit_log WHERE action = 'user.password' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var actor int64
		var name, detail string
		if err := rows.Scan(&actor, &name, &detail); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(detail, "password-") || strings.Contains(detail, "-password") {
			t.Errorf("audit detail %q holds a password", detail)
		}
		got = append(got, strings.Join([]string{map[int64]string{w.lead.ID: "lead", w.ann.ID: "ann1"}[actor], name, detail}, "|"))
	}
	if want := []string{"ann1|ann1|own password", "lead|ann1|set by lead"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("user.password audit rows %q, want %q", got, want)
	}
}
