package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// memberFixture is a project p with everything a stranger could reach for (a
// frozen release, an accepted sample, one in round 1, a draft, images) and a
// second project q of strangers: a lead, an annotator and a verifier who belong to
// q only.
type memberFixture struct {
	relFixture
	q                  bench.Project
	slead, sann, sver  bench.User
	accepted, inReview bench.SampleInfo
	draft              bench.SampleInfo
	rel                bench.Release
	image              bench.Image
}

func newMemberFixture(t *testing.T) memberFixture {
	t.Helper()
	ctx := context.Background()
	f := memberFixture{relFixture: newRelFixture(t)}
	f.accepted = f.accept(t, relHop("hq-1", "0001-office-1/a.jpg", "Which object is closest to the camera?"))
	var err error
	if f.rel, err = f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "bench", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	f.inReview = f.submit(t, relHop("hq-2", "0001-office-1/b.jpg", "Which object is left of the mug?"))
	if f.draft, err = f.db.CreateSample(ctx, f.ann, f.project.ID, relHop("hq-3", "misc/e.jpg", "Which object is under the table?")); err != nil {
		t.Fatal(err)
	}
	if f.image, err = f.db.ImageByPath(ctx, f.lead, f.project.ID, "0001-office-1/a.jpg"); err != nil {
		t.Fatal(err)
	}
	// Project q: made by the lead, who hands it to its own lead and leaves it.
	if f.q, err = f.db.CreateProject(ctx, f.lead, "q"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		dst               *bench.User
		name, role, group string
	}{{&f.slead, "slead", bench.RoleLead, ""}, {&f.sann, "sann", bench.RoleAnnotator, ""}, {&f.sver, "sver", bench.RoleVerifier, "C"}} {
		if *s.dst, err = f.db.AddUserToProject(ctx, f.lead, f.q.ID, s.name, s.role, s.group, "secret"); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.db.RemoveMember(ctx, f.lead, f.q.ID, f.lead.Name); err != nil {
		t.Fatal(err)
	}
	return f
}

// dbRows is every row of every table but the audit log, as text: what "nothing
// changed" compares.
func dbRows(t *testing.T, db *store.DB) string {
	t.Helper()
	sdb, names := rawTables(t, db.Path())
	var b strings.Builder
	for _, name := range names {
		if name == "audit_log" || strings.HasPrefix(name, "sqlite_") || strings.HasPrefix(name, "sample_words_") {
			continue
		}
		rows, err := sdb.Query(`SELECT * FROM ` + name)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprint(vals...))
		}
		rows.Close()
		slices.Sort(lines)
		fmt.Fprintf(&b, "%s\n%s\n", name, strings.Join(lines, "\n"))
	}
	return b.String()
}

// TestStrangersAreRefused: a member of another project — leads too — can neither
// read nor change anything of project p, by its id or by the id of its samples,
// releases, hard subsets and images. Each attempt is refused with ErrForbidden and
// audited once, and nothing changes.
func TestStrangersAreRefused(t *testing.T) {
	ctx := context.Background()
	f := newMemberFixture(t)
	pid, db := f.project.ID, f.db
	ref := fmt.Sprint(f.rel.ID)
	refused := func(r bench.SelectionResult, err error) error { // a selection refuses per sample
		if err != nil || len(r.Refused) != 1 || len(r.Done) != 0 {
			return fmt.Errorf("selection: %+v, %v", r, err)
		}
		return fmt.Errorf("%w: %s", bench.ErrForbidden, r.Refused[0].Reason)
	}
	cases := []struct {
		name string
		do   func() error
	}{
		// Reads, by the project's id.
		{"the project by name", func() error { _, err := db.ProjectByName(ctx, f.sann, f.project.Name); return err }},
		{"its images", func() error { _, err := db.Images(ctx, f.sann, pid, 0, 10); return err }},
		{"its image count", func() error { _, err := db.CountImages(ctx, f.sann, pid); return err }},
		{"an image by path", func() error { _, err := db.ImageByPath(ctx, f.sann, pid, f.image.RelPath); return err }},
		{"an image by hash", func() error { _, err := db.ImageBySHA256(ctx, f.sann, pid, f.image.SHA256); return err }},
		{"images without samples", func() error { _, err := db.ImagesWithoutSamples(ctx, f.sann, pid, 0, 10); return err }},
		{"their count", func() error { _, err := db.CountImagesWithoutSamples(ctx, f.sann, pid); return err }},
		{"its samples", func() error { _, err := db.Samples(ctx, f.sann, pid, bench.SampleFilter{}, 0, 10); return err }},
		{"their count by a lead", func() error { _, err := db.CountSamples(ctx, f.slead, pid, bench.SampleFilter{}); return err }},
		{"its states", func() error { _, err := db.StatusCounts(ctx, f.sann, pid); return err }},
		{"its releases", func() error { _, err := db.Releases(ctx, f.sann, pid); return err }},
		{"a release by name", func() error { _, err := db.ReleaseByRef(ctx, f.sann, 0, "bench@1"); return err }},
		{"a release by id", func() error { _, err := db.ReleaseByRef(ctx, f.sann, 0, ref); return err }},
		{"its members", func() error { _, err := db.Members(ctx, f.slead, pid); return err }},
		{"its groups", func() error { _, err := db.GroupSettings(ctx, f.slead, pid); return err }},
		{"its history", func() error { _, err := db.ProjectHistory(ctx, f.slead, pid); return err }},
		{"its review queue", func() error { _, err := db.ReviewQueue(ctx, f.sver, pid, 1); return err }},
		{"its dashboard", func() error { _, err := db.Dashboard(ctx, f.slead, pid); return err }},
		{"its agreement", func() error { _, err := db.Agreement(ctx, f.slead, pid); return err }},
		{"its audit", func() error { _, err := db.Audit(ctx, f.slead, pid); return err }},
		{"its search", func() error { _, err := db.SearchSamples(ctx, f.slead, pid, bench.SampleQuery{}); return err }},
		{"its batches", func() error { _, err := db.ValidationBatches(ctx, f.slead, pid); return err }},
		{"its candidates", func() error { _, err := db.AugmentCandidates(ctx, f.sann, pid, bench.CandidateFilter{}); return err }},
		// Reads, by a sample's, a release's or an image's id.
		{"a sample", func() error { _, err := db.Sample(ctx, f.sann, f.draft.ID); return err }},
		{"its revisions", func() error { _, err := db.SampleRevisions(ctx, f.sann, f.accepted.ID); return err }},
		{"its reviews", func() error { _, err := db.Reviews(ctx, f.sver, f.accepted.ID); return err }},
		{"its timeline", func() error { _, err := db.History(ctx, f.slead, f.accepted.ID); return err }},
		{"its lineage", func() error { _, _, err := db.SampleLineage(ctx, f.sann, f.accepted.ID); return err }},
		{"a release's items", func() error { _, err := db.ReleaseItems(ctx, f.sann, f.rel.ID); return err }},
		{"a release's models", func() error { _, err := db.Models(ctx, f.slead, ref); return err }},
		{"a release's scores", func() error { _, err := db.Score(ctx, f.slead, ref, nil, score.Options{}); return err }},
		{"a release's hard subsets", func() error { _, err := db.HardSubsets(ctx, f.slead, ref); return err }},
		{"a release's human baseline", func() error { _, _, err := db.HumanBaselineOf(ctx, f.sann, ref); return err }},
		{"an image's preview", func() error { _, err := db.ImageFile(ctx, f.sann, f.image.SHA256, bench.ImageThumb); return err }},
		// Writes.
		{"write a sample", func() error {
			_, err := db.CreateSample(ctx, f.sann, pid, relHop("x-1", f.image.RelPath, "Which object is right of the door?"))
			return err
		}},
		{"import samples", func() error {
			_, err := db.ImportSamples(ctx, f.sann, pid, []annotate.Imported{{Line: 1, Sample: relHop("x-2", f.image.RelPath, "Which object is behind the lamp?")}}, bench.ImportSamplesOptions{})
			return err
		}},
		{"import images", func() error { _, err := db.ImportImages(ctx, f.sann, pid, f.images, nil); return err }},
		{"claim a seat", func() error { _, err := db.ClaimReview(ctx, f.sver, f.inReview.ID, 1); return err }},
		{"review", func() error {
			_, err := db.SubmitReview(ctx, f.sver, bench.ReviewInput{SampleID: f.inReview.ID, Round: 1, BasedOn: f.inReview.Revision,
				Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(annotate.KindHopQA, 1)}})
			return err
		}},
		{"correct", func() error {
			_, err := db.Correct(ctx, f.sver, bench.CorrectionInput{SampleID: f.inReview.ID, Round: 1, BasedOn: f.inReview.Revision,
				Content: f.inReview.Content, Comment: "mine now"})
			return err
		}},
		{"withdraw", func() error { return db.Withdraw(ctx, f.slead, f.inReview.ID, "mine now") }},
		{"withdraw a selection", func() error {
			return refused(db.WithdrawSamples(ctx, f.slead, []string{f.inReview.ID}, "mine now"))
		}},
		{"reassign a draft", func() error {
			return refused(db.ReassignDrafts(ctx, f.slead, []string{f.draft.ID}, f.sann.Name, "mine now"))
		}},
		{"change a setting", func() error {
			_, err := db.SetSettings(ctx, f.slead, pid, map[string]string{"round3_panel": "1"})
			return err
		}},
		{"freeze", func() error {
			_, err := db.Freeze(ctx, f.slead, bench.FreezeInput{ProjectID: pid, Name: "stolen", Version: "1"})
			return err
		}},
		{"draw a human baseline", func() error { _, err := db.DrawHumanBaseline(ctx, f.slead, ref, 1, 1); return err }},
		{"export a release", func() error {
			_, err := db.Export(ctx, f.slead, bench.ExportInput{Release: ref, Format: "native", OutDir: t.TempDir()}, nil)
			return err
		}},
		{"join it", func() error { return db.AddMember(ctx, f.slead, pid, f.slead.Name) }},
		{"take its lead off it", func() error { return db.RemoveMember(ctx, f.slead, pid, f.lead.Name) }},
		{"add an account to it", func() error {
			_, err := db.AddUserToProject(ctx, f.slead, pid, "spy", bench.RoleAnnotator, "", "secret")
			return err
		}},
	}
	for _, c := range cases {
		before, denied := dbRows(t, db), storetest.CountDenied(t, db)
		err := c.do()
		// Refused as a stranger to the project; or, named by a sample's, release's
		// or image's id, answered as a missing one is (TestStrangersIdsReadAsMissing).
		asStranger := errors.Is(err, bench.ErrForbidden) && (errors.Is(err, verify.ErrNotMember) || strings.Contains(bench.Message(err), "not a member"))
		asMissing := !errors.Is(err, bench.ErrForbidden) && (errors.Is(err, bench.ErrNotFound) || errors.Is(err, bench.ErrImageMissing)) ||
			strings.Contains(err.Error(), `Sample "`+f.inReview.ID+`": not found`) || strings.Contains(err.Error(), "there is no such sample") // a selection's refusal
		if !asStranger && !asMissing {
			t.Errorf("%s: got %v, want a refusal for not being a member", c.name, err)
		}
		if n := storetest.CountDenied(t, db) - denied; n != 1 {
			t.Errorf("%s: %d refusals audited, want 1", c.name, n)
		}
		if after := dbRows(t, db); after != before {
			t.Errorf("%s: the database changed", c.name)
		}
	}
	// What they may have: their own project, and nothing of p in their lists.
	ps, err := db.Projects(ctx, f.slead)
	if err != nil || len(ps) != 1 || ps[0].ID != f.q.ID {
		t.Errorf("slead's projects: %+v, %v; want q only", ps, err)
	}
	us, err := db.Users(ctx, f.sann)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, u := range us {
		names = append(names, u.Name)
	}
	if !slices.Equal(names, []string{"sann", "slead", "sver"}) {
		t.Errorf("sann sees the accounts %v, want q's members only", names)
	}
	if _, err := db.UserByName(ctx, f.sann, f.ann.Name); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("sann looks up ann of p: %v, want not found", err)
	}
}

// TestMembership: who joins a project, who may add and remove members, and the
// rule that a project keeps a lead.
func TestMembership(t *testing.T) {
	ctx := context.Background()
	f := newMemberFixture(t)
	db, pid := f.db, f.project.ID
	members := func(id int64) []string {
		t.Helper()
		us, err := db.Members(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, u := range us {
			out = append(out, u.Name)
		}
		return out
	}
	if got := members(f.q.ID); !slices.Equal(got, []string{"sann", "slead", "sver"}) {
		t.Fatalf("q's members %v", got)
	}
	// AddUser: every project of the lead; AddUserToProject: that one.
	if _, err := db.AddUser(ctx, f.slead, "snew", bench.RoleAnnotator, "", "secret"); err != nil {
		t.Fatal(err)
	}
	if got := members(f.q.ID); !slices.Contains(got, "snew") || slices.Contains(members(pid), "snew") {
		t.Errorf("an account slead adds joins %v / %v, want q only", got, members(pid))
	}
	steps := []struct {
		name string
		do   func() error
		want error // nil: done
	}{
		{"an annotator adds a member", func() error { return db.AddMember(ctx, f.ann, pid, "ann2") }, bench.ErrForbidden},
		{"a lead adds an account of a project they are not in", func() error { return db.AddMember(ctx, f.lead, pid, "sann") }, bench.ErrNotFound},
		{"a lead adds a member twice", func() error { return db.AddMember(ctx, f.lead, pid, "ann") }, bench.ErrConflict},
		{"slead adds their annotator to q again", func() error { return db.AddMember(ctx, f.slead, f.q.ID, "sann") }, bench.ErrConflict},
		{"the only lead of q leaves it", func() error { return db.RemoveMember(ctx, f.slead, f.q.ID, "slead") }, verify.ErrLastLead},
		{"the only lead of q is demoted", func() error { _, err := db.SetRole(ctx, f.slead, "slead", bench.RoleVerifier, ""); return err }, verify.ErrLastLead},
		{"a lead removes a verifier", func() error { return db.RemoveMember(ctx, f.slead, f.q.ID, "sver") }, nil},
		{"a non-member is removed", func() error { return db.RemoveMember(ctx, f.slead, f.q.ID, "sver") }, bench.ErrNotFound},
		{"sver, in no project now, is seen by the lead and added back", func() error { return db.AddMember(ctx, f.lead, pid, "sver") }, nil},
	}
	for _, s := range steps {
		err := s.do()
		if s.want == nil && err != nil || s.want != nil && !errors.Is(err, s.want) {
			t.Errorf("%s: got %v, want %v", s.name, err, s.want)
		}
	}
	if got := members(pid); !slices.Contains(got, "sver") {
		t.Errorf("p's members %v lack sver", got)
	}
	// A member who leaves loses their claims on the project's samples.
	if _, err := db.ClaimReview(ctx, f.vs["a1"], f.inReview.ID, 1); err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveMember(ctx, f.lead, pid, "a1"); err != nil {
		t.Fatal(err)
	}
	q, err := db.ReviewQueue(ctx, f.vs["b1"], pid, 1)
	if err != nil || !slices.ContainsFunc(q, func(it bench.QueueItem) bool { return it.SampleID == f.inReview.ID }) {
		t.Errorf("after a1 left, b1's queue %+v (%v) does not offer the seat a1 held", q, err)
	}
	if _, err := db.Sample(ctx, f.vs["a1"], f.inReview.ID); !errors.Is(err, bench.ErrNotFound) { // as a missing one
		t.Errorf("a1 reads a sample of the project they left: %v", err)
	}
	// The membership changes are in the project's history.
	h, err := db.ProjectHistory(ctx, f.lead, pid)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, e := range h {
		if e.Action == "project.member" {
			said = append(said, e.Detail)
		}
	}
	if !slices.Equal(said, []string{"added sver", "removed a1 (1 claim ended)"}) {
		t.Errorf("the history says %q", said)
	}
}

// TestMembersBackfill: a database written before project members existed keeps
// working as it did: migration 18 makes every account a member of every project.
func TestMembersBackfill(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	p2, err := f.db.CreateProject(ctx, f.lead, "second")
	if err != nil {
		t.Fatal(err)
	}
	path := f.db.Path()
	f.db.Close()
	raw, err := store.RawSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	// Version 17: no member lists (the table is dropped, as it was not there).
	for _, q := range []string{`DROP TABLE project_members`, windBack(path)} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, u := range []bench.User{f.lead, f.ann, f.ann2, f.ver} {
		ps, err := db.Projects(ctx, u)
		if err != nil || len(ps) != 2 {
			t.Errorf("%s's projects after the migration: %d, %v; want both", u.Name, len(ps), err)
		}
	}
	if _, err := db.StatusCounts(ctx, f.ann, p2.ID); err != nil {
		t.Errorf("ann reads the second project: %v", err)
	}
}

// windBack is the statement that sets a database's schema version to 17.
func windBack(path string) string {
	if store.IsPostgresURL(path) {
		return `UPDATE bw_schema_version SET version = 17`
	}
	return `PRAGMA user_version = 17`
}

// A lead reads the refusals of the people they share a project with (and of no
// account), not what another project's people were refused.
func TestRefusalsStayInTheProject(t *testing.T) {
	ctx := context.Background()
	f := newMemberFixture(t)
	// sann (project q) reaches into p: refused and audited under sann's name.
	if _, err := f.db.Samples(ctx, f.sann, f.project.ID, bench.SampleFilter{}, 0, 10); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("a stranger read p's samples: %v", err)
	}
	// ann (project p) tries a lead's action: refused under ann's name.
	if _, err := f.db.AddUser(ctx, f.ann, "eve", bench.RoleAnnotator, "", "secret-long-enough"); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("an annotator added an account: %v", err)
	}
	names := func(lead bench.User) map[string]bool {
		rs, err := f.db.Refusals(ctx, lead, 100)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, r := range rs {
			out[r.Actor] = true
		}
		return out
	}
	if got := names(f.lead); !got["ann"] || got["sann"] {
		t.Errorf("p's lead reads refusals of %v; want ann's and not sann's", got)
	}
	if got := names(f.slead); !got["sann"] || got["ann"] {
		t.Errorf("q's lead reads refusals of %v; want sann's and not ann's", got)
	}
	// sann tries to change q's settings: q's history says so, p's does not.
	if err := f.db.UpdateSettings(ctx, f.sann, f.q.ID, bench.DefaultSettings()); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("an annotator changed settings: %v", err)
	}
	tried := func(lead bench.User, project int64) bool {
		h, err := f.db.ProjectHistory(ctx, lead, project)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(h, func(e bench.Event) bool { return e.Action == "denied:project.settings" && e.Actor == "sann" })
	}
	if !tried(f.slead, f.q.ID) || tried(f.lead, f.project.ID) {
		t.Errorf("sann's refused settings change: in q's history %v, in p's %v; want true, false", tried(f.slead, f.q.ID), tried(f.lead, f.project.ID))
	}
}

// TestOnlyMembersAreVerifiersOfTheProject: an account of another project of the
// same lead — a verifier with reviews there — is neither a row of the project's
// Dashboard → Verifiers table nor a verifier group in its settings, and naming it
// in a group change is refused without touching its group in its own project
// (issue 27 item 14). A verifier of both projects changes group in one only.
func TestOnlyMembersAreVerifiersOfTheProject(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	q, err := f.db.CreateProject(ctx, f.lead, "q") // the lead stays lead of both
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.ImportImages(ctx, f.lead, q.ID, f.images, nil); err != nil {
		t.Fatal(err)
	}
	qann, err := f.db.AddUserToProject(ctx, f.lead, q.ID, "qann", bench.RoleAnnotator, "", "secret")
	if err != nil {
		t.Fatal(err)
	}
	qver, err := f.db.AddUserToProject(ctx, f.lead, q.ID, "qver", bench.RoleVerifier, "C", "secret")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.AddMember(ctx, f.lead, q.ID, "a1"); err != nil { // a1 verifies in both, group A here
		t.Fatal(err)
	}
	si, err := f.db.CreateSample(ctx, qann, q.ID, relHop("q-1", "0001-office-1/a.jpg", "Which object is closest to the camera?"))
	if err != nil {
		t.Fatal(err)
	}
	if si, err = f.db.Submit(ctx, qann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := submitReview(f.db, ctx, qver, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision,
		Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
		t.Fatal(err)
	}

	d, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, v := range d.Verifiers {
		rows = append(rows, v.Name)
	}
	if want := []string{"a1", "a2", "b1", "b2", "c1", "ver"}; !slices.Equal(rows, want) {
		t.Errorf("the project's Verifiers table lists %q, want its members %q", rows, want)
	}
	gs, err := f.db.GroupSettings(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, g := range gs {
		keys = append(keys, g.Key)
	}
	if slices.Contains(keys, "group.qver") || slices.Contains(keys, "group.qann") {
		t.Errorf("the project's verifier groups name another project's accounts: %q", keys)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"group.qver": "B"}); !errors.Is(err, bench.ErrInvalid) ||
		!strings.Contains(err.Error(), `the project has no member named "qver"`) {
		t.Errorf("grouping another project's verifier: %v, want a refusal that names no member qver", err)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"group.a1": "B"}); err != nil {
		t.Fatal(err)
	}
	groupIn := func(p int64, name string) string {
		t.Helper()
		ms, err := f.db.Members(ctx, f.lead, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Name == name {
				return m.Group
			}
		}
		return "(not a member)"
	}
	if got := groupIn(q.ID, "qver"); got != "C" {
		t.Errorf("qver's group in its own project became %q", got)
	}
	if p, q := groupIn(f.project.ID, "a1"), groupIn(q.ID, "a1"); p != "B" || q != "A" {
		t.Errorf("a1 regrouped in one project: group %q there, %q in the other; want B and A", p, q)
	}
}
