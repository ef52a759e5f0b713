package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// augmentFixture is a fixture with five verifiers in three groups, enough for the
// default three rounds (round 1, round 2 from another group, a panel of three).
type augmentFixture struct {
	fixture
	img string
	vs  []bench.User // a1 (A), b1 (B), a2 (A), b2 (B), c1 (C)
}

func newAugmentFixture(t *testing.T) augmentFixture {
	t.Helper()
	f := augmentFixture{fixture: newFixture(t)}
	f.img = withImage(t, f.fixture)
	for _, v := range []struct{ name, group string }{{"a1", "A"}, {"b1", "B"}, {"a2", "A"}, {"b2", "B"}, {"c1", "C"}} {
		u, err := f.db.AddUser(context.Background(), f.lead, v.name, bench.RoleVerifier, v.group, "secret")
		if err != nil {
			t.Fatal(err)
		}
		f.vs = append(f.vs, u)
	}
	return f
}

// verifyThrough approves a sample in round 1 or later through round 3.
func (f augmentFixture) verifyThrough(t *testing.T, id string) {
	t.Helper()
	ctx := context.Background()
	si, err := f.db.Sample(ctx, bench.Owner(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i, round := range []int{1, 2, 3, 3, 3} {
		if _, err := submitReview(f.db, ctx, f.vs[i], bench.ReviewInput{SampleID: id, Round: round, BasedOn: si.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
			t.Fatalf("round %d by %s: %v", round, f.vs[i].Name, err)
		}
	}
	if si, _ = f.db.Sample(ctx, bench.Owner(), id); si.Status != verify.StateAccepted {
		t.Fatalf("%s is %s after three rounds", id, si.Status)
	}
}

// acceptedGraph writes, submits and verifies a step graph by ann.
func (f augmentFixture) acceptedGraph(t *testing.T, steps ...string) string {
	t.Helper()
	ctx := context.Background()
	var ss []annotate.Step
	for i, c := range steps {
		s := annotate.Step{ID: "step" + string(rune('1'+i)), Content: c}
		if i > 0 {
			s.Precondition = []string{ss[i-1].ID}
		}
		ss = append(ss, s)
	}
	si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, annotate.Sample{Kind: annotate.KindStepGraph, Image: f.img, Scene: "0001-office-1",
		Question: steps[len(steps)-1], Steps: ss})
	if err != nil {
		t.Fatal(err)
	}
	if si, err = f.db.Submit(ctx, f.ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	f.verifyThrough(t, si.ID)
	return si.ID
}

func refKeys(cs []bench.Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, string(c.Transform)+":"+c.Anchor)
	}
	return out
}

func TestAugmentCandidatesAcceptDiscard(t *testing.T) {
	ctx := context.Background()
	f := newAugmentFixture(t)
	parent := f.acceptedGraph(t, "Remove the stapler from the top of the book", "Remove the book from the top of the laptop", "Pick up the laptop")

	// A verified graph of three steps gives three candidates.
	cs, err := f.db.AugmentCandidates(ctx, f.ann2, f.project.ID, bench.CandidateFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := refKeys(cs), []string{"subgraph:step2", "expand:step1", "expand:step2"}; !slices.Equal(got, want) {
		t.Fatalf("candidates %v, want %v", got, want)
	}
	for _, c := range cs {
		if !c.Acceptable() || c.Parent != parent || c.ParentRevision != 1 || c.Sample.Parent != parent || c.Sample.Transform != string(c.Transform) ||
			c.ParentSample.Question != "Pick up the laptop" || len(c.Origin) != len(c.Sample.Steps) {
			t.Errorf("candidate %s: %+v", c.CandidateRef, c)
		}
	}
	if cs, _ := f.db.AugmentCandidates(ctx, f.ann, f.project.ID, bench.CandidateFilter{Transform: augment.Subgraph}); len(cs) != 1 {
		t.Errorf("subgraph filter: %v", refKeys(cs))
	}

	// Verifiers neither see nor take candidates; the refusals are audited.
	if _, err := f.db.AugmentCandidates(ctx, f.ver, f.project.ID, bench.CandidateFilter{}); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("verifier lists: %v", err)
	}
	if _, err := f.db.AcceptCandidate(ctx, f.ver, f.project.ID, cs[0].CandidateRef, false); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("verifier accepts: %v", err)
	}
	if n := auditCount(t, f.db.Path(), "denied:augment.list") + auditCount(t, f.db.Path(), "denied:augment.accept"); n != 2 {
		t.Errorf("%d refusals audited, want 2", n)
	}

	// Accepting makes a draft of the accepting annotator, with its lineage.
	si, err := f.db.AcceptCandidate(ctx, f.ann2, f.project.ID, cs[0].CandidateRef, false)
	if err != nil {
		t.Fatal(err)
	}
	if si.Status != verify.StateDraft || si.AuthorName != "ann2" || si.Content.Parent != parent || si.Content.Transform != "subgraph" ||
		si.Content.Question != "Remove the book from the top of the laptop" || len(si.Content.Steps) != 2 {
		t.Fatalf("accepted: %+v", si)
	}
	l, ok, err := f.db.SampleLineage(ctx, f.ver, si.ID)
	if err != nil || !ok || l != (bench.Lineage{Sample: si.ID, Parent: parent, ParentRevision: 1, Transform: augment.Subgraph, Anchor: "step2", By: "ann2", At: l.At}) {
		t.Fatalf("lineage %+v %v %v", l, ok, err)
	}
	if _, ok, err := f.db.SampleLineage(ctx, f.ver, parent); ok || err != nil {
		t.Errorf("the parent has a lineage: %v %v", ok, err)
	}
	history := func(id string) string {
		evs, err := f.db.History(ctx, f.lead, id)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range evs {
			b.WriteString(e.Action + " " + e.Detail + "\n")
		}
		return b.String()
	}
	if h := history(si.ID); !strings.Contains(h, "sample.augment subgraph of "+parent+" revision 1 (from step step2); draft of ann2") {
		t.Errorf("history of %s does not name its parent:\n%s", si.ID, h)
	}
	if h := history(parent); !strings.Contains(h, "sample.derive "+si.ID+" derived by subgraph of revision 1") {
		t.Errorf("history of %s does not name its child:\n%s", parent, h)
	}

	// An accepted candidate is not offered again, nor taken twice.
	if _, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, cs[0].CandidateRef, false); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("second accept: %v", err)
	}
	// Discarded ones are not offered again either.
	if err := f.db.DiscardCandidate(ctx, f.ann, f.project.ID, cs[1].CandidateRef); err != nil {
		t.Fatal(err)
	}
	if err := f.db.DiscardCandidate(ctx, f.ann, f.project.ID, cs[1].CandidateRef); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("second discard: %v", err)
	}
	if cs, _ := f.db.AugmentCandidates(ctx, f.ann, f.project.ID, bench.CandidateFilter{}); !slices.Equal(refKeys(cs), []string{"expand:step2"}) {
		t.Errorf("after accept and discard: %v", refKeys(cs))
	}
	if n := auditCount(t, f.db.Path(), "augment.discard"); n != 1 {
		t.Errorf("%d discards audited", n)
	}

	// A sample on the same image asking the same question makes it a duplicate.
	dup, err := f.db.CreateSample(ctx, f.ann, f.project.ID, annotate.Sample{Kind: annotate.KindStepGraph, Image: f.img,
		Question: "place the laptop on the book.", Steps: cs[2].Sample.Steps})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ = f.db.AugmentCandidates(ctx, f.ann, f.project.ID, bench.CandidateFilter{})
	if len(cs) != 1 || cs[0].Duplicate != dup.ID || cs[0].Acceptable() {
		t.Fatalf("duplicate not found: %+v", cs)
	}
	if _, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, cs[0].CandidateRef, true); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("accepting a duplicate: %v", err)
	}

	// A candidate of an older revision, or of a parent that is not accepted, is refused.
	stale := cs[0].CandidateRef
	stale.ParentRevision = 2
	if _, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, stale, false); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("stale revision: %v", err)
	}
	notAccepted := bench.CandidateRef{Parent: dup.ID, ParentRevision: 0, Transform: augment.Subgraph, Anchor: "step2"}
	if _, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, notAccepted, false); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a draft as parent: %v", err)
	}
	if n := auditCount(t, f.db.Path(), "sample.augment"); n != 1 {
		t.Errorf("%d acceptances audited, want 1", n)
	}
}

// TestAugmentToRound1AndExport: with augment_to_round1 an accepted candidate goes
// straight to round 1, is verified like any other sample, and the frozen release's
// native export carries its parent and transform.
func TestAugmentToRound1AndExport(t *testing.T) {
	ctx := context.Background()
	f := newAugmentFixture(t)
	parent := f.acceptedGraph(t, "Remove the book from the top of the laptop", "Pick up the laptop")
	if _, err := f.db.SetSettings(ctx, f.ann, f.project.ID, map[string]string{"augment_to_round1": "true"}); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("an annotator changes augment_to_round1: %v", err)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"augment_to_round1": "true"}); err != nil {
		t.Fatal(err)
	}
	cs, err := f.db.AugmentCandidates(ctx, f.lead, f.project.ID, bench.CandidateFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(refKeys(cs), []string{"expand:step1"}) {
		t.Fatalf("candidates %v", refKeys(cs))
	}
	si, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, cs[0].CandidateRef, false)
	if err != nil {
		t.Fatal(err)
	}
	if si.Status != verify.StateRound1 || si.Revision != 1 || si.AuthorName != "ann" {
		t.Fatalf("accepted into %s, revision %d by %s", si.Status, si.Revision, si.AuthorName)
	}
	f.verifyThrough(t, si.ID)

	rel, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "aug", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "native")
	if _, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: rel.Ref(), ProjectID: f.project.ID, Format: "native", OutDir: out}, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var s annotate.Sample
		if err := s.UnmarshalJSON([]byte(line)); err != nil {
			t.Fatal(err)
		}
		if s.ID == si.ID {
			found = true
			if s.Parent != parent || s.Transform != "expand" || s.Question != "Place the laptop on the book" ||
				!strings.Contains(line, `"parent":"`+parent+`","transform":"expand"`) {
				t.Errorf("exported %s", line)
			}
		}
	}
	if !found {
		t.Fatalf("%s not in the export:\n%s", si.ID, b)
	}
}

// TestAugmentNeedsEditing: a candidate whose wording does not fit the pattern can
// only be taken to the editor, as a draft.
func TestAugmentNeedsEditing(t *testing.T) {
	ctx := context.Background()
	f := newAugmentFixture(t)
	f.acceptedGraph(t, "Remove the spoon from the saucer", "Pick up the cup and the saucer")
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"augment_to_round1": "true"}); err != nil {
		t.Fatal(err)
	}
	cs, err := f.db.AugmentCandidates(ctx, f.ann, f.project.ID, bench.CandidateFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Edit == "" || cs[0].Acceptable() {
		t.Fatalf("candidates %+v", cs)
	}
	if _, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, cs[0].CandidateRef, false); !errors.Is(err, bench.ErrInvalid) ||
		!strings.Contains(bench.Message(err), "does not name one object") {
		t.Errorf("accepting a candidate that needs editing: %v", err)
	}
	si, err := f.db.AcceptCandidate(ctx, f.ann, f.project.ID, cs[0].CandidateRef, true)
	if err != nil {
		t.Fatal(err)
	}
	if si.Status != verify.StateDraft || si.Content.Parent == "" {
		t.Errorf("taken to the editor as %s: %+v", si.Status, si.Content)
	}
}
