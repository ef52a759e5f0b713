package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/bench"
)

// debiasService is a Service whose sessions propose a fixed debiased subset
// and list it, recording what the screen asked for; everything else is the
// real store's.
type debiasService struct {
	bench.Service
	asked *[]bench.DebiasInput
	made  bench.HardSubset
}

func (f debiasService) As(u bench.User) bench.Session { return debiasSession{f.Service.As(u), f} }

type debiasSession struct {
	bench.Session
	f debiasService
}

func (s debiasSession) ProposeDebiasedSubset(_ context.Context, _ string, in bench.DebiasInput) (bench.HardSubset, error) {
	*s.f.asked = append(*s.f.asked, in)
	return s.f.made, nil
}

func (s debiasSession) HardSubsets(context.Context, string) ([]bench.HardSubset, error) {
	return []bench.HardSubset{s.f.made}, nil
}

func (s debiasSession) HardCandidates(context.Context, int64) (bench.HardSubset, []bench.HardCandidate, error) {
	return s.f.made, []bench.HardCandidate{{SampleID: "demo-mc-001", Category: "longest"}}, nil
}

// TestCurateProposeDebiasedSubset: a lead proposes a debiased subset from the
// curation view, with bwctl debias propose's defaults (margin 10 points, 5 folds,
// seed 1) and no model run needed. Entries that are not numbers are refused in
// words before anything is sent; the store's refusal (the demo release has no
// shortcut to prune) is shown as its sentence; a proposal is chosen, and the
// summary says what the pruning did to each task it changed.
func TestCurateProposeDebiasedSubset(t *testing.T) {
	u, v := openEvaluate(t, "lead", fyne.NewSize(1280, 800))
	cv := v.openCuration()
	if cv == nil {
		t.Fatal("the curation view is not shown")
	}
	debias := findButton(t, cv.root, "Propose debiased")
	if cv.margin.Text != "10" || cv.folds.Text != "5" || cv.dseed.Text != "1" {
		t.Errorf("defaults: margin %q, folds %q, seed %q; want bwctl debias propose's 10, 5, 1", cv.margin.Text, cv.folds.Text, cv.dseed.Text)
	}
	cv.margin.SetText("ten")
	test.Tap(debias)
	if want := "The margin is a number of points"; !strings.HasPrefix(cv.status.Text, want) {
		t.Fatalf("status %q, want it to start %q", cv.status.Text, want)
	}

	cv.margin.SetText("10")
	test.Tap(debias)
	waitFor(t, "the refusal", func() bool { return strings.Contains(cv.status.Text, "there is nothing to prune") })
	if _, ok := cv.current(); ok {
		t.Errorf("a refused proposal left a subset chosen: %q", cv.subset.Selected)
	}

	var asked []bench.DebiasInput
	withService(u, debiasService{Service: u.db, asked: &asked, made: bench.HardSubset{ID: 7, Kind: bench.SubsetDebiased, Release: "bench@1.0",
		Margin: 0.075, Folds: 4, Seed: 9, Pool: 48, Candidates: 24, Done: true,
		Detail: "removing 24 of 48 samples brings every task's blind accuracy within 8 points of chance",
		Tasks: []bench.DebiasTask{
			{Task: "clean", N: 24, Left: 24, Before: 0.25, After: 0.25, Chance: 0.25},
			{Task: "longest", N: 24, Left: 0, Before: 1, After: 0, Chance: 0.25},
		}}})
	cv.margin.SetText(" 7.5 ")
	cv.folds.SetText("4")
	cv.dseed.SetText("9")
	test.Tap(debias)
	waitFor(t, "the debiased subset", func() bool { h, ok := cv.current(); return ok && h.ID == 7 })
	if len(asked) != 1 || asked[0] != (bench.DebiasInput{Margin: 0.075, Folds: 4, Seed: 9}) {
		t.Errorf("asked for %+v, want one proposal of margin 0.075, 4 folds, seed 9", asked)
	}
	if want := "Proposed debiased subset 7: 24 of 48 samples proposed for removal."; cv.status.Text != want {
		t.Errorf("status %q, want %q", cv.status.Text, want)
	}
	for _, want := range []string{
		"24 of the 48 samples a text-only model answers are proposed for removal",
		"Removing 24 of 48 samples brings every task's blind accuracy within 8 points of chance.",
		"\nlongest: blind accuracy 100.0 % → 0.0 % (chance 25.0 %), 0 of 24 samples left",
	} {
		if !strings.Contains(cv.summary.Text, want) {
			t.Errorf("summary %q lacks %q", cv.summary.Text, want)
		}
	}
	if strings.Contains(cv.summary.Text, "clean:") {
		t.Errorf("summary %q names a task the pruning left alone", cv.summary.Text)
	}
}
