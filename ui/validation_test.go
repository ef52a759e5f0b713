package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// openValidation signs name in on the demo project and shows the Validation screen.
func openValidation(t *testing.T, u *App, name string) *validationView {
	t.Helper()
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, name, demo.DemoPassword)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Validation" })
	if i < 0 {
		t.Fatalf("%s has no Validation screen", name)
	}
	u.nav.Select(i)
	v, ok := u.content.Objects[0].(*validationView)
	if !ok {
		t.Fatalf("the Validation screen is a %T", u.content.Objects[0])
	}
	waitValidation(t, v, 1)
	return v
}

// waitValidation waits until the screen has finished n loads and actions in all.
func waitValidation(t *testing.T, v *validationView, n int32) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for v.loads.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the Validation screen did not finish (%d of %d loads); message %q", v.loads.Load(), n, v.message.Text)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// generatedFile writes a generated set: per[task] valid hop questions of each
// task over the demo's images, then a record of an unknown kind, one on an
// image the project lacks, and a duplicate of the first question.
func generatedFile(t *testing.T, db *store.DB, per map[string]int) string {
	t.Helper()
	ims, err := db.Images(context.Background(), bench.Owner(), 1, 0, 100)
	if err != nil || len(ims) == 0 {
		t.Fatalf("demo images: %v", err)
	}
	var lines []string
	add := func(s annotate.Sample) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	hop := func(id, image, q, task string) annotate.Sample {
		return annotate.Sample{ID: id, Kind: annotate.KindHopQA, Image: image, Task: task, Question: q, QuestionTag: "<REL>" + q + "</REL>",
			Options: []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
			Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}}
	}
	var first annotate.Sample
	n := 0
	for _, task := range []string{"T1", "T2", "T3"} {
		for range per[task] {
			n++
			s := hop(fmt.Sprintf("gen-%03d", n), ims[n%len(ims)].RelPath, fmt.Sprintf("Which object is closest to marker %d?", n), task)
			if n == 1 {
				first = s
			}
			add(s)
		}
	}
	lines = append(lines, `{"id": "gen-bad-kind", "kind": "riddle"}`)
	add(hop("gen-bad-image", "nowhere/x.jpg", "Which object is left of the lamp?", "T1"))
	dup := first
	dup.ID = "gen-bad-dup"
	add(dup)
	path := filepath.Join(t.TempDir(), "gen1.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// judgeRound1 judges every round-1 sample of the batch as ver1: those in reject
// are rejected, the others approved.
func judgeRound1(t *testing.T, db *store.DB, reject func(bench.SampleInfo) bool) {
	t.Helper()
	ctx := context.Background()
	ver, err := db.Authenticate(ctx, "ver1", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	items, err := db.Samples(ctx, bench.Owner(), 1, bench.SampleFilter{Status: verify.StateRound1}, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range items {
		if !strings.HasPrefix(si.ID, "gen-") {
			continue
		}
		v := verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, 1)}
		if reject(si) {
			v = verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}, Comment: "the marker is not visible"}
		}
		if _, err := db.SubmitReview(ctx, ver, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: v}); err != nil {
			t.Fatalf("%s: %v", si.ID, err)
		}
	}
}

func rowOf(v *validationView, stratum string) []string {
	for _, r := range v.rows {
		if r[0] == stratum {
			return r
		}
	}
	return nil
}

// TestValidationScreenLead walks a lead through a batch: import (findings per
// record), a draw, a refusal with the store's numbers, enlarging, and accepting
// the rest after a confirmation.
func TestValidationScreenLead(t *testing.T) {
	u, db := demoApp(t)
	ctx := context.Background()
	v := openValidation(t, u, "lead")
	if v.draw != nil || len(v.batches) != 0 {
		t.Fatal("a draw form or batches before any import")
	}

	// Import: 44 items; three records left out, each named with its line.
	path := generatedFile(t, db, map[string]int{"T1": 12, "T2": 16, "T3": 16})
	loads := v.loads.Load()
	v.importFile(path, "gen1", "")
	waitValidation(t, v, loads+3)
	if len(v.batches) != 1 || v.batches[0].Items != 44 || !strings.Contains(v.message.Text, "3 records left out") {
		t.Fatalf("after the import: %+v, %q", v.batches, v.message.Text)
	}
	var got []string
	for _, f := range v.findings {
		got = append(got, f[0]+" "+f[1]+" "+f[2])
	}
	want := []string{"45  schema", "46 gen-bad-image " + bench.CheckImageMissing, "47 gen-bad-dup " + bench.CheckDuplicate}
	if !slices.Equal(got, want) {
		t.Errorf("import findings per record %q, want %q", got, want)
	}
	if !strings.Contains(v.verdict.Text, "no sample has been drawn yet") || !v.accept.Disabled() {
		t.Errorf("before a draw: %q, accept enabled %v", v.verdict.Text, !v.accept.Disabled())
	}

	// Draw 10 per task, seeded, threshold 40 %.
	v.perStrat.SetText("10")
	v.seed.SetText("11")
	v.threshold.SetText("40 %")
	loads = v.loads.Load()
	test.Tap(v.draw)
	waitValidation(t, v, loads+3)
	if r := rowOf(v, "batch"); r == nil || r[2] != "30" || r[3] != "30" {
		t.Fatalf("after the draw, the batch row %q (message %q)", r, v.message.Text)
	}
	if !strings.Contains(v.verdict.Text, "30 sampled items still wait for round 1") || !v.accept.Disabled() {
		t.Errorf("with the sample unjudged: %q", v.verdict.Text)
	}
	if !v.stratify.Disabled() || !v.seed.Disabled() || v.seed.Text != "11" {
		t.Error("the policy the first draw fixed can still be changed")
	}

	// Three errors in T1: the batch's bound (3 in 30) is below 40 %, T1's (3 in 10)
	// is not. The store refuses; the screen says so with the store's numbers and
	// does not offer the acceptance a batch-only rule would.
	rejected := 0
	judgeRound1(t, db, func(si bench.SampleInfo) bool {
		if si.Content.Task == "T1" && rejected < 3 {
			rejected++
			return true
		}
		return false
	})
	loads = v.loads.Load()
	v.choose("gen1")
	waitValidation(t, v, loads+1)
	st, err := db.ValidationStatus(ctx, u.user, u.project.ID, "gen1")
	if err != nil {
		t.Fatal(err)
	}
	if r := rowOf(v, "batch"); r[4] != "30" || r[5] != "3" || r[8] != "yes" {
		t.Fatalf("batch row %q", r)
	}
	if r := rowOf(v, "T1"); r[5] != "3" || r[8] != "no" || r[7] != fmt.Sprintf("[%.2f %%, %.2f %%]", 100*st.Strata[0].CI.Low, 100*st.Strata[0].CI.High) {
		t.Fatalf("T1 row %q", r)
	}
	if st.Refusal == "" || v.verdict.Text != "The rest cannot be accepted: "+st.Refusal+"." || !strings.Contains(v.verdict.Text, "T1: 3 errors in 10 (30.00 %)") {
		t.Errorf("verdict %q, store's refusal %q", v.verdict.Text, st.Refusal)
	}
	if !v.accept.Disabled() {
		t.Error("Accept the rest is offered while the store refuses it")
	}

	// Enlarge to 12 per task: T1 is sampled in full, T2 and T3 get 2 more each.
	v.perStrat.SetText("12")
	loads = v.loads.Load()
	test.Tap(v.draw)
	waitValidation(t, v, loads+3)
	judgeRound1(t, db, func(bench.SampleInfo) bool { return false })
	loads = v.loads.Load()
	v.choose("gen1")
	waitValidation(t, v, loads+1)
	if v.accept.Disabled() || v.verdict.Text != "The rest may be accepted by sampling: 8 items not sampled." {
		t.Fatalf("after enlarging: %q, accept disabled %v", v.verdict.Text, v.accept.Disabled())
	}
	before, _ := db.StatusCounts(ctx, bench.Owner(), u.project.ID)

	// Accept the rest, confirmed.
	test.Tap(v.accept)
	loads = v.loads.Load()
	dialogButton(t, u, "Accept the rest")
	waitValidation(t, v, loads+3)
	after, _ := db.StatusCounts(ctx, bench.Owner(), u.project.ID)
	if d := after[verify.StateAccepted] - before[verify.StateAccepted]; d != 8 {
		t.Errorf("%d samples accepted, want 8 (message %q)", d, v.message.Text)
	}
	if !strings.Contains(v.message.Text, "8 items accepted by sampling") || !strings.Contains(batchLine(v.batches[0]), "8 accepted by sampling") {
		t.Errorf("after accepting: %q, list %q", v.message.Text, batchLine(v.batches[0]))
	}
	if v.st.Batch.AcceptedBy != "lead" || !v.accept.Disabled() {
		t.Errorf("batch after accepting %+v, accept disabled %v", v.st.Batch, v.accept.Disabled())
	}

	// The dashboard marks them: accepted, of which 8 by sampling.
	u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Dashboard" }))
	dv := u.content.Objects[0].(*dashboardView)
	waitLoads(t, dv, 1)
	if want := fmt.Sprintf("%d accepted (8 accepted by sampling)", after[verify.StateAccepted]); !strings.Contains(dv.status.Text, want) {
		t.Errorf("dashboard status %q, want %q", dv.status.Text, want)
	}
}

// TestValidationScreenRoles: verifiers see batches read-only (access table:
// ActionSeeValidation); annotators have no Validation entry.
func TestValidationScreenRoles(t *testing.T) {
	u, db := demoApp(t)
	lead, err := db.Authenticate(context.Background(), "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(generatedFile(t, db, map[string]int{"T1": 3}))
	if err != nil {
		t.Fatal(err)
	}
	recs, _, err := annotate.ImportNative(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportBatch(context.Background(), lead, bench.ImportBatchInput{ProjectID: 1, Name: "gen1", Records: recs}); err != nil {
		t.Fatal(err)
	}
	v := openValidation(t, u, "ver1")
	if len(v.batches) != 1 {
		t.Fatalf("a verifier sees %d batches", len(v.batches))
	}
	loads := v.loads.Load()
	v.list.Select(0)
	waitValidation(t, v, loads+1)
	if v.draw != nil || v.accept.Visible() || v.lead {
		t.Error("a verifier is offered a draw or the acceptance")
	}
	if rowOf(v, "batch") == nil {
		t.Error("a verifier sees no estimates")
	}

	u2, _ := demoApp(t)
	u2.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u2, "ann1", demo.DemoPassword)
	if slices.ContainsFunc(u2.screens, func(s screen) bool { return s.title == "Validation" }) {
		t.Error("an annotator has a Validation screen")
	}
}
