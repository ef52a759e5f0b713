// Package storetest is the contract every bench.Service keeps — a local project
// file (*store.DB) and a team server's client (remote.Client) alike: one suite of
// behavioural tests (permissions, protocol moves, blind round 3, optimistic-locking
// conflicts, claims, freeze, and every read call giving the same answer) that both
// implementations run, so that they cannot drift apart.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// Password is every account's password in the suite's projects.
const Password = "contract-secret"

// Connect returns a Service on db for one person (not yet signed in): db itself
// for the local implementation, a client of a server over db for the remote one.
type Connect func(t *testing.T, db *store.DB) bench.Service

// Project is the suite's seeded project: a lead, two annotators, six verifiers in
// groups A, B and C, and one image. Every account is a member of the project.
type Project struct {
	DB      *store.DB
	Project bench.Project
	Image   string // the image's path in the project
	Dir     string // the folder the image was imported from
	connect Connect
}

// Seed makes a fresh project in a temporary database, writing it through the
// local store (a server's first lead and images are made on the server).
func Seed(t *testing.T, connect Connect) *Project {
	t.Helper()
	return seedAt(t, connect, nil)
}

// seedAt is Seed on a database whose clock is now (nil: the real one), so that
// two projects seeded alike hold the same times.
func seedAt(t *testing.T, connect Connect, now func() time.Time) *Project {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if now != nil {
		db.Now = now
	}
	lead, err := db.CreateFirstLead(ctx, "lead", Password)
	if err != nil {
		t.Fatal(err)
	}
	p := &Project{DB: db, Image: "0001-office-1/a.jpg", connect: connect}
	if p.Project, err = db.CreateProject(ctx, lead, "contract"); err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct{ name, role, group string }{
		{"ann1", bench.RoleAnnotator, ""}, {"ann2", bench.RoleAnnotator, ""},
		{"a1", bench.RoleVerifier, "A"}, {"a2", bench.RoleVerifier, "A"},
		{"b1", bench.RoleVerifier, "B"}, {"b2", bench.RoleVerifier, "B"},
		{"c1", bench.RoleVerifier, "C"}, {"c2", bench.RoleVerifier, "C"},
	} {
		if _, err := db.AddUser(ctx, lead, u.name, u.role, u.group, Password); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	p.Dir = dir
	var buf bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(3, 3, color.Black)
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "0001-office-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, p.Image), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportImages(ctx, lead, p.Project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

// As returns a Service signed in as name, and the account.
func (p *Project) As(t *testing.T, name string) (bench.Service, bench.User) {
	t.Helper()
	svc := p.connect(t, p.DB)
	u, err := svc.Authenticate(context.Background(), name, Password)
	if err != nil {
		t.Fatalf("sign in as %s: %v", name, err)
	}
	return svc, u
}

// HopSample is a valid hop-QA sample on img.
func HopSample(img string) annotate.Sample {
	return annotate.Sample{Kind: annotate.KindHopQA, Image: img, Question: "Which object is closest to the camera?",
		QuestionTag: "Which object is <REL>closest to the camera</REL>?",
		Options:     []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
		Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}}
}

// Approve is a complete approval of a sample of kind in round.
func Approve(kind annotate.Kind, round int) verify.Verdict {
	return verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(kind, round)}
}

// Run runs the contract on the Services connect makes.
func Run(t *testing.T, connect Connect) {
	t.Run("Permissions", func(t *testing.T) { testPermissions(t, connect) })
	t.Run("ProtocolAndBlindRound3", func(t *testing.T) { testProtocol(t, connect) })
	t.Run("DraftConflict", func(t *testing.T) { testConflict(t, connect) })
	t.Run("Claims", func(t *testing.T) { testClaims(t, connect) })
	t.Run("Freeze", func(t *testing.T) { testFreeze(t, connect) })
	t.Run("EveryCallClassified", testCallsClassified)
	t.Run("ReadsAgreeWithTheFile", func(t *testing.T) { testReads(t, connect) })
	t.Run("WritesAgreeWithTheFile", func(t *testing.T) { testWrites(t, connect) })
	t.Run("ImageFilesAgreeWithTheFile", func(t *testing.T) { testImageFiles(t, connect) })
	t.Run("Export", func(t *testing.T) { testExport(t, connect) })
	t.Run("ImportSamples", func(t *testing.T) { testImportSamples(t, connect) })
	t.Run("ResubmitNeedsAChange", func(t *testing.T) { testResubmit(t, connect) })
	t.Run("Membership", func(t *testing.T) { testMembership(t, connect) })
	t.Run("RolesPerProject", func(t *testing.T) { testRolesPerProject(t, connect) })
	t.Run("Sequences", func(t *testing.T) { testSequences(t, connect) })
	t.Run("Planting", func(t *testing.T) { testPlanting(t, connect) })
}

// CountDenied is how many refusals the audit log of db holds.
func CountDenied(t *testing.T, db *store.DB) int {
	t.Helper()
	m, err := db.AuditCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for k, v := range m {
		if strings.HasPrefix(k, "denied:") {
			n += v
		}
	}
	return n
}

func testPermissions(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	pid := p.Project.ID
	cases := []struct {
		who  string
		what string
		do   func(svc bench.Service, me bench.User) error
		want string // in the sentence people see
	}{
		{"ann1", "create a project", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).CreateProject(ctx, "mine")
			return err
		}, "only leads may create projects"},
		{"ann1", "change settings", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).SetSettings(ctx, pid, map[string]string{"round3.panel": "2"})
			return err
		}, "only leads may change project settings"},
		{"ann1", "add an account", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).AddUser(ctx, "ann9", bench.RoleLead, "", Password)
			return err
		}, "only leads may manage accounts"},
		{"a1", "write a sample", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).CreateSample(ctx, pid, HopSample(p.Image))
			return err
		}, "only annotators or leads may write samples"},
		{"ann1", "freeze", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).Freeze(ctx, bench.FreezeInput{ProjectID: pid, Name: "r", Version: "1"})
			return err
		}, "only leads may freeze releases"},
		{"ann1", "read a review queue", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).ReviewQueue(ctx, pid, 1)
			return err
		}, "only verifiers or leads may review samples"},
		{"a1", "see the audit", func(s bench.Service, me bench.User) error {
			_, err := s.As(me).Audit(ctx, pid)
			return err
		}, "only leads may audit releases"},
	}
	for _, c := range cases {
		svc, me := p.As(t, c.who)
		before := CountDenied(t, p.DB)
		err := c.do(svc, me)
		if !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("%s may %s: got %v, want a refusal", c.who, c.what, err)
			continue
		}
		if msg := bench.Message(err); !strings.Contains(msg, c.want) || strings.HasSuffix(msg, "..") {
			t.Errorf("%s may %s: the refusal says %q, want it to say %q", c.who, c.what, msg, c.want)
		}
		if after := CountDenied(t, p.DB); after != before+1 {
			t.Errorf("%s may %s: %d refusals audited, want 1", c.who, c.what, after-before)
		}
	}
	if ps, err := p.DB.Projects(ctx, bench.Owner()); err != nil || len(ps) != 1 {
		t.Errorf("after the refusals the database holds %d projects (%v), want 1", len(ps), err)
	}
}

func testProtocol(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	si := p.Submitted(t, "ann1")
	vs := map[string]bench.Service{}
	us := map[string]bench.User{}
	for _, n := range []string{"a1", "a2", "b1", "b2", "c1", "lead"} {
		vs[n], us[n] = p.As(t, n)
	}
	review := func(who string, round int) error {
		_, err := vs[who].As(us[who]).SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision, Verdict: Approve(si.Kind, round)})
		return err
	}
	steps := []struct {
		who   string
		round int
		want  error
	}{
		{"a1", 2, verify.ErrWrongRound},
		{"a1", 1, nil},
		{"a2", 2, verify.ErrSameGroup},
		{"b1", 2, nil},
		{"a1", 3, verify.ErrAlreadyOnPanel},
		{"a2", 3, nil},
		{"a2", 3, verify.ErrAlreadyOnPanel},
		{"b2", 3, nil},
	}
	for i, s := range steps {
		err := review(s.who, s.round)
		if s.want == nil && err != nil || s.want != nil && !errors.Is(err, s.want) {
			t.Fatalf("step %d: %s in round %d: got %v, want %v", i, s.who, s.round, err, s.want)
		}
	}
	// Round 3 is blind: b2 sees their own vote only, the lead none.
	seen := func(who string) (n3 int) {
		rs, err := vs[who].As(us[who]).Reviews(ctx, si.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if r.Round == 3 {
				n3++
			}
		}
		return n3
	}
	if n := seen("b2"); n != 1 {
		t.Errorf("b2 sees %d round-3 votes during the round, want 1 (their own)", n)
	}
	if n := seen("lead"); n != 0 {
		t.Errorf("the lead sees %d round-3 votes during the round, want 0", n)
	}
	if err := review("c1", 3); err != nil {
		t.Fatal(err)
	}
	got, err := vs["lead"].As(us["lead"]).Sample(ctx, si.ID)
	if err != nil || got.Status != verify.StateAccepted {
		t.Fatalf("after a unanimous panel: %s, %v", got.Status, err)
	}
	if n := seen("lead"); n != 3 {
		t.Errorf("after the round closed the lead sees %d round-3 votes, want 3", n)
	}
	h, err := vs["lead"].As(us["lead"]).History(ctx, si.ID)
	if err != nil || len(h) == 0 {
		t.Fatalf("history: %d events, %v", len(h), err)
	}
}

func testConflict(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	ann, me := p.As(t, "ann1")
	si, err := ann.As(me).CreateSample(ctx, p.Project.ID, HopSample(p.Image))
	if err != nil {
		t.Fatal(err)
	}
	s := HopSample(p.Image)
	s.ID = si.ID
	s.Question = "Which object is farthest from the camera?"
	s.QuestionTag = "Which object is <REL>farthest from the camera</REL>?"
	v, err := ann.As(me).SaveDraft(ctx, si.ID, si.Version, s)
	if err != nil {
		t.Fatal(err)
	}
	if v != si.Version+1 {
		t.Errorf("saved version %d, want %d", v, si.Version+1)
	}
	// The same base again: someone saved meanwhile (another window of the author).
	s.Question = "Which object is nearest to the door?"
	s.QuestionTag = "Which object is <REL>nearest to the door</REL>?"
	_, err = ann.As(me).SaveDraft(ctx, si.ID, si.Version, s)
	if !errors.Is(err, bench.ErrConflict) {
		t.Fatalf("a stale save: got %v, want a conflict", err)
	}
	got, _ := p.DB.Sample(ctx, bench.Owner(), si.ID)
	if got.Content.Question != "Which object is farthest from the camera?" {
		t.Errorf("the stale save changed the sample: %q", got.Content.Question)
	}
	// Another annotator may not save it at all.
	other, me2 := p.As(t, "ann2")
	if _, err := other.As(me2).SaveDraft(ctx, si.ID, v, s); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("ann2 saves ann1's draft: got %v, want a refusal", err)
	}
}

func testClaims(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	si := p.Submitted(t, "ann1")
	a1, ua1 := p.As(t, "a1")
	b1, ub1 := p.As(t, "b1")
	c, err := a1.As(ua1).ClaimReview(ctx, si.ID, 1)
	if err != nil || c.Verifier != strconv.FormatInt(ua1.ID, 10) || c.Round != 1 || c.Sample != si.ID {
		t.Fatalf("a1's claim: %+v, %v", c, err)
	}
	if _, err := b1.As(ub1).ClaimReview(ctx, si.ID, 1); !errors.Is(err, verify.ErrPanelFull) {
		t.Errorf("b1 claims a1's seat: got %v, want ErrPanelFull", err)
	}
	q, err := b1.As(ub1).ReviewQueue(ctx, p.Project.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range q {
		if it.SampleID == si.ID {
			t.Errorf("b1's queue offers the seat a1 holds")
		}
	}
	if err := a1.As(ua1).ReleaseClaim(ctx, si.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b1.As(ub1).ClaimReview(ctx, si.ID, 1); err != nil {
		t.Errorf("b1 claims the released seat: %v", err)
	}
}

// Submitted makes a hop sample by author, through the Service, and submits it
// to round 1.
func (p *Project) Submitted(t *testing.T, author string) bench.SampleInfo {
	t.Helper()
	ctx := context.Background()
	svc, me := p.As(t, author)
	si, err := svc.As(me).CreateSample(ctx, p.Project.ID, HopSample(p.Image))
	if err != nil {
		t.Fatal(err)
	}
	if si, err = svc.As(me).Submit(ctx, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	return si
}

// accepted makes a sample by ann1 and has it accepted through the three rounds.
func accepted(t *testing.T, p *Project) bench.SampleInfo {
	t.Helper()
	si := p.Submitted(t, "ann1")
	p.ApproveThrough(t, si)
	return si
}

// ApproveThrough approves a submitted sample in its three rounds (a1, b1, then the
// panel a2, b2, c1), through the Services the suite connects.
func (p *Project) ApproveThrough(t *testing.T, si bench.SampleInfo) {
	t.Helper()
	ctx := context.Background()
	for _, r := range []struct {
		who   string
		round int
	}{{"a1", 1}, {"b1", 2}, {"a2", 3}, {"b2", 3}, {"c1", 3}} {
		svc, u := p.As(t, r.who)
		if _, err := svc.As(u).SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: r.round, BasedOn: si.Revision, Verdict: Approve(si.Kind, r.round)}); err != nil {
			t.Fatalf("%s in round %d: %v", r.who, r.round, err)
		}
	}
}

func testFreeze(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	si := accepted(t, p)
	lead, ul := p.As(t, "lead")
	in := bench.FreezeInput{ProjectID: p.Project.ID, Name: "contract-bench", Version: "1.0"}
	r, err := lead.As(ul).Freeze(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := lead.As(ul).Releases(ctx, p.Project.ID)
	if err != nil || len(rs) != 1 || rs[0].ID != r.ID {
		t.Fatalf("releases: %+v, %v", rs, err)
	}
	items, err := lead.As(ul).ReleaseItems(ctx, r.ID)
	if err != nil || len(items) != 1 || items[0].SampleID != si.ID {
		t.Fatalf("release items: %+v, %v", items, err)
	}
	if _, err := lead.As(ul).Freeze(ctx, in); !errors.Is(err, bench.ErrConflict) && !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("the same release frozen twice: got %v, want a refusal", err)
	}
	byRef, err := lead.As(ul).ReleaseByRef(ctx, p.Project.ID, "contract-bench@1.0")
	if err != nil || byRef.ID != r.ID {
		t.Errorf("release by reference: %+v, %v", byRef, err)
	}
	// An image that changed on disk: the audit refuses the freeze, naming what it
	// found, so that the screen can open those samples.
	if err := os.WriteFile(filepath.Join(p.Dir, filepath.FromSlash(p.Image)), []byte("not the image any more"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = lead.As(ul).Freeze(ctx, bench.FreezeInput{ProjectID: p.Project.ID, Name: "contract-bench", Version: "2.0"})
	var audit *bench.AuditErrors
	if !errors.Is(err, bench.ErrInvalid) || !errors.As(err, &audit) || len(audit.Findings) == 0 || audit.Findings[0].Image != p.Image {
		t.Errorf("a freeze over a changed image: %v, want the audit's findings", err)
	}
}

// testImageFiles opens an image's files through the Service and straight from
// the file: the same bytes (ImageFile is the Service's, not a call of Calls).
func testImageFiles(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	lead, ul := p.As(t, "lead")
	db := p.DB
	pid := p.Project.ID
	// An image file the screens open: the same bytes.
	im, err := lead.As(ul).ImageByPath(ctx, pid, p.Image)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []bench.ImageSize{bench.ImagePreview, bench.ImageThumb, bench.ImageOriginal} {
		a, e1 := lead.As(ul).ImageFile(ctx, im.SHA256, size)
		b, e2 := db.ImageFile(ctx, ul, im.SHA256, size)
		if e1 != nil || e2 != nil {
			t.Fatalf("image file (%s): %v, %v", size, e1, e2)
		}
		ba, _ := os.ReadFile(a)
		bb, _ := os.ReadFile(b)
		if len(ba) == 0 || !bytes.Equal(ba, bb) {
			t.Errorf("image file (%s): %d bytes through the service, %d from the file", size, len(ba), len(bb))
		}
	}
	// The original is the imported file itself, byte for byte.
	orig, err := lead.As(ul).ImageFile(ctx, im.SHA256, bench.ImageOriginal)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(orig)
	want, _ := os.ReadFile(filepath.Join(p.Dir, p.Image))
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Errorf("the original through the service: %d bytes, the imported file %d", len(got), len(want))
	}
}

// testExport exports a release through the Service and straight from the file:
// the same files, byte for byte, apart from the manifest's time of export.
func testExport(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	accepted(t, p)
	lead, ul := p.As(t, "lead")
	r, err := lead.As(ul).Freeze(ctx, bench.FreezeInput{ProjectID: p.Project.ID, Name: "exp", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	// An annotator may export too (the access table), but not into a folder in use.
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o644)
	ann, ua := p.As(t, "ann1")
	if _, err := ann.As(ua).Export(ctx, bench.ExportInput{Release: r.Ref(), ProjectID: p.Project.ID, Format: "native", OutDir: full}, nil); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("an export into a folder that is not empty: %v, want a refusal", err)
	}
	via := filepath.Join(t.TempDir(), "via")
	direct := filepath.Join(t.TempDir(), "direct")
	res, err := lead.As(ul).Export(ctx, bench.ExportInput{Release: r.Ref(), ProjectID: p.Project.ID, Format: "native", OutDir: via}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Dir != via || res.Release.ID != r.ID || len(res.Manifest.Files) == 0 {
		t.Errorf("export result: dir %q, release %d, %d files", res.Dir, res.Release.ID, len(res.Manifest.Files))
	}
	if _, err := p.DB.Export(ctx, ul, bench.ExportInput{Release: r.Ref(), ProjectID: p.Project.ID, Format: "native", OutDir: direct}, nil); err != nil {
		t.Fatal(err)
	}
	files := func(root string) map[string][]byte {
		out := map[string][]byte{}
		filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				rel, _ := filepath.Rel(root, path)
				out[rel], _ = os.ReadFile(path)
			}
			return nil
		})
		return out
	}
	a, b := files(via), files(direct)
	if len(a) != len(b) || len(a) < 3 {
		t.Fatalf("%d files through the service, %d from the file", len(a), len(b))
	}
	for name, want := range b {
		if name == "MANIFEST.json" {
			continue
		}
		if !bytes.Equal(a[name], want) {
			t.Errorf("%s differs between the exports", name)
		}
	}
}

// testImportSamples imports records as the annotator's drafts: the good ones are
// written, the one naming an unknown image is left out with the reason.
func testImportSamples(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	ann, me := p.As(t, "ann1")
	a, b, bad := HopSample(p.Image), HopSample(p.Image), HopSample("0009-nowhere/x.jpg")
	a.ID, b.ID, bad.ID = "imp-1", "imp-2", "imp-3"
	b.Question = "Which object is farthest from the camera?"
	b.QuestionTag = "Which object is <REL>farthest from the camera</REL>?"
	res, err := ann.As(me).ImportSamples(ctx, p.Project.ID, []annotate.Imported{{Line: 1, Sample: a}, {Line: 2, Sample: b}, {Line: 3, Sample: bad}},
		bench.ImportSamplesOptions{Progress: func(int, int) {}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Imported, []string{"imp-1", "imp-2"}) || len(res.Skipped) != 1 {
		t.Fatalf("imported %v, skipped %+v", res.Imported, res.Skipped)
	}
	si, err := p.DB.Sample(ctx, bench.Owner(), "imp-2")
	if err != nil || si.AuthorName != "ann1" || si.Status != verify.StateDraft || si.Content.Question != b.Question {
		t.Errorf("the imported draft in the file: %+v, %v", si, err)
	}
}

// testResubmit: a returned sample goes back to round 1 only changed.
func testResubmit(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	si := p.Submitted(t, "ann1")
	a1, u1 := p.As(t, "a1")
	reject := verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}, Comment: "the lamp is not the closest"}
	if _, err := a1.As(u1).SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: reject}); err != nil {
		t.Fatal(err)
	}
	ann, me := p.As(t, "ann1")
	cur, err := ann.As(me).Sample(ctx, si.ID)
	if err != nil || cur.Status != verify.StateReturned {
		t.Fatalf("after the reject: %s, %v", cur.Status, err)
	}
	if _, err := ann.As(me).Submit(ctx, si.ID, cur.Version, nil); !errors.Is(err, bench.ErrInvalid) || !strings.Contains(bench.Message(err), "nothing changed since it was returned") {
		t.Fatalf("resubmitted unchanged: %v", err)
	}
	s := cur.Content
	s.AnswerIndex = 2
	v, err := ann.As(me).SaveDraft(ctx, si.ID, cur.Version, s)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ann.As(me).Submit(ctx, si.ID, v, nil); err != nil || got.Status != verify.StateRound1 || got.Revision != 2 {
		t.Errorf("resubmitted changed: %s revision %d, %v", got.Status, got.Revision, err)
	}
}

// testMembership: a project is its members' alone. An account of another project
// reads and writes nothing of it — by the project's id, a sample's or a release's
// id, or an image's hash — each attempt refused and audited, nothing changed; a
// lead adds it, and it may; a lead removes it again; a project keeps its lead.
func testMembership(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	pid := p.Project.ID
	si := accepted(t, p)
	lead, ul := p.As(t, "lead")
	r, err := lead.As(ul).Freeze(ctx, bench.FreezeInput{ProjectID: pid, Name: "members", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	im, err := lead.As(ul).ImageByPath(ctx, pid, p.Image)
	if err != nil {
		t.Fatal(err)
	}
	other, err := lead.As(ul).CreateProject(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lead.As(ul).AddUserToProject(ctx, other.ID, "stranger", bench.RoleVerifier, "C", Password); err != nil {
		t.Fatal(err)
	}
	svc, me := p.As(t, "stranger")
	if ps, err := svc.As(me).Projects(ctx); err != nil || len(ps) != 1 || ps[0].ID != other.ID {
		t.Errorf("the stranger's projects: %+v, %v; want the other only", ps, err)
	}
	refusals := []struct {
		what string
		do   func() error
	}{
		{"read a sample", func() error { _, err := svc.As(me).Sample(ctx, si.ID); return err }},
		{"list the samples", func() error { _, err := svc.As(me).Samples(ctx, pid, bench.SampleFilter{}, 0, 10); return err }},
		{"read the review queue", func() error { _, err := svc.As(me).ReviewQueue(ctx, pid, 0); return err }},
		{"read a release's items", func() error { _, err := svc.As(me).ReleaseItems(ctx, r.ID); return err }},
		{"open an image", func() error { _, err := svc.As(me).ImageFile(ctx, im.SHA256, bench.ImagePreview); return err }},
		{"claim a seat", func() error { _, err := svc.As(me).ClaimReview(ctx, si.ID, 1); return err }},
	}
	count := func() int {
		n, err := p.DB.CountSamples(ctx, bench.Owner(), pid, bench.SampleFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	samples := count()
	for _, c := range refusals {
		before := CountDenied(t, p.DB)
		err := c.do()
		asStranger := errors.Is(err, bench.ErrForbidden) && strings.Contains(bench.Message(err), "not a member")
		asMissing := !errors.Is(err, bench.ErrForbidden) && (errors.Is(err, bench.ErrNotFound) || errors.Is(err, bench.ErrImageMissing))
		if !asStranger && !asMissing {
			t.Errorf("a stranger may %s: %v", c.what, err)
		}
		if after := CountDenied(t, p.DB); after != before+1 {
			t.Errorf("a stranger may %s: %d refusals audited, want 1", c.what, after-before)
		}
	}
	// Named by id, another project's sample, release or image is answered exactly
	// as a missing one: the same words, the same kind of error, whatever the
	// error's path (a file, a server); the refusal is audited all the same.
	for _, c := range []struct {
		what            string
		theirs, missing func() error
	}{
		{"a sample", func() error { _, err := svc.As(me).Sample(ctx, si.ID); return err },
			func() error { _, err := svc.As(me).Sample(ctx, "no-such-sample"); return err }},
		{"a release", func() error { _, err := svc.As(me).ReleaseItems(ctx, r.ID); return err },
			func() error { _, err := svc.As(me).ReleaseItems(ctx, r.ID+1000); return err }},
		{"a release by name", func() error { _, err := svc.As(me).ReleaseByRef(ctx, 0, "members@1"); return err },
			func() error { _, err := svc.As(me).ReleaseByRef(ctx, 0, "nothing@1"); return err }},
		{"an image", func() error { _, err := svc.As(me).ImageFile(ctx, im.SHA256, bench.ImagePreview); return err },
			func() error {
				_, err := svc.As(me).ImageFile(ctx, strings.Repeat("ab", 32), bench.ImagePreview)
				return err
			}},
	} {
		before := CountDenied(t, p.DB)
		theirs := c.theirs()
		audited := CountDenied(t, p.DB) - before
		missing := c.missing()
		if theirs == nil || missing == nil || theirs.Error() != strings.ReplaceAll(missing.Error(), "nothing@1", "members@1") &&
			!sameButID(theirs.Error(), missing.Error()) || bench.Message(theirs) == "" ||
			errors.Is(theirs, bench.ErrForbidden) != errors.Is(missing, bench.ErrForbidden) ||
			errors.Is(theirs, bench.ErrNotFound) != errors.Is(missing, bench.ErrNotFound) ||
			errors.Is(theirs, bench.ErrImageMissing) != errors.Is(missing, bench.ErrImageMissing) {
			t.Errorf("%s of another project reads %v; a missing one %v", c.what, theirs, missing)
		}
		if audited != 1 {
			t.Errorf("%s of another project: %d refusals audited, want 1", c.what, audited)
		}
	}
	if n := count(); n != samples {
		t.Errorf("%d samples after the refusals, want %d", n, samples)
	}
	// A lead of the project adds the account: it reads; removed, it does not.
	if err := lead.As(ul).AddMember(ctx, pid, "stranger"); err != nil {
		t.Fatal(err)
	}
	ms, err := lead.As(ul).Members(ctx, pid)
	if err != nil || !slices.ContainsFunc(ms, func(u bench.User) bool { return u.Name == "stranger" }) {
		t.Errorf("members after the add: %+v, %v", ms, err)
	}
	if got, err := svc.As(me).Sample(ctx, si.ID); err != nil || got.ID != si.ID {
		t.Errorf("the new member reads the sample: %+v, %v", got.ID, err)
	}
	if err := lead.As(ul).RemoveMember(ctx, pid, "stranger"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.As(me).Releases(ctx, pid); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("the removed member lists the releases: %v", err)
	}
	if err := lead.As(ul).RemoveMember(ctx, pid, "lead"); !errors.Is(err, bench.ErrForbidden) || !strings.Contains(bench.Message(err), "only lead") {
		t.Errorf("the project's only lead leaves it: %v", err)
	}
}

// sameButID reports whether two error texts are the same once the ids and hashes
// they name (quoted, numbered) are set aside.
func sameButID(a, b string) bool {
	id := regexp.MustCompile(`"[^"]*"|[0-9a-f]{8,}|[0-9]+`)
	return id.ReplaceAllString(a, "ID") == id.ReplaceAllString(b, "ID")
}

// testRolesPerProject replays the takeover a role held by the account allowed
// (issue 25): the lead of the contract project shares ann1 with project B, led by
// blead. Every step that reaches into B — through ann1's role, password or
// account — is refused at once and audited, and nothing of B changes; what the
// lead may do, ann1's role in the contract project, still works and leaves ann1 an
// annotator in B.
func testRolesPerProject(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	lead, ul := p.As(t, "lead")
	b, err := lead.As(ul).CreateProject(ctx, "projB")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lead.As(ul).AddUserToProject(ctx, b.ID, "blead", bench.RoleLead, "", Password); err != nil {
		t.Fatal(err)
	}
	if err := lead.As(ul).AddMember(ctx, b.ID, "ann1"); err != nil {
		t.Fatal(err)
	}
	if err := lead.As(ul).RemoveMember(ctx, b.ID, "lead"); err != nil { // B is blead's now
		t.Fatal(err)
	}
	settingsOfB := func() bench.Settings {
		pr, err := p.DB.ProjectByName(ctx, bench.Owner(), "projB")
		if err != nil {
			t.Fatal(err)
		}
		return pr.Settings
	}
	membersOfB := func() []bench.User {
		ms, err := p.DB.Members(ctx, bench.Owner(), b.ID)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	beforeSettings, beforeMembers := settingsOfB(), membersOfB()
	refused := func(what string, err error, kind error) {
		t.Helper()
		if !errors.Is(err, bench.ErrForbidden) || !errors.Is(err, kind) {
			t.Errorf("%s: %v; want a refusal (%v)", what, err, kind)
		}
	}
	audited := func(what string, do func() error, kind error) {
		t.Helper()
		before := CountDenied(t, p.DB)
		refused(what, do(), kind)
		if after := CountDenied(t, p.DB); after != before+1 {
			t.Errorf("%s: %d refusals audited, want 1", what, after-before)
		}
	}
	// The first steps of the takeover: ann1's role everywhere, ann1's password.
	audited("the lead makes ann1 a lead everywhere", func() error {
		_, err := lead.As(ul).SetRole(ctx, "ann1", bench.RoleLead, "")
		return err
	}, verify.ErrNotLeadOfAll)
	audited("the lead resets ann1's password", func() error {
		return lead.As(ul).SetPassword(ctx, "ann1", "taken-over-1234")
	}, verify.ErrNotLeadOfAll)
	audited("the lead makes ann1 a lead of B", func() error {
		_, err := lead.As(ul).SetMemberRole(ctx, b.ID, "ann1", bench.RoleLead, "")
		return err
	}, verify.ErrNotMember)
	// What the lead may do: ann1's role in the lead's own project.
	if u, err := lead.As(ul).SetMemberRole(ctx, p.Project.ID, "ann1", bench.RoleLead, ""); err != nil || u.Role != bench.RoleLead {
		t.Fatalf("the lead makes ann1 a lead of the contract project: %+v, %v", u, err)
	}
	ann, ua := p.As(t, "ann1")
	ps, err := ann.As(ua).Projects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]string{}
	for _, pr := range ps {
		roles[pr.Name] = pr.Role
	}
	if want := map[string]string{"contract": bench.RoleLead, "projB": bench.RoleAnnotator}; !reflect.DeepEqual(roles, want) {
		t.Errorf("ann1's roles: %v, want %v", roles, want)
	}
	// ann1, a lead of the contract project, is an annotator in B and nothing more.
	for _, c := range []struct {
		what string
		do   func() error
		kind error
	}{
		{"change B's settings", func() error { return ann.As(ua).UpdateSettings(ctx, b.ID, bench.DefaultSettings()) }, verify.ErrNotPermitted},
		{"add the lead to B", func() error { return ann.As(ua).AddMember(ctx, b.ID, "lead") }, verify.ErrNotPermitted},
		{"make itself B's lead", func() error {
			_, err := ann.As(ua).SetMemberRole(ctx, b.ID, "ann1", bench.RoleLead, "")
			return err
		}, verify.ErrNotPermitted},
		{"reset B's lead's password", func() error { return ann.As(ua).SetPassword(ctx, "blead", "taken-over-1234") }, verify.ErrNotLeadOfAll},
		{"demote B's lead", func() error {
			_, err := ann.As(ua).SetMemberRole(ctx, b.ID, "blead", bench.RoleAnnotator, "")
			return err
		}, verify.ErrNotPermitted},
		{"demote B's lead everywhere", func() error {
			_, err := ann.As(ua).SetRole(ctx, "blead", bench.RoleAnnotator, "")
			return err
		}, verify.ErrNotLeadOfAll},
		{"remove B's lead", func() error { return ann.As(ua).RemoveMember(ctx, b.ID, "blead") }, verify.ErrNotPermitted},
		{"review in B", func() error { _, err := ann.As(ua).ReviewQueue(ctx, b.ID, 0); return err }, verify.ErrNotPermitted},
	} {
		audited("ann1 may "+c.what, c.do, c.kind)
	}
	if got := settingsOfB(); !reflect.DeepEqual(got, beforeSettings) {
		t.Errorf("B's settings changed: %+v", got)
	}
	if got := membersOfB(); !reflect.DeepEqual(got, beforeMembers) {
		t.Errorf("B's members changed:\n got %+v\nwant %+v", got, beforeMembers)
	}
	if _, err := connect(t, p.DB).Authenticate(ctx, "blead", Password); err != nil {
		t.Errorf("B's lead no longer signs in: %v", err)
	}
	// B's own lead changes ann1's role in B, and its group there, which the
	// contract project does not see.
	bl, ub := p.As(t, "blead")
	if u, err := bl.As(ub).SetMemberRole(ctx, b.ID, "ann1", bench.RoleVerifier, "Z"); err != nil || u.Role != bench.RoleVerifier || u.Group != "Z" {
		t.Fatalf("B's lead makes ann1 a verifier of B in group Z: %+v, %v", u, err)
	}
	for _, c := range []struct {
		project     int64
		role, group string
	}{{p.Project.ID, bench.RoleLead, ""}, {b.ID, bench.RoleVerifier, "Z"}} {
		ms, err := p.DB.Members(ctx, bench.Owner(), c.project)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(ms, func(u bench.User) bool { return u.Name == "ann1" })
		if i < 0 || ms[i].Role != c.role || ms[i].Group != c.group {
			t.Errorf("ann1 in project %d: %+v, want %s in group %q", c.project, ms, c.role, c.group)
		}
	}
	// B's only lead is never demoted, by itself either; a lead of every project
	// of an account may change it whole.
	audited("B's only lead steps down", func() error {
		_, err := bl.As(ub).SetMemberRole(ctx, b.ID, "blead", bench.RoleVerifier, "")
		return err
	}, verify.ErrLastLead)
	if err := lead.As(ul).SetPassword(ctx, "ann2", "a-new-password-1"); err != nil {
		t.Errorf("the lead of ann2's only project resets ann2's password: %v", err)
	}
}

// testPlanting: with planting on, a verifier's review plants a copy in their
// queue, reviewed like any sample and answered with feedback; the lead reads
// the figures and the copies with their origins; the verifier is refused both.
func testPlanting(t *testing.T, connect Connect) {
	ctx := context.Background()
	p := Seed(t, connect)
	origin := accepted(t, p)
	lead, ul := p.As(t, "lead")
	if _, err := lead.As(ul).SetSettings(ctx, p.Project.ID, map[string]string{"plant_rate": "50", "plant_feedback": "true"}); err != nil {
		t.Fatal(err)
	}
	real := p.Submitted(t, "ann1")
	c2, uc2 := p.As(t, "c2")
	out, err := c2.As(uc2).SubmitReview(ctx, bench.ReviewInput{SampleID: real.ID, Round: 1, BasedOn: real.Revision, Verdict: Approve(real.Kind, 1)})
	if err != nil || out.Feedback != "" {
		t.Fatalf("c2 reviews a real sample: %+v, %v", out, err)
	}
	q, err := c2.As(uc2).ReviewQueue(ctx, p.Project.ID, 1)
	if err != nil || len(q) != 1 {
		t.Fatalf("c2's queue after planting: %+v, %v", q, err)
	}
	out, err = c2.As(uc2).SubmitReview(ctx, bench.ReviewInput{SampleID: q[0].SampleID, Round: 1, BasedOn: q[0].Revision, Verdict: Approve(annotate.Kind(q[0].Kind), 1)})
	if err != nil || !strings.HasPrefix(out.Feedback, "This was a check item") {
		t.Fatalf("c2 reviews the copy: %+v, %v", out, err)
	}
	list, err := lead.As(ul).PlantedList(ctx, p.Project.ID)
	if err != nil || len(list) != 1 || list[0].Origin != origin.ID || list[0].SampleID != q[0].SampleID || list[0].Verifier != "c2" || list[0].Outcome == "" {
		t.Fatalf("the lead's list: %+v, %v", list, err)
	}
	st, err := lead.As(ul).PlantedStatus(ctx, p.Project.ID)
	if err != nil || len(st.Figures) != 1 || st.Figures[0].Verifier != "c2" || st.Figures[0].Planted+st.Figures[0].Clean != 1 {
		t.Fatalf("the lead's figures: %+v, %v", st, err)
	}
	if _, err := c2.As(uc2).PlantedList(ctx, p.Project.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("c2 lists the copies: %v", err)
	}
	if _, err := c2.As(uc2).PlantedStatus(ctx, p.Project.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("c2 reads the figures: %v", err)
	}
}
