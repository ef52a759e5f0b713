package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// stepGolds are three step-graph samples on the laptop graph; stepPreds answer
// A with 4 of 4 steps and 2 of 3 edges plus one extra step and edge, leave B
// unparsed, and give C one unmatched step.
func stepGolds() []Gold {
	var gs []Gold
	for _, id := range []string{"A", "B", "C"} {
		gs = append(gs, Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindStepGraph, Steps: laptop, Task: "pick"}})
	}
	return gs
}

var stepPreds = []Prediction{
	{SampleID: "A", Response: `{"p1": {"content": "Remove the keys from the book", "precondition": []},
		"p2": {"content": "Remove the stapler from the book", "precondition": []},
		"p3": {"content": "Remove the book from the laptop", "precondition": ["p1"]},
		"p4": {"content": "Pick up the laptop", "precondition": ["p3"]},
		"p5": {"content": "Dance", "precondition": ["p4"]}}`},
	{SampleID: "B", Response: "I would just pick it up."},
	{SampleID: "C", Response: `{"step1": {"content": "Dance", "precondition": []}}`},
}

func TestStepAggregation(t *testing.T) {
	// A: content TP 4 FP 1 FN 0, edges TP 2 FP 1 FN 1.
	// B: content FN 4, edges FN 3.  C: content FP 1 FN 4, edges FN 3.
	for _, tc := range []struct {
		name string
		opt  Options
		n    int
		want [6]float64 // content P R F1, precondition P R F1 (percent)
	}{
		{"micro, all counted", Options{}, 3, [6]float64{
			100 * 4.0 / 6, 100 * 4.0 / 12, 100 * 2 * (4.0 / 6) * (4.0 / 12) / (4.0/6 + 4.0/12),
			100 * 2.0 / 3, 100 * 2.0 / 9, 100 * 2 * (2.0 / 3) * (2.0 / 9) / (2.0/3 + 2.0/9)}},
		{"macro, all counted", Options{StepMode: StepMacro}, 3, [6]float64{
			100 * 0.8 / 3, 100 * 1.0 / 3, 100 * (8.0 / 9) / 3,
			100 * (2.0 / 3) / 3, 100 * (2.0 / 3) / 3, 100 * (2.0 / 3) / 3}},
		{"micro, unparsed skipped (metric.py split)", Options{StepSkip: SkipUnparsed}, 2, [6]float64{
			100 * 4.0 / 6, 100 * 4.0 / 8, 100 * 2 * (4.0 / 6) * (4.0 / 8) / (4.0/6 + 4.0/8),
			100 * 2.0 / 3, 100 * 2.0 / 6, 100 * 2 * (2.0 / 3) * (2.0 / 6) / (2.0/3 + 2.0/6)}},
		{"micro, unmatched skipped (metric.py total)", Options{StepSkip: SkipUnmatched}, 1, [6]float64{
			80, 100, 100 * 8.0 / 9, 100 * 2.0 / 3, 100 * 2.0 / 3, 100 * 2.0 / 3}},
	} {
		tc.opt.Draws = -1
		rep, _, err := Evaluate(context.Background(), "m", stepGolds(), stepPreds, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Overall
		got := []*Metric{o.ContentP, o.ContentR, o.ContentF1, o.PrecondP, o.PrecondR, o.PrecondF1}
		for i, m := range got {
			if m == nil || !near(m.Value, tc.want[i]) || m.N != tc.n {
				t.Errorf("%s: figure %s = %+v, want %v (n %d)", tc.name, MetricNames[10+i], m, tc.want[i], tc.n)
			}
		}
		if !near(o.Parsed.Value, 200.0/3) {
			t.Errorf("%s: parsed = %v", tc.name, o.Parsed.Value)
		}
	}
}

// mixedGolds mixes every kind with labels for every dimension.
func mixedGolds() ([]Gold, []Prediction) {
	gs, ps := hopGolds(), slices.Clone(hopPreds)
	gs[0].Sample.Hop, gs[0].Sample.View = 2, annotate.ViewEgo
	gs[0].Sample.Categories = []annotate.Category{annotate.CatRel, annotate.CatAtt, annotate.CatRel}
	for i := range gs {
		gs[i].Sample.Split = "test"
	}
	gs = append(gs,
		Gold{Sample: annotate.Sample{ID: "m1", Kind: annotate.KindMCQ, Options: []string{"left", "right"}, AnswerIndex: 0, Task: "T1", Split: "train"}},
		Gold{Sample: annotate.Sample{ID: "m2", Kind: annotate.KindMCQ, Options: []string{"left", "right"}, AnswerIndex: 1, Task: "T1"}},
		Gold{Sample: annotate.Sample{ID: "y1", Kind: annotate.KindJudgment, AnswerText: "yes", Task: "T2"}},
		Gold{Sample: annotate.Sample{ID: "o1", Kind: annotate.KindOpen, AnswerText: "4", Task: "T2"}},
	)
	ps = append(ps,
		Prediction{SampleID: "m1", Response: "A"},
		Prediction{SampleID: "m2", Response: "A"},
		Prediction{SampleID: "y1", Response: "Yes."},
		Prediction{SampleID: "o1", Response: "five"},
	)
	return gs, ps
}

func TestBreakdowns(t *testing.T) {
	gs, ps := mixedGolds()
	rep, _, err := Evaluate(context.Background(), "m", gs, ps, Options{Draws: -1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.N != 10 || rep.Overall.N != 10 {
		t.Fatalf("n = %d, %d", rep.N, rep.Overall.N)
	}
	// Overall mcq_acc pools hop_qa (3 of 6 right) and mcq (1 of 2): 4 of 8.
	if m := rep.Overall.MCQAcc; m.Value != 50 || m.N != 8 {
		t.Errorf("overall mcq_acc %+v, want 50 of 8", m)
	}
	labelsOf := func(dim string) []string {
		var ls []string
		for _, g := range rep.By[dim] {
			ls = append(ls, fmt.Sprintf("%s:%d", g.Label, g.N))
		}
		return ls
	}
	for dim, want := range map[string][]string{
		ByKind:       {"hop_qa:6", "judgment:1", "mcq:2", "open:1"},
		ByHop:        {"1:5", "2:1"},
		ByView:       {"ego:1", "exo:5"},
		ByCategories: {"att+rel:1", "pos:5"},
		ByTask:       {"T1:2", "T2:2"},
		BySplit:      {"test:6", "train:1"},
	} {
		if got := labelsOf(dim); !slices.Equal(got, want) {
			t.Errorf("by %s: %v, want %v", dim, got, want)
		}
	}
	kinds := rep.By[ByKind]
	if kinds[0].Acc50IoU == nil || kinds[1].JudgmentAcc.Value != 100 || kinds[1].MCQAcc != nil || kinds[3].MRA == nil {
		t.Errorf("kind groups carry the wrong figures: %+v", kinds)
	}
	if m := kinds[3].MRA; !near(m.Value, 100*MRA(5, 4)) {
		t.Errorf("open MRA %v, want %v", m.Value, 100*MRA(5, 4))
	}
	// The ego sample is h1: correct with IoU 0.6.
	if ego := rep.By[ByView][0]; ego.Acc50IoU.Value != 100 || ego.MeanIoU.Value != 60 {
		t.Errorf("ego group: %+v", ego.Figures)
	}
}

func TestReportJSON(t *testing.T) {
	gs, ps := mixedGolds()
	gs = append(gs, stepGolds()...)
	ps = append(ps, stepPreds...)
	rep, _, err := Evaluate(context.Background(), "model-x", gs, ps, Options{Draws: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"model", "n", "overall", "by", "denominator", "step_mode", "bootstrap"} {
		if _, ok := top[k]; !ok {
			t.Errorf("report JSON lacks %q: %s", k, b)
		}
	}
	var overall map[string]json.RawMessage
	if err := json.Unmarshal(top["overall"], &overall); err != nil {
		t.Fatal(err)
	}
	for _, k := range MetricNames {
		if _, ok := overall[k]; !ok {
			t.Errorf("overall lacks %q", k)
		}
	}
	var acc struct {
		Value float64    `json:"value"`
		CI    [2]float64 `json:"ci"`
		N     int        `json:"n"`
	}
	if err := json.Unmarshal(overall["mcq_acc"], &acc); err != nil || acc.N != 8 || acc.CI[0] > acc.Value || acc.CI[1] < acc.Value {
		t.Errorf("mcq_acc JSON %s (%v)", overall["mcq_acc"], err)
	}
	var by map[string][]map[string]json.RawMessage
	if err := json.Unmarshal(top["by"], &by); err != nil {
		t.Fatal(err)
	}
	for _, d := range Dimensions {
		if _, ok := by[d]; !ok {
			t.Errorf("by lacks %q", d)
		}
	}
	if string(by["kind"][0]["group"]) != `"hop_qa"` {
		t.Errorf("first kind group %s", by["kind"][0]["group"])
	}
}

func TestBootstrapDeterminism(t *testing.T) {
	gs, ps := mixedGolds()
	run := func(seed uint64, workers int) string {
		rep, _, err := Evaluate(context.Background(), "m", gs, ps, Options{Draws: 200, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(rep)
		return string(b)
	}
	a := run(7, 1)
	if b := run(7, 4); a != b {
		t.Error("the same seed gave different reports with 1 and 4 workers")
	}
	if b := run(8, 2); a == b {
		t.Error("another seed gave the same intervals")
	}
}

// binaryResults are n results of one mcq question, k of them correct.
func binaryResults(n, k int) ([]Gold, []Result) {
	gs := make([]Gold, n)
	rs := make([]Result, n)
	for i := range n {
		id := fmt.Sprint("s", i)
		gs[i] = Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindMCQ, Options: []string{"x", "y"}}}
		rs[i] = Result{SampleID: id, Kind: annotate.KindMCQ, Answer: "A", Correct: i < k}
	}
	return gs, rs
}

func TestBootstrapInterval(t *testing.T) {
	// 400 samples, half correct: the percentile interval is about
	// 50 ± 1.96·sqrt(0.25/400)·100 = 50 ± 4.9.
	gs, rs := binaryResults(400, 200)
	rep, err := Summarize(context.Background(), "m", gs, rs, Options{Draws: 4000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	ci := rep.Overall.MCQAcc.CI
	if ci == nil || math.Abs(ci[0]-45.1) > 0.7 || math.Abs(ci[1]-54.9) > 0.7 {
		t.Errorf("interval %v, want about [45.1, 54.9]", ci)
	}
	// All correct: no spread.
	gs, rs = binaryResults(50, 50)
	rep, err = Summarize(context.Background(), "m", gs, rs, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ci := rep.Overall.MCQAcc.CI; ci == nil || ci[0] != 100 || ci[1] != 100 {
		t.Errorf("all correct: interval %v", ci)
	}
	if rep.Bootstrap == nil || rep.Bootstrap.Draws != 1000 {
		t.Errorf("default draws: %+v", rep.Bootstrap)
	}
}

// TestResamplingPaths checks that replicate, which draws type counts as
// binomials and the rest member by member, gives the same distribution of the
// figures as the plain bootstrap that draws every member: the means and spreads
// of the replicate figures agree. The set mixes hop results with continuous IoUs,
// a few large types and many small step-graph types.
func TestResamplingPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var results []Result
	for i := range 3000 {
		res := Result{SampleID: fmt.Sprint(i), Kind: annotate.KindHopQA, Answer: "A"}
		if r.Float64() < 0.6 {
			res.Correct = true
			iou := math.Round(r.Float64()*1e4) / 1e4
			res.IoU = &iou
			res.Hit50 = iou >= 0.5
		}
		results = append(results, res)
	}
	for i := range 2000 {
		c := Counts{TP: r.IntN(5), FP: r.IntN(4), FN: r.IntN(4)}
		p := Counts{TP: r.IntN(3), FP: r.IntN(3), FN: r.IntN(3)}
		results = append(results, Result{SampleID: fmt.Sprint("g", i), Kind: annotate.KindStepGraph, Steps: []annotate.Step{}, Content: &c, Precond: &p})
	}
	opt, _ := Options{}.withDefaults()
	u := newUniverse(results, opt)
	idx := make([]int32, len(results))
	for i := range idx {
		idx[i] = int32(i)
	}
	g := u.plan(idx)
	if len(g.big) == 0 || len(g.bucketType) == 0 || len(g.bucketType) == g.n {
		t.Fatalf("the test set should have big types and a bucket: %d big, %d of %d in the bucket", len(g.big), len(g.bucketType), g.n)
	}
	defs := metricDefs(opt)
	names := []string{"mean_iou", "mcq_acc", "acc50iou", "content_f1", "precond_p"}
	const draws = 4000
	stat := func(direct bool) (mean, sd []float64) {
		gen := newRNG(9, 10)
		counts := make([]int, 2*len(g.types))
		sum, sq := make([]float64, len(names)), make([]float64, len(names))
		for range draws {
			var s sums
			if direct {
				s = u.replicateDirect(g, gen, counts)
			} else {
				s = u.replicate(g, gen, counts)
			}
			for k, name := range names {
				for _, d := range defs {
					if d.name == name {
						v, _, _ := d.eval(&s)
						sum[k] += v
						sq[k] += v * v
					}
				}
			}
		}
		for k := range names {
			m := sum[k] / draws
			mean = append(mean, m)
			sd = append(sd, math.Sqrt(sq[k]/draws-m*m))
		}
		return mean, sd
	}
	m1, s1 := stat(true)
	m2, s2 := stat(false)
	for k, name := range names {
		// Means within 4 standard errors of their difference; spreads within 10 %.
		if math.Abs(m1[k]-m2[k]) > 4*s1[k]*math.Sqrt(2.0/draws) || math.Abs(s1[k]-s2[k]) > 0.1*s1[k] {
			t.Errorf("%s: direct mean %v sd %v, replicate mean %v sd %v", name, m1[k], s1[k], m2[k], s2[k])
		}
	}
}

func TestSummarizeErrors(t *testing.T) {
	gs, rs := binaryResults(3, 1)
	if _, err := Summarize(context.Background(), "m", gs, rs[:2], Options{}); err == nil {
		t.Error("misaligned lengths accepted")
	}
	rs[1].SampleID = "other"
	if _, err := Summarize(context.Background(), "m", gs, rs, Options{}); err == nil {
		t.Error("misaligned ids accepted")
	}
	if _, err := Summarize(context.Background(), "m", gs, rs, Options{Denominator: "some"}); err == nil {
		t.Error("unknown denominator accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gs, rs = binaryResults(3, 1)
	if _, err := Summarize(ctx, "m", gs, rs, Options{}); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("canceled context: %v", err)
	}
	if _, err := ScoreAll(ctx, gs, nil, Options{}); err == nil {
		t.Error("ScoreAll ignored a canceled context")
	}
}

func TestScoreAllErrors(t *testing.T) {
	gs := hopGolds()
	if _, err := ScoreAll(context.Background(), gs, []Prediction{{SampleID: "h1"}, {SampleID: "h1"}}, Options{}); err == nil {
		t.Error("two predictions for one sample accepted")
	}
	if _, err := ScoreAll(context.Background(), gs, []Prediction{{SampleID: "zz"}}, Options{}); err == nil {
		t.Error("a prediction for an unknown sample accepted")
	}
	if _, err := ScoreAll(context.Background(), append(gs, gs[0]), nil, Options{}); err == nil {
		t.Error("two gold samples with one id accepted")
	}
	bad := Gold{Sample: annotate.Sample{ID: "k", Kind: "essay"}}
	if _, err := ScoreAll(context.Background(), []Gold{bad}, nil, Options{}); err == nil {
		t.Error("an unknown kind accepted")
	}
	// Results come back in gold order whatever the prediction order.
	rs, err := ScoreAll(context.Background(), gs, []Prediction{hopPreds[4], hopPreds[0]}, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.SampleID)
	}
	if !reflect.DeepEqual(ids, []string{"h1", "h2", "h3", "h4", "h5", "h6"}) || rs[0].Missing || !rs[1].Missing {
		t.Errorf("order %v, missing %v %v", ids, rs[0].Missing, rs[1].Missing)
	}
}

// A kind that is a small share of a release keeps an interval about its own
// samples: replicates that drew none of them do not count as 0 %.
func TestBootstrapIntervalOfARareKind(t *testing.T) {
	gs, rs := binaryResults(40, 40) // 40 multiple-choice samples, all correct
	gs = append(gs, Gold{Sample: annotate.Sample{ID: "yn", Kind: annotate.KindJudgment, Question: "Is it?", AnswerText: "yes"}})
	rs = append(rs, Result{SampleID: "yn", Kind: annotate.KindJudgment, Answer: "yes", Correct: true})
	rep, err := Summarize(context.Background(), "m", gs, rs, Options{Draws: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	j := rep.Overall.JudgmentAcc
	if j == nil || j.Value != 100 || j.CI == nil || j.CI[0] != 100 || j.CI[1] != 100 {
		t.Errorf("judgment_acc %+v, want 100 [100, 100]", j)
	}
}
