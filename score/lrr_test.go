package score

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// LRR-Bench detects the word No (§III-D): any case, a whole word; everything
// else, the empty response too, is Yes.
func TestLRRYesNo(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"No.", "no"},
		{"no", "no"},
		{"NO", "no"},
		{"No, it has not moved.", "no"},
		{"I think the answer is no", "no"},
		{"(no)", "no"},
		{"Answer:\nNo", "no"},
		{"no-go", "no"}, // a hyphen ends a word, as \bno\b reads it
		{"Yes", "yes"},
		{"Yes.", "yes"},
		{"not", "yes"},
		{"Nope", "yes"},
		{"Know", "yes"},
		{"none of them", "yes"},
		{"Norway", "yes"},
		{"n o", "yes"},
		{"no2", "yes"}, // digits belong to the word
		{"", "yes"},
		{"maybe", "yes"},
		{"Yes, no doubt.", "no"}, // the rule reads the word, not the meaning
	} {
		if got := LRRYesNo(tc.in); got != tc.want {
			t.Errorf("LRRYesNo(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The rule is chosen per scoring run: the default reads VLMEvalKit's way.
func TestJudgmentRules(t *testing.T) {
	yes := Gold{Sample: annotate.Sample{ID: "y", Kind: annotate.KindJudgment, AnswerText: "yes"}}
	no := Gold{Sample: annotate.Sample{ID: "n", Kind: annotate.KindJudgment, AnswerText: "No"}}
	for _, tc := range []struct {
		g        Gold
		rule     YesNoRule
		resp     string
		answer   string
		correct  bool
		parseErr bool
	}{
		{yes, "", "maybe", "", false, true},
		{yes, YesNoVLMEvalKit, "", "", false, true},
		{yes, YesNoLRR, "maybe", "yes", true, false},
		{yes, YesNoLRR, "", "yes", true, false},
		{no, YesNoLRR, "No, it is behind.", "no", true, false},
		{no, YesNoLRR, "Nope", "yes", false, false},
		{no, YesNoVLMEvalKit, "No, it is behind.", "no", true, false},
		{yes, YesNoVLMEvalKit, "Yes, no doubt.", "", false, true},
		{yes, YesNoLRR, "Yes, no doubt.", "no", false, false},
	} {
		r, err := ScoreSample(tc.g, Prediction{SampleID: tc.g.Sample.ID, Response: tc.resp}, Options{YesNo: tc.rule})
		if err != nil {
			t.Fatal(err)
		}
		if r.Answer != tc.answer || r.Correct != tc.correct || (r.ParseError != "") != tc.parseErr {
			t.Errorf("%s rule %q %q: answer %q correct %v parse error %q; want %q %v %v", tc.g.Sample.ID, tc.rule, tc.resp,
				r.Answer, r.Correct, r.ParseError, tc.answer, tc.correct, tc.parseErr)
		}
	}
}

func TestOptionsRefuseBadRuleAndWeights(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"unknown rule", Options{YesNo: "strict"}, `unknown yes/no rule "strict"`},
		{"zero weight", Options{LRRWeights: map[string]float64{"T1": 0}}, `weight of task "T1" must be a number above 0`},
		{"negative weight", Options{LRRWeights: map[string]float64{"T1": -1}}, `weight of task "T1"`},
		{"NaN weight", Options{LRRWeights: map[string]float64{"T1": math.NaN()}}, `weight of task "T1"`},
		{"infinite weight", Options{LRRWeights: map[string]float64{"T1": math.Inf(1)}}, `weight of task "T1"`},
	} {
		_, err := ScoreAll(context.Background(), nil, nil, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := ScoreAll(context.Background(), nil, nil, Options{YesNo: YesNoLRR, LRRWeights: map[string]float64{"T1": 0.5}}); err != nil {
		t.Errorf("valid options refused: %v", err)
	}
}

// lrrRelease is judgments of tasks whose right answers are given per task, a
// judgment without a task and an mcq with one (neither counts), each
// judgment's response right or wrong under both rules.
func lrrRelease(right map[string][2]int) ([]Gold, []Prediction) {
	var gs []Gold
	var ps []Prediction
	add := func(s annotate.Sample, resp string) {
		gs = append(gs, Gold{Sample: s})
		ps = append(ps, Prediction{SampleID: s.ID, Response: resp})
	}
	for _, task := range []string{"pos", "cam", "dep"} {
		r := right[task]
		for i := range r[1] {
			resp := "No."
			if i < r[0] {
				resp = "Yes."
			}
			add(annotate.Sample{ID: fmt.Sprintf("%s-%02d", task, i), Kind: annotate.KindJudgment, AnswerText: "yes", Task: task, Image: "a.jpg"}, resp)
		}
	}
	add(annotate.Sample{ID: "untasked", Kind: annotate.KindJudgment, AnswerText: "yes", Image: "a.jpg"}, "No.")
	add(annotate.Sample{ID: "mcq", Kind: annotate.KindMCQ, Options: []string{"l", "r"}, AnswerIndex: 0, Task: "pos", Image: "a.jpg"}, "B")
	return gs, ps
}

// lrr_score against the paper's formula by hand: s_i = w_i · 2(p_i − 50) ·
// 1[p_i ≥ 50], S = Σ s_i, the maximum 100 · Σ w_i.
func TestLRRScore(t *testing.T) {
	// pos: 15 of 20 right, p 75 → 2·25 = 50 points a weight; cam: 4 of 10, p 40
	// → 0 (under 50 %); dep: 10 of 10, p 100 → 100.
	right := map[string][2]int{"pos": {15, 20}, "cam": {4, 10}, "dep": {10, 10}}
	for _, tc := range []struct {
		name      string
		weights   map[string]float64
		overall   float64
		max       float64
		perTask   map[string]float64
		perTaskMx map[string]float64
	}{
		{"default weights", nil, 50 + 0 + 100, 300,
			map[string]float64{"pos": 50, "cam": 0, "dep": 100}, map[string]float64{"pos": 100, "cam": 100, "dep": 100}},
		{"weights", map[string]float64{"pos": 2, "cam": 3, "other": 7}, 2*50 + 3*0 + 1*100, 100 * (2 + 3 + 1),
			map[string]float64{"pos": 100, "cam": 0, "dep": 100}, map[string]float64{"pos": 200, "cam": 300, "dep": 100}},
		{"half weights", map[string]float64{"pos": 0.5, "dep": 0.5}, 0.5*50 + 0.5*100, 100 * (0.5 + 1 + 0.5),
			map[string]float64{"pos": 25, "cam": 0, "dep": 50}, map[string]float64{"pos": 50, "cam": 100, "dep": 50}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gs, ps := lrrRelease(right)
			rep, _, err := Evaluate(context.Background(), "m", gs, ps, Options{Draws: 200, Seed: 3, LRRWeights: tc.weights})
			if err != nil {
				t.Fatal(err)
			}
			o := rep.Overall
			if o.LRRScore == nil || o.LRRScoreMax == nil {
				t.Fatalf("no lrr_score: %+v", o)
			}
			if math.Abs(o.LRRScore.Value-tc.overall) > 1e-9 || *o.LRRScoreMax != tc.max || o.LRRScore.N != 40 {
				t.Errorf("overall lrr_score %v of %v over %d samples, want %v of %v over 40", o.LRRScore.Value, *o.LRRScoreMax, o.LRRScore.N, tc.overall, tc.max)
			}
			if ci := o.LRRScore.CI; ci == nil || ci[0] > o.LRRScore.Value || ci[1] < o.LRRScore.Value || ci[1] > tc.max {
				t.Errorf("overall interval %v does not hold %v within 0–%v", ci, o.LRRScore.Value, tc.max)
			}
			seen := 0
			for _, g := range rep.By[ByTask] {
				want, ok := tc.perTask[g.Label]
				if !ok {
					if g.LRRScore != nil {
						t.Errorf("task %s has no judgment but lrr_score %v", g.Label, g.LRRScore)
					}
					continue
				}
				seen++
				if g.LRRScore == nil || math.Abs(g.LRRScore.Value-want) > 1e-9 || *g.LRRScoreMax != tc.perTaskMx[g.Label] {
					t.Errorf("task %s: lrr_score %+v of %v, want %v of %v", g.Label, g.LRRScore, g.LRRScoreMax, want, tc.perTaskMx[g.Label])
				}
			}
			if seen != 3 {
				t.Errorf("%d tasks with lrr_score, want 3", seen)
			}
		})
	}
	// Exactly 50 % scores 0, and every answer right scores the maximum, with a
	// degenerate interval.
	gs, ps := lrrRelease(map[string][2]int{"pos": {5, 10}, "cam": {10, 10}, "dep": {3, 3}})
	rep, _, err := Evaluate(context.Background(), "m", gs, ps, Options{Draws: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Overall.LRRScore; got.Value != 200 {
		t.Errorf("50 %% + 100 %% + 100 %%: lrr_score %v, want 200", got.Value)
	}
	for _, g := range rep.By[ByTask] {
		if g.Label == "cam" && (g.LRRScore.Value != 100 || *g.LRRScore.CI != [2]float64{100, 100}) {
			t.Errorf("a perfect task: %+v, want 100 [100, 100]", g.LRRScore)
		}
	}
}

// The yes/no rule changes what lrr_score counts as right.
func TestLRRScoreFollowsTheRule(t *testing.T) {
	gs := []Gold{{Sample: annotate.Sample{ID: "a", Kind: annotate.KindJudgment, AnswerText: "yes", Task: "T"}},
		{Sample: annotate.Sample{ID: "b", Kind: annotate.KindJudgment, AnswerText: "yes", Task: "T"}}}
	ps := []Prediction{{SampleID: "a", Response: "Certainly"}, {SampleID: "b", Response: "Yes"}}
	for _, tc := range []struct {
		rule YesNoRule
		want float64
	}{{YesNoVLMEvalKit, 0}, {YesNoLRR, 100}} { // p 50 → 0; p 100 → 100
		rep, _, err := Evaluate(context.Background(), "m", gs, ps, Options{Draws: -1, YesNo: tc.rule})
		if err != nil {
			t.Fatal(err)
		}
		if got := rep.Overall.LRRScore; got == nil || got.Value != tc.want || got.CI != nil {
			t.Errorf("rule %s: lrr_score %+v, want %v without interval", tc.rule, got, tc.want)
		}
	}
}

// Every figure is broken down by modality, in the order image, images, video.
func TestModalityBreakdown(t *testing.T) {
	frames := func(n int) []annotate.Frame {
		fs := make([]annotate.Frame, n)
		for i := range fs {
			fs[i] = annotate.Frame{Video: "v.mp4", VideoSHA256: "ab", Index: i}
		}
		return fs
	}
	j := func(id string, more []string, fr []annotate.Frame) Gold {
		return Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindJudgment, AnswerText: "yes", Task: "T", Image: "0.jpg", MoreImages: more, Frames: fr}}
	}
	gs := []Gold{
		j("v1", []string{"1.jpg", "2.jpg"}, frames(3)),
		j("i1", nil, nil),
		j("s1", []string{"1.jpg"}, nil),
		j("s2", []string{"1.jpg", "2.jpg"}, nil),
		j("i2", nil, frames(1)), // one frame is shown as an image
		{Sample: annotate.Sample{ID: "m1", Kind: annotate.KindMCQ, Options: []string{"l", "r"}, Image: "0.jpg", MoreImages: []string{"1.jpg"}}},
	}
	ps := []Prediction{{SampleID: "v1", Response: "No"}, {SampleID: "i1", Response: "Yes"}, {SampleID: "s1", Response: "Yes"}, {SampleID: "s2", Response: "No"}, {SampleID: "i2", Response: "No"}, {SampleID: "m1", Response: "A"}}
	rep, _, err := Evaluate(context.Background(), "m", gs, ps, Options{Draws: 50})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		label       string
		n           int
		judgment    float64
		mcq         bool
		lrr, lrrMax float64
	}
	wants := []want{{"image", 2, 50, false, 0, 100}, {"images", 3, 50, true, 0, 100}, {"video", 1, 0, false, 0, 100}}
	got := rep.By[ByModality]
	if len(got) != len(wants) {
		t.Fatalf("by modality: %+v, want %d groups", got, len(wants))
	}
	for k, w := range wants {
		g := got[k]
		if g.Label != w.label || g.N != w.n || g.JudgmentAcc == nil || g.JudgmentAcc.Value != w.judgment || (g.MCQAcc != nil) != w.mcq ||
			g.LRRScore == nil || g.LRRScore.Value != w.lrr || *g.LRRScoreMax != w.lrrMax {
			t.Errorf("group %d: %s n %d judgment %v mcq %v lrr %v; want %+v", k, g.Label, g.N, g.JudgmentAcc, g.MCQAcc, g.LRRScore, w)
		}
	}
	// s1 and s2 right-and-wrong: the images group's judgments are 1 of 2.
	if g := got[1]; g.JudgmentAcc.N != 2 || g.MCQAcc.Value != 100 {
		t.Errorf("images: judgment n %d, mcq %v", g.JudgmentAcc.N, g.MCQAcc.Value)
	}
}
