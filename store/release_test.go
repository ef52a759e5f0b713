package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// relFixture is a project with verifiers in three groups and imported images, where
// samples can be driven to acceptance.
type relFixture struct {
	fixture
	vs     map[string]bench.User
	images string // the imported folder
}

// relImages are the fixture's image files: path → colour (distinct content).
var relImages = map[string]color.RGBA{
	"0001-office-1/a.jpg":  {200, 0, 0, 255},
	"0001-office-1/b.jpg":  {0, 200, 0, 255},
	"0002-kitchen-1/c.jpg": {0, 0, 200, 255},
	"0002-kitchen-1/d.jpg": {200, 200, 0, 255},
	"misc/e.jpg":           {0, 200, 200, 255},
}

func newRelFixture(t *testing.T) relFixture {
	t.Helper()
	ctx := context.Background()
	f := relFixture{fixture: newFixture(t), vs: map[string]bench.User{}, images: t.TempDir()}
	for _, v := range []struct{ name, group string }{{"a1", "A"}, {"a2", "A"}, {"b1", "B"}, {"b2", "B"}, {"c1", "C"}} {
		u, err := f.db.AddUser(ctx, f.lead, v.name, bench.RoleVerifier, v.group, "secret")
		if err != nil {
			t.Fatal(err)
		}
		f.vs[v.name] = u
	}
	for p, c := range relImages {
		writeFile(t, filepath.Join(f.images, filepath.FromSlash(p)), encodeJPEG(t, 64, 48, c))
	}
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, f.images, nil); err != nil {
		t.Fatal(err)
	}
	return f
}

// relHop is a valid hop question about image.
func relHop(id, image, question string) annotate.Sample {
	s := hopSample(image)
	s.ID, s.Question = id, question
	s.QuestionTag = "<REL>" + question + "</REL>" // the one category, tagged
	return s
}

// submit creates s by the annotator and submits it.
func (f relFixture) submit(t *testing.T, s annotate.Sample) bench.SampleInfo {
	t.Helper()
	ctx := context.Background()
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	if si, err = f.db.Submit(ctx, f.ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	return si
}

// review approves si in the rounds given, as the fixture's verifiers would: round 1
// a1, round 2 b1, round 3 a2, b2, c1 in that order.
func (f relFixture) review(t *testing.T, si bench.SampleInfo, reviews int) {
	t.Helper()
	order := []struct {
		round int
		who   string
	}{{1, "a1"}, {2, "b1"}, {3, "a2"}, {3, "b2"}, {3, "c1"}}
	for _, r := range order[:reviews] {
		if _, err := submitReview(f.db, context.Background(), f.vs[r.who], bench.ReviewInput{SampleID: si.ID, Round: r.round,
			BasedOn: si.Revision, Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
			t.Fatalf("%s round %d by %s: %v", si.ID, r.round, r.who, err)
		}
	}
}

// accept creates, submits and approves s through all three rounds.
func (f relFixture) accept(t *testing.T, s annotate.Sample) bench.SampleInfo {
	t.Helper()
	si := f.submit(t, s)
	f.review(t, si, 5)
	got, err := f.db.Sample(context.Background(), bench.Owner(), si.ID)
	if err != nil || got.Status != verify.StateAccepted {
		t.Fatalf("%s: %s, %v", si.ID, got.Status, err)
	}
	return got
}

// acceptSome accepts one hop question per image, and a judgment on the first.
func (f relFixture) acceptSome(t *testing.T) []bench.SampleInfo {
	t.Helper()
	var out []bench.SampleInfo
	paths := make([]string, 0, len(relImages))
	for p := range relImages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for i, p := range paths {
		out = append(out, f.accept(t, relHop(fmt.Sprintf("hq-%02d", i), p, "Which object is closest to the camera?")))
	}
	out = append(out, f.accept(t, annotate.Sample{ID: "yn-01", Kind: annotate.KindJudgment, Image: paths[0],
		Question: "Is the mug left of the lamp?", AnswerText: "no"}))
	return out
}

// relRaw opens the database file behind the store's back, as a tamperer would.
func relRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := store.RawSQL(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// setBalance replaces the project's balance targets.
func (f relFixture) setBalance(t *testing.T, targets ...bench.BalanceTarget) {
	t.Helper()
	s := f.project.Settings
	s.Balance = targets
	if err := f.db.UpdateSettings(context.Background(), f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
}

func TestFreezeRecordsRevisionsAndLooksUp(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.setBalance(t)
	accepted := f.acceptSome(t)
	f.submit(t, relHop("hq-open", "misc/e.jpg", "Which object is farthest from the camera?")) // in round 1: not released

	rel, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "office-bench", Version: "1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if rel.Ref() != "office-bench@1.0" || rel.Samples != len(accepted) || rel.CreatedBy != "lead" || rel.Project != "p" ||
		rel.Split != nil || rel.SplitCounts[""] != len(accepted) {
		t.Errorf("release %+v", rel)
	}
	items, err := f.db.ReleaseItems(ctx, bench.Owner(), rel.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(accepted) {
		t.Fatalf("%d items, want %d", len(items), len(accepted))
	}
	for _, si := range accepted {
		i := slices.IndexFunc(items, func(it bench.ReleaseItem) bool { return it.SampleID == si.ID })
		if i < 0 || items[i].RevisionID != si.RevisionID || items[i].Revision != si.Revision || items[i].Content.Question != si.Content.Question {
			t.Errorf("%s: release holds %+v, want revision %d (id %d)", si.ID, items, si.Revision, si.RevisionID)
		}
		im, _ := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, si.ImagePath)
		if i >= 0 && (items[i].ImageSHA256 != im.SHA256 || items[i].Width != 64 || items[i].Height != 48) {
			t.Errorf("%s: frozen image %+v, imported %+v", si.ID, items[i], im)
		}
	}

	other, err := f.db.CreateProject(ctx, f.lead, "other")
	if err != nil {
		t.Fatal(err)
	}
	lookups := []struct {
		project int64
		ref     string
		want    error
	}{
		{0, "office-bench@1.0", nil},
		{f.project.ID, "office-bench@1.0", nil},
		{0, fmt.Sprint(rel.ID), nil},
		{other.ID, "office-bench@1.0", bench.ErrNotFound},
		{other.ID, fmt.Sprint(rel.ID), bench.ErrNotFound},
		{0, "office-bench@2.0", bench.ErrNotFound},
		{0, "office-bench", bench.ErrInvalid},
	}
	for _, l := range lookups {
		got, err := f.db.ReleaseByRef(ctx, bench.Owner(), l.project, l.ref)
		if l.want == nil && (err != nil || got.ID != rel.ID) || l.want != nil && !errors.Is(err, l.want) {
			t.Errorf("ReleaseByRef(%d, %q) = %d, %v; want %v", l.project, l.ref, got.ID, err, l.want)
		}
	}
	rels, err := f.db.Releases(ctx, bench.Owner(), f.project.ID)
	if err != nil || len(rels) != 1 || rels[0].ID != rel.ID {
		t.Errorf("Releases: %+v %v", rels, err)
	}
	if n := auditCount(t, f.db.Path(), "release.freeze"); n != 1 {
		t.Errorf("freeze audited %d times", n)
	}
}

func TestFreezeRefusals(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.setBalance(t)
	f.acceptSome(t)
	if _, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	in := func(mod func(*bench.FreezeInput)) bench.FreezeInput {
		x := bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "2"}
		mod(&x)
		return x
	}
	tests := []struct {
		name  string
		actor bench.User
		in    bench.FreezeInput
		want  error
		text  string
	}{
		{"annotator", f.ann, in(func(*bench.FreezeInput) {}), bench.ErrForbidden, "only leads may freeze"},
		{"verifier", f.ver, in(func(*bench.FreezeInput) {}), bench.ErrForbidden, "only leads may freeze"},
		{"taken version", f.lead, in(func(x *bench.FreezeInput) { x.Version = "1" }), bench.ErrConflict, "b@1 exists already"},
		{"empty name", f.lead, in(func(x *bench.FreezeInput) { x.Name = "" }), bench.ErrInvalid, "name is empty"},
		{"name with @", f.lead, in(func(x *bench.FreezeInput) { x.Name = "a@b" }), bench.ErrInvalid, `"a@b"`},
		{"version with space", f.lead, in(func(x *bench.FreezeInput) { x.Version = "1 0" }), bench.ErrInvalid, `"1 0"`},
		{"ratio 1", f.lead, in(func(x *bench.FreezeInput) { x.Split = &annotate.SplitSpec{TestRatio: 1} }), bench.ErrInvalid, "test ratio"},
		{"unknown kind", f.lead, in(func(x *bench.FreezeInput) { x.Kinds = []annotate.Kind{"poem"} }), bench.ErrInvalid, `"poem"`},
		{"nothing matches", f.lead, in(func(x *bench.FreezeInput) { x.Kinds = []annotate.Kind{annotate.KindStepGraph} }), bench.ErrInvalid, "no accepted sample"},
		// Refused as another project is: a stranger learns nothing of which exist.
		{"unknown project", f.lead, in(func(x *bench.FreezeInput) { x.ProjectID = 99 }), verify.ErrNotMember, "project 99"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.db.Freeze(ctx, tt.actor, tt.in)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("got %v, want %v naming %q", err, tt.want, tt.text)
			}
		})
	}
	if n := auditCount(t, f.db.Path(), "denied:release.freeze"); n != 3 {
		t.Errorf("refused freezes audited %d times, want 3", n)
	}
	if rels, _ := f.db.Releases(ctx, bench.Owner(), f.project.ID); len(rels) != 1 {
		t.Errorf("%d releases after the refusals, want 1", len(rels))
	}
}

func TestFreezeRefusesAuditErrors(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.setBalance(t, bench.BalanceTarget{Kind: "hop_qa", Hop: 1, View: "exo", Count: 100}) // a shortfall warns only
	f.acceptSome(t)
	writeFile(t, filepath.Join(f.images, "misc", "e.jpg"), encodeJPEG(t, 64, 48, color.White))
	_, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1"})
	if !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), "image-hash") || !strings.Contains(err.Error(), "misc/e.jpg") ||
		strings.Contains(err.Error(), "balance") {
		t.Fatalf("freeze over a changed image: %v", err)
	}
	// Leaving the changed image's sample out of the release (by kind) freezes the rest.
	rel, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1", Kinds: []annotate.Kind{annotate.KindJudgment}})
	if err != nil || rel.Samples != 1 || !slices.Equal(rel.Kinds, []annotate.Kind{annotate.KindJudgment}) {
		t.Fatalf("freeze of the judgments: %+v %v", rel, err)
	}
}

func TestFreezeWithSplit(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.setBalance(t)
	f.acceptSome(t)
	// A second question on two images: images, not samples, are split.
	f.accept(t, relHop("hq-x1", "0001-office-1/a.jpg", "Which object is farthest from the camera?"))
	f.accept(t, relHop("hq-x2", "0002-kitchen-1/c.jpg", "Which object is farthest from the camera?"))
	spec := &annotate.SplitSpec{TestRatio: 0.3, Seed: 11}
	rel, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1", Split: spec})
	if err != nil {
		t.Fatal(err)
	}
	if *rel.Split != *spec || rel.SplitCounts["train"]+rel.SplitCounts["test"] != 8 || rel.SplitCounts["test"] == 0 || rel.SplitCounts["train"] == 0 {
		t.Errorf("release %+v split counts %v", rel.Split, rel.SplitCounts)
	}
	items, _ := f.db.ReleaseItems(ctx, bench.Owner(), rel.ID)
	var contents []annotate.Sample
	for _, it := range items {
		contents = append(contents, it.Content)
	}
	if o := annotate.SplitOverlap(contents); len(o) > 0 {
		t.Errorf("images in both splits: %v", o)
	}
	want, _ := annotate.Split(contents, *spec)
	for _, it := range items {
		if it.Split != want[it.SampleID] || it.Content.Split != it.Split {
			t.Errorf("%s frozen in %q, Split gives %q", it.SampleID, it.Split, want[it.SampleID])
		}
	}
}

func TestReleasesAreImmutable(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.setBalance(t)
	accepted := f.acceptSome(t)
	rel, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	raw := relRaw(t, f.db.Path())
	var revision int64
	raw.QueryRow(`SELECT revision_id FROM release_samples LIMIT 1`).Scan(&revision)
	// A sample of the project that is not in the release: the row's keys hold,
	// and only the seal refuses it (PostgreSQL checks the seal after the keys).
	draft, err := f.db.CreateSample(ctx, f.ann, f.project.ID, relHop("hq-extra", "misc/e.jpg", "Which object is farthest from the camera?"))
	if err != nil {
		t.Fatal(err)
	}
	extra := draft.ID
	for _, q := range []string{
		`UPDATE releases SET version = '1.1'`,
		`UPDATE releases SET sealed = 0`,
		`UPDATE releases SET sealed = 1, version = '1.1'`,
		`DELETE FROM releases`,
		`UPDATE release_samples SET split = 'test'`,
		`DELETE FROM release_samples`,
		fmt.Sprintf(`INSERT INTO release_samples (release_id, sample_id, revision_id, split, image_path, image_sha256, width, height)
			VALUES (%d, '%s', %d, '', 'x', 'y', 1, 1)`, rel.ID, extra, revision),
	} {
		if _, err := raw.Exec(q); err == nil || !strings.Contains(err.Error(), "releases are frozen") {
			t.Errorf("%s: got %v, want the trigger's refusal", q, err)
		}
	}
	// An unsealed release is sealed only with exactly sample_count rows.
	if _, err := raw.Exec(`INSERT INTO releases (project_id, name, version, sample_count, created_by, created_at, sealed)
		VALUES (?, 'raw', '1', 2, ?, 'now', 0)`, f.project.ID, f.lead.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(fmt.Sprintf(`INSERT INTO release_samples (release_id, sample_id, revision_id, split, image_path, image_sha256, width, height)
		SELECT id, 'hq-00', %d, '', 'x', 'y', 1, 1 FROM releases WHERE name = 'raw'`, revision)); err != nil {
		t.Fatalf("a row into an unsealed release: %v", err)
	}
	if _, err := raw.Exec(`UPDATE releases SET sealed = 1 WHERE name = 'raw'`); err == nil || !strings.Contains(err.Error(), "releases are frozen") {
		t.Errorf("sealing a release one row short: %v, want the trigger's refusal", err)
	}
	// Later work on a sample leaves the release as it was.
	if err := f.db.Withdraw(ctx, f.lead, accepted[0].ID, "duplicate"); err != nil {
		t.Fatal(err)
	}
	items, _ := f.db.ReleaseItems(ctx, bench.Owner(), rel.ID)
	if len(items) != len(accepted) || items[0].RevisionID != accepted[0].RevisionID {
		t.Errorf("after a withdrawal the release holds %d items", len(items))
	}
}

// A change that lands while a freeze hashes its images (outside any transaction)
// makes the freeze a conflict and writes no release; freezing again then works.
func TestFreezeConflictsWithChangesDuringTheAudit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, f relFixture, accepted []bench.SampleInfo, pending bench.SampleInfo)
		want   string
	}{
		{"accepted sample withdrawn", func(t *testing.T, f relFixture, accepted []bench.SampleInfo, _ bench.SampleInfo) {
			if err := f.db.Withdraw(ctx, f.lead, accepted[1].ID, "duplicate"); err != nil {
				t.Fatal(err)
			}
		}, "accepted samples changed"},
		{"another sample accepted", func(t *testing.T, f relFixture, _ []bench.SampleInfo, pending bench.SampleInfo) {
			f.review(t, pending, 5)
		}, "accepted samples changed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newRelFixture(t)
			accepted := f.acceptSome(t)
			pending := f.submit(t, relHop("hq-late", "misc/e.jpg", "Which object is farthest from the camera?"))
			fired := false
			store.SetAfterFreezeAudit(t, func() {
				if !fired {
					fired = true
					tc.change(t, f, accepted, pending)
				}
			})
			in := bench.FreezeInput{ProjectID: f.project.ID, Name: "b", Version: "1"}
			_, err := f.db.Freeze(ctx, f.lead, in)
			if !errors.Is(err, bench.ErrConflict) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("freeze with a change during its audit: %v, want ErrConflict %q", err, tc.want)
			}
			if rels, err := f.db.Releases(ctx, bench.Owner(), f.project.ID); err != nil || len(rels) != 0 {
				t.Fatalf("releases after the refused freeze: %v %v", rels, err)
			}
			if _, err := f.db.Freeze(ctx, f.lead, in); err != nil {
				t.Fatalf("freezing again: %v", err)
			}
		})
	}
}

// A freeze without a name or version says which is missing, without a
// meaningless "freeze @".
func TestFreezeWithoutNameSaysSo(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, in := range []bench.FreezeInput{{ProjectID: f.project.ID, Version: "1"}, {ProjectID: f.project.ID, Name: "bench"}} {
		_, err := f.db.Freeze(ctx, f.lead, in)
		msg := bench.Message(err)
		if !errors.Is(err, bench.ErrInvalid) || strings.Contains(msg, "@") || strings.Contains(msg, "invalid") ||
			(msg != "Freeze: the release name is empty." && msg != "Freeze: the release version is empty.") {
			t.Errorf("freeze %+v: %q", in, msg)
		}
	}
}
