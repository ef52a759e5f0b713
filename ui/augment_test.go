package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// acceptedDemoGraph writes a three-step graph by ann1 on a demo image and verifies
// it through the three rounds; it returns its id.
func acceptedDemoGraph(t *testing.T, db *store.DB) string {
	t.Helper()
	ctx := context.Background()
	p, err := db.ProjectByName(ctx, bench.Owner(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	user := func(name string) bench.User {
		u, err := db.Authenticate(ctx, name, "demo")
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	si, err := db.CreateSample(ctx, user("ann1"), p.ID, annotate.Sample{Kind: annotate.KindStepGraph, Image: "0001-office-1/img_001.jpg",
		Scene: "0001-office-1", Question: "Pick up the tablet", Steps: []annotate.Step{
			{ID: "step1", Content: "Remove the stapler from the top of the notebook"},
			{ID: "step2", Content: "Remove the notebook from the top of the tablet", Precondition: []string{"step1"}},
			{ID: "step3", Content: "Pick up the tablet", Precondition: []string{"step2"}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if si, err = db.Submit(ctx, user("ann1"), si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	verifyDemoSample(t, db, si.ID)
	return si.ID
}

// verifyDemoSample approves a sample in round 1 through round 3 with the demo's verifiers.
func verifyDemoSample(t *testing.T, db *store.DB, id string) {
	t.Helper()
	ctx := context.Background()
	si, err := db.Sample(ctx, bench.Owner(), id)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []struct {
		who   string
		round int
	}{{"ver1", 1}, {"ver3", 2}, {"ver2", 3}, {"ver4", 3}, {"ver5", 3}} {
		u, err := db.Authenticate(ctx, r.who, "demo")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.SubmitReview(ctx, u, bench.ReviewInput{SampleID: id, Round: r.round, BasedOn: si.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, r.round)}}); err != nil {
			t.Fatalf("review %d by %s: %v", i, r.who, err)
		}
	}
	if si, _ = db.Sample(ctx, bench.Owner(), id); si.Status != verify.StateAccepted {
		t.Fatalf("%s is %s after three rounds", id, si.Status)
	}
}

// openAugment signs name in on the demo project and shows the Augment screen.
func openAugment(t *testing.T, u *App, name string) *augmentView {
	t.Helper()
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, name, "demo")
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Augment" })
	if i < 0 {
		t.Fatalf("%s has no Augment screen", name)
	}
	u.nav.Select(i)
	v := lastAugment(u)
	waitFor(t, "the candidates", func() bool { return v.loads.Load() >= 1 })
	return v
}

// lastAugment finds the shown Augment view in the content area.
func lastAugment(u *App) *augmentView { return augmentViews[u] }

func keys(v *augmentView) []string {
	var out []string
	for _, c := range v.cands {
		out = append(out, c.Parent+" "+string(c.Transform)+":"+c.Anchor)
	}
	return out
}

// TestAugmentScreen: three candidates from a verified graph, drawn beside their
// parent; one accepted (then verified through round 3, its parent in its history),
// one discarded, one taken to the editor.
func TestAugmentScreen(t *testing.T) {
	u, db := demoApp(t)
	parent := acceptedDemoGraph(t, db)
	v := openAugment(t, u, "lead") // annotators are not offered Augment (verify.Offered)
	want := []string{parent + " subgraph:step2", parent + " expand:step1", parent + " expand:step2", "demo-sg-001 expand:step1"}
	if got := keys(v); !slices.Equal(got, want) {
		t.Fatalf("candidates %v, want %v", got, want)
	}
	if v.sel != 0 || len(v.parentGraph.steps) != 3 || len(v.derivedGraph.steps) != 2 || !v.accept.Visible() || v.accept.Disabled() {
		t.Fatalf("first candidate shown: sel %d, parent %d steps, derived %d steps", v.sel, len(v.parentGraph.steps), len(v.derivedGraph.steps))
	}
	if !strings.Contains(v.parentTitle.Text, parent) || !strings.Contains(v.derivedTitle.Text, "Remove the notebook from the top of the tablet") {
		t.Errorf("titles %q / %q", v.parentTitle.Text, v.derivedTitle.Text)
	}

	// Accept the subgraph: ann1's draft.
	n := v.loads.Load()
	test.Tap(v.accept)
	waitFor(t, "the list after accepting", func() bool { return v.loads.Load() > n })
	if !strings.HasPrefix(v.status.Text, "Accepted as ") || !strings.HasSuffix(v.status.Text, "(your draft).") {
		t.Fatalf("status %q", v.status.Text)
	}
	derived := strings.Fields(strings.TrimPrefix(v.status.Text, "Accepted as "))[0]
	if got := keys(v); !slices.Equal(got, want[1:]) {
		t.Fatalf("after accepting: %v", got)
	}

	// Discard the expansion from step1.
	n = v.loads.Load()
	test.Tap(v.discard)
	waitFor(t, "the list after discarding", func() bool { return v.loads.Load() > n })
	if got := keys(v); !slices.Equal(got, want[2:]) {
		t.Fatalf("after discarding: %v", got)
	}

	// Edit the other expansion: it opens in the editor as ann1's draft.
	v.list.Select(0)
	if !strings.Contains(v.derivedTitle.Text, "Place the tablet on the notebook") || len(v.derivedGraph.steps) != 5 {
		t.Fatalf("second candidate: %q, %d steps", v.derivedTitle.Text, len(v.derivedGraph.steps))
	}
	test.Tap(v.edit)
	waitFor(t, "the editor", func() bool {
		ws := lastWorkspace[u]
		return ws != nil && ws.sample != nil && ws.sample.Content.Parent == parent
	})
	if ws := lastWorkspace[u]; ws.sample.Status != verify.StateDraft || ws.cur.Question != "Place the tablet on the notebook" || ws.cur.Transform != "expand" {
		t.Errorf("editor opened %+v", ws.sample)
	}

	// The accepted draft is submitted and verified like any sample; its history names the parent.
	ctx := context.Background()
	si, err := db.Sample(ctx, bench.Owner(), derived)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Submit(ctx, u.user, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	verifyDemoSample(t, db, derived)
	evs, err := db.History(ctx, u.user, derived)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(evs, func(e bench.Event) bool {
		return e.Action == "sample.augment" && strings.Contains(e.Detail, "subgraph of "+parent+" revision 1")
	}) {
		t.Errorf("history of %s does not name its parent: %+v", derived, evs)
	}
}

func TestAugmentScreenIsForAuthors(t *testing.T) {
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "ver1", "demo")
	if slices.ContainsFunc(u.screens, func(s screen) bool { return s.title == "Augment" }) {
		t.Fatal("a verifier sees the Augment screen")
	}
}

// TestAugmentScreenShowsShuffledSequence: an accepted yes/no question about a
// sequence offers LRR-Bench's negative, shown as both orders with their labels and
// answers, and accepting it makes a sample of the new order.
func TestAugmentScreenShowsShuffledSequence(t *testing.T) {
	ctx := context.Background()
	u, db := demoApp(t)
	p, err := db.ProjectByName(ctx, bench.Owner(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	ann, err := db.Authenticate(ctx, "ann1", "demo")
	if err != nil {
		t.Fatal(err)
	}
	seq := []string{"0001-office-1/img_001.jpg", "0001-office-1/img_002.jpg", "0002-kitchen-1/img_001.jpg"}
	s := annotate.Sample{Kind: annotate.KindJudgment, Question: "Does the camera move forward from A to C?", AnswerText: "yes", Task: "camera-movement"}
	s.SetImages(seq)
	si, err := db.CreateSample(ctx, ann, p.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	if si, err = db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	verifyDemoSample(t, db, si.ID)

	v := openAugment(t, u, "lead") // annotators are not offered Augment (verify.Offered)
	i := slices.IndexFunc(v.cands, func(c bench.Candidate) bool { return c.Parent == si.ID })
	if i < 0 {
		t.Fatalf("no candidate of %s among %v", si.ID, keys(v))
	}
	v.list.Select(i)
	c := v.cands[i]
	if c.Transform != "shuffle" {
		t.Fatalf("candidate %s:%s, want a shuffle", c.Transform, c.Anchor)
	}
	if got := v.parentSeq.Text; !strings.Contains(got, "A  "+seq[0]) || !strings.Contains(got, "C  "+seq[2]) || !strings.HasSuffix(got, "Answer: yes") {
		t.Errorf("the parent shows %q", got)
	}
	now := c.Sample.AllImages()
	if got := v.derivedSeq.Text; !strings.Contains(got, "A  "+now[0]) || !strings.Contains(got, "B  "+now[1]) || !strings.HasSuffix(got, "Answer: no") {
		t.Errorf("the candidate shows %q for the order %v", got, now)
	}
	n := v.loads.Load()
	test.Tap(v.accept)
	waitFor(t, "the list again", func() bool { return v.loads.Load() > n })
	list, err := db.Samples(ctx, bench.Owner(), p.ID, bench.SampleFilter{}, 0, 500)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, x := range list {
		if x.Content.Parent == si.ID && slices.Equal(x.Content.AllImages(), now) && x.Content.AnswerText == "no" {
			found = true
		}
	}
	if !found {
		t.Errorf("no sample of the shuffled order %v after Accept (status %q)", now, v.status.Text)
	}
}
