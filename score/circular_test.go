package score

import (
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestRotateOptions(t *testing.T) {
	opts := []string{"red", "green", "blue", "grey"}
	for _, tc := range []struct {
		k    int
		want []string
	}{
		{0, opts}, {1, []string{"green", "blue", "grey", "red"}}, {3, []string{"grey", "red", "green", "blue"}}, {4, opts},
	} {
		if got := RotateOptions(opts, tc.k); !slices.Equal(got, tc.want) {
			t.Errorf("k=%d: %q, want %q", tc.k, got, tc.want)
		}
	}
	if RotateOptions(nil, 2) != nil || opts[0] != "red" {
		t.Error("RotateOptions changed its input or rotated nothing")
	}
}

// TestScoreCircular: a question counts only when every rotated copy names the
// gold option, each copy read against its own rotated options (copy k's gold
// letter is (gold − k) mod n) and mapped back.
func TestScoreCircular(t *testing.T) {
	mcq := Gold{Sample: annotate.Sample{ID: "q", Kind: annotate.KindMCQ, Options: []string{"red", "green", "blue", "grey"}, AnswerIndex: 1}}
	hop := Gold{Sample: annotate.Sample{ID: "h", Kind: annotate.KindHopQA, Options: []string{"left", "right", "above", "below"}, AnswerIndex: 2}}
	open := Gold{Sample: annotate.Sample{ID: "o", Kind: annotate.KindOpen, AnswerText: "3"}}
	for _, tc := range []struct {
		name     string
		g        Gold
		p        Prediction
		correct  bool
		circular []string
		err      string
	}{
		{"each copy's own gold letter", mcq, Prediction{Response: "B", Copies: []string{"A", "D", "C"}}, true, []string{"B", "B", "B", "B"}, ""},
		{"the question's letter on every copy", mcq, Prediction{Response: "B", Copies: []string{"B", "B", "B"}}, false, []string{"B", "C", "D", "A"}, ""},
		{"option text, read against the rotated options", mcq, Prediction{Response: "green", Copies: []string{"It is green.", "green", "the green one"}}, true, []string{"B", "B", "B", "B"}, ""},
		{"one copy wrong", mcq, Prediction{Response: "B", Copies: []string{"A", "A", "C"}}, false, []string{"B", "B", "C", "B"}, ""},
		{"a copy missing", mcq, Prediction{Response: "B", Copies: []string{"A", "D"}}, false, []string{"B", "B", "B", ""}, ""},
		{"a copy declined", mcq, Prediction{Response: "B", Copies: []string{"A", "Cannot determine the answer", "C"}}, false, []string{"B", "B", "Z", "B"}, ""},
		{"hop_qa by its own rule", hop, Prediction{Response: "Answer: (C)", Copies: []string{"Answer: (B)", "Answer: (A)", "Answer: (d)"}}, true, []string{"C", "C", "C", "C"}, ""},
		{"hop_qa unrotated", hop, Prediction{Response: "Answer: (C)", Copies: []string{"Answer: (C)", "Answer: (C)", "Answer: (C)"}}, false, []string{"C", "D", "A", "B"}, ""},
		{"open: nothing to rotate", open, Prediction{Response: "3"}, true, nil, ""},
		{"open with copies", open, Prediction{Response: "3", Copies: []string{"3"}}, false, nil, `rotated copies of a open sample`},
		{"more copies than rotations", mcq, Prediction{Response: "B", Copies: []string{"A", "D", "C", "B"}}, false, nil, "4 rotated copies of a question of 4 options, which has 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.p.SampleID, tc.p.Circular = tc.g.Sample.ID, true
			r, err := ScoreSample(tc.g, tc.p, Options{})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Correct != tc.correct || !slices.Equal(r.Circular, tc.circular) {
				t.Fatalf("correct %v, circular %q; want %v, %q", r.Correct, r.Circular, tc.correct, tc.circular)
			}
			plain, _ := ScoreSample(tc.g, Prediction{SampleID: tc.g.Sample.ID, Response: tc.p.Response}, Options{})
			if r.Answer != plain.Answer {
				t.Errorf("answer %q, the question's own row reads %q", r.Answer, plain.Answer)
			}
		})
	}
}

// TestReadCircularPredictions: a file whose rows carry indexes of 1e6 and more,
// or whose name says circular, is folded into one prediction per sample with
// its copies; a plain file is not.
func TestReadCircularPredictions(t *testing.T) {
	for _, tc := range []struct {
		name, file, data string
		want             []Prediction
		lines            []int
		err              string
	}{
		{name: "a VLMEvalKit result file of a circular export", file: "model_bench_circular_MCQ.tsv",
			data: "index\tid\tprediction\n1\tq1\tB\n2\tq2\tA\n1000001\tq1\tA\n2000001\tq1\tD\n1000002\tq2\tB\n3000001\tq1\tC\n",
			want: []Prediction{{SampleID: "q1", Response: "B", Circular: true, Copies: []string{"A", "D", "C"}},
				{SampleID: "q2", Response: "A", Circular: true, Copies: []string{"B"}}},
			lines: []int{2, 3}},
		{name: "recognised by the indexes, whatever the name; a copy missing, the question's row last", file: "preds.tsv",
			data: "index\tid\tprediction\n2000007\tq\tC\n7\tq\tA\n",
			want: []Prediction{{SampleID: "q", Response: "A", Circular: true, Copies: []string{"", "C"}}}, lines: []int{3}},
		{name: "recognised by the name, no copy at all", file: "m_bench_circular_MCQ.tsv", data: "index\tid\tprediction\n1\tq\tB\n",
			want: []Prediction{{SampleID: "q", Response: "B", Circular: true}}, lines: []int{2}},
		{name: "JSON Lines with indexes, pandas' float", file: "run.jsonl",
			data: `{"id": "q", "index": 3, "response": "A"}` + "\n" + `{"id": "q", "index": "1000003.0", "response": "B"}` + "\n",
			want: []Prediction{{SampleID: "q", Response: "A", Circular: true, Copies: []string{"B"}}}, lines: []int{1}},
		{name: "small indexes are a plain run", file: "m_bench_MCQ.tsv", data: "index\tid\tprediction\n1\tq\tB\n2\tr\tA\n",
			want: []Prediction{{SampleID: "q", Response: "B"}, {SampleID: "r", Response: "A"}}, lines: []int{2, 3}},
		{name: "a circular name without indexes is a plain run", file: "circular.jsonl", data: `{"id": "q", "response": "A"}`,
			want: []Prediction{{SampleID: "q", Response: "A"}}, lines: []int{1}},
		{name: "a row without an index", file: "r.jsonl", data: `{"id": "q", "index": 1000001, "response": "A"}` + "\n" + `{"id": "r", "response": "A"}`,
			err: "r.jsonl:2: r: no index"},
		{name: "two rows for one copy", file: "r.tsv", data: "index\tid\tprediction\n1000001\tq\tA\n1000001\tq\tB\n",
			err: "r.tsv:3: q: a second row for copy 1 of the question (index 1000001; the first is at line 2)"},
		{name: "one id, two questions", file: "r.tsv", data: "index\tid\tprediction\n1\tq\tA\n1000002\tq\tB\n",
			err: "r.tsv:3: q: index 1000002 is a copy of question 2, but the sample's other rows are of question 1"},
		{name: "an index past 26 options", file: "r.tsv", data: "index\tid\tprediction\n26000001\tq\tA\n", err: "at most 26 options"},
		{name: "an index that is not a number, in a circular file", file: "r.tsv", data: "index\tid\tprediction\n1000001\tq\tA\nx\tr\tA\n", err: `r.tsv:3: r: no index`},
		{name: "an index that is not a number, in a plain file (as before: ignored)", file: "r.jsonl", data: `{"id": "q", "index": "q-1", "response": "A"}`,
			want: []Prediction{{SampleID: "q", Response: "A"}}, lines: []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, lines, err := ReadPredictions(tc.file, []byte(tc.data), PredictionsAuto)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, tc.want, func(a, b Prediction) bool {
				return a.SampleID == b.SampleID && a.Response == b.Response && a.Circular == b.Circular && slices.Equal(a.Copies, b.Copies)
			}) || !slices.Equal(lines, tc.lines) {
				t.Fatalf("got %+v at lines %v\nwant %+v at %v", got, lines, tc.want, tc.lines)
			}
		})
	}
}
