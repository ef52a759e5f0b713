package ui

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/store"
)

func TestCurateHardSubsetFromEvaluate(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	cv := v.openCuration()
	if cv == nil || u.content.Objects[0] != cv.root {
		t.Fatal("the curation view is not shown")
	}
	if cv.subset.Selected != "" || len(cv.cands) != 0 {
		t.Fatalf("a fresh release has a list: %q", cv.subset.Selected)
	}
	propose := findButton(t, cv.root, "Propose")
	test.Tap(propose)
	waitFor(t, "the candidates", func() bool { return len(cv.cands) > 0 })
	// half and unparseable fail demo-hq-002, demo-op-002, demo-sg-001 and demo-yn-001;
	// unparseable alone the others.
	var ids []string
	for _, c := range cv.cands {
		ids = append(ids, c.SampleID)
	}
	if want := []string{"demo-hq-002", "demo-op-002", "demo-sg-001", "demo-yn-001"}; !slices.Equal(ids, want) {
		t.Fatalf("candidates %v, want %v", ids, want)
	}
	for i := range cv.cands {
		cv.list.Select(i)
		if i == 2 {
			cv.decision.SetSelected("drop")
			test.Type(cv.reason, "ambiguous step order")
		} else {
			cv.decision.SetSelected("keep")
		}
		test.Tap(cv.save)
	}
	if h, _ := cv.current(); h.Kept != 3 || h.Dropped != 1 {
		t.Fatalf("after deciding: %+v (%s)", h, cv.status.Text)
	}
	test.Tap(cv.freeze)
	rel, err := u.db.ReleaseByRef(context.Background(), store.Owner(), u.project.ID, "bench-hard@1.0")
	if err != nil || rel.Samples != 3 {
		t.Fatalf("frozen %+v, %v (%s)", rel, err, cv.status.Text)
	}
	if h, _ := cv.current(); h.Frozen != "bench-hard@1.0" || !cv.save.Disabled() {
		t.Errorf("the list after freezing: %+v", h)
	}
}

func TestHumanBaselineAnsweredBlind(t *testing.T) {
	u, db := demoApp(t)
	evalRelease(t, db)
	ctx := context.Background()
	lead, _ := db.UserByName(ctx, store.Owner(), "lead")
	if _, err := db.DrawHumanBaseline(ctx, lead, "bench@1.0", 0, 1); err != nil {
		t.Fatal(err)
	}
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "ann1", demo.DemoPassword)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Human baseline" })
	if i < 0 {
		t.Fatal("an annotator has no Human baseline screen")
	}
	u.nav.Select(i)
	hv, ok := u.content.Objects[0].(*humanView)
	if !ok || len(hv.items) != 5 { // the six samples but the step graph
		t.Fatalf("items %v", hv)
	}
	// demo-hq-001 is shown first: choose (a), the gold, and draw no box.
	if hv.chosen != 0 || hv.items[0].SampleID != "demo-hq-001" {
		t.Fatalf("shown %d", hv.chosen)
	}
	for _, o := range hv.items {
		if o.Answered != "" {
			t.Fatal("answered before answering")
		}
	}
	hv.options.SetSelected(hv.options.Options[0])
	test.Tap(findButton(t, hv.body, "Save and next"))
	if hv.chosen != 1 || hv.items[0].Answered != "Answer: (a) the lamp" {
		t.Fatalf("after saving: chosen %d, stored %q (%s)", hv.chosen, hv.items[0].Answered, hv.status.Text)
	}
	ver, _ := db.UserByName(ctx, store.Owner(), "ver1")
	rep, ok, err := db.HumanReport(ctx, ver, "bench@1.0", score.Options{Draws: -1})
	if err != nil || !ok || rep.Model != "Human (1 person, 5 items)" || rep.Overall.MCQAcc.Value != 100 {
		t.Fatalf("report %+v %v %v", rep, ok, err)
	}
}
