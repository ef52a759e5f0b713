package score

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// sameAnswers are n items (mcq, then judgments from n/3 on, tasks T1 and T2)
// answered alike by each of people people, right on the items where right(i).
func sameAnswers(n, people int, right func(i int) bool) ([]Gold, []PersonAnswers) {
	var gs []Gold
	var pr []Prediction
	for i := range n {
		id := fmt.Sprintf("q%02d", i)
		task := []string{"T1", "T2"}[i%2]
		if i < n/3 {
			gs = append(gs, Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindJudgment, AnswerText: "yes", Task: task}})
			pr = append(pr, Prediction{SampleID: id, Response: map[bool]string{true: "yes", false: "no"}[right(i)]})
			continue
		}
		gs = append(gs, Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindMCQ, Options: []string{"left", "right"}, AnswerIndex: 1, Task: task}})
		pr = append(pr, Prediction{SampleID: id, Response: map[bool]string{true: "B", false: "A"}[right(i)]})
	}
	var ps []PersonAnswers
	for p := range people {
		ps = append(ps, PersonAnswers{Person: fmt.Sprint("p", p), Predictions: pr})
	}
	return gs, ps
}

// answerLevel is the interval the bootstrap gave before it resampled items: the
// overall group's answers drawn one by one, with the overall group's stream.
func answerLevel(t *testing.T, results []Result, opt Options) Figures {
	t.Helper()
	opt, err := opt.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	u := newUniverse(results, opt)
	all := make([]int32, len(results))
	for i := range all {
		all[i] = int32(i)
	}
	g := u.plan(all)
	h := fnv.New64a()
	h.Write([]byte("overall\x00"))
	f, err := u.figures(context.Background(), g, u, g, metricDefs(opt), opt.Draws, newRNG(opt.Seed, h.Sum64()))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Three people who answer every item alike tell no more than one of them: the
// human row's intervals, resampling items with all their answers, are exactly
// one person's (same seed, same draws), in every group; resampling the answers
// one by one made them narrower.
func TestClusterBootstrapOfIdenticalAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		items int
		right func(i int) bool
		seed  uint64
	}{
		{"half right", 40, func(i int) bool { return i%4 < 2 }, 1},
		{"mostly right", 60, func(i int) bool { return i%5 != 0 }, 9},
		{"few items", 9, func(i int) bool { return i%3 == 0 }, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Draws: 2000, Seed: tc.seed}
			gs, three := sameAnswers(tc.items, 3, tc.right)
			one, _, err := EvaluatePeople(context.Background(), gs, three[:1], opt)
			if err != nil {
				t.Fatal(err)
			}
			rep, results, err := EvaluatePeople(context.Background(), gs, three, opt)
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("Human (3 people, %d items)", tc.items); rep.Model != want || rep.N != 3*tc.items {
				t.Fatalf("model %q n %d, want %q n %d", rep.Model, rep.N, want, 3*tc.items)
			}
			// The figures still count every answer.
			if rep.Overall.N != 3*tc.items || rep.Overall.MCQAcc.N != 3*one.Overall.MCQAcc.N {
				t.Errorf("overall counts %d answers and %d for mcq_acc, want %d and %d", rep.Overall.N, rep.Overall.MCQAcc.N, 3*tc.items, 3*one.Overall.MCQAcc.N)
			}
			same := func(where string, a, b *Figures) {
				for _, name := range MetricNames {
					x, y := a.Metric(name), b.Metric(name)
					if (x == nil) != (y == nil) {
						t.Fatalf("%s %s: %v against %v", where, name, x, y)
					}
					if x == nil {
						continue
					}
					if x.Value != y.Value || x.CI == nil || y.CI == nil || *x.CI != *y.CI {
						t.Errorf("%s %s: three people %v %v, one person %v %v", where, name, x.Value, x.CI, y.Value, y.CI)
					}
				}
			}
			same("overall", &rep.Overall, &one.Overall)
			for _, dim := range Dimensions {
				if len(rep.By[dim]) != len(one.By[dim]) {
					t.Fatalf("by %s: %d groups, one person %d", dim, len(rep.By[dim]), len(one.By[dim]))
				}
				for k := range rep.By[dim] {
					same(dim+" "+rep.By[dim][k].Label, &rep.By[dim][k].Figures, &one.By[dim][k].Figures)
				}
			}
			old := answerLevel(t, results, opt).MCQAcc.CI
			ci := rep.Overall.MCQAcc.CI
			if old[1]-old[0] >= ci[1]-ci[0] {
				t.Errorf("answer-level interval %v is not narrower than the item-level %v", old, ci)
			}
			t.Logf("mcq_acc %.1f: items %v, answers %v", rep.Overall.MCQAcc.Value, *ci, *old)
		})
	}
}

// The universe of items adds up its results: every item once gives the sums of
// every result, whatever how many answers an item has and how they differ.
func TestItemUniverseSums(t *testing.T) {
	gs := hopGolds()
	var people []PersonAnswers
	for p := range 3 {
		var pr []Prediction
		for i, h := range hopPreds {
			if (i+p)%2 == 0 || p == 0 {
				pr = append(pr, h)
			}
		}
		people = append(people, PersonAnswers{Person: fmt.Sprint("p", p), Predictions: pr})
	}
	_, results, err := EvaluatePeople(context.Background(), gs, people, Options{Draws: -1})
	if err != nil {
		t.Fatal(err)
	}
	opt, _ := Options{}.withDefaults()
	item, items := itemsOf(results)
	if item == nil || items != len(hopPreds) {
		t.Fatalf("%d results in %d items (%v)", len(results), items, item)
	}
	var want sums
	for _, r := range results {
		for k, v := range contribution(r, opt) {
			want[k] += v
		}
	}
	iu := newItemUniverse(results, item, items, opt)
	all := make([]int32, items)
	for k := range all {
		all[k] = int32(k)
	}
	g := iu.plan(all)
	iou := 0.0
	for _, v := range g.iou {
		iou += v
	}
	got := iu.total(g, g.counts, iou)
	for k := range want {
		if d := got[k] - want[k]; d > 1e-12 || d < -1e-12 {
			t.Errorf("component %d: items add up to %v, results to %v", k, got[k], want[k])
		}
	}
	if got[cN] != float64(len(results)) {
		t.Errorf("items hold %v results, want %d", got[cN], len(results))
	}
}

// With no item answered twice the intervals are the answer-level ones they
// always were: the goldens were written by the bootstrap before it resampled
// items (a model's report, and a human baseline whose people split the items).
func TestBootstrapWithoutRepeatsUnchanged(t *testing.T) {
	mgs, mps := mixedGolds()
	mgs = append(mgs, stepGolds()...)
	mps = append(mps, stepPreds...)
	hgs, hps := mixedGolds()
	for _, tc := range []struct {
		name   string
		golden string
		report func() (*Report, error)
	}{
		{"a model", "model.json", func() (*Report, error) {
			rep, _, err := Evaluate(context.Background(), "model-x", mgs, mps, Options{Draws: 300, Seed: 1})
			return rep, err
		}},
		{"people on separate items", "human-split.json", func() (*Report, error) {
			rep, _, err := EvaluatePeople(context.Background(), hgs, []PersonAnswers{
				{Person: "ann", Predictions: hps[:4]}, {Person: "bo", Predictions: hps[4:]},
			}, Options{Draws: 300, Seed: 2})
			return rep, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := tc.report()
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "bootstrap", tc.golden)
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(want) != string(got)+"\n" {
				t.Errorf("report differs from %s:\n%s", path, got)
			}
		})
	}
}
