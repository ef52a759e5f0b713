package score

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/sampling"
)

// Hard subsets (SpatialScore-Hard, ../shared/seeds/spatialscore.txt D.1): the
// samples of a release that at least K of N scored models fail, balanced over
// the categories to a target count by a seeded draw, become a candidate list a
// lead curates by hand; the kept samples are frozen into a release of their own.
// This file holds the selection rule; the store keeps the list and the
// decisions, and freezes.

// HardSpec says how a hard subset is selected.
type HardSpec struct {
	// K: a sample is a candidate when at least K of the models fail it
	// (1 <= K <= the number of models).
	K int `json:"k"`
	// Target is the number of candidates to select, balanced over the categories
	// (BalanceCounts); 0 selects every candidate.
	Target int `json:"target"`
	// Seed seeds the draw within each category (sampling.Draw).
	Seed int64 `json:"seed"`
	// Strict also counts as failed a hop question answered with the right option
	// whose box misses (no hit at IoU 0.5); without it failing is a wrong answer.
	Strict bool `json:"strict,omitempty"`
}

// ModelResults are one model's results on a release, in the gold order (ScoreAll's).
type ModelResults struct {
	Model   string
	Results []Result
}

// HardCandidate is a sample selected as hard.
type HardCandidate struct {
	SampleID string   `json:"sample_id"`
	Category string   `json:"category"`  // HardCategory of the sample
	FailedBy []string `json:"failed_by"` // the models that failed it, in the order given
}

// HardCategoryCount is one category of a selection: how many of its samples
// at least K models failed (Pool) and how many were selected.
type HardCategoryCount struct {
	Category string `json:"category"`
	Pool     int    `json:"pool"`
	Selected int    `json:"selected"`
}

// HardSelection is the outcome of SelectHard.
type HardSelection struct {
	Models     []string            `json:"models"` // the N models, in the order given
	Spec       HardSpec            `json:"spec"`
	Pool       int                 `json:"pool"`       // samples failed by at least K models
	Candidates []HardCandidate     `json:"candidates"` // the selected ones, in the gold order
	Categories []HardCategoryCount `json:"categories"` // by category name
}

// HardCategory is the category a sample is balanced in: the category set of a
// hop question ("hop_qa/att+pos", as the categories breakdown labels it), the
// task of the other kinds ("mcq/task=T3"; "mcq/task=" without one).
func HardCategory(s annotate.Sample) string {
	if s.Kind == annotate.KindHopQA {
		return string(s.Kind) + "/" + labels(s)[3]
	}
	return string(s.Kind) + "/task=" + s.Task
}

// Failed reports whether a result counts as a model failing its sample: a wrong
// answer (Result.Correct false: a missing or unreadable response included); with
// strict, also a hop question whose box is not a hit at IoU 0.5.
func Failed(r Result, strict bool) bool {
	if !r.Correct {
		return true
	}
	return strict && r.Kind == annotate.KindHopQA && !r.Hit50
}

// BalanceCounts says how many of each category to take so that target samples
// are spread as evenly as the categories allow: every category gets the same
// number L, or all it has when it has fewer, with L as large as fits in target;
// the samples left over (fewer than the categories still above L) go one each
// to those categories in name order. When the categories hold target samples
// or fewer, every sample is taken. Examples: {a: 10, b: 2, c: 5} to 9 gives
// a 4, b 2, c 3; to 10 gives a 4, b 2, c 4.
func BalanceCounts(available map[string]int, target int) map[string]int {
	out := make(map[string]int, len(available))
	total := 0
	for c, n := range available {
		out[c] = max(n, 0)
		total += out[c]
	}
	if target <= 0 || total <= target {
		return out
	}
	names := make([]string, 0, len(out))
	for c := range out {
		names = append(names, c)
	}
	slices.Sort(names)
	capped := func(level int) int {
		s := 0
		for _, c := range names {
			s += min(available[c], level)
		}
		return s
	}
	// The largest level whose capped sum fits (capped is non-decreasing in level).
	lo, hi := 0, target
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if capped(mid) <= target {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	left := target - capped(lo)
	for _, c := range names {
		out[c] = min(available[c], lo)
		if left > 0 && available[c] > lo {
			out[c]++
			left--
		}
	}
	return out
}

// SelectHard selects the hard samples of a release: those failed (Failed) by at
// least spec.K of the models, then, with a Target, a balanced seeded draw of
// them — BalanceCounts over the categories (HardCategory), each category drawn
// with sampling.Draw and spec.Seed, so the same results and spec select the same
// samples. Every run must hold one result per gold sample, in the gold order;
// K outside 1…N, a negative target, no model or a model named twice is an error.
func SelectHard(golds []Gold, runs []ModelResults, spec HardSpec) (HardSelection, error) {
	sel := HardSelection{Spec: spec}
	switch {
	case len(runs) == 0:
		return sel, fmt.Errorf("score: hard subset: no model to select by")
	case spec.K < 1 || spec.K > len(runs):
		return sel, fmt.Errorf("score: hard subset: k must be between 1 and the %d models, not %d", len(runs), spec.K)
	case spec.Target < 0:
		return sel, fmt.Errorf("score: hard subset: the target count %d is negative", spec.Target)
	}
	for _, r := range runs {
		if slices.Contains(sel.Models, r.Model) {
			return sel, fmt.Errorf("score: hard subset: model %q is named twice", r.Model)
		}
		sel.Models = append(sel.Models, r.Model)
		if len(r.Results) != len(golds) {
			return sel, fmt.Errorf("score: hard subset: model %q: %w: %d gold samples, %d results", r.Model, errMisaligned, len(golds), len(r.Results))
		}
		for i, res := range r.Results {
			if res.SampleID != golds[i].Sample.ID {
				return sel, fmt.Errorf("score: hard subset: model %q: %w: gold %d is %q, result %d is %q",
					r.Model, errMisaligned, i, golds[i].Sample.ID, i, res.SampleID)
			}
		}
	}
	var pool []HardCandidate
	avail := map[string]int{}
	for i, g := range golds {
		var failed []string
		for _, r := range runs {
			if Failed(r.Results[i], spec.Strict) {
				failed = append(failed, r.Model)
			}
		}
		if len(failed) < spec.K {
			continue
		}
		c := HardCandidate{SampleID: g.Sample.ID, Category: HardCategory(g.Sample), FailedBy: failed}
		pool = append(pool, c)
		avail[c.Category]++
	}
	sel.Pool = len(pool)
	take := BalanceCounts(avail, spec.Target)
	strata := make([]string, len(pool))
	for i, c := range pool {
		strata[i] = c.Category
	}
	chosen := sampling.Draw(strata, func(stratum string, _ int) int { return take[stratum] }, spec.Seed)
	sel.Candidates = make([]HardCandidate, 0, len(chosen))
	for _, i := range chosen {
		sel.Candidates = append(sel.Candidates, pool[i])
	}
	for c, n := range avail {
		sel.Categories = append(sel.Categories, HardCategoryCount{Category: c, Pool: n, Selected: take[c]})
	}
	slices.SortFunc(sel.Categories, func(a, b HardCategoryCount) int { return cmp.Compare(a.Category, b.Category) })
	return sel, nil
}

// String sums a selection up: "12 of 40 samples failed by at least 3 of 4 models; …".
func (s HardSelection) String() string {
	var cats []string
	for _, c := range s.Categories {
		cats = append(cats, fmt.Sprintf("%s %d of %d", c.Category, c.Selected, c.Pool))
	}
	return fmt.Sprintf("%d of %d samples failed by at least %d of %d models (%s)",
		len(s.Candidates), s.Pool, s.Spec.K, len(s.Models), strings.Join(cats, ", "))
}
