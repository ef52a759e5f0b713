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
	"github.com/benchwright/benchwright/verify"
)

// addVerifiers adds verifiers named after their group: "a1" is in group A, "n1" in none.
func addVerifiers(t *testing.T, f fixture, names ...string) map[string]bench.User {
	t.Helper()
	out := map[string]bench.User{}
	for _, n := range names {
		group := strings.ToUpper(n[:1])
		if group == "N" {
			group = ""
		}
		u, err := f.db.AddUser(context.Background(), f.lead, n, bench.RoleVerifier, group, "secret")
		if err != nil {
			t.Fatal(err)
		}
		out[n] = u
	}
	return out
}

// submitted creates a hop sample on img by author and submits it to round 1.
func submitted(t *testing.T, f fixture, author bench.User, img string) bench.SampleInfo {
	t.Helper()
	ctx := context.Background()
	si, err := f.db.CreateSample(ctx, author, f.project.ID, hopSample(img))
	if err != nil {
		t.Fatal(err)
	}
	if si, err = f.db.Submit(ctx, author, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	return si
}

var approve = verify.Verdict{Decision: verify.DecisionApprove}

func mustReview(t *testing.T, f fixture, u bench.User, si bench.SampleInfo, round int) {
	t.Helper()
	if _, err := submitReview(f.db, context.Background(), u, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision, Verdict: approve}); err != nil {
		t.Fatalf("%s approves %s in round %d: %v", u.Name, si.ID, round, err)
	}
}

func queueHas(t *testing.T, f fixture, u bench.User, id string) bool {
	t.Helper()
	q, err := f.db.ReviewQueue(context.Background(), u, f.project.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(q, func(it bench.QueueItem) bool { return it.SampleID == id })
}

func TestCorrectRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1")
	byAnn := submitted(t, f, f.ann, img)
	byLead := submitted(t, f, f.lead, img)
	if _, err := f.db.ClaimReview(ctx, vs["b1"], byAnn.ID, 1); err != nil {
		t.Fatal(err)
	}
	claimed := submitted(t, f, f.ann2, img)
	if _, err := f.db.ClaimReview(ctx, vs["b1"], claimed.ID, 1); err != nil {
		t.Fatal(err)
	}

	fixed := hopSample(img)
	fixed.Question = "Which object is farthest from the camera?"
	lintBad := hopSample(img)
	lintBad.Options = []string{"the mug", "the lamp"}
	otherImage := hopSample("0001-office-1/missing.jpg")
	tests := []struct {
		name    string
		who     bench.User
		in      bench.CorrectionInput
		want    []error
		message string // a substring of the error
	}{
		{"annotator", f.ann2, bench.CorrectionInput{SampleID: byAnn.ID, Round: 1, BasedOn: 1, Content: fixed, Comment: "c"},
			[]error{bench.ErrForbidden}, "ann2 is an annotator"},
		{"author of the sample", f.lead, bench.CorrectionInput{SampleID: byLead.ID, Round: 1, BasedOn: 1, Content: fixed, Comment: "c"},
			[]error{bench.ErrForbidden, verify.ErrSelfReview}, "attributed to you"},
		{"stale revision", vs["a1"], bench.CorrectionInput{SampleID: byAnn.ID, Round: 1, BasedOn: 0, Content: fixed, Comment: "c"},
			[]error{bench.ErrConflict, verify.ErrStaleRevision}, ""},
		{"wrong round", vs["a1"], bench.CorrectionInput{SampleID: byLead.ID, Round: 2, BasedOn: 1, Content: fixed, Comment: "c"},
			[]error{bench.ErrForbidden, verify.ErrWrongRound}, ""},
		{"seat claimed by another verifier", vs["a1"], bench.CorrectionInput{SampleID: claimed.ID, Round: 1, BasedOn: 1, Content: fixed, Comment: "c"},
			[]error{bench.ErrForbidden, verify.ErrPanelFull}, ""},
		{"empty comment", vs["a1"], bench.CorrectionInput{SampleID: byLead.ID, Round: 1, BasedOn: 1, Content: fixed, Comment: "  "},
			[]error{bench.ErrInvalid}, "needs a comment"},
		{"lint error", vs["a1"], bench.CorrectionInput{SampleID: byLead.ID, Round: 1, BasedOn: 1, Content: lintBad, Comment: "two options"},
			[]error{bench.ErrInvalid}, "option-count"},
		{"image not in the project", vs["a1"], bench.CorrectionInput{SampleID: byLead.ID, Round: 1, BasedOn: 1, Content: otherImage, Comment: "moved"},
			[]error{bench.ErrInvalid}, "missing.jpg"},
		{"kind changed", vs["a1"], bench.CorrectionInput{SampleID: byLead.ID, Round: 1, BasedOn: 1,
			Content: func() annotate.Sample { s := fixed; s.Kind = annotate.KindMCQ; return s }(), Comment: "c"},
			[]error{bench.ErrInvalid}, "cannot change the kind"},
		{"unknown sample", vs["a1"], bench.CorrectionInput{SampleID: "nope", Round: 1, BasedOn: 1, Content: fixed, Comment: "c"},
			[]error{bench.ErrNotFound}, ""},
	}
	before, err := f.db.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.db.Correct(ctx, tt.who, tt.in)
			for _, w := range tt.want {
				if !errors.Is(err, w) {
					t.Errorf("got %v, want %v", err, w)
				}
			}
			if err != nil && !strings.Contains(err.Error(), tt.message) {
				t.Errorf("error %q lacks %q", err, tt.message)
			}
			if got, _ := f.db.Sample(ctx, bench.Owner(), tt.in.SampleID); tt.in.SampleID != "nope" && (got.Revision != 1 || got.Status != verify.StateRound1) {
				t.Errorf("a refused correction changed the sample: revision %d, %s", got.Revision, got.Status)
			}
		})
	}
	after, err := f.db.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if after["sample.correct"] != 0 || after["revision.correction"] != 0 {
		t.Errorf("refused corrections were recorded: %v", after)
	}
	// Refusals (ErrForbidden, not conflicts or invalid input) are audited as denied.
	if n := after["denied:sample.correct"] - before["denied:sample.correct"]; n != 4 {
		t.Errorf("%d denied corrections audited, want 4 (annotator, author, wrong round, claimed seat)", n)
	}
}

func TestCorrectReentersRound1(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "c1")
	si := submitted(t, f, f.ann, img)
	mustReview(t, f, vs["a1"], si, 1)

	fixed := hopSample(img)
	fixed.Question = "Which object is farthest from the camera?"
	fixed.Box = &annotate.Box{12, 10, 40, 30}
	got, err := f.db.Correct(ctx, vs["b1"], bench.CorrectionInput{SampleID: si.ID, Round: 2, BasedOn: 1, Content: fixed,
		Comment: "the question asked for the wrong object"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != verify.StateRound1 || got.Revision != 2 || got.Content.Question != fixed.Question || got.Content.ID != si.ID {
		t.Fatalf("corrected sample: %s revision %d %q id %q", got.Status, got.Revision, got.Content.Question, got.Content.ID)
	}
	if got.AuthorID != f.ann.ID {
		t.Errorf("the sample's author became %s; a correction keeps the sample's author", got.AuthorName)
	}
	// The new revision starts with no reviews; the old one keeps its approval.
	rs, err := f.db.Reviews(ctx, f.lead, si.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].Revision != 1 {
		t.Errorf("reviews after the correction: %+v; want only revision 1's approval", rs)
	}
	// The corrector and the author may not review the corrected revision; a1, who
	// approved revision 1, and c1 may.
	for _, tt := range []struct {
		who  bench.User
		want error
	}{{vs["b1"], verify.ErrSelfReview}, {f.ann, bench.ErrForbidden}, {vs["a1"], nil}, {vs["c1"], nil}} {
		if tt.who.Role == bench.RoleAnnotator {
			if _, err := f.db.ReviewQueue(ctx, tt.who, f.project.ID, 0); !errors.Is(err, bench.ErrForbidden) {
				t.Errorf("the annotator's queue: got %v, want ErrForbidden", err)
			}
		} else if has := queueHas(t, f, tt.who, si.ID); has != (tt.want == nil) {
			t.Errorf("%s's queue holds the corrected sample: %v", tt.who.Name, has)
		}
		_, err := submitReview(f.db, ctx, tt.who, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: 2, Verdict: approve})
		if tt.want == nil {
			if err != nil {
				t.Fatalf("%s reviews the corrected revision: %v", tt.who.Name, err)
			}
			break // the seat is taken now
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%s reviews the corrected revision: got %v, want %v", tt.who.Name, err, tt.want)
		}
	}
	// The history names the correction with its comment.
	events, err := f.db.History(ctx, f.lead, si.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(events, func(e bench.Event) bool {
		return e.Action == "sample.correct" && e.Actor == "b1" && strings.Contains(e.Detail, "the question asked for the wrong object")
	}) {
		t.Errorf("history lacks the correction: %+v", events)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["sample.correct"] != 1 || counts["revision.correction"] != 1 {
		t.Errorf("audit counts %v; want one sample.correct and one revision.correction", counts)
	}
}

// TestCorrectorAndAuthorBothExcluded: a lead's sample corrected by a verifier may be
// reviewed by neither of them, whatever the round.
func TestCorrectorAndAuthorBothExcluded(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1")
	si := submitted(t, f, f.lead, img)
	fixed := hopSample(img)
	fixed.Question = "Which object is farthest from the camera?"
	if _, err := f.db.Correct(ctx, vs["a1"], bench.CorrectionInput{SampleID: si.ID, Round: 1, BasedOn: 1, Content: fixed, Comment: "reworded"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []bench.User{f.lead, vs["a1"]} {
		if _, err := f.db.ClaimReview(ctx, u, si.ID, 1); !errors.Is(err, verify.ErrSelfReview) {
			t.Errorf("%s claims the corrected revision: got %v, want ErrSelfReview", u.Name, err)
		}
		if queueHas(t, f, u, si.ID) {
			t.Errorf("%s's queue holds the sample", u.Name)
		}
	}
	if !queueHas(t, f, vs["b1"], si.ID) {
		t.Error("b1's queue lacks the corrected sample")
	}
}

// TestCorrectInRound: with corrections kept in their round, the corrected revision
// stays in round 2 and carries the round-1 approval, whose group still rules round 2.
func TestCorrectInRound(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "a2", "b1", "b2")
	s := bench.DefaultSettings()
	s.CorrectionToRound1 = false
	if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
	si := submitted(t, f, f.ann, img)
	mustReview(t, f, vs["a1"], si, 1)
	fixed := hopSample(img)
	fixed.Question = "Which object is farthest from the camera?"
	got, err := f.db.Correct(ctx, vs["b1"], bench.CorrectionInput{SampleID: si.ID, Round: 2, BasedOn: 1, Content: fixed, Comment: "reworded"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != verify.StateRound2 || got.Revision != 2 {
		t.Fatalf("corrected in round: %s revision %d, want round2 revision 2", got.Status, got.Revision)
	}
	rs, _ := f.db.Reviews(ctx, f.lead, si.ID)
	var onRev2 []string
	for _, r := range rs {
		if r.Revision == 2 {
			onRev2 = append(onRev2, fmt.Sprintf("%s round %d %s", r.VerifierName, r.Round, r.Decision))
		}
	}
	if !slices.Equal(onRev2, []string{"a1 round 1 approve"}) {
		t.Errorf("revision 2 carries %v, want a1's round-1 approval", onRev2)
	}
	if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: si.ID, Round: 2, BasedOn: 2, Verdict: approve}); !errors.Is(err, verify.ErrSameGroup) {
		t.Errorf("a2 in round 2 after a1's carried round 1: got %v, want ErrSameGroup", err)
	}
	if _, err := submitReview(f.db, ctx, vs["b1"], bench.ReviewInput{SampleID: si.ID, Round: 2, BasedOn: 2, Verdict: approve}); !errors.Is(err, verify.ErrSelfReview) {
		t.Errorf("the corrector in round 2: got %v, want ErrSelfReview", err)
	}
	if queueHas(t, f, vs["a2"], si.ID) || queueHas(t, f, vs["b1"], si.ID) || !queueHas(t, f, vs["b2"], si.ID) {
		t.Error("round-2 queues do not follow the carried round-1 review")
	}
	mustReview(t, f, vs["b2"], got, 2)
	if got, _ = f.db.Sample(ctx, bench.Owner(), si.ID); got.Status != verify.StateRound3 {
		t.Errorf("after round 2: %s", got.Status)
	}
}
