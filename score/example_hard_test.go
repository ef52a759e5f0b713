package score_test

import (
	"context"
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
)

func ExampleSelectHard() {
	gs := golds() // mh-1, mh-2 (hop questions), mc-1, yn-1, op-1
	right := map[string]map[string]string{"m1": {}, "m2": {"mh-1": "Answer: (c)"}, "m3": {"mc-1": "B"}}
	var runs []score.ModelResults
	for _, model := range []string{"m1", "m2", "m3"} {
		var ps []score.Prediction
		for _, g := range gs {
			resp, ok := right[model][g.Sample.ID]
			if !ok {
				resp = "I cannot tell."
			}
			ps = append(ps, score.Prediction{SampleID: g.Sample.ID, Response: resp})
		}
		results, err := score.ScoreAll(context.Background(), gs, ps, score.Options{})
		if err != nil {
			panic(err)
		}
		runs = append(runs, score.ModelResults{Model: model, Results: results})
	}
	sel, err := score.SelectHard(gs, runs, score.HardSpec{K: 3, Target: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(sel)
	for _, c := range sel.Candidates {
		fmt.Println(c.SampleID, c.FailedBy)
	}
	// Output:
	// 2 of 3 samples failed by at least 3 of 3 models (hop_qa/att+rel 1 of 1, judgment/task=T1 1 of 1, open/task=T1 0 of 1)
	// mh-2 [m1 m2 m3]
	// yn-1 [m1 m2 m3]
}

func ExampleBalanceCounts() {
	fmt.Println(score.BalanceCounts(map[string]int{"att": 10, "pos": 2, "rel": 5}, 9))
	// Output: map[att:4 pos:2 rel:3]
}

func ExampleHardCategory() {
	fmt.Println(score.HardCategory(annotate.Sample{Kind: annotate.KindHopQA, Categories: []annotate.Category{annotate.CatRel, annotate.CatAtt}}))
	fmt.Println(score.HardCategory(annotate.Sample{Kind: annotate.KindMCQ, Task: "T3"}))
	// Output:
	// hop_qa/att+rel
	// mcq/task=T3
}

func ExampleFailed() {
	r := score.Result{Kind: annotate.KindHopQA, Correct: true, Hit50: false}
	fmt.Println(score.Failed(r, false), score.Failed(r, true))
	// Output: false true
}

func ExampleProportionalCounts() {
	fmt.Println(score.ProportionalCounts(map[string]int{"a": 6, "b": 3, "c": 1}, 5))
	// Output: map[a:3 b:2 c:0]
}

func ExampleDrawHuman() {
	gs := golds()
	for _, i := range score.DrawHuman(gs, 3, 7) {
		fmt.Println(gs[i].Sample.ID)
	}
	// Output:
	// mh-1
	// mh-2
	// yn-1
}

func ExampleHumanResponse() {
	g := golds()[0] // 1200×800, gold box 100,120 – 200,220, answer C
	text, err := score.HumanResponse(g, score.HumanAnswer{Option: 2, Box: &annotate.Box{90, 120, 210, 220}})
	if err != nil {
		panic(err)
	}
	fmt.Println(text)
	r, _ := score.ScoreSample(g, score.Prediction{SampleID: g.Sample.ID, Response: text}, score.Options{})
	fmt.Println(r.Correct, *r.IoU, r.Hit50)
	// Output:
	// Answer: (c) the apple
	// Bounding Box: [0.075000, 0.150000, 0.175000, 0.275000]
	// true 0.8333 true
}

func ExampleHumanLabel() {
	fmt.Println(score.HumanLabel(3, 120))
	// Output: Human (3 people, 120 items)
}

func ExampleEvaluatePeople() {
	gs := golds()[2:4] // an option question (B) and a judgment (yes)
	rep, _, err := score.EvaluatePeople(context.Background(), gs, []score.PersonAnswers{
		{Person: "ann1", Predictions: []score.Prediction{{SampleID: "mc-1", Response: "B"}, {SampleID: "yn-1", Response: "yes"}}},
		{Person: "ver1", Predictions: []score.Prediction{{SampleID: "mc-1", Response: "C"}}},
	}, score.Options{Draws: -1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: n %d, mcq_acc %.0f, judgment_acc %.0f\n", rep.Model, rep.N, rep.Overall.MCQAcc.Value, rep.Overall.JudgmentAcc.Value)
	// Output: Human (2 people, 2 items): n 3, mcq_acc 50, judgment_acc 100
}
