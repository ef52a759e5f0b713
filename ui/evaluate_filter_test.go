package ui

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/benchwright/benchwright/bench"
)

// listed is the ids of the samples the Samples tab lists.
func listed(v *evaluateView) []string {
	var ids []string
	for _, k := range v.shown {
		ids = append(ids, v.items[k].SampleID)
	}
	return ids
}

// The Samples tab finds samples by id or question, kind and hop, and lists only
// those a model got wrong (issue 27 item 16).
func TestEvaluateSamplesFilter(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	f := v.sampleFilter
	all := []string{"demo-hq-001", "demo-hq-002", "demo-mc-001", "demo-op-002", "demo-sg-001", "demo-yn-001"}
	if got := listed(v); !slices.Equal(got, all) || f.count.Text != "6 of 6 samples" {
		t.Fatalf("unfiltered: %q, %q", got, f.count.Text)
	}
	// Each line says how many models got the sample wrong: perfect, half and unparseable.
	if got := v.sampleLine(v.items[1]); got != "demo-hq-002 · hop_qa · 2 of 3 wrong" {
		t.Errorf("demo-hq-002's line: %q", got)
	}
	for _, tc := range []struct {
		name         string
		text         string
		kind, hop    string
		wrong        bool
		want         []string
		countReading string
	}{
		{name: "an id", text: "HQ-00", want: []string{"demo-hq-001", "demo-hq-002"}, countReading: "2 of 6 samples"},
		{name: "the question", text: "largest", want: []string{"demo-hq-002"}, countReading: "1 of 6 samples"},
		{name: "a kind", kind: "open", want: []string{"demo-op-002"}, countReading: "1 of 6 samples"},
		{name: "a hop", hop: "hop 2", want: []string{"demo-hq-002"}, countReading: "1 of 6 samples"},
		{name: "nothing", text: "no such words", want: nil, countReading: "0 of 6 samples"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.search.SetText("")
			f.kind.SetSelected(evalEveryKind)
			f.hop.SetSelected(evalEveryHop)
			if tc.text != "" {
				test.Type(f.search, tc.text)
			}
			if tc.kind != "" {
				f.kind.SetSelected(tc.kind)
			}
			if tc.hop != "" {
				if !slices.Contains(f.hop.Options, tc.hop) {
					t.Fatalf("hop options %q", f.hop.Options)
				}
				f.hop.SetSelected(tc.hop)
			}
			if got := listed(v); !slices.Equal(got, tc.want) || f.count.Text != tc.countReading {
				t.Errorf("listed %q (%q), want %q", got, f.count.Text, tc.want)
			}
		})
	}
	f.search.SetText("")
	f.kind.SetSelected(evalEveryKind)
	f.hop.SetSelected(evalEveryHop)

	// A release no model was run on cannot filter on answers.
	if _, err := u.db.As(u.user).Freeze(context.Background(), bench.FreezeInput{ProjectID: u.project.ID, Name: "bench", Version: "2.0"}); err != nil {
		t.Fatal(err)
	}
	n := v.loads.Load()
	test.Tap(v.refresh)
	waitFor(t, "the refresh", func() bool { return v.loads.Load() > n })
	n = v.loads.Load()
	v.release.SetSelected("bench@2.0")
	waitFor(t, "the new release", func() bool { return v.loads.Load() > n })
	if !f.wrong.Disabled() || len(v.shown) != 6 {
		t.Errorf("without models: wrong only enabled %v, %d listed", !f.wrong.Disabled(), len(v.shown))
	}
	// With two models, "wrong only" leaves out what both got right.
	for _, m := range []string{"perfect", "half"} {
		if _, err := u.db.As(u.user).ImportPredictions(context.Background(), "bench@2.0", m, evalPredictions[m], m+".jsonl", bench.PredictionRun{}); err != nil {
			t.Fatal(err)
		}
	}
	n = v.loads.Load()
	test.Tap(v.refresh)
	waitFor(t, "the scores", func() bool { return v.loads.Load() > n })
	test.Tap(f.wrong)
	got := listed(v)
	var want []string
	for _, id := range all {
		if len(v.outcomes[id].Wrong) > 0 {
			want = append(want, id)
		}
	}
	if !slices.Equal(got, want) || slices.Contains(got, "demo-hq-001") || !slices.Contains(got, "demo-hq-002") {
		t.Errorf("wrong only: %q, want %q (demo-hq-001 right by both, demo-hq-002 wrong by half)", got, want)
	}
}
