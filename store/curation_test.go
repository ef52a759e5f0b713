package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/score"
)

// threeModels imports, on scoreRelease's bench@1: oracle (every answer right),
// half (right on hq-1 and mc-1 only) and blank (nothing readable). By hand the
// samples are failed by: hq-1 blank; mc-1 blank; op-1, sg-1 and yn-1 blank and half.
func threeModels(t *testing.T, f relFixture) {
	t.Helper()
	ctx := context.Background()
	perfect := perfectPredictions()
	var half, blank []score.Prediction
	for i, p := range perfect {
		h := score.Prediction{SampleID: p.SampleID, Response: "I do not know."}
		if i < 2 {
			h = p
		}
		half = append(half, h)
		blank = append(blank, score.Prediction{SampleID: p.SampleID, Response: "I do not know."})
	}
	for model, preds := range map[string][]score.Prediction{"oracle": perfect, "half": half, "blank": blank} {
		if _, err := f.db.ImportPredictions(ctx, f.lead, "bench@1", model, preds, model+".jsonl", bench.PredictionRun{}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHardSubsetProposeDecideFreeze(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	threeModels(t, f)

	for _, u := range []bench.User{f.ann, f.ver} {
		if _, err := f.db.ProposeHardSubset(ctx, u, "bench@1", bench.HardSubsetInput{K: 2}); !errors.Is(err, bench.ErrForbidden) ||
			!strings.Contains(err.Error(), "only leads may curate hard subsets") {
			t.Errorf("%s proposes: %v", u.Name, err)
		}
	}
	h, err := f.db.ProposeHardSubset(ctx, f.lead, "bench@1", bench.HardSubsetInput{K: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	if h.Pool != 3 || h.Candidates != 3 || h.N != 3 || h.K != 2 || !reflect.DeepEqual(h.Models, []string{"blank", "half", "oracle"}) ||
		h.Undecided() != 3 || h.Frozen != "" || h.Release != "bench@1" {
		t.Errorf("subset %+v", h)
	}
	_, cs, err := f.db.HardCandidates(ctx, f.lead, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	type cand struct{ id, cat, by string }
	var got []cand
	for _, c := range cs {
		got = append(got, cand{c.SampleID, c.Category, strings.Join(c.FailedBy, ",")})
	}
	want := []cand{{"op-1", "open/task=", "blank,half"}, {"sg-1", "step_graph/task=", "blank,half"}, {"yn-1", "judgment/task=", "blank,half"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("candidates %v, want %v", got, want)
	}
	// The same settings again (models in another order) are the same list.
	if _, err := f.db.ProposeHardSubset(ctx, f.lead, "bench@1", bench.HardSubsetInput{Models: []string{"oracle", "half", "blank"}, K: 2, Seed: 5}); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("the same list again: %v", err)
	}
	for name, in := range map[string]bench.HardSubsetInput{
		"k above n":     {K: 4},
		"nothing":       {K: 3}, // the oracle fails nothing
		"unknown model": {Models: []string{"gpt-9"}, K: 1},
	} {
		if _, err := f.db.ProposeHardSubset(ctx, f.lead, "bench@1", in); err == nil {
			t.Errorf("%s: proposed", name)
		}
	}
	// A model named without a run is refused as not found, in the sentence a score
	// of it gives (bench.ChooseModels).
	if _, err := f.db.ProposeHardSubset(ctx, f.lead, "bench@1", bench.HardSubsetInput{Models: []string{"half", "gpt-9"}, K: 1}); !errors.Is(err, bench.ErrNotFound) ||
		!strings.Contains(err.Error(), "model gpt-9: not found among the predictions of bench@1") {
		t.Errorf("a model without predictions: %v", err)
	}

	if _, err := f.db.FreezeHardSubset(ctx, f.lead, h.ID, "bench-hard", "1"); !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), "3 of the 3 candidates are undecided") {
		t.Errorf("freeze undecided: %v", err)
	}
	if _, err := f.db.DecideHardCandidates(ctx, f.lead, h.ID, []bench.HardDecision{{SampleID: "sg-1", Decision: bench.DecisionDrop}}); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a drop without a reason: %v", err)
	}
	if _, err := f.db.DecideHardCandidates(ctx, f.lead, h.ID, []bench.HardDecision{{SampleID: "hq-1", Decision: bench.DecisionKeep}}); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("deciding a sample not in the list: %v", err)
	}
	if _, err := f.db.DecideHardCandidates(ctx, f.ver, h.ID, []bench.HardDecision{{SampleID: "op-1", Decision: bench.DecisionKeep}}); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("a verifier decides: %v", err)
	}
	h, err = f.db.DecideHardCandidates(ctx, f.lead, h.ID, []bench.HardDecision{
		{SampleID: "op-1", Decision: bench.DecisionKeep, Reason: "counting under occlusion"},
		{SampleID: "sg-1", Decision: bench.DecisionDrop, Reason: "  the gold order of the steps is arguable "},
		{SampleID: "yn-1", Decision: bench.DecisionDrop, Reason: "x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Deciding again replaces the decision.
	if h, err = f.db.DecideHardCandidates(ctx, f.lead, h.ID, []bench.HardDecision{{SampleID: "yn-1", Decision: bench.DecisionKeep}}); err != nil {
		t.Fatal(err)
	}
	if h.Kept != 2 || h.Dropped != 1 || h.Undecided() != 0 {
		t.Errorf("after deciding: %+v", h)
	}

	rel, err := f.db.FreezeHardSubset(ctx, f.lead, h.ID, "bench-hard", "1")
	if err != nil {
		t.Fatal(err)
	}
	if rel.Samples != 2 || rel.Ref() != "bench-hard@1" {
		t.Errorf("frozen %+v", rel)
	}
	parent, _ := f.db.ReleaseByRef(ctx, bench.Owner(), f.project.ID, "bench@1")
	pItems, _ := f.db.ReleaseItems(ctx, bench.Owner(), parent.ID)
	items, _ := f.db.ReleaseItems(ctx, bench.Owner(), rel.ID)
	if len(items) != 2 || items[0].SampleID != "op-1" || items[1].SampleID != "yn-1" {
		t.Fatalf("items %+v", items)
	}
	for _, it := range items {
		for _, p := range pItems {
			if p.SampleID == it.SampleID && (p.RevisionID != it.RevisionID || p.ImageSHA256 != it.ImageSHA256 || p.Split != it.Split) {
				t.Errorf("%s: frozen %+v, parent froze %+v", it.SampleID, it, p)
			}
		}
	}
	if _, err := f.db.DecideHardCandidates(ctx, f.lead, h.ID, []bench.HardDecision{{SampleID: "op-1", Decision: bench.DecisionDrop, Reason: "late"}}); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("deciding after the freeze: %v", err)
	}
	if _, err := f.db.FreezeHardSubset(ctx, f.lead, h.ID, "bench-hard", "2"); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("freezing twice: %v", err)
	}
	list, err := f.db.HardSubsets(ctx, f.lead, "bench@1")
	if err != nil || len(list) != 1 || list[0].Frozen != "bench-hard@1" {
		t.Errorf("list %+v, %v", list, err)
	}

	// The export's MANIFEST records the provenance.
	out := filepath.Join(t.TempDir(), "hard")
	if _, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: "bench-hard@1", ProjectID: f.project.ID, Format: "native", OutDir: out}, nil); err != nil {
		t.Fatal(err)
	}
	m, err := release.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Release.Curation
	if c == nil {
		t.Fatal("the manifest records no curation")
	}
	if c.Method != "hard-subset" || c.Parent != "bench@1" || c.K != 2 || c.N != 3 || c.Seed != 5 || c.Pool != 3 || c.Candidates != 3 || c.Kept != 2 ||
		!reflect.DeepEqual(c.Models, []string{"blank", "half", "oracle"}) || c.ProposedBy != "lead" || m.Counts.Samples != 2 {
		t.Errorf("curation %+v", c)
	}
	var decisions []string
	for _, d := range c.Decisions {
		decisions = append(decisions, d.SampleID+" "+d.Decision+" "+d.Reason+" by "+d.DecidedBy)
	}
	wantD := []string{"op-1 keep counting under occlusion by lead", "sg-1 drop the gold order of the steps is arguable by lead", "yn-1 keep  by lead"}
	if !reflect.DeepEqual(decisions, wantD) {
		t.Errorf("decisions %q, want %q", decisions, wantD)
	}
	// A release frozen from the project has no curation.
	out2 := filepath.Join(t.TempDir(), "bench")
	if _, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: "bench@1", ProjectID: f.project.ID, Format: "native", OutDir: out2}, nil); err != nil {
		t.Fatal(err)
	}
	if m2, _ := release.ReadManifest(out2); m2.Release.Curation != nil {
		t.Errorf("bench@1 has a curation: %+v", m2.Release.Curation)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["hard.propose"] != 1 || counts["hard.decide"] != 2 || counts["denied:hard.propose"] != 2 || counts["denied:hard.decide"] != 1 {
		t.Errorf("audit %v", counts)
	}
}

func TestHumanBaseline(t *testing.T) {
	ctx := context.Background()
	f := scoreRelease(t)
	if _, err := f.db.DrawHumanBaseline(ctx, f.ver, "bench@1", 3, 1); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("a verifier draws: %v", err)
	}
	b, err := f.db.DrawHumanBaseline(ctx, f.lead, "bench@1", 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.DrawHumanBaseline(ctx, f.lead, "bench@1", 3, 2); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("a second baseline: %v", err)
	}
	// Four samples a person can answer (sg-1 is a step graph), one per stratum,
	// quotas 0.75 each: the first three strata by name take one each.
	items, err := f.db.HumanItems(ctx, f.ann, "bench@1")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, it := range items {
		ids = append(ids, it.SampleID)
		if it.Answered != "" || it.Question == "" || it.ImagePath == "" {
			t.Errorf("item %+v", it)
		}
	}
	if b.Items != 3 || !reflect.DeepEqual(ids, []string{"hq-1", "mc-1", "yn-1"}) {
		t.Fatalf("baseline %+v, items %v", b, ids)
	}
	if _, ok, err := f.db.HumanReport(ctx, f.ver, "bench@1", score.Options{}); ok || err != nil {
		t.Errorf("a report before any answer: %v, %v", ok, err)
	}
	answer := func(u bench.User, id string, a score.HumanAnswer) error {
		return f.db.AnswerHuman(ctx, u, "bench@1", id, a)
	}
	// ann: hq-1 right with the gold box drawn from its far corner, mc-1 wrong
	// (then right, then wrong again: the last answer counts).
	for _, step := range []struct {
		u  bench.User
		id string
		a  score.HumanAnswer
	}{
		{f.ann, "hq-1", score.HumanAnswer{Option: 1, Box: &annotate.Box{40, 30, 10, 10}}},
		{f.ann, "mc-1", score.HumanAnswer{Option: 1}},
		{f.ann, "mc-1", score.HumanAnswer{Option: 0}},
		{f.ver, "yn-1", score.HumanAnswer{Option: -1, Text: "no"}},
	} {
		if err := answer(step.u, step.id, step.a); err != nil {
			t.Fatal(err)
		}
	}
	if err := answer(f.ann, "op-1", score.HumanAnswer{Text: "2"}); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("answering an item not drawn: %v", err)
	}
	if err := answer(f.ann, "mc-1", score.HumanAnswer{Option: 7}); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("an option out of range: %v", err)
	}
	items, _ = f.db.HumanItems(ctx, f.ann, "bench@1")
	if items[1].Answered != "A" || items[2].Answered != "" {
		t.Errorf("ann's answers %q, %q", items[1].Answered, items[2].Answered)
	}
	if _, _, err := f.db.HumanReport(ctx, f.ann, "bench@1", score.Options{}); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("an annotator sees the human row: %v", err)
	}
	rep, ok, err := f.db.HumanReport(ctx, f.ver, "bench@1", score.Options{Draws: -1})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	// By hand: three answers; option questions hq-1 right, mc-1 wrong: 50; the
	// hop box is the gold one: acc50iou 100 over 1; the judgment right.
	if rep.Model != "Human (2 people, 3 items)" || rep.N != 3 {
		t.Errorf("report %s n %d", rep.Model, rep.N)
	}
	checkFigures(t, rep, map[string][2]float64{
		"parsed": {100, 3}, "mcq_acc": {50, 2}, "mcq_acc_parsed_denominator": {50, 2}, "acc50iou": {100, 1},
		"acc50iou_parsed_denominator": {100, 1}, "mean_iou": {100, 1}, "judgment_acc": {100, 1},
	})
	b, _, _ = f.db.HumanBaselineOf(ctx, f.ann, "bench@1")
	if b.People != 2 || b.Answers != 3 {
		t.Errorf("baseline %+v", b)
	}
}
