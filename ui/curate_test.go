package ui

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/score"
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
	rel, err := u.db.As(bench.Owner()).ReleaseByRef(context.Background(), u.project.ID, "bench-hard@1.0")
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
	lead, _ := db.UserByName(ctx, bench.Owner(), "lead")
	if _, err := db.DrawHumanBaseline(ctx, lead, "bench@1.0", 0, 1); err != nil {
		t.Fatal(err)
	}
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "ver5", demo.DemoPassword) // annotators are not offered the baseline (verify.Offered)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Human baseline" })
	if i < 0 {
		t.Fatal("a verifier has no Human baseline screen")
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
	ver, _ := db.UserByName(ctx, bench.Owner(), "ver1")
	rep, ok, err := db.HumanReport(ctx, ver, "bench@1.0", score.Options{Draws: -1})
	if err != nil || !ok || rep.Model != "Human (1 person, 5 items)" || rep.Overall.MCQAcc.Value != 100 {
		t.Fatalf("report %+v %v %v", rep, ok, err)
	}
}

// TestHumanBaselineShowsSequences: a person answering an item of several images
// sees each of them, by its label, in the sample's order.
func TestHumanBaselineShowsSequences(t *testing.T) {
	u, db := demoApp(t)
	ctx := context.Background()
	p, err := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	ann, _ := db.UserByName(ctx, bench.Owner(), "ann1")
	seq := []string{"0001-office-1/img_001.jpg", "0002-kitchen-1/img_001.jpg", "0003-livingroom-1/img_001.jpg"}
	s := annotate.Sample{ID: "demo-seq-001", Kind: annotate.KindJudgment, Question: "Does the camera move forward from A to C?", AnswerText: "yes"}
	s.SetImages(seq)
	si, err := db.CreateSample(ctx, ann, p.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	verifyDemoSample(t, db, si.ID)
	lead, _ := db.UserByName(ctx, bench.Owner(), "lead")
	if _, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "seq", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DrawHumanBaseline(ctx, lead, "seq@1", 0, 1); err != nil {
		t.Fatal(err)
	}
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "ver6", demo.DemoPassword)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Human baseline" })
	if i < 0 {
		t.Fatal("no Human baseline screen")
	}
	u.nav.Select(i)
	hv := u.content.Objects[0].(*humanView)
	k := slices.IndexFunc(hv.items, func(it bench.HumanItem) bool { return it.SampleID == "demo-seq-001" })
	if k < 0 {
		t.Fatalf("the sequence is not among the items of %v", hv.items)
	}
	if it := hv.items[k]; !slices.Equal(append([]string{it.ImagePath}, it.More...), seq) || !slices.Equal(it.Labels, []string{"A", "B", "C"}) {
		t.Fatalf("the item holds %s + %v labelled %v", it.ImagePath, it.More, it.Labels)
	}
	hv.show(k)
	if len(hv.seqButtons) != 3 || hv.seqButtons[2].Text != "C" {
		t.Fatalf("%d image buttons", len(hv.seqButtons))
	}
	test.Tap(hv.seqButtons[2])
	waitFor(t, "image C", func() bool { return hv.seqShown.Load() >= 1 })
	if hv.seqButtons[2].Importance != widget.HighImportance || hv.seqButtons[0].Importance == widget.HighImportance {
		t.Errorf("the shown image's button is not the one marked")
	}
	other := slices.IndexFunc(hv.items, func(it bench.HumanItem) bool { return len(it.More) == 0 })
	hv.show(other)
	if len(hv.seqButtons) != 0 {
		t.Errorf("an item of one image shows %d image buttons", len(hv.seqButtons))
	}
}
