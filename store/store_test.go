package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// MustOpenDB opens a fresh database in a temporary folder.
func MustOpenDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), storetest.NewDatabase(tb))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// fixture is a database with a lead, a project and a few users.
type fixture struct {
	db                   *store.DB
	lead, ann, ann2, ver bench.User
	project              bench.Project
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	return fixtureOn(t, MustOpenDB(t))
}

// newSyntheticFixture is newFixture on a database marked as generated, which the
// generator's bulk writes need.
func newSyntheticFixture(t *testing.T) fixture {
	t.Helper()
	db := MustOpenDB(t)
	if err := db.MarkSynthetic(context.Background()); err != nil {
		t.Fatal(err)
	}
	return fixtureOn(t, db)
}

func fixtureOn(t *testing.T, db *store.DB) fixture {
	t.Helper()
	ctx := context.Background()
	f := fixture{db: db}
	var err error
	if f.lead, err = f.db.CreateFirstLead(ctx, "lead", "secret"); err != nil {
		t.Fatal(err)
	}
	if f.project, err = f.db.CreateProject(ctx, f.lead, "p"); err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct {
		dst        *bench.User
		name, role string
	}{{&f.ann, "ann", bench.RoleAnnotator}, {&f.ann2, "ann2", bench.RoleAnnotator}, {&f.ver, "ver", bench.RoleVerifier}} {
		if *u.dst, err = f.db.AddUser(ctx, f.lead, u.name, u.role, "", "secret"); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func auditCount(t *testing.T, path, action string) int {
	t.Helper()
	sdb, err := store.RawSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var n int
	if err := sdb.QueryRow(`SELECT count(*) FROM audit_log WHERE action = ?`, action).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMigrationsAndNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bw.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := db.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Fatalf("integrity %q %v", ok, err)
	}
	db.Close()
	// Reopening applies nothing new and works.
	db, err = store.Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	db.Close()

	sdb, _ := store.RawSQL(path)
	if _, err := sdb.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	_, err = store.Open(ctx, path)
	if !errors.Is(err, bench.ErrNewerSchema) {
		t.Fatalf("open newer db: got %v, want ErrNewerSchema", err)
	}
	if !strings.Contains(err.Error(), "99") {
		t.Errorf("error should name the version: %v", err)
	}
}

func TestUsersAndPermissions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)

	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"second first lead", func() error { _, err := f.db.CreateFirstLead(ctx, "x", "secret"); return err }, bench.ErrForbidden},
		{"annotator adds user", func() error { _, err := f.db.AddUser(ctx, f.ann, "x", "annotator", "", "secret"); return err }, bench.ErrForbidden},
		{"verifier adds user", func() error { _, err := f.db.AddUser(ctx, f.ver, "x", "annotator", "", "secret"); return err }, bench.ErrForbidden},
		{"annotator creates project", func() error { _, err := f.db.CreateProject(ctx, f.ann, "q"); return err }, bench.ErrForbidden},
		{"annotator sets role", func() error { _, err := f.db.SetRole(ctx, f.ann, "ann", "lead", ""); return err }, bench.ErrForbidden},
		{"annotator changes settings", func() error { return f.db.UpdateSettings(ctx, f.ann, f.project.ID, bench.DefaultSettings()) }, bench.ErrForbidden},
		{"unknown actor", func() error {
			_, err := f.db.AddUser(ctx, bench.User{ID: 999}, "x", "annotator", "", "secret")
			return err
		}, bench.ErrForbidden},
		{"duplicate name", func() error { _, err := f.db.AddUser(ctx, f.lead, "ann", "annotator", "", "secret"); return err }, bench.ErrConflict},
		{"bad role", func() error { _, err := f.db.AddUser(ctx, f.lead, "x", "boss", "", "secret"); return err }, bench.ErrInvalid},
		{"bad name", func() error { _, err := f.db.AddUser(ctx, f.lead, "a b", "annotator", "", "secret"); return err }, bench.ErrInvalid},
		{"short password", func() error { _, err := f.db.AddUser(ctx, f.lead, "x", "annotator", "", "abc"); return err }, bench.ErrInvalid},
		{"last lead demotes self", func() error { _, err := f.db.SetRole(ctx, f.lead, "lead", "annotator", ""); return err }, bench.ErrForbidden},
		{"duplicate project", func() error { _, err := f.db.CreateProject(ctx, f.lead, "p"); return err }, bench.ErrConflict},
		{"bad settings", func() error {
			s := bench.DefaultSettings()
			s.Round3Panel = 0
			return f.db.UpdateSettings(ctx, f.lead, f.project.ID, s)
		}, bench.ErrInvalid},
		{"lead adds verifier", func() error { _, err := f.db.AddUser(ctx, f.lead, "v2", "verifier", "B", "secret"); return err }, nil},
		{"lead sets role", func() error { _, err := f.db.SetRole(ctx, f.lead, "v2", "verifier", "C"); return err }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	// A role change takes effect at once: the store re-reads the actor's role.
	if _, err := f.db.SetRole(ctx, f.lead, "ann", "lead", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.CreateProject(ctx, f.ann, "by-ann"); err != nil {
		t.Fatalf("promoted annotator should create projects: %v", err)
	}
	if n := auditCount(t, f.db.Path(), "denied:user.create"); n != 3 {
		t.Errorf("denied user.create audited %d times, want 3", n)
	}
}

func TestAuthenticate(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	u, err := f.db.Authenticate(ctx, "ann", "secret")
	if err != nil || u.Role != bench.RoleAnnotator || u.ID != f.ann.ID {
		t.Fatalf("sign in: %+v %v", u, err)
	}
	for _, c := range [][2]string{{"ann", "wrong"}, {"nobody", "secret"}, {"", ""}} {
		if _, err := f.db.Authenticate(ctx, c[0], c[1]); !errors.Is(err, bench.ErrUnauthorized) {
			t.Errorf("sign in %q/%q: got %v, want ErrUnauthorized", c[0], c[1], err)
		}
	}
	if n := auditCount(t, f.db.Path(), "auth.fail"); n != 3 {
		t.Errorf("failed sign-ins audited %d times, want 3", n)
	}
}

func TestPasswordsNeverStoredInClear(t *testing.T) {
	f := newFixture(t)
	sdb, _ := store.RawSQL(f.db.Path())
	defer sdb.Close()
	rows, err := sdb.Query(`SELECT password_hash FROM users UNION ALL SELECT detail FROM audit_log`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		rows.Scan(&s)
		if strings.Contains(s, "secret") {
			t.Fatalf("clear-text password found: %q", s)
		}
	}
}

func TestAuditLogIsAppendOnly(t *testing.T) {
	f := newFixture(t)
	sdb, _ := store.RawSQL(f.db.Path())
	defer sdb.Close()
	for _, q := range []string{`UPDATE audit_log SET action = 'x'`, `DELETE FROM audit_log`} {
		if _, err := sdb.Exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: got %v, want refusal", q, err)
		}
	}
}

// A stored balance list replaces the defaults whole: a target without hop and view
// must not inherit them from the default list it is decoded over.
func TestSettingsBalanceReplacesDefaults(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	s := f.project.Settings
	s.Balance = []bench.BalanceTarget{{Kind: "judgment", Count: 1}}
	if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
	p, err := f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if err != nil {
		t.Fatal(err)
	}
	if want := s.Balance; !slices.Equal(p.Settings.Balance, want) {
		t.Errorf("balance read back as %+v, want %+v", p.Settings.Balance, want)
	}
	// An emptied list stays empty: no targets, not the defaults again.
	s.Balance = nil
	if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
	if p, _ = f.db.ProjectByName(ctx, bench.Owner(), f.project.Name); len(p.Settings.Balance) != 0 {
		t.Errorf("an emptied balance list read back as %+v", p.Settings.Balance)
	}
}

// A long read (a dashboard, an agreement table) holds a snapshot but not the write
// lock: saves go through meanwhile, with no busy wait.
func TestReadsDoNotBlockWrites(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var werr error
	err := f.db.HoldRead(ctx, func() {
		_, werr = f.db.AddUser(ctx, f.lead, "late", bench.RoleAnnotator, "", "secret-pass")
	})
	if err != nil || werr != nil {
		t.Fatalf("read: %v, write during the read: %v", err, werr)
	}
	if _, err := f.db.UserByName(ctx, bench.Owner(), "late"); err != nil {
		t.Errorf("the write made during the read is not visible after it: %v", err)
	}
}

// submitReview is db.SubmitReview where an approval that judges nothing judges
// every criterion of the sample's kind in the round yes, and a rejection for
// "other" without a comment gets one, as the store requires (verify.CheckVerdict).
// Tests of those rules call db.SubmitReview itself.
func submitReview(db *store.DB, ctx context.Context, u bench.User, in bench.ReviewInput) (verify.Outcome, error) {
	if in.Verdict.Decision == verify.DecisionApprove && in.Verdict.Judgements == nil {
		if si, err := db.Sample(ctx, bench.Owner(), in.SampleID); err == nil {
			in.Verdict.Judgements = verify.AllPassed(si.Kind, in.Round)
		}
	}
	if slices.Contains(in.Verdict.Reasons, verify.ReasonOther) && in.Verdict.Comment == "" {
		in.Verdict.Comment = "a problem the criteria do not cover"
	}
	return db.SubmitReview(ctx, u, in)
}

// changedDraft saves a changed draft of the returned sample si as its author (a
// returned sample goes back only changed, annotate.CheckResubmit) and returns the
// version to submit.
func changedDraft(t testing.TB, db *store.DB, author bench.User, si bench.SampleInfo) int {
	t.Helper()
	s := si.Content
	if s.Box != nil {
		b := *s.Box
		b[2]++ // the box, as a reviewer's "box on the answer" asks
		s.Box = &b
	} else {
		s = reworded(s, 1)
	}
	v, err := db.SaveDraft(context.Background(), author, si.ID, si.Version, s)
	if err != nil {
		t.Fatalf("revise %s: %v", si.ID, err)
	}
	return v
}
