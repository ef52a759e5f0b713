package score

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestBalanceCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		avail  map[string]int
		target int
		want   map[string]int
	}{
		{"level 3, one left over to a", map[string]int{"a": 10, "b": 2, "c": 5}, 9, map[string]int{"a": 4, "b": 2, "c": 3}},
		{"level 4, none left over", map[string]int{"a": 10, "b": 2, "c": 5}, 10, map[string]int{"a": 4, "b": 2, "c": 4}},
		{"two left over, by name", map[string]int{"a": 9, "b": 9, "c": 9}, 8, map[string]int{"a": 3, "b": 3, "c": 2}},
		{"fewer than the target: all", map[string]int{"a": 3, "b": 1}, 10, map[string]int{"a": 3, "b": 1}},
		{"no target: all", map[string]int{"a": 3, "b": 1}, 0, map[string]int{"a": 3, "b": 1}},
		{"a category at the level gets no left-over", map[string]int{"a": 2, "b": 9, "c": 9}, 7, map[string]int{"a": 2, "b": 3, "c": 2}},
		{"even", map[string]int{"a": 100, "b": 100}, 2, map[string]int{"a": 1, "b": 1}},
		{"one", map[string]int{"a": 100, "b": 100}, 1, map[string]int{"a": 1, "b": 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := BalanceCounts(tc.avail, tc.target)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("BalanceCounts(%v, %d) = %v, want %v", tc.avail, tc.target, got, tc.want)
			}
		})
	}
}

// hardRelease is six samples: four hop questions in two category sets and two
// option questions of task T1; three models with hand-written verdicts.
func hardRelease() ([]Gold, []ModelResults) {
	hop := func(id string, cats ...annotate.Category) Gold {
		return Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindHopQA, Categories: cats, Hop: len(cats)}}
	}
	mcq := func(id string) Gold { return Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindMCQ, Task: "T1"}} }
	golds := []Gold{
		hop("h1", annotate.CatAtt), hop("h2", annotate.CatAtt), hop("h3", annotate.CatAtt, annotate.CatPos),
		hop("h4", annotate.CatPos, annotate.CatAtt), mcq("m1"), mcq("m2"),
	}
	// verdict: 'r' right, 'w' wrong, 'b' right option but box missed.
	run := func(model, verdicts string) ModelResults {
		mr := ModelResults{Model: model}
		for i, v := range verdicts {
			mr.Results = append(mr.Results, Result{SampleID: golds[i].Sample.ID, Kind: golds[i].Sample.Kind, Correct: v != 'w', Hit50: v == 'r'})
		}
		return mr
	}
	return golds, []ModelResults{
		run("A", "wwwbwr"),
		run("B", "wrwwwr"),
		run("C", "rwwbrw"),
	}
}

func TestSelectHard(t *testing.T) {
	golds, runs := hardRelease()
	type cand struct {
		id, cat string
		by      []string
	}
	for _, tc := range []struct {
		name string
		spec HardSpec
		want []cand
		pool int
	}{
		// Failures per sample: h1 A,B; h2 A,C; h3 A,B,C; h4 B; m1 A,B; m2 C.
		{"k=2", HardSpec{K: 2}, []cand{
			{"h1", "hop_qa/att", []string{"A", "B"}}, {"h2", "hop_qa/att", []string{"A", "C"}},
			{"h3", "hop_qa/att+pos", []string{"A", "B", "C"}}, {"m1", "mcq/task=T1", []string{"A", "B"}},
		}, 4},
		{"k=3", HardSpec{K: 3}, []cand{{"h3", "hop_qa/att+pos", []string{"A", "B", "C"}}}, 1},
		// Strict: the missed boxes of h4 (A, C) count, so h4 is failed by all three.
		{"k=3 strict", HardSpec{K: 3, Strict: true}, []cand{
			{"h3", "hop_qa/att+pos", []string{"A", "B", "C"}}, {"h4", "hop_qa/att+pos", []string{"A", "B", "C"}},
		}, 2},
		{"k=1", HardSpec{K: 1}, []cand{
			{"h1", "hop_qa/att", []string{"A", "B"}}, {"h2", "hop_qa/att", []string{"A", "C"}},
			{"h3", "hop_qa/att+pos", []string{"A", "B", "C"}}, {"h4", "hop_qa/att+pos", []string{"B"}},
			{"m1", "mcq/task=T1", []string{"A", "B"}}, {"m2", "mcq/task=T1", []string{"C"}},
		}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := SelectHard(golds, runs, tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			var got []cand
			for _, c := range sel.Candidates {
				got = append(got, cand{c.SampleID, c.Category, c.FailedBy})
			}
			if !reflect.DeepEqual(got, tc.want) || sel.Pool != tc.pool {
				t.Errorf("got %v (pool %d), want %v (pool %d)", got, sel.Pool, tc.want, tc.pool)
			}
		})
	}
}

func TestSelectHardBalancesAndIsSeeded(t *testing.T) {
	golds, runs := hardRelease()
	// k=1 pools 6: att 2, att+pos 2, T1 2. A target of 3 takes one of each.
	first, err := SelectHard(golds, runs, HardSpec{K: 1, Target: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	wantCats := []HardCategoryCount{{"hop_qa/att", 2, 1}, {"hop_qa/att+pos", 2, 1}, {"mcq/task=T1", 2, 1}}
	if !reflect.DeepEqual(first.Categories, wantCats) {
		t.Errorf("categories %v, want %v", first.Categories, wantCats)
	}
	var cats []string
	for _, c := range first.Candidates {
		cats = append(cats, c.Category)
	}
	if want := []string{"hop_qa/att", "hop_qa/att+pos", "mcq/task=T1"}; !slices.Equal(cats, want) {
		t.Errorf("one candidate per category in gold order, got %v", cats)
	}
	again, _ := SelectHard(golds, runs, HardSpec{K: 1, Target: 3, Seed: 7})
	if !reflect.DeepEqual(first, again) {
		t.Errorf("the same seed selected differently: %v, then %v", first.Candidates, again.Candidates)
	}
	// Some seed among the first 20 picks another sample: the draw depends on it.
	differs := false
	for seed := int64(0); seed < 20 && !differs; seed++ {
		other, _ := SelectHard(golds, runs, HardSpec{K: 1, Target: 3, Seed: seed})
		differs = !reflect.DeepEqual(other.Candidates, first.Candidates)
	}
	if !differs {
		t.Error("twenty seeds selected the same samples")
	}
}

func TestSelectHardErrors(t *testing.T) {
	golds, runs := hardRelease()
	for _, tc := range []struct {
		name string
		runs []ModelResults
		spec HardSpec
	}{
		{"no model", nil, HardSpec{K: 1}},
		{"k 0", runs, HardSpec{K: 0}},
		{"k above N", runs, HardSpec{K: 4}},
		{"negative target", runs, HardSpec{K: 1, Target: -1}},
		{"model twice", []ModelResults{runs[0], runs[0]}, HardSpec{K: 1}},
		{"misaligned", []ModelResults{{Model: "X", Results: runs[0].Results[1:]}}, HardSpec{K: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := SelectHard(golds, tc.runs, tc.spec); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestProportionalCounts(t *testing.T) {
	for _, tc := range []struct {
		avail map[string]int
		total int
		want  map[string]int
	}{
		{map[string]int{"a": 6, "b": 3, "c": 1}, 5, map[string]int{"a": 3, "b": 2, "c": 0}},
		{map[string]int{"a": 6, "b": 3, "c": 1}, 10, map[string]int{"a": 6, "b": 3, "c": 1}},
		{map[string]int{"a": 6, "b": 3, "c": 1}, 20, map[string]int{"a": 6, "b": 3, "c": 1}},
		{map[string]int{"a": 5, "b": 5}, 3, map[string]int{"a": 2, "b": 1}}, // tie: by name
		{map[string]int{"a": 10, "b": 10, "c": 10}, 0, map[string]int{"a": 0, "b": 0, "c": 0}},
		{map[string]int{"x": 7, "y": 2, "z": 1}, 4, map[string]int{"x": 3, "y": 1, "z": 0}}, // 2.8, 0.8, 0.4
	} {
		if got := ProportionalCounts(tc.avail, tc.total); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ProportionalCounts(%v, %d) = %v, want %v", tc.avail, tc.total, got, tc.want)
		}
	}
}

func TestDrawHuman(t *testing.T) {
	var golds []Gold
	add := func(n int, s annotate.Sample) {
		for range n {
			s.ID = s.Task + string(s.Kind) + string(rune('a'+len(golds)))
			golds = append(golds, Gold{Sample: s})
		}
	}
	add(6, annotate.Sample{Kind: annotate.KindHopQA, Hop: 1, View: annotate.ViewEgo})
	add(3, annotate.Sample{Kind: annotate.KindMCQ, Task: "T1"})
	add(1, annotate.Sample{Kind: annotate.KindJudgment, Task: "T2"})
	add(4, annotate.Sample{Kind: annotate.KindStepGraph, Task: "T3"}) // never drawn
	got := DrawHuman(golds, 5, 3)
	per := map[annotate.Kind]int{}
	for _, i := range got {
		per[golds[i].Sample.Kind]++
	}
	if want := map[annotate.Kind]int{annotate.KindHopQA: 3, annotate.KindMCQ: 2}; !reflect.DeepEqual(per, want) {
		t.Errorf("drew %v, want %v", per, want)
	}
	if !slices.IsSorted(got) || !slices.Equal(got, DrawHuman(golds, 5, 3)) {
		t.Errorf("draw %v not sorted or not repeatable", got)
	}
	if all := DrawHuman(golds, 0, 3); len(all) != 10 {
		t.Errorf("size 0 drew %d, want the 10 answerable", len(all))
	}
}

func TestHumanResponseIsScoredLikeAModel(t *testing.T) {
	hop := Gold{Sample: annotate.Sample{ID: "h", Kind: annotate.KindHopQA, Options: []string{"mug", "cup", "pan"}, AnswerIndex: 1,
		Box: &annotate.Box{100, 100, 300, 200}}, Width: 1000, Height: 500}
	mcq := Gold{Sample: annotate.Sample{ID: "m", Kind: annotate.KindMCQ, Options: []string{"left", "right"}, AnswerIndex: 0}}
	yn := Gold{Sample: annotate.Sample{ID: "j", Kind: annotate.KindJudgment, AnswerText: "no"}}
	open := Gold{Sample: annotate.Sample{ID: "o", Kind: annotate.KindOpen, AnswerText: "3"}}
	for _, tc := range []struct {
		name    string
		g       Gold
		a       HumanAnswer
		text    string
		correct bool
		iou     float64 // -1: none
	}{
		// A box drawn from the bottom right, half of the gold's height: IoU 0.5.
		{"hop with box", hop, HumanAnswer{Option: 1, Box: &annotate.Box{300, 150, 100, 100}},
			"Answer: (b) cup\nBounding Box: [0.100000, 0.200000, 0.300000, 0.300000]", true, 0.5},
		// A tiny box at the top left stays on the 0–1 scale (no division by 1000).
		{"hop tiny box", hop, HumanAnswer{Option: 0, Box: &annotate.Box{0, 0, 1, 1}},
			"Answer: (a) mug\nBounding Box: [0.000000, 0.000000, 0.001000, 0.002000]", false, -1},
		{"hop without box", hop, HumanAnswer{Option: 1}, "Answer: (b) cup", true, -1},
		{"mcq", mcq, HumanAnswer{Option: 0}, "A", true, -1},
		{"judgment", yn, HumanAnswer{Option: -1, Text: " No"}, "no", true, -1},
		{"open", open, HumanAnswer{Option: -1, Text: " 3 "}, "3", true, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := HumanResponse(tc.g, tc.a)
			if err != nil || text != tc.text {
				t.Fatalf("HumanResponse = %q, %v; want %q", text, err, tc.text)
			}
			r, err := ScoreSample(tc.g, Prediction{SampleID: tc.g.Sample.ID, Response: text}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Correct != tc.correct {
				t.Errorf("correct %v, want %v (%+v)", r.Correct, tc.correct, r)
			}
			if tc.iou >= 0 && (r.IoU == nil || *r.IoU != tc.iou) {
				t.Errorf("IoU %v, want %v", r.IoU, tc.iou)
			}
		})
	}
	for _, bad := range []struct {
		g Gold
		a HumanAnswer
	}{{hop, HumanAnswer{Option: -1}}, {mcq, HumanAnswer{Option: 2}}, {yn, HumanAnswer{Text: "maybe"}}, {open, HumanAnswer{Text: " "}},
		{Gold{Sample: annotate.Sample{ID: "s", Kind: annotate.KindStepGraph}}, HumanAnswer{Text: "1. go"}}} {
		if _, err := HumanResponse(bad.g, bad.a); err == nil {
			t.Errorf("%s %+v: no error", bad.g.Sample.ID, bad.a)
		}
	}
}

func TestEvaluatePeoplePoolsAnswers(t *testing.T) {
	golds := []Gold{
		{Sample: annotate.Sample{ID: "j1", Kind: annotate.KindJudgment, AnswerText: "yes"}},
		{Sample: annotate.Sample{ID: "j2", Kind: annotate.KindJudgment, AnswerText: "no"}},
	}
	people := []PersonAnswers{
		{Person: "ann", Predictions: []Prediction{{SampleID: "j1", Response: "yes"}, {SampleID: "j2", Response: "no"}}},
		{Person: "bo", Predictions: []Prediction{{SampleID: "j2", Response: "yes"}}}, // stopped after one, wrong
		{Person: "cy"},
	}
	rep, results, err := EvaluatePeople(context.Background(), golds, people, Options{Draws: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Three answers, two right: 66.7 %, counted over answers, not items.
	if rep.Model != "Human (2 people, 2 items)" || rep.N != 3 || len(results) != 3 {
		t.Errorf("model %q n %d results %d", rep.Model, rep.N, len(results))
	}
	if m := rep.Overall.JudgmentAcc; m == nil || m.N != 3 || m.Value < 66.66 || m.Value > 66.67 {
		t.Errorf("judgment_acc %+v, want 66.7 over 3", m)
	}
	if _, _, err := EvaluatePeople(context.Background(), golds, []PersonAnswers{{Person: "x", Predictions: []Prediction{{SampleID: "zz", Response: "yes"}}}}, Options{}); err == nil {
		t.Error("an answer to a sample outside the baseline was scored")
	}
	if _, _, err := EvaluatePeople(context.Background(), golds, people[2:], Options{}); err == nil {
		t.Error("nobody answering gave a report")
	}
}
