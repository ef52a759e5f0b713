package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// lrrEvalRelease freezes lrr@1.0 on the demo project with four more accepted
// judgments (task pos on one image, task cam on three) and imports model m's
// answers: pos "Sure, it is." (gold yes) and "No." (gold no), cam "Yes" (gold
// yes) and "Yes" (gold no). Task pos weighs 0.5 in the project's settings.
func lrrEvalRelease(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	user := func(name string) bench.User {
		u, err := db.UserByName(ctx, bench.Owner(), name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	ann, lead := user("ann1"), user("lead")
	seq := []string{"0001-office-1/img_002.jpg", "0004-office-2/img_001.jpg"}
	for _, x := range []struct {
		id, task, answer string
		more             []string
	}{{"lrr-pos-1", "pos", "yes", nil}, {"lrr-pos-2", "pos", "no", nil}, {"lrr-cam-1", "cam", "yes", seq}, {"lrr-cam-2", "cam", "no", seq}} {
		smp := annotate.Sample{ID: x.id, Kind: annotate.KindJudgment, Task: x.task, Image: "0001-office-1/img_001.jpg", MoreImages: x.more,
			Question: "Is the lamp to the left of the desk in " + x.id + "?", AnswerText: x.answer}
		var acks []string
		for _, f := range annotate.Lint(smp, annotate.LintEnv{HandWritten: true}) {
			acks = append(acks, f.Rule)
		}
		si, err := db.CreateSample(ctx, ann, p.ID, smp)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Submit(ctx, ann, si.ID, si.Version, acks); err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			round int
			who   []string
		}{{1, []string{"ver1"}}, {2, []string{"ver3"}}, {3, []string{"ver5", "ver2", "ver4"}}} {
			for _, w := range r.who {
				cur, err := db.Sample(ctx, bench.Owner(), x.id)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.SubmitReview(ctx, user(w), bench.ReviewInput{SampleID: x.id, Round: r.round, BasedOn: cur.Revision, Seconds: 30,
					Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(cur.Kind, r.round)}}); err != nil {
					t.Fatalf("%s round %d by %s: %v", x.id, r.round, w, err)
				}
			}
		}
	}
	if _, err := db.SetSettings(ctx, lead, p.ID, map[string]string{"lrr_weight.pos": "0.5"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "lrr", Version: "1.0"}); err != nil {
		t.Fatal(err)
	}
	preds := []score.Prediction{{SampleID: "lrr-pos-1", Response: "Sure, it is."}, {SampleID: "lrr-pos-2", Response: "No."},
		{SampleID: "lrr-cam-1", Response: "Yes"}, {SampleID: "lrr-cam-2", Response: "Yes"}}
	if _, err := db.ImportPredictions(ctx, lead, "lrr@1.0", "m", preds, "m.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
}

// The Evaluate screen offers the yes/no rule, shows lrr_score on the leaderboard
// (by hand: pos w 0.5, cam w 1; VLMEvalKit reads "Sure, it is." as nothing, so pos
// is 50 % → 0 and cam 50 % → 0; LRR-Bench reads it as Yes, so pos is 100 % →
// 0.5·100 = 50, at most 150) and breaks the figures down by modality.
func TestEvaluateLRRScoreAndModality(t *testing.T) {
	u, db := demoApp(t)
	db.Now = func() time.Time { return time.Date(2026, 4, 1, 9, 30, 0, 0, time.UTC) }
	lrrEvalRelease(t, db)
	u.win.Resize(fyne.NewSize(1280, 800))
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "lead", demo.DemoPassword)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Evaluate" })
	u.nav.Select(i)
	v := u.content.Objects[0].(*evaluateView)
	waitFor(t, "the scores", func() bool { return v.loads.Load() >= 1 })

	lrrCell := func() string {
		t.Helper()
		c := slices.Index(v.cols, "lrr_score")
		if c < 0 || len(v.boardRows) != 1 {
			t.Fatalf("columns %q, rows %q", v.cols, v.boardRows)
		}
		return v.boardRows[0][2+c]
	}
	if got := v.yesNo.Selected; got != string(score.YesNoVLMEvalKit) {
		t.Errorf("yes/no rule %q by default", got)
	}
	if got := lrrCell(); !strings.HasPrefix(got, "0.0 [") {
		t.Errorf("VLMEvalKit's rule: lrr_score %q, want 0.0", got)
	}
	if !strings.Contains(v.boardNote.Text, "at most 150 here") {
		t.Errorf("note %q", v.boardNote.Text)
	}
	// By modality: the demo's accepted samples and pos show one image, cam three.
	if len(v.modalRows) != 2 || v.modalRows[0][1] != "image" || v.modalRows[1][1] != "images" || v.modalRows[1][2] != "2" {
		t.Fatalf("by modality %q", v.modalRows)
	}
	col := func(name string) int { return slices.Index(v.modalHead, name) }
	if c := col("judgment_acc"); c < 0 || !strings.HasPrefix(v.modalRows[1][c], "50.0 [") {
		t.Errorf("images judgment_acc: head %q rows %q", v.modalHead, v.modalRows)
	}
	if c := col("lrr_score"); c < 0 || !strings.HasPrefix(v.modalRows[1][c], "0.0 [") {
		t.Errorf("images lrr_score: head %q rows %q", v.modalHead, v.modalRows)
	}

	before := v.loads.Load()
	v.yesNo.SetSelected(string(score.YesNoLRR))
	waitFor(t, "the scores again", func() bool { return v.loads.Load() > before })
	if got := lrrCell(); !strings.HasPrefix(got, "50.0 [") {
		t.Errorf("LRR-Bench's rule: lrr_score %q, want 50.0", got)
	}
	if c := col("lrr_score"); !strings.HasPrefix(v.modalRows[0][c], "50.0 [") {
		t.Errorf("image lrr_score under LRR-Bench's rule: %q", v.modalRows[0])
	}
}
