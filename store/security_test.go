package store_test

import (
	"bytes"
	"context"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// securityWorld is a project with every role and samples in the states the
// forbidden actions need.
type securityWorld struct {
	db                               *store.DB
	project                          bench.Project
	lead, ann, ann2, ver             bench.User
	vA1, vA2, vB1, vC1, vC2          bench.User
	draft, round1, round2, round3    string // ann's samples
	leads                            string // the lead's own sample, in round 1
	round3Rev                        int
	round2Rev                        int
	imageDir                         string
	password, wrongPassword, badName string
}

// Canary passwords: strings that occur nowhere else, so that finding one in the
// database files means a password was written in clear.
const (
	canaryPassword = "Canary-pw-7Qx4!"
	canaryWrong    = "Wrong-canary-9Zk2?"
)

func newSecurityWorld(t *testing.T) *securityWorld {
	t.Helper()
	ctx := context.Background()
	f := newFixture(t)
	w := &securityWorld{db: f.db, project: f.project, lead: f.lead, ann: f.ann, ann2: f.ann2, ver: f.ver,
		password: canaryPassword, wrongPassword: canaryWrong}
	for _, v := range []struct {
		dst         *bench.User
		name, group string
	}{{&w.vA1, "vA1", "A"}, {&w.vA2, "vA2", "A"}, {&w.vB1, "vB1", "B"}, {&w.vC1, "vC1", "C"}, {&w.vC2, "vC2", "C"}} {
		u, err := f.db.AddUser(ctx, f.lead, v.name, bench.RoleVerifier, v.group, canaryPassword)
		if err != nil {
			t.Fatal(err)
		}
		*v.dst = u
	}
	w.imageDir = t.TempDir()
	writeFile(t, filepath.Join(w.imageDir, "0001-office-1", "a.jpg"), encodeJPEG(t, 64, 48, color.RGBA{1, 2, 3, 255}))
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, w.imageDir, nil); err != nil {
		t.Fatal(err)
	}
	create := func(author bench.User, id string, submit bool) bench.SampleInfo {
		si, err := f.db.CreateSample(ctx, author, f.project.ID, annotate.Sample{ID: id, Kind: annotate.KindJudgment,
			Image: "0001-office-1/a.jpg", Question: "Is the lamp on?", AnswerText: "yes"})
		if err != nil {
			t.Fatal(err)
		}
		if submit {
			if si, err = f.db.Submit(ctx, author, id, si.Version, nil); err != nil {
				t.Fatal(err)
			}
		}
		return si
	}
	review := func(v bench.User, si bench.SampleInfo, round int) {
		t.Helper()
		if _, err := submitReview(f.db, ctx, v, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
			t.Fatal(err)
		}
	}
	w.draft = create(f.ann, "draft", false).ID
	w.round1 = create(f.ann, "r1", true).ID
	r2 := create(f.ann, "r2", true)
	review(w.vA1, r2, 1)
	w.round2, w.round2Rev = r2.ID, r2.Revision
	r3 := create(f.ann, "r3", true)
	review(w.vA1, r3, 1)
	review(w.vB1, r3, 2)
	review(w.vC1, r3, 3) // round 3 open: one vote of three
	w.round3, w.round3Rev = r3.ID, r3.Revision
	w.leads = create(f.lead, "leads", true).ID
	return w
}

// TestSecurityForbiddenActions calls the store directly as each role and tries what
// that role must not do: every attempt is refused with the right sentinel, changes
// nothing, and (for writes) is audited as denied:<action>.
func TestSecurityForbiddenActions(t *testing.T) {
	ctx := context.Background()
	w := newSecurityWorld(t)
	db := w.db
	judged := verify.Verdict{Decision: verify.DecisionApprove}
	content := annotate.Sample{Kind: annotate.KindJudgment, Image: "0001-office-1/a.jpg", Question: "Is the lamp off?", AnswerText: "no"}
	version := func(id string) int {
		si, err := db.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		return si.Version
	}
	tests := []struct {
		name  string
		do    func() error
		want  error  // the store sentinel
		also  error  // a domain sentinel the refusal must carry too, if any
		audit string // the audit action it must add; "" for refused reads, whose audit is not checked
	}{
		{"lead reviews own sample (self-review)", func() error {
			_, err := submitReview(db, ctx, w.lead, bench.ReviewInput{SampleID: w.leads, Round: 1, BasedOn: 1, Verdict: judged})
			return err
		}, bench.ErrForbidden, verify.ErrSelfReview, "denied:review.submit"},
		{"annotator reviews", func() error {
			_, err := submitReview(db, ctx, w.ann2, bench.ReviewInput{SampleID: w.round1, Round: 1, BasedOn: 1, Verdict: judged})
			return err
		}, bench.ErrForbidden, nil, "denied:review.submit"},
		{"annotator claims a review", func() error { _, err := db.ClaimReview(ctx, w.ann2, w.round1, 1); return err },
			bench.ErrForbidden, nil, "denied:review.claim"},
		{"annotator corrects a sample", func() error {
			_, err := db.Correct(ctx, w.ann2, bench.CorrectionInput{SampleID: w.round1, Round: 1, BasedOn: 1, Content: content, Comment: "mine now"})
			return err
		}, bench.ErrForbidden, nil, "denied:sample.correct"},
		{"annotator opens the review queue", func() error { _, err := db.ReviewQueue(ctx, w.ann, w.project.ID, 0); return err },
			bench.ErrForbidden, nil, "denied:review.queue"},
		{"round 2 by the round-1 verifier's group", func() error {
			_, err := submitReview(db, ctx, w.vA2, bench.ReviewInput{SampleID: w.round2, Round: 2, BasedOn: w.round2Rev, Verdict: judged})
			return err
		}, bench.ErrForbidden, verify.ErrSameGroup, "denied:review.submit"},
		{"round-1 verifier sits on round 3", func() error {
			_, err := submitReview(db, ctx, w.vA1, bench.ReviewInput{SampleID: w.round3, Round: 3, BasedOn: w.round3Rev, Verdict: judged})
			return err
		}, bench.ErrForbidden, verify.ErrAlreadyOnPanel, "denied:review.submit"},
		{"round-3 verifier votes twice", func() error {
			_, err := submitReview(db, ctx, w.vC1, bench.ReviewInput{SampleID: w.round3, Round: 3, BasedOn: w.round3Rev, Verdict: judged})
			return err
		}, bench.ErrForbidden, verify.ErrAlreadyOnPanel, "denied:review.submit"},
		{"verifier adds a user", func() error {
			_, err := db.AddUser(ctx, w.vA1, "mallory", bench.RoleLead, "", canaryPassword)
			return err
		},
			bench.ErrForbidden, nil, "denied:user.create"},
		{"verifier makes itself lead", func() error { _, err := db.SetRole(ctx, w.vA1, "vA1", bench.RoleLead, ""); return err },
			bench.ErrForbidden, nil, "denied:user.role"},
		{"verifier changes another's group", func() error { _, err := db.SetRole(ctx, w.vB1, "vA2", bench.RoleVerifier, "B"); return err },
			bench.ErrForbidden, nil, "denied:user.role"},
		{"verifier claiming to be lead in the User value", func() error {
			forged := w.vA1
			forged.Role = bench.RoleLead
			_, err := db.AddUser(ctx, forged, "mallory", bench.RoleLead, "", canaryPassword)
			return err
		}, bench.ErrForbidden, nil, "denied:user.create"},
		{"annotator creates a project", func() error { _, err := db.CreateProject(ctx, w.ann, "mine"); return err },
			bench.ErrForbidden, nil, "denied:project.create"},
		{"verifier creates a project", func() error { _, err := db.CreateProject(ctx, w.vB1, "mine"); return err },
			bench.ErrForbidden, nil, "denied:project.create"},
		{"annotator changes settings", func() error { return db.UpdateSettings(ctx, w.ann, w.project.ID, bench.DefaultSettings()) },
			bench.ErrForbidden, nil, "denied:project.settings"},
		{"verifier submits someone's draft", func() error { _, err := db.Submit(ctx, w.vA1, w.draft, version(w.draft), nil); return err },
			bench.ErrForbidden, nil, "denied:sample.submit"},
		{"annotator submits another's draft", func() error { _, err := db.Submit(ctx, w.ann2, w.draft, version(w.draft), nil); return err },
			bench.ErrForbidden, nil, "denied:sample.submit"},
		{"annotator edits another's draft", func() error { _, err := db.SaveDraft(ctx, w.ann2, w.draft, version(w.draft), content); return err },
			bench.ErrForbidden, nil, "denied:sample.edit"},
		{"verifier edits a draft", func() error { _, err := db.SaveDraft(ctx, w.vA1, w.draft, version(w.draft), content); return err },
			bench.ErrForbidden, nil, "denied:sample.edit"},
		{"author edits a sample under review", func() error { _, err := db.SaveDraft(ctx, w.ann, w.round1, version(w.round1), content); return err },
			bench.ErrForbidden, nil, "denied:sample.edit"},
		{"annotator withdraws a sample", func() error { return db.Withdraw(ctx, w.ann, w.round1, "mine") },
			bench.ErrForbidden, nil, "denied:sample.withdraw"},
		{"verifier imports images", func() error { _, err := db.ImportImages(ctx, w.vA1, w.project.ID, w.imageDir, nil); return err },
			bench.ErrForbidden, nil, "denied:image.import"},
		{"last lead demotes itself", func() error { _, err := db.SetRole(ctx, w.lead, "lead", bench.RoleAnnotator, ""); return err },
			bench.ErrForbidden, nil, "denied:user.role"},
		{"unknown acting user", func() error {
			_, err := db.CreateProject(ctx, bench.User{ID: 9999, Role: bench.RoleLead}, "ghost")
			return err
		},
			bench.ErrForbidden, nil, "denied:project.create"},
		{"annotator freezes a release", func() error {
			_, err := db.Freeze(ctx, w.ann, bench.FreezeInput{ProjectID: w.project.ID, Name: "sneaky", Version: "1"})
			return err
		}, bench.ErrForbidden, nil, "denied:release.freeze"},
		{"verifier freezes a release", func() error {
			_, err := db.Freeze(ctx, w.vA1, bench.FreezeInput{ProjectID: w.project.ID, Name: "sneaky", Version: "1"})
			return err
		}, bench.ErrForbidden, nil, "denied:release.freeze"},
		{"wrong password", func() error { _, err := db.Authenticate(ctx, "vA1", canaryWrong); return err },
			bench.ErrUnauthorized, nil, "auth.fail"},
		{"unknown user signs in", func() error { _, err := db.Authenticate(ctx, "nobody", canaryPassword); return err },
			bench.ErrUnauthorized, nil, "auth.fail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, err := db.AuditCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			counts, _ := db.StatusCounts(ctx, bench.Owner(), w.project.ID)
			err = tt.do()
			if !errors.Is(err, tt.want) || tt.also != nil && !errors.Is(err, tt.also) {
				t.Fatalf("got %v, want %v (and %v)", err, tt.want, tt.also)
			}
			after, err := db.AuditCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for action, n := range after {
				if tt.audit == "" {
					break
				}
				want := before[action]
				if action == tt.audit {
					want++
				}
				if n != want {
					t.Errorf("audit %s: %d rows, want %d", action, n, want)
				}
			}
			if tt.audit != "" && after[tt.audit] != before[tt.audit]+1 {
				t.Errorf("audited %d times as %s, want once", after[tt.audit]-before[tt.audit], tt.audit)
			}
			if now, _ := db.StatusCounts(ctx, bench.Owner(), w.project.ID); !mapsEqual(now, counts) {
				t.Errorf("a refused action changed the samples: %v → %v", counts, now)
			}
		})
	}
	// Nothing was done by the refused attempts.
	if _, err := db.UserByName(ctx, bench.Owner(), "mallory"); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("mallory exists: %v", err)
	}
	if u, _ := db.UserByName(ctx, bench.Owner(), "vA1"); u.Role != bench.RoleVerifier {
		t.Errorf("vA1 became %s", u.Role)
	}
	if ps, _ := db.Projects(ctx, bench.Owner()); len(ps) != 1 {
		t.Errorf("projects %+v, want only p", ps)
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestSecurityRound3IsBlind: while round 3 is open, no one but the voter learns a
// round-3 vote, neither from Reviews nor from History; once it closes, all can.
func TestSecurityRound3IsBlind(t *testing.T) {
	ctx := context.Background()
	w := newSecurityWorld(t)
	db := w.db
	sees := func(actor bench.User) (inReviews, inHistory bool) {
		t.Helper()
		rs, err := db.Reviews(ctx, actor, w.round3)
		if err != nil {
			t.Fatal(err)
		}
		inReviews = slices.ContainsFunc(rs, func(r bench.ReviewRecord) bool { return r.Round == 3 && r.VerifierID == w.vC1.ID })
		hs, err := db.History(ctx, actor, w.round3)
		if err != nil {
			t.Fatal(err)
		}
		inHistory = slices.ContainsFunc(hs, func(e bench.Event) bool {
			return strings.Contains(e.Detail, "round 3") && (e.Actor == "vC1" || e.Action == "review.approve")
		})
		return inReviews, inHistory
	}
	for _, u := range []bench.User{w.vC2, w.vA2, w.lead, w.ann, w.vA1, w.vB1} {
		if r, h := sees(u); r || h {
			t.Errorf("%s sees vC1's open round-3 vote (reviews %v, history %v)", u.Name, r, h)
		}
	}
	if r, h := sees(w.vC1); !r || !h {
		t.Errorf("vC1 does not see its own vote (reviews %v, history %v)", r, h)
	}
	// Only a lead learns that a vote was cast (not whose, not what); a verifier
	// would learn "one approval so far", since a reject closes the round openly.
	hs, _ := db.History(ctx, w.lead, w.round3)
	if !slices.ContainsFunc(hs, func(e bench.Event) bool { return e.Action == "review.vote" }) {
		t.Errorf("the lead's history should say a vote was cast without whose: %+v", hs)
	}
	for _, u := range []bench.User{w.vC2, w.ann} {
		hs, _ := db.History(ctx, u, w.round3)
		if slices.ContainsFunc(hs, func(e bench.Event) bool {
			return e.Action == "review.vote" || strings.Contains(e.Detail, "round 3 revision")
		}) {
			t.Errorf("%s learns how many round-3 votes were cast: %+v", u.Name, hs)
		}
	}
	if _, err := db.History(ctx, bench.User{}, w.round3); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("history without signing in: %v, want ErrForbidden", err)
	}
	// Two more approvals close round 3: the votes are open to all.
	for _, v := range []bench.User{w.vC2, w.vA2} {
		if _, err := submitReview(db, ctx, v, bench.ReviewInput{SampleID: w.round3, Round: 3, BasedOn: w.round3Rev,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []bench.User{w.vA2, w.lead, w.ann} {
		if r, h := sees(u); !r || !h {
			t.Errorf("after round 3 closed, %s still does not see vC1's vote (reviews %v, history %v)", u.Name, r, h)
		}
	}
}

// TestSecurityPasswordsNeverInClear signs in, fails to sign in and refuses things
// with canary passwords, then looks for them in every byte of the database files
// (main file, WAL and shared memory) and in the errors returned.
func TestSecurityPasswordsNeverInClear(t *testing.T) {
	ctx := context.Background()
	w := newSecurityWorld(t)
	db := w.db
	var errs []error
	if _, err := db.Authenticate(ctx, "vA1", canaryPassword); err != nil {
		t.Fatalf("sign in with the right password: %v", err)
	}
	_, err := db.Authenticate(ctx, "vA1", canaryWrong)
	errs = append(errs, err)
	_, err = db.Authenticate(ctx, "nobody", canaryPassword)
	errs = append(errs, err)
	_, err = db.AddUser(ctx, w.ann, "eve", bench.RoleAnnotator, "", canaryPassword)
	errs = append(errs, err)
	_, err = db.AddUser(ctx, w.lead, "eve", bench.RoleAnnotator, "", "abc") // too short
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Fatal("an attempt that should fail succeeded")
		}
		if strings.Contains(err.Error(), canaryPassword) || strings.Contains(err.Error(), "abc") {
			t.Errorf("error shows a password: %v", err)
		}
	}
	if db.Postgres() {
		return // the server's files are not this process's to read; the errors above hold
	}
	files, _ := filepath.Glob(db.Path() + "*")
	if len(files) < 2 {
		t.Fatalf("database files %v: want the main file and its WAL", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, pw := range []string{canaryPassword, canaryWrong} {
			if bytes.Contains(data, []byte(pw)) {
				t.Errorf("%s holds the password %q in clear", filepath.Base(f), pw)
			}
		}
	}
	// The scan must be able to see plain text: the failed sign-in of "nobody" is
	// audited under that name.
	data, _ := os.ReadFile(files[0])
	wal, _ := os.ReadFile(db.Path() + "-wal")
	if !bytes.Contains(append(data, wal...), []byte("nobody")) {
		t.Error("the scan does not find the audited user name either: it cannot see plain text")
	}
}
