package score_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
)

// golds is a small release: two hop questions on 1200×800 images, a
// multiple-choice question, a judgment and an open numeric question.
func golds() []score.Gold {
	tol := 0.5
	hop := func(id string, hop int, view annotate.View) score.Gold {
		return score.Gold{Sample: annotate.Sample{
			ID: id, Kind: annotate.KindHopQA, Options: []string{"the mug", "the kettle", "the apple", "the book"},
			AnswerIndex: 2, Box: &annotate.Box{100, 120, 200, 220}, Hop: hop, View: view,
			Categories: []annotate.Category{annotate.CatAtt, annotate.CatRel}[:hop], Split: "test",
		}, Width: 1200, Height: 800}
	}
	return []score.Gold{
		hop("mh-1", 1, annotate.ViewExo),
		hop("mh-2", 2, annotate.ViewEgo),
		{Sample: annotate.Sample{ID: "mc-1", Kind: annotate.KindMCQ, Options: []string{"left", "right", "behind"}, AnswerIndex: 1, Task: "T2"}},
		{Sample: annotate.Sample{ID: "yn-1", Kind: annotate.KindJudgment, AnswerText: "yes", Task: "T1"}},
		{Sample: annotate.Sample{ID: "op-1", Kind: annotate.KindOpen, AnswerText: "2.5", Tolerance: &tol, Task: "T1"}},
	}
}

func preds() []score.Prediction {
	return []score.Prediction{
		{SampleID: "mh-1", Response: "Answer: (c) the apple\nBounding Box: [83, 150, 167, 275]"},
		{SampleID: "mh-2", Response: "Answer: (a) the mug\nBounding Box: [83, 150, 167, 275]"},
		{SampleID: "mc-1", Response: "The answer is B."},
		{SampleID: "yn-1", Response: "Yes, it is."},
		{SampleID: "op-1", Response: "<think>about two metres</think><answer>2.8</answer>"},
	}
}

func ExampleEvaluate() {
	rep, results, err := score.Evaluate(context.Background(), "demo-vlm", golds(), preds(), score.Options{Seed: 7})
	if err != nil {
		panic(err)
	}
	o := rep.Overall
	fmt.Printf("%s: n=%d, denominator %s\n", rep.Model, rep.N, rep.Denominator)
	fmt.Printf("mcq_acc %.1f (n %d), acc50iou %.1f, mean_iou %.1f\n", o.MCQAcc.Value, o.MCQAcc.N, o.Acc50IoU.Value, o.MeanIoU.Value)
	fmt.Printf("judgment %.0f, strict %.0f, relaxed %.0f, MRA %.0f\n", o.JudgmentAcc.Value, o.StrictAcc.Value, o.RelaxedAcc.Value, o.MRA.Value)
	for _, g := range rep.By[score.ByHop] {
		fmt.Printf("hop %s: mcq_acc %.0f\n", g.Label, g.MCQAcc.Value)
	}
	fmt.Println(results[0].Answer, *results[0].IoU, results[0].Hit50)
	// Output:
	// demo-vlm: n=5, denominator all
	// mcq_acc 66.7 (n 3), acc50iou 50.0, mean_iou 99.2
	// judgment 100, strict 0, relaxed 100, MRA 80
	// hop 1: mcq_acc 100
	// hop 2: mcq_acc 0
	// C 0.9921 true
}

func ExampleScoreAll() {
	results, err := score.ScoreAll(context.Background(), golds(), preds()[:3], score.Options{})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("%s %-8s answer=%q correct=%v missing=%v\n", r.SampleID, r.Kind, r.Answer, r.Correct, r.Missing)
	}
	// Output:
	// mh-1 hop_qa   answer="C" correct=true missing=false
	// mh-2 hop_qa   answer="A" correct=false missing=false
	// mc-1 mcq      answer="B" correct=true missing=false
	// yn-1 judgment answer="" correct=false missing=true
	// op-1 open     answer="" correct=false missing=true
}

func ExampleScoreSample() {
	g := golds()[0]
	r, err := score.ScoreSample(g, score.Prediction{SampleID: "mh-1", Response: "Answer: (c)\nBounding Box: [1200, 0, 1300, 100]"}, score.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Answer, r.Correct, *r.Box, r.BoxError)
	// Output: C true [1.2 0 1.3 0.1] invalid box: coordinate 1 (1.2) is outside 0–1
}

func ExampleSummarize() {
	gs := golds()
	results, err := score.ScoreAll(context.Background(), gs, preds(), score.Options{})
	if err != nil {
		panic(err)
	}
	rep, err := score.Summarize(context.Background(), "demo-vlm", gs, results, score.Options{Denominator: score.DenomParsed, Draws: -1})
	if err != nil {
		panic(err)
	}
	for _, g := range rep.By[score.ByTask] {
		fmt.Printf("task %s: n=%d parsed %.0f\n", g.Label, g.N, g.Parsed.Value)
	}
	fmt.Println(rep.Bootstrap == nil, rep.Overall.MCQAcc.CI == nil)
	// Output:
	// task T1: n=2 parsed 100
	// task T2: n=1 parsed 100
	// true true
}

func ExampleLeaderboard() {
	var reports []*score.Report
	for model, resp := range map[string]string{
		"good": "Answer: (c) the apple\nBounding Box: [83, 150, 167, 275]",
		"poor": "Answer: (a) the mug\nBounding Box: [0, 0, 10, 10]",
	} {
		var ps []score.Prediction
		for _, g := range golds()[:2] {
			ps = append(ps, score.Prediction{SampleID: g.Sample.ID, Response: resp})
		}
		rep, _, err := score.Evaluate(context.Background(), model, golds()[:2], ps, score.Options{Seed: 1})
		if err != nil {
			panic(err)
		}
		reports = append(reports, rep)
	}
	board, err := score.Leaderboard(reports, "acc50iou")
	if err != nil {
		panic(err)
	}
	for _, s := range board {
		fmt.Printf("%d %s %.0f %v tied with %v\n", s.Rank, s.Model, s.Value, *s.CI, s.TiedWith)
	}
	// Output:
	// 1 good 100 [100 100] tied with []
	// 2 poor 0 [0 0] tied with []
}

func ExampleFigures_Metric() {
	rep, _, err := score.Evaluate(context.Background(), "m", golds(), preds(), score.Options{Draws: -1})
	if err != nil {
		panic(err)
	}
	for _, name := range []string{"mcq_acc", "mcq_acc_parsed_denominator", "content_f1"} {
		if m := rep.Overall.Metric(name); m != nil {
			fmt.Printf("%s %.2f\n", name, m.Value)
		} else {
			fmt.Println(name, "absent")
		}
	}
	// Output:
	// mcq_acc 66.67
	// mcq_acc_parsed_denominator 66.67
	// content_f1 absent
}

func ExampleParseHopAnswer() {
	for _, s := range []string{"Answer: (b) the kettle", "answer: D)", "Answer: a\nBounding Box: [1, 2, 3, 4]", "I pick (c).", "B"} {
		l, ok := score.ParseHopAnswer(s)
		fmt.Printf("%q %v\n", l, ok)
	}
	// Output:
	// "B" true
	// "D" true
	// "A" true
	// "C" true
	// "" false
}

func ExampleParseHopBox() {
	for _, s := range []string{"Bounding Box: [83, 150, 167, 275]", `{"bbox_2d": [0.1, 0.2, 0.3, 0.4]}`, "no box"} {
		b, err := score.ParseHopBox(s)
		fmt.Println(b, err)
	}
	// Output:
	// [0.083 0.15 0.167 0.275] <nil>
	// [0.1 0.2 0.3 0.4] <nil>
	// [0 0 0 0] no box
}

func ExampleCheckUnitBox() {
	fmt.Println(score.CheckUnitBox([4]float64{0.1, 0.2, 0.3, 0.4}))
	fmt.Println(score.CheckUnitBox([4]float64{0.3, 0.2, 0.1, 0.4}))
	// Output:
	// <nil>
	// x2 0.1 is not right of x1 0.3
}

func ExampleHopIoU() {
	// The gold box [100,120,200,220] on 1200×800 is [83,150,167,275] on 0–1000;
	// back in pixels that is [99.6,120,200.4,220]: intersection 100×100, union 100.8×100.
	fmt.Println(score.HopIoU([4]float64{0.083, 0.15, 0.167, 0.275}, annotate.Box{100, 120, 200, 220}, 1200, 800))
	// Output: 0.9921
}

func ExampleInferOption() {
	opts := []string{"left", "right", "behind"}
	for _, s := range []string{"B", "The correct answer is **c**.", "It is behind the chair", "A or B", "Cannot determine the answer"} {
		fmt.Printf("%q\n", score.InferOption(s, opts))
	}
	// Output:
	// "B"
	// "C"
	// "C"
	// ""
	// "Z"
}

func ExampleYesNo() {
	for _, s := range []string{"Yes, it is.", "No.", "Yes and no", "Not sure"} {
		fmt.Printf("%q\n", score.YesNo(s))
	}
	// Output:
	// "yes"
	// "no"
	// ""
	// ""
}

func ExampleExtractOpenAnswer() {
	fmt.Printf("%q\n", score.ExtractOpenAnswer("<think>maybe 3</think>I estimate <answer>2.8 m</answer>"))
	// Output: "2.8 m"
}

func ExampleNormalizeAnswer() {
	fmt.Printf("%q %q\n", score.NormalizeAnswer("The Left-hand Side."), score.NormalizeAnswer("1,250.5 cm"))
	// Output: "left hand side" "1250.5 cm"
}

func ExampleExtractNumber() {
	for _, s := range []string{"about 2.5 meters", "three hundred and twenty-one", "none"} {
		fmt.Println(score.ExtractNumber(s))
	}
	// Output:
	// 2.5 true
	// 321 true
	// 0 false
}

func ExampleMRA() {
	fmt.Println(score.MRA(10.6, 10), score.MRA(5, 10), score.MRA(30, 10))
	// Output: 0.9 0.1 0
}

func ExampleWithinTolerance() {
	fmt.Println(score.WithinTolerance(2.6, 2.5, 0.1), score.WithinTolerance(2.7, 2.5, 0.1))
	// Output: true false
}

func ExampleLinearSumAssignment() {
	rows, cols, err := score.LinearSumAssignment([][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}, false)
	fmt.Println(rows, cols, err)
	// Output: [0 1 2] [1 0 2] <nil>
}

func ExampleMaxMatching() {
	pairs, err := score.MaxMatching([][]bool{{true, true}, {true, false}})
	fmt.Println(pairs, err)
	// Output: [[0 1] [1 0]] <nil>
}

func ExampleParseStepGraph() {
	steps, err := score.ParseStepGraph("Plan:\n```json\n" +
		`{"step1": {"content": "Remove the book", "precondition": []}, "step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}` +
		"\n```")
	if err != nil {
		panic(err)
	}
	for _, s := range steps {
		fmt.Println(s.ID, s.Content, s.Precondition)
	}
	// Output:
	// step1 Remove the book []
	// step2 Pick up the laptop [step1]
}

func ExampleTextMatch() {
	gold := []annotate.Step{{ID: "s1", Content: "Remove the book"}, {ID: "s2", Content: "Pick up the laptop"}}
	pred := []annotate.Step{{ID: "p1", Content: "pick up the laptop."}}
	fmt.Println(score.TextMatch(gold, pred))
	// Output: [[false] [true]]
}

func ExampleScoreSteps() {
	gold := []annotate.Step{
		{ID: "s1", Content: "Remove the book"},
		{ID: "s2", Content: "Remove the cup"},
		{ID: "s3", Content: "Pick up the laptop", Precondition: []string{"s1", "s2"}},
	}
	pred := []annotate.Step{
		{ID: "step1", Content: "Remove the book"},
		{ID: "step2", Content: "Pick up the laptop", Precondition: []string{"step1"}},
	}
	sc, err := score.ScoreSteps(gold, pred, score.TextMatch(gold, pred), false)
	if err != nil {
		panic(err)
	}
	fmt.Printf("matches %v content %+v precondition %+v\n", sc.Matches, sc.Content, sc.Precond)
	// Output: matches [[0 0] [2 1]] content {TP:2 FP:0 FN:1} precondition {TP:1 FP:0 FN:1}
}

func ExampleCounts_PRF() {
	p, r, f1 := score.Counts{TP: 2, FP: 0, FN: 1}.PRF()
	fmt.Printf("%.3f %.3f %.3f\n", p, r, f1)
	// Output: 1.000 0.667 0.800
}

func ExampleResult_Parsed() {
	r, _ := score.ScoreSample(golds()[3], score.Prediction{SampleID: "yn-1", Response: "Hard to say."}, score.Options{})
	fmt.Println(r.Parsed(), r.ParseError)
	// Output: false neither or both of the words yes and no (VLMEvalKit "Unknown")
}

func ExampleWriteLeaderboardCSV() {
	var reports []*score.Report
	for _, m := range []struct{ model, resp string }{
		{"good", "Answer: (c) the apple\nBounding Box: [83, 150, 167, 275]"},
		{"poor", "Answer: (a) the mug\nBounding Box: [0, 0, 10, 10]"},
	} {
		var ps []score.Prediction
		for _, g := range golds()[:2] {
			ps = append(ps, score.Prediction{SampleID: g.Sample.ID, Response: m.resp})
		}
		rep, _, err := score.Evaluate(context.Background(), m.model, golds()[:2], ps, score.Options{Draws: -1})
		if err != nil {
			panic(err)
		}
		reports = append(reports, rep)
	}
	board, err := score.Leaderboard(reports, "mcq_acc")
	if err != nil {
		panic(err)
	}
	if err := score.WriteLeaderboardCSV(os.Stdout, board, reports, []string{"mcq_acc"}); err != nil {
		panic(err)
	}
	// Output:
	// rank,model,tied_with,mcq_acc,mcq_acc_ci_low,mcq_acc_ci_high,mcq_acc_n
	// 1,good,,100,,,2
	// 2,poor,,0,,,2
}

func ExampleWriteCSV() {
	var ps []score.Prediction
	for _, g := range golds()[:2] {
		ps = append(ps, score.Prediction{SampleID: g.Sample.ID, Response: "Answer: (c) the apple\nBounding Box: [83, 150, 167, 275]"})
	}
	rep, _, err := score.Evaluate(context.Background(), "good", golds()[:2], ps, score.Options{Draws: -1})
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	if err := score.WriteCSV(&b, []*score.Report{rep}); err != nil {
		panic(err)
	}
	fmt.Println(strings.SplitN(b.String(), "\n", 4)[:3])
	// Output: [model,dimension,group,metric,value,ci_low,ci_high,n good,overall,,parsed,100,,,2 good,overall,,mcq_acc,100,,,2]
}
