package score

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestReadPredictions(t *testing.T) {
	tests := []struct {
		name, file, data string
		format           PredictionFormat
		want             []Prediction
		lines            []int
		wantErr          string
	}{
		{name: "jsonl with both spellings of the keys, an integer id, null, a matrix",
			file: "run.jsonl",
			data: "\ufeff" + `{"id": "a-1", "response": "Answer: (a)", "extra": 1}` + "\n\n" +
				`{"sample_id": 7, "prediction": null}` + "\r\n" +
				`{"id": " s-2 ", "sample_id": "s-2", "response": "x", "step_match": [[1, 0], [0, 1]]}` + "\n",
			want: []Prediction{{SampleID: "a-1", Response: "Answer: (a)"}, {SampleID: "7"},
				{SampleID: "s-2", Response: "x", StepMatch: [][]int{{1, 0}, {0, 1}}}},
			lines: []int{1, 3, 4}},
		{name: "auto: JSON content without a known ending", file: "run.txt", data: `{"id": "a", "response": "b"}`,
			want: []Prediction{{SampleID: "a", Response: "b"}}, lines: []int{1}},
		{name: "a VLMEvalKit result file, quoted cells over two lines", file: "m_bench_MCQ.tsv",
			data:  "index\tquestion\tid\tprediction\n0\tWhich?\tq-1\t\"A\tor\nB\"\n1\tWhere?\tq-2\tC\n",
			want:  []Prediction{{SampleID: "q-1", Response: "A\tor\nB"}, {SampleID: "q-2", Response: "C"}},
			lines: []int{2, 4}},
		{name: "auto: not starting with { is a TSV", file: "result", data: "id\tprediction\nq\tyes\n",
			want: []Prediction{{SampleID: "q", Response: "yes"}}, lines: []int{2}},
		{name: "a .tsv file is a TSV whatever its first byte", file: "odd.tsv", data: "{col}\tid\tprediction\n0\tq\tA\n",
			want: []Prediction{{SampleID: "q", Response: "A"}}, lines: []int{2}},
		{name: "a .jsonl file is JSON Lines whatever its first byte", file: "r.jsonl", data: "[1]\n", wantErr: "r.jsonl:1: not a JSON object"},
		{name: "format given overrides the ending", file: "x.tsv", format: PredictionsJSONL, data: `{"id": "a", "response": ""}`,
			want: []Prediction{{SampleID: "a"}}, lines: []int{1}},

		{name: "not an object", file: "r.jsonl", data: `{"id": "a", "response": "b"}` + "\n[1]\n", wantErr: "r.jsonl:2: not a JSON object"},
		{name: "no id", file: "r.jsonl", data: `{"response": "b"}`, wantErr: `r.jsonl:1: no sample id: give "id" (or "sample_id")`},
		{name: "no response", file: "r.jsonl", data: `{"id": "a"}`, wantErr: `r.jsonl:1: a: no response: give the model's raw text as "response"`},
		{name: "two different ids", file: "r.jsonl", data: `{"id": "a", "sample_id": "b", "response": ""}`, wantErr: `r.jsonl:1: "id" and "sample_id" differ; give one`},
		{name: "a response that is a number", file: "r.jsonl", data: `{"id": "a", "response": 4}`, wantErr: `r.jsonl:1: "response" is not a string`},
		{name: "a bad matrix", file: "r.jsonl", data: `{"id": "a", "response": "", "step_match": "yes"}`, wantErr: "r.jsonl:1: a: step_match is not a matrix"},
		{name: "not UTF-8", file: "r.jsonl", data: "{\"id\": \"a\", \"response\": \"caf\xe9\"}", wantErr: "r.jsonl:1: the line is not UTF-8 text"},
		{name: "a workbook", file: "r.xlsx", data: "PK\x03\x04...", wantErr: "r.xlsx is a spreadsheet (xlsx); run VLMEvalKit with PRED_FORMAT=tsv"},
		{name: "a workbook by its bytes", file: "r.tsv", data: "PK\x03\x04...", wantErr: "r.tsv is a spreadsheet (xlsx)"},
		{name: "a dataset without predictions", file: "bench_YN.tsv", data: "index\tid\tquestion\n0\tq\tWhy?\n",
			wantErr: "bench_YN.tsv: no prediction column: not a VLMEvalKit result file (its columns: index, id, question)"},
		{name: "no id column", file: "r.tsv", data: "index\tprediction\n0\tA\n", wantErr: "r.tsv: no id column"},
		{name: "a row without an id", file: "r.tsv", data: "id\tprediction\nq\tA\n \tB\n", wantErr: "r.tsv:3: the row has no id"},
		{name: "a row not UTF-8", file: "r.tsv", data: "id\tprediction\nq\t\xff\n", wantErr: "r.tsv:2: the row is not UTF-8 text"},
		{name: "a broken quote", file: "r.tsv", data: "id\tprediction\nq\t\"A\"x\n", wantErr: "r.tsv:2: extraneous or missing \" in quoted-field"},
		{name: "an empty TSV", file: "r.tsv", data: "", wantErr: "r.tsv: the file is empty"},
		{name: "a TSV line over 16 MiB", file: "huge.tsv", data: "id\tprediction\nq\t" + strings.Repeat("y", 16<<20) + "\n",
			wantErr: "huge.tsv has a line longer than 16 MiB"},
		{name: "an unknown format", file: "r.jsonl", format: "xml", data: "{}", wantErr: `unknown predictions format "xml"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			preds, lines, err := ReadPredictions(tc.file, []byte(tc.data), tc.format)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				if preds != nil || lines != nil {
					t.Errorf("predictions %v returned with an error", preds)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(preds, tc.want, func(a, b Prediction) bool {
				return a.SampleID == b.SampleID && a.Response == b.Response && slices.EqualFunc(a.StepMatch, b.StepMatch, slices.Equal)
			}) {
				t.Errorf("predictions %+v, want %+v", preds, tc.want)
			}
			if !slices.Equal(lines, tc.lines) {
				t.Errorf("lines %v, want %v", lines, tc.lines)
			}
		})
	}
}

func ExampleReadPredictions() {
	file := `{"id": "demo-hq-001", "response": "Answer: (a) the lamp"}
{"id": "demo-yn-001", "response": "Yes."}
`
	preds, lines, err := ReadPredictions("run.jsonl", []byte(file), PredictionsAuto)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range preds {
		fmt.Printf("line %d: %s %q\n", lines[i], p.SampleID, p.Response)
	}
	_, _, err = ReadPredictions("run.jsonl", []byte(`{"response": "B"}`), PredictionsAuto)
	fmt.Println(err)
	// Output:
	// line 1: demo-hq-001 "Answer: (a) the lamp"
	// line 2: demo-yn-001 "Yes."
	// run.jsonl:1: no sample id: give "id" (or "sample_id")
}
