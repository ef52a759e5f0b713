package main

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
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
	restore := store.SetPasswordMinimumForTests(bench.MinPasswordLen)
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

// TestUsersProjects: an account added with --project joins that project only,
// one added without joins every project of the lead; join and leave change a
// project's members (a lead of it, never its last lead); users list --project
// lists them; projects lists the signed-in account's projects only.
func TestUsersProjects(t *testing.T) {
	db := initDB(t)
	lead := map[string]string{envPW: "secret", envNewPW: "new-secret"}
	users := func(args ...string) []string { return append([]string{"users"}, append(args, "--db", db)...) }
	runCases(t, []cliCase{
		{name: "second project", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p2", "--lead", "boss"}, code: 0},
		{name: "add to p2 only", env: lead, args: users("add", "--as", "boss", "--name", "ann", "--role", "annotator", "--project", "p2"), code: 0,
			wantOut: []string{"added ann (annotator)"}},
		{name: "add to every project", env: lead, args: users("add", "--as", "boss", "--name", "ver", "--role", "verifier", "--group", "A"), code: 0},
		{name: "p1's members", args: users("list", "--project", "p1"), code: 0, wantOut: []string{"boss\tlead", "ver\tverifier\tA"},
			notOut: []string{"ann"}, outLines: 2},
		{name: "ann's projects", env: map[string]string{envPW: "new-secret"}, args: []string{"projects", "--db", db, "--as", "ann"}, code: 0,
			wantOut: []string{"p2\t"}, notOut: []string{"p1\t"}, outLines: 1},
		{name: "ann may not read p1", env: map[string]string{envPW: "new-secret"}, args: []string{"status", "--db", db, "--as", "ann", "--project", "p1"},
			code: 1, wantErr: []string{"ann is not a member of project \"p1\"; one of its leads can add them."}},
		{name: "join needs --project", env: lead, args: users("join", "--as", "boss", "--name", "ann"), code: 2,
			wantErr: []string{"bwctl users join: --project and --name are required"}},
		{name: "an annotator may not join others", env: map[string]string{envPW: "new-secret"}, args: users("join", "--as", "ann", "--project", "p2", "--name", "ver"),
			code: 1, wantErr: []string{"only leads may add and remove a project's members and set their roles"}},
		{name: "join p1", env: lead, args: users("join", "--as", "boss", "--project", "p1", "--name", "ann"), code: 0,
			wantOut: []string{"ann joined project p1"}},
		{name: "ann reads p1", env: map[string]string{envPW: "new-secret"}, args: []string{"status", "--db", db, "--as", "ann", "--project", "p1"}, code: 0},
		{name: "leave p1", env: lead, args: users("leave", "--as", "boss", "--project", "p1", "--name", "ann"), code: 0,
			wantOut: []string{"ann left project p1"}},
		{name: "the last lead stays", env: lead, args: users("leave", "--as", "boss", "--project", "p1", "--name", "boss"), code: 1,
			wantErr: []string{"boss is the only lead of project \"p1\""}},
	})
}

// TestUsersRole: roles are per project. A lead sets a member's role in a project
// they lead (users role --project) and it holds there only; the role everywhere
// and another's password need a lead of every project of the account; the new
// lead of one project is still an annotator in the other.
func TestUsersRole(t *testing.T) {
	db := initDB(t)
	boss := map[string]string{envPW: "secret", envNewPW: "new-secret"}
	users := func(args ...string) []string { return append([]string{"users"}, append(args, "--db", db)...) }
	runCases(t, []cliCase{
		{name: "second project", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p2", "--lead", "boss"}, code: 0},
		{name: "p2's own lead", env: boss, args: users("add", "--as", "boss", "--name", "lead2", "--role", "lead", "--project", "p2"), code: 0},
		{name: "ann in both", env: boss, args: users("add", "--as", "boss", "--name", "ann", "--role", "annotator"), code: 0},
		{name: "boss hands p2 over", env: boss, args: users("leave", "--as", "boss", "--project", "p2", "--name", "boss"), code: 0},
		{name: "role needs --role", env: boss, args: users("role", "--as", "boss", "--name", "ann"), code: 2,
			wantErr: []string{"bwctl users role: --name and --role are required"}},
		{name: "ann leads p1", env: boss, args: users("role", "--as", "boss", "--project", "p1", "--name", "ann", "--role", "lead"), code: 0,
			wantOut: []string{"ann is lead in project p1\n"}},
		{name: "p1's members", args: users("list", "--project", "p1"), code: 0, wantOut: []string{"ann\tlead"}},
		{name: "p2's members", args: users("list", "--project", "p2"), code: 0, wantOut: []string{"ann\tannotator"}, notOut: []string{"ann\tlead"}},
		{name: "boss may not make ann lead everywhere", env: boss, args: users("role", "--as", "boss", "--name", "ann", "--role", "lead"), code: 1,
			wantErr: []string{"ann belongs to 1 project that boss does not lead"}, emptyOut: true},
		{name: "boss may not set ann's password", env: boss, args: users("passwd", "--as", "boss", "--name", "ann"), code: 1,
			wantErr: []string{"ann belongs to 1 project that boss does not lead"}, emptyOut: true},
		{name: "ann may not lead p2", env: map[string]string{envPW: "new-secret"}, args: users("role", "--as", "ann", "--project", "p2", "--name", "ann", "--role", "lead"),
			code: 1, wantErr: []string{"ann is an annotator, and only leads may add and remove a project's members and set their roles"}, emptyOut: true},
		{name: "lead2 makes ann a verifier of p2 in group B", env: map[string]string{envPW: "new-secret"},
			args: users("role", "--as", "lead2", "--project", "p2", "--name", "ann", "--role", "verifier", "--group", "B"), code: 0,
			wantOut: []string{"ann is verifier, group B in project p2\n"}},
		{name: "p2's only lead stays", env: map[string]string{envPW: "new-secret"},
			args: users("role", "--as", "lead2", "--project", "p2", "--name", "lead2", "--role", "annotator"), code: 1,
			wantErr: []string{"lead2 is the only lead of project \"p2\""}},
	})
}
