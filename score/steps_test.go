package score

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func st(id, content string, pre ...string) annotate.Step {
	if pre == nil {
		pre = []string{}
	}
	return annotate.Step{ID: id, Content: content, Precondition: pre}
}

func TestParseStepGraph(t *testing.T) {
	two := []annotate.Step{st("step1", "Remove the book"), st("step2", "Pick up the laptop", "step1")}
	const obj = `{"step1": {"content": "Remove the book", "precondition": []}, "step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}`
	for _, tc := range []struct {
		name, in string
		want     []annotate.Step
	}{
		{"answer.py <ans> JSON", "<ans>" + obj + "</ans>", two},
		{"<ans> before an earlier example object", `Format: {"step1": {"content": "example", "precondition": []}}. Mine: <ans>` + obj + "</ans>", two},
		{"<ans> before a fence", "```python\nprint(1)\n```\n<ans>" + obj + "</ans>", two},
		{"Python literal with trailing commas", `<ans>{'step1': {'content': 'Remove the book', 'precondition': [],}, 'step2': {'content': "Pick up the laptop", 'precondition': ('step1',)},}</ans>`, two},
		{"json fence with answer key", "Here is the plan:\n```json\n{\"question\": \"Pick up the laptop\", \"answer\": " + obj + "}\n```\nDone.", two},
		{"fence amid other braces", "Here is {my plan}:\n```json\n" + obj + "\n```\nBye {:)}", two},
		{"fence inside <ans>", "<ans>```json\n" + obj + "\n```</ans>", two},
		{"prose around braces", "Sure! " + obj + " Hope this helps.", two},
		{"steps list", `{"steps": [{"content": "Remove the book", "precondition": []}, {"content": "Pick up the laptop", "precondition": ["step1"]}]}`, two},
		{"list of singletons", `[{"step1": {"content": "Remove the book", "precondition": []}}, {"step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}]`, two},
		{"list of step objects", `[{"content": "Remove the book", "precondition": []}, {"content": "Pick up the laptop", "precondition": "step1"}]`, two},
		{"spaces in keys, precondition by content", `{"step 1": {"content": "Remove the book", "pre condition": [""]}, "step 2": {"content": "Pick up the laptop", "precondition": ["remove  the BOOK"]}}`, two},
		{"postaction dropped, set precondition", `{"step1": {"content": "Remove the book", "precondition": []}, "step2": {"content": "Pick up the laptop", "precondition": {"step1"}}, "postaction": {"content": "celebrate"}}`, two},
		{"duplicate key: last value, first place", `{"step1": {"content": "x", "precondition": []}, "step2": {"content": "Pick up the laptop", "precondition": ["step1"]}, "step1": {"content": "Remove the book", "precondition": null}}`, two},
		{"JSON escapes and true/None", `{"step1": {"content": "Remove the \u201cbook\u201d", "precondition": [], "done": true}, "step2": {"content": "Pick up", "precondition": None}}`,
			[]annotate.Step{st("step1", "Remove the \u201cbook\u201d"), st("step2", "Pick up")}},
		{"unknown precondition kept", `{"step1": {"content": "a", "precondition": ["step9"]}}`, []annotate.Step{st("step1", "a", "step9")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseStepGraph(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseStepGraph = %#v\nwant %#v", got, tc.want)
			}
		})
	}
	for _, in := range []string{
		"I cannot do that.",
		`<ans>{"step1": {"content": "x"</ans>`,
		`{"answer": "first remove the book"}`,
		`[1, 2, 3]`,
		"",
	} {
		if got, err := ParseStepGraph(in); !errors.Is(err, ErrNoStepGraph) {
			t.Errorf("ParseStepGraph(%q) = %v, %v; want ErrNoStepGraph", in, got, err)
		}
	}
}

// laptop is the gold graph of the SpatiaLQA prompt's example, shortened:
// edges (s3, s1), (s3, s2), (s4, s3).
var laptop = []annotate.Step{
	st("s1", "Remove the stapler from the book"),
	st("s2", "Remove the keys from the book"),
	st("s3", "Remove the book from the laptop", "s1", "s2"),
	st("s4", "Pick up the laptop", "s3"),
}

func TestScoreSteps(t *testing.T) {
	pred := []annotate.Step{
		st("p1", "Remove the keys from the book."),
		st("p2", "remove the stapler from the book"),
		st("p3", "Remove the book from the laptop", "p1"),
		st("p4", "Pick up the laptop", "p3"),
		st("p5", "Dance", "p4"),
		st("p6", "Sing", "p4"),
	}
	for _, tc := range []struct {
		collapse bool
		precond  Counts
	}{
		// Mapped edges: (s3, s2) and (s4, s3) are gold; (p5→x, s4) and (p6→x, s4)
		// are not: two false positives, or one when collapsed as metric.py does.
		{false, Counts{TP: 2, FP: 2, FN: 1}},
		{true, Counts{TP: 2, FP: 1, FN: 1}},
	} {
		sc, err := ScoreSteps(laptop, pred, TextMatch(laptop, pred), tc.collapse)
		if err != nil {
			t.Fatal(err)
		}
		if want := [][2]int{{0, 1}, {1, 0}, {2, 2}, {3, 3}}; !slices.Equal(sc.Matches, want) {
			t.Errorf("matches %v, want %v", sc.Matches, want)
		}
		if want := (Counts{TP: 4, FP: 2, FN: 0}); sc.Content != want {
			t.Errorf("content %+v, want %+v", sc.Content, want)
		}
		if sc.Precond != tc.precond {
			t.Errorf("collapse %v: precondition %+v, want %+v", tc.collapse, sc.Precond, tc.precond)
		}
	}

	// No prediction: everything missed.
	sc, err := ScoreSteps(laptop, nil, TextMatch(laptop, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Content != (Counts{FN: 4}) || sc.Precond != (Counts{FN: 3}) || sc.Matches != nil {
		t.Errorf("no prediction: %+v", sc)
	}

	// Shape errors.
	if _, err := ScoreSteps(laptop, pred, [][]bool{{true}}, false); err == nil {
		t.Error("a matrix of the wrong shape was accepted")
	}
}

// TestScoreStepsTieBreak: which of two equally good matchings is kept decides
// the precondition score; scipy's choice (the first free column among equals,
// scanning from the last) maps the predicted edge onto the gold one.
func TestScoreStepsTieBreak(t *testing.T) {
	gold := []annotate.Step{st("g1", "Remove the cup"), st("g2", "Remove the cup"), st("g3", "Pick up the tray", "g1")}
	pred := []annotate.Step{st("p1", "Remove the cup"), st("p2", "Pick up the tray", "p1")}
	sc, err := ScoreSteps(gold, pred, TextMatch(gold, pred), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][2]int{{0, 0}, {2, 1}}; !slices.Equal(sc.Matches, want) {
		t.Errorf("matches %v, want scipy's %v", sc.Matches, want)
	}
	if sc.Precond != (Counts{TP: 1}) {
		t.Errorf("precondition %+v, want one true positive", sc.Precond)
	}
}

func TestCountsPRF(t *testing.T) {
	for _, tc := range []struct {
		c        Counts
		p, r, f1 float64
	}{
		{Counts{TP: 4, FP: 1, FN: 0}, 0.8, 1, 8.0 / 9},
		{Counts{TP: 2, FP: 1, FN: 1}, 2.0 / 3, 2.0 / 3, 2.0 / 3},
		{Counts{FN: 3}, 0, 0, 0},
		{Counts{}, 0, 0, 0},
	} {
		p, r, f1 := tc.c.PRF()
		if !near(p, tc.p) || !near(r, tc.r) || !near(f1, tc.f1) {
			t.Errorf("%+v: %v %v %v, want %v %v %v", tc.c, p, r, f1, tc.p, tc.r, tc.f1)
		}
	}
}

func TestScoreStepGraphSample(t *testing.T) {
	g := Gold{Sample: annotate.Sample{ID: "sg", Kind: annotate.KindStepGraph, Question: "Pick up the laptop", Steps: laptop}}
	resp := `<ans>{"step1": {"content": "Remove the stapler", "precondition": []}, "step2": {"content": "Pick up the laptop", "precondition": ["step1"]}}</ans>`

	// Text equality matches only step2 ↔ s4.
	r, err := ScoreSample(g, Prediction{SampleID: "sg", Response: resp}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *r.Content != (Counts{TP: 1, FP: 1, FN: 3}) || *r.Precond != (Counts{TP: 0, FP: 1, FN: 3}) || r.Correct {
		t.Errorf("text match: content %+v precondition %+v correct %v", *r.Content, *r.Precond, r.Correct)
	}
	// A judge's matrix also matches step1 ↔ s1: then (step2, step1) maps to
	// (s4, s1), still not a gold edge.
	judge := [][]int{{1, 0}, {0, 0}, {0, 0}, {0, 1}}
	r, err = ScoreSample(g, Prediction{SampleID: "sg", Response: resp, StepMatch: judge}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *r.Content != (Counts{TP: 2, FP: 0, FN: 2}) || *r.Precond != (Counts{TP: 0, FP: 1, FN: 3}) {
		t.Errorf("judge matrix: content %+v precondition %+v", *r.Content, *r.Precond)
	}
	if _, err := ScoreSample(g, Prediction{SampleID: "sg", Response: resp, StepMatch: [][]int{{1, 0}}}, Options{}); err == nil {
		t.Error("a judge matrix of the wrong shape was accepted")
	}
	if _, err := ScoreSample(g, Prediction{SampleID: "sg", Response: resp, StepMatch: [][]int{{2, 0}, {0, 0}, {0, 0}, {0, 1}}}, Options{}); err == nil {
		t.Error("a judge matrix entry of 2 was accepted")
	}
	// Perfect answer.
	perfect := `{"s1": {"content": "Remove the stapler from the book", "precondition": []}, "s2": {"content": "Remove the keys from the book", "precondition": []},
		"s3": {"content": "Remove the book from the laptop", "precondition": ["s1", "s2"]}, "s4": {"content": "Pick up the laptop", "precondition": ["s3"]}}`
	r, _ = ScoreSample(g, Prediction{SampleID: "sg", Response: perfect}, Options{})
	if !r.Correct || *r.Precond != (Counts{TP: 3}) {
		t.Errorf("perfect answer: correct %v precondition %+v", r.Correct, *r.Precond)
	}
	// Nothing parseable.
	r, _ = ScoreSample(g, Prediction{SampleID: "sg", Response: "no idea"}, Options{})
	if r.Parsed() || r.ParseError == "" || *r.Content != (Counts{FN: 4}) {
		t.Errorf("unparsed: parsed %v error %q content %+v", r.Parsed(), r.ParseError, *r.Content)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
