package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// generated builds a synthetic project in a fresh database.
func generated(t *testing.T, opt store.GenerateOptions) (*store.DB, store.GenerateResult) {
	t.Helper()
	db := MustOpenDB(t)
	if opt.Project == "" {
		opt.Project = "synth"
	}
	if opt.Password == "" {
		opt.Password = "secret"
	}
	res, err := db.Generate(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return db, res
}

func TestGenerateProject(t *testing.T) {
	ctx := context.Background()
	const n, m = 2100, 24 // two batches of samples
	db, res := generated(t, store.GenerateOptions{Samples: n, Images: m, Seed: 7, Large: -1})
	pid := res.Project.ID
	if res.Samples != n || res.Images != m {
		t.Fatalf("generated %d samples, %d images; want %d, %d", res.Samples, res.Images, n, m)
	}
	if c, err := db.CountImages(ctx, pid); err != nil || c != m {
		t.Fatalf("CountImages = %d, %v", c, err)
	}
	counts, err := db.StatusCounts(ctx, pid)
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
			ss, err := db.Samples(ctx, pid, store.SampleFilter{Status: st, Kind: k}, 0, 1)
			if err != nil || len(ss) == 0 {
				t.Errorf("no %s sample in state %s (%v)", k, st, err)
			}
		}
	}
	if got := auditCount(t, db.Path(), "generate.samples"); got != 2 {
		t.Errorf("%d generate.samples audit rows, want one per batch of samples (2)", got)
	}

	users, err := db.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	vusers := map[int64]verify.User{}
	for _, u := range users {
		vusers[u.ID] = verify.User{ID: strconv.FormatInt(u.ID, 10), Name: u.Name, Role: verify.Role(u.Role), Group: u.Group}
	}
	sizes := map[string][2]int{}
	ims, err := db.Images(ctx, pid, 0, m)
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
	all, err := db.Samples(ctx, pid, store.SampleFilter{}, 0, n)
	if err != nil || len(all) != n {
		t.Fatalf("Samples: %d, %v", len(all), err)
	}
	raw := rawDB(t, db.Path())
	for _, s := range all {
		if fs := annotate.Lint(s.Content, env); annotate.HasErrors(fs) {
			t.Errorf("%s: generated content has lint errors: %+v", s.ID, fs)
		}
		replayProtocol(t, raw, s, vusers)
	}
	if t.Failed() {
		return
	}

	// The real workflow carries on from the generated state.
	verifiers := map[string]store.User{}
	for _, u := range users {
		verifiers[u.Name] = u
	}
	continued := false
	for _, name := range []string{"ver1", "ver4", "ver7"} {
		q, err := db.ReviewQueue(ctx, verifiers[name], pid, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(q) == 0 {
			continue
		}
		it := q[0]
		j := map[string]bool{}
		for _, c := range verify.Criteria(annotate.Kind(it.Kind), 3) {
			j[c.ID] = true
		}
		if _, err := submitReview(db, ctx, verifiers[name], store.ReviewInput{SampleID: it.SampleID, Round: 3, BasedOn: it.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: j}}); err != nil {
			t.Fatalf("%s approving generated round-3 sample %s: %v", name, it.SampleID, err)
		}
		continued = true
		break
	}
	if !continued {
		t.Error("no verifier has a round-3 sample in the queue")
	}
	ret, err := db.Samples(ctx, pid, store.SampleFilter{Status: verify.StateReturned, Kind: annotate.KindHopQA}, 0, 1)
	if err != nil || len(ret) != 1 {
		t.Fatalf("returned sample: %v", err)
	}
	author := store.User{ID: ret[0].AuthorID}
	v, err := db.SaveDraft(ctx, author, ret[0].ID, ret[0].Version, ret[0].Content)
	if err != nil {
		t.Fatalf("author revising generated returned sample: %v", err)
	}
	if si, err := db.Submit(ctx, author, ret[0].ID, v, []string{annotate.RuleExoPhrase, annotate.RuleColourInOptions}); err != nil || si.Status != verify.StateRound1 || si.Revision != ret[0].Revision+1 {
		t.Fatalf("resubmit: %+v %v", si, err)
	}
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	sdb, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close() })
	return sdb
}

// replayProtocol replays a sample's stored reviews, revision by revision, through the
// verify package's own rules: each must be one verify.Record accepts, and the state
// they lead to must be the stored one (before a withdrawal, the remembered state).
func replayProtocol(t *testing.T, raw *sql.DB, s store.SampleInfo, users map[int64]verify.User) {
	t.Helper()
	type rv struct {
		rev, round int
		verifier   int64
		decision   string
		criteria   string
	}
	rows, err := raw.Query(`SELECT r.number, v.round, v.verifier_id, v.decision, v.criteria FROM reviews v
		JOIN revisions r ON r.id = v.revision_id WHERE v.sample_id = ? ORDER BY v.id`, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var reviews []rv
	for rows.Next() {
		var r rv
		if err := rows.Scan(&r.rev, &r.round, &r.verifier, &r.decision, &r.criteria); err != nil {
			t.Fatal(err)
		}
		reviews = append(reviews, r)
	}
	rows.Close()
	want := s.Status
	if want == verify.StateWithdrawn {
		want = s.PrevStatus
	}
	state := verify.StateDraft
	p := verify.DefaultPolicy()
	author := strconv.FormatInt(s.AuthorID, 10)
	for rev := 1; rev <= s.Revision; rev++ {
		next, err := verify.Transition(state, verify.EventSubmit)
		if err != nil {
			t.Errorf("%s: revision %d submitted from %s: %v", s.ID, rev, state, err)
			return
		}
		state = next
		var done []verify.Review
		for _, r := range reviews {
			if r.rev != rev {
				continue
			}
			var j map[string]bool
			if err := json.Unmarshal([]byte(r.criteria), &j); err != nil {
				t.Fatalf("%s: criteria %q: %v", s.ID, r.criteria, err)
			}
			c := verify.ReviewContext{Kind: s.Kind, State: state, Round: r.round, Revision: rev, BasedOn: rev,
				Author: author, Correctors: []string{author}, Reviewer: users[r.verifier], Reviews: done, Now: time.Now()}
			out, err := verify.Record(p, c, verify.Verdict{Decision: verify.Decision(r.decision), Judgements: j})
			if err != nil {
				t.Errorf("%s revision %d: stored round-%d %s by %s breaks the protocol: %v", s.ID, rev, r.round, r.decision, users[r.verifier].Name, err)
				return
			}
			done = append(done, out.Review)
			state = out.State
		}
	}
	if state != want {
		t.Errorf("%s: its reviews lead to %s, stored state %s (status %s)", s.ID, state, want, s.Status)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	ctx := context.Background()
	dump := func(db *store.DB, pid int64) string {
		ss, err := db.Samples(ctx, pid, store.SampleFilter{}, 0, 1000)
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
	opt := store.GenerateOptions{Samples: 200, Images: 10, Seed: 42, Large: -1}
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
	ia, _ := a.Images(ctx, ra.Project.ID, 0, 10)
	ib, _ := b.Images(ctx, rb.Project.ID, 0, 10)
	for i := range ia {
		if ia[i].SHA256 != ib[i].SHA256 || ia[i].RelPath != ib[i].RelPath {
			t.Errorf("image %d differs: %s %s vs %s %s", i, ia[i].RelPath, ia[i].SHA256[:8], ib[i].RelPath, ib[i].SHA256[:8])
		}
	}
}

func TestGenerateLargeImagesAndRefusals(t *testing.T) {
	ctx := context.Background()
	db, res := generated(t, store.GenerateOptions{Samples: 5, Images: 3, Large: 1, Seed: 1})
	ims, err := db.Images(ctx, res.Project.ID, 0, 10)
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
		opt  store.GenerateOptions
		want error
	}{
		{"wrong lead password", store.GenerateOptions{Project: "q", Password: "wrong", Samples: 1, Images: 1}, store.ErrUnauthorized},
		{"existing project", store.GenerateOptions{Project: "synth", Password: "secret", Samples: 1, Images: 1, ImageDir: t.TempDir()}, store.ErrConflict},
		{"image folder not empty", store.GenerateOptions{Project: "q2", Password: "secret", Samples: 1, Images: 1, ImageDir: res.ImageDir}, store.ErrConflict},
		{"no images", store.GenerateOptions{Project: "q3", Password: "secret", Samples: 1, Images: 0}, store.ErrInvalid},
		{"bad project name", store.GenerateOptions{Project: "a/b", Password: "secret", Samples: 1, Images: 1}, store.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := db.Generate(ctx, tt.opt); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	// A second project in the same database reuses the generated accounts.
	res2, err := db.Generate(ctx, store.GenerateOptions{Project: "second", Password: "secret", Samples: 40, Images: 2, Large: -1,
		ImageDir: filepath.Join(t.TempDir(), "imgs")})
	if err != nil || res2.Samples != 40 {
		t.Fatalf("second project: %+v %v", res2, err)
	}
}
