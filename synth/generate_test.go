package synth_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

// The fixtures keep the short password "secret": these tests are about generating.
func init() { store.SetPasswordMinimumForTests(4) }

// openDB opens a fresh database.
func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "synth.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// generated builds a synthetic project in a fresh database.
func generated(t *testing.T, opt synth.Options) (*store.DB, synth.Result) {
	t.Helper()
	db := openDB(t)
	if opt.Project == "" {
		opt.Project = "synth"
	}
	if opt.Password == "" {
		opt.Password = "secret"
	}
	res, err := synth.Generate(context.Background(), db, opt)
	if err != nil {
		t.Fatal(err)
	}
	return db, res
}

// world is a generated project as its users see it.
type world struct {
	db     *store.DB
	lead   bench.User
	byName map[string]bench.User
	ids    map[int64]bench.User
}

func newWorld(t *testing.T, db *store.DB) world {
	t.Helper()
	ctx := context.Background()
	users, err := db.Users(ctx, bench.Owner())
	if err != nil {
		t.Fatal(err)
	}
	w := world{db: db, byName: map[string]bench.User{}, ids: map[int64]bench.User{}}
	for _, u := range users {
		w.byName[u.Name], w.ids[u.ID] = u, u
	}
	w.lead = w.byName["lead"]
	return w
}

// Every generated history is one verify allows, step by step, and every accepted
// sample has the trail a freeze requires; every approval judged every criterion of
// its round yes. The project covers corrections and rejections for another reason.
func TestGeneratedHistoriesFollowTheProtocol(t *testing.T) {
	ctx := context.Background()
	const n = 700
	db, res := generated(t, synth.Options{Samples: n, Images: 12, Seed: 11, Large: -1})
	w := newWorld(t, db)
	all, err := db.Samples(ctx, bench.Owner(), res.Project.ID, bench.SampleFilter{}, 0, n)
	if err != nil || len(all) != n {
		t.Fatalf("Samples: %d, %v", len(all), err)
	}
	p := res.Project.Settings.Policy()
	check, err := synth.NewProtocolChecker(ctx, db, w.lead)
	if err != nil {
		t.Fatal(err)
	}
	accepted := 0
	for _, s := range all {
		problems, err := check.Problems(ctx, p, s)
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range problems {
			t.Error(problem)
		}
		if s.Status == verify.StateAccepted {
			accepted++
		}
	}
	if accepted == 0 || check.Corrections == 0 || check.OtherRejections == 0 {
		t.Errorf("%d accepted samples, %d corrections, %d rejections for another reason: want some of each", accepted, check.Corrections, check.OtherRejections)
	}
}

func TestGenerateProject(t *testing.T) {
	ctx := context.Background()
	const n, m = 2100, 24 // two batches of samples
	db, res := generated(t, synth.Options{Samples: n, Images: m, Seed: 7, Large: -1})
	pid := res.Project.ID
	if res.Samples != n || res.Images != m {
		t.Fatalf("generated %d samples, %d images; want %d, %d", res.Samples, res.Images, n, m)
	}
	if c, err := db.CountImages(ctx, bench.Owner(), pid); err != nil || c != m {
		t.Fatalf("CountImages = %d, %v", c, err)
	}
	counts, err := db.StatusCounts(ctx, bench.Owner(), pid)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(counts, res.Counts) {
		t.Errorf("StatusCounts %v, result says %v", counts, res.Counts)
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	if total != n {
		t.Errorf("states sum to %d, want %d", total, n)
	}
	for _, st := range verify.States {
		for _, k := range annotate.Kinds {
			ss, err := db.Samples(ctx, bench.Owner(), pid, bench.SampleFilter{Status: st, Kind: k}, 0, 1)
			if err != nil || len(ss) == 0 {
				t.Errorf("no %s sample in state %s (%v)", k, st, err)
			}
		}
	}
	audits, err := db.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := audits["generate.samples"]; got != 2 {
		t.Errorf("%d generate.samples audit rows, want one per batch of samples (2)", got)
	}
	if got := audits["generate.users"]; got != 1 {
		t.Errorf("%d generate.users audit rows, want 1", got)
	}

	sizes := map[string][2]int{}
	ims, err := db.Images(ctx, bench.Owner(), pid, 0, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range ims {
		sizes[im.RelPath] = [2]int{im.Width, im.Height}
		if !annotate.ValidSceneName(im.Scene) {
			t.Errorf("image %s: scene %q does not follow NNNN-<type>-<k>", im.RelPath, im.Scene)
		}
	}
	env := annotate.LintEnv{HandWritten: true, ImageSize: func(p string) (int, int, bool) {
		s, ok := sizes[p]
		return s[0], s[1], ok
	}}
	all, err := db.Samples(ctx, bench.Owner(), pid, bench.SampleFilter{}, 0, n)
	if err != nil || len(all) != n {
		t.Fatalf("Samples: %d, %v", len(all), err)
	}
	for _, s := range all {
		if fs := annotate.Lint(s.Content, env); annotate.HasErrors(fs) {
			t.Errorf("%s: generated content has lint errors: %+v", s.ID, fs)
		}
	}
	if t.Failed() {
		return
	}

	// The real workflow carries on from the generated state.
	w := newWorld(t, db)
	continued := false
	for _, name := range []string{"ver1", "ver4", "ver7"} {
		q, err := db.ReviewQueue(ctx, w.byName[name], pid, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(q) == 0 {
			continue
		}
		it := q[0]
		if _, err := db.SubmitReview(ctx, w.byName[name], bench.ReviewInput{SampleID: it.SampleID, Round: 3, BasedOn: it.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(annotate.Kind(it.Kind), 3)}}); err != nil {
			t.Fatalf("%s approving generated round-3 sample %s: %v", name, it.SampleID, err)
		}
		continued = true
		break
	}
	if !continued {
		t.Error("no verifier has a round-3 sample in the queue")
	}
	ret, err := db.Samples(ctx, bench.Owner(), pid, bench.SampleFilter{Status: verify.StateReturned, Kind: annotate.KindHopQA}, 0, 1)
	if err != nil || len(ret) != 1 {
		t.Fatalf("returned sample: %v", err)
	}
	author := w.ids[ret[0].AuthorID]
	revised := ret[0].Content // a returned sample goes back changed (annotate.CheckResubmit)
	box := *revised.Box
	box[2]++
	revised.Box = &box
	v, err := db.SaveDraft(ctx, author, ret[0].ID, ret[0].Version, revised)
	if err != nil {
		t.Fatalf("author revising generated returned sample: %v", err)
	}
	if si, err := db.Submit(ctx, author, ret[0].ID, v, []string{annotate.RuleExoPhrase, annotate.RuleColourInOptions}); err != nil || si.Status != verify.StateRound1 || si.Revision != ret[0].Revision+1 {
		t.Fatalf("resubmit: %+v %v", si, err)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	ctx := context.Background()
	dump := func(db *store.DB, pid int64) string {
		ss, err := db.Samples(ctx, bench.Owner(), pid, bench.SampleFilter{}, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, s := range ss {
			c, _ := json.Marshal(s.Content)
			out += fmt.Sprintf("%s %s %s %s v%d r%d %s %s %s\n", s.ID, s.Kind, s.Status, s.PrevStatus, s.Version, s.Revision, s.AuthorName, s.ImagePath, c)
		}
		return out
	}
	opt := synth.Options{Samples: 200, Images: 10, Seed: 42, Large: -1}
	a, ra := generated(t, opt)
	b, rb := generated(t, opt)
	opt.Seed = 43
	c, rc := generated(t, opt)
	da, db, dc := dump(a, ra.Project.ID), dump(b, rb.Project.ID), dump(c, rc.Project.ID)
	if da != db {
		t.Error("the same seed gave different projects")
	}
	if da == dc {
		t.Error("different seeds gave the same project")
	}
	if ra.Reviews != rb.Reviews || ra.Revisions != rb.Revisions {
		t.Errorf("the same seed gave %d/%d revisions and %d/%d reviews", ra.Revisions, rb.Revisions, ra.Reviews, rb.Reviews)
	}
	ia, _ := a.Images(ctx, bench.Owner(), ra.Project.ID, 0, 10)
	ib, _ := b.Images(ctx, bench.Owner(), rb.Project.ID, 0, 10)
	for i := range ia {
		if ia[i].SHA256 != ib[i].SHA256 || ia[i].RelPath != ib[i].RelPath {
			t.Errorf("image %d differs: %s %s vs %s %s", i, ia[i].RelPath, ia[i].SHA256[:8], ib[i].RelPath, ib[i].SHA256[:8])
		}
	}
}

func TestGenerateLargeImagesAndRefusals(t *testing.T) {
	ctx := context.Background()
	db, res := generated(t, synth.Options{Samples: 5, Images: 3, Large: 1, Seed: 1})
	ims, err := db.Images(ctx, bench.Owner(), res.Project.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	large := 0
	for _, im := range ims {
		if im.Width == 4000 && im.Height == 3000 {
			large++
		} else if im.Width > 1280 || im.Height > 960 {
			t.Errorf("image %s is %d×%d, neither small nor 4000×3000", im.RelPath, im.Width, im.Height)
		}
		if err := im.CheckFile(); err != nil {
			t.Errorf("generated file: %v", err)
		}
	}
	if large != 1 {
		t.Errorf("%d images of 4000×3000, want 1", large)
	}

	tests := []struct {
		name string
		opt  synth.Options
		want error
	}{
		{"wrong lead password", synth.Options{Project: "q", Password: "wrong", Samples: 1, Images: 1}, bench.ErrUnauthorized},
		{"existing project", synth.Options{Project: "synth", Password: "secret", Samples: 1, Images: 1, ImageDir: t.TempDir()}, bench.ErrConflict},
		{"image folder not empty", synth.Options{Project: "q2", Password: "secret", Samples: 1, Images: 1, ImageDir: res.ImageDir}, bench.ErrConflict},
		{"no images", synth.Options{Project: "q3", Password: "secret", Samples: 1, Images: 0}, bench.ErrInvalid},
		{"bad project name", synth.Options{Project: "a/b", Password: "secret", Samples: 1, Images: 1}, bench.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := synth.Generate(ctx, db, tt.opt); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	// A second project in the same database reuses the generated accounts.
	res2, err := synth.Generate(ctx, db, synth.Options{Project: "second", Password: "secret", Samples: 40, Images: 2, Large: -1,
		ImageDir: filepath.Join(t.TempDir(), "imgs")})
	if err != nil || res2.Samples != 40 {
		t.Fatalf("second project: %+v %v", res2, err)
	}
	// Only a lead may generate: an annotator's sign-in is refused before anything is written.
	ann, err := db.Authenticate(ctx, "ann1", "secret")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.BulkAddUsers(ctx, ann, []bench.User{{Name: "x1", Role: bench.RoleAnnotator}}, "secret"); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator adding generated accounts: got %v, want ErrForbidden", err)
	}
}
