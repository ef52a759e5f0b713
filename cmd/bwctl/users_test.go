package main

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/benchwright/benchwright/store"
)

// The fixtures of this package's tests keep short passwords ("secret"): they test
// other rules. TestUsersPasswd restores the real minimum where it tests it.
func init() { store.SetPasswordMinimumForTests(4) }

// TestUsersPasswd: a user changes their own password with the current one, a lead
// sets another's, nobody else may, the new password follows the rule for new
// passwords, and every change and refusal is audited.
func TestUsersPasswd(t *testing.T) {
	db := initDB(t)
	passwd := func(args ...string) []string { return append([]string{"users", "passwd", "--db", db}, args...) }
	runCases(t, []cliCase{
		{name: "add ann", env: map[string]string{envPW: "secret", envNewPW: "ann-old-pw"},
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "ann", "--role", "annotator"}, code: 0},
		{name: "usage names passwd", args: []string{"users"}, code: 2,
			wantErr: []string{"bwctl users passwd --db DB --as USER [--name NAME]", "BENCHWRIGHT_NEW_PASSWORD"}},
		{name: "help", args: passwd("-h"), code: 0, wantErr: []string{"whose password"}},
		{name: "missing new password", env: pw("ann-old-pw"), args: passwd("--as", "ann"), code: 2,
			wantErr: []string{"bwctl users passwd: set BENCHWRIGHT_NEW_PASSWORD to the new password"}, emptyOut: true},
		{name: "missing --as", env: map[string]string{envPW: "ann-old-pw", envNewPW: "ann-new-password"}, args: passwd(), code: 2,
			wantErr: []string{"--as USER is required"}, emptyOut: true},
		{name: "role is not for passwd", env: map[string]string{envPW: "ann-old-pw", envNewPW: "ann-new-password"},
			args: passwd("--as", "ann", "--role", "lead"), code: 2, wantErr: []string{"--role and --group belong to users add"}, emptyOut: true},
		{name: "wrong current password", env: map[string]string{envPW: "nope", envNewPW: "ann-new-password"}, args: passwd("--as", "ann"),
			code: 1, wantErr: []string{"Wrong user name or password."}, emptyOut: true},
		{name: "own password", env: map[string]string{envPW: "ann-old-pw", envNewPW: "ann-new-password"}, args: passwd("--as", "ann"),
			code: 0, wantOut: []string{"changed the password of ann\n"}, emptyStErr: true},
		{name: "annotator may not set another's", env: map[string]string{envPW: "ann-new-password", envNewPW: "boss-taken-over"},
			args: passwd("--as", "ann", "--name", "boss"), code: 1, wantErr: []string{"not allowed", "only leads"}, emptyOut: true},
		{name: "lead sets another's", env: map[string]string{envPW: "secret", envNewPW: "ann-third-password"},
			args: passwd("--name", "ann", "--as", "boss"), code: 0, wantOut: []string{"set the password of ann\n"}, emptyStErr: true},
		{name: "unknown name", env: map[string]string{envPW: "secret", envNewPW: "some-password"},
			args: passwd("--as", "boss", "--name", "nobody"), code: 1, wantErr: []string{`no user named "nobody"`}, emptyOut: true},
	})
	// The production minimum, as people meet it.
	restore := store.SetPasswordMinimumForTests(store.MinPasswordLen)
	runCases(t, []cliCase{
		{name: "new password too short", env: map[string]string{envPW: "secret", envNewPW: "nine-char"},
			args: passwd("--as", "boss", "--name", "ann"), code: 1,
			wantErr: []string{"a password needs at least 10 characters."}, emptyOut: true},
	})
	restore()

	ctx := context.Background()
	s := openStore(t, db)
	for _, c := range []struct {
		name, password string
		ok             bool
	}{{"ann", "ann-third-password", true}, {"ann", "ann-new-password", false}, {"ann", "ann-old-pw", false},
		{"boss", "secret", true}, {"boss", "boss-taken-over", false}} {
		if _, err := s.Authenticate(ctx, c.name, c.password); (err == nil) != c.ok {
			t.Errorf("%s with %q: signs in %v, want %v (%v)", c.name, c.password, err == nil, c.ok, err)
		}
	}
	counts, err := s.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counts["user.password"] != 2 || counts["denied:user.password"] != 1 {
		t.Errorf("audit user.password %d, denied:user.password %d; want 2 and 1", counts["user.password"], counts["denied:user.password"])
	}
}

// TestSignInWaitMessage: a name that must wait after wrong passwords is told how
// long, in a sentence, by every command that signs in.
func TestSignInWaitMessage(t *testing.T) {
	db := initDB(t)
	sdb, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	// Six wrong passwords in a row, the last just now: an 8-second wait.
	if _, err := sdb.Exec(`INSERT INTO sign_in_failures (name, failures, last_at) VALUES ('boss', 6, ?)`,
		time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{name: "passwd", env: map[string]string{envPW: "secret", envNewPW: "boss-new-password"},
			args: []string{"users", "passwd", "--db", db, "--as", "boss"}, code: 1,
			wantErr: []string{"bwctl: Too many wrong passwords for boss: try again in ", " seconds.\n"}, emptyOut: true},
		{name: "users add", env: map[string]string{envPW: "secret", envNewPW: "new-password"},
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve", "--role", "annotator"}, code: 1,
			wantErr: []string{"Too many wrong passwords for boss"}, emptyOut: true},
	})
}
