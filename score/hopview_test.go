package score_test

import (
	"context"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
)

// TestHopViewBreakdown: hop and view together, as the papers' per-hop × view
// table: one group per pair a hop question has, ordered by hop then view, and no
// group for samples without a hop or a view.
func TestHopViewBreakdown(t *testing.T) {
	gs := golds()
	extra := gs[0]
	extra.Sample.ID, extra.Sample.Hop, extra.Sample.View = "mh-3", 2, annotate.ViewExo
	gs = append(gs, extra)
	ps := append(preds(), score.Prediction{SampleID: "mh-3", Response: "Answer: (c) the apple"})
	rep, _, err := score.Evaluate(context.Background(), "m", gs, ps, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		label string
		n     int
		acc   float64
	}{{"1/exo", 1, 100}, {"2/ego", 1, 0}, {"2/exo", 1, 100}}
	got := rep.By[score.ByHopView]
	if len(got) != len(want) {
		t.Fatalf("%d hop×view groups, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Label != w.label || got[i].MCQAcc == nil || got[i].MCQAcc.N != w.n || got[i].MCQAcc.Value != w.acc {
			t.Errorf("group %d: %s mcq_acc %+v, want %s n %d value %v", i, got[i].Label, got[i].MCQAcc, w.label, w.n, w.acc)
		}
	}
}
