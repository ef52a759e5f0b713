package score

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"
)

// run is a report with an mcq_acc (and, when yn >= 0, a judgment_acc) figure.
func run(model string, blind bool, base string, mcq, yn float64) *Report {
	r := &Report{Model: model, Blind: blind, Base: base, Overall: Figures{MCQAcc: &Metric{Value: mcq, N: 10}}}
	if yn >= 0 {
		r.Overall.JudgmentAcc = &Metric{Value: yn, N: 4}
	}
	return r
}

func fp(v float64) *float64 { return &v }

// TestMultiModalGains checks MG = S_v − S_wv and ML = max(0, S_wv − S_t) against
// values worked out by hand from MMStar's definitions.
func TestMultiModalGains(t *testing.T) {
	tests := []struct {
		name    string
		reports []*Report
		want    map[string][]Gain
	}{
		{
			name:    "no blind run: no gains",
			reports: []*Report{run("a", false, "", 60, -1), run("b", false, "", 50, -1)},
			want:    map[string][]Gain{},
		},
		{
			// 70 − 40 = 30; no base, so no S_t and no ML.
			name:    "blind run without base",
			reports: []*Report{run("a", false, "", 70, -1), run("a", true, "", 40, -1)},
			want:    map[string][]Gain{"a": {{Figure: "mcq_acc", SV: 70, SWV: 40, MG: 30}}},
		},
		{
			// a: MG 70 − 40 = 30, ML max(0, 40 − 25) = 15 (the base's blind run, 25,
			// not its run with images, 90); judgment: MG 80 − 75 = 5, ML max(0, 75 − 50) = 25.
			// c: MG 50 − 55 = −5 (a negative gain is shown as it is), ML max(0, 55 − 60) = 0.
			name: "bases, a negative gain and a clipped leakage",
			reports: []*Report{
				run("a", false, "", 70, 80), run("a", true, "llm", 40, 75),
				run("llm", true, "", 25, 50), run("llm", false, "", 90, 99),
				run("c", false, "", 50, -1), run("c", true, "llm2", 55, -1),
				run("llm2", false, "", 60, -1),
			},
			want: map[string][]Gain{
				"a": {
					{Figure: "mcq_acc", SV: 70, SWV: 40, MG: 30, Base: "llm", ST: fp(25), ML: fp(15)},
					{Figure: "judgment_acc", SV: 80, SWV: 75, MG: 5, Base: "llm", ST: fp(50), ML: fp(25)},
				},
				"llm": {{Figure: "mcq_acc", SV: 90, SWV: 25, MG: 65}, {Figure: "judgment_acc", SV: 99, SWV: 50, MG: 49}},
				"c":   {{Figure: "mcq_acc", SV: 50, SWV: 55, MG: -5, Base: "llm2", ST: fp(60), ML: fp(0)}},
			},
		},
		{
			// The base was not scored with the others: no ML, the base still named.
			name:    "base not among the reports",
			reports: []*Report{run("a", false, "", 70, -1), run("a", true, "gone", 40, -1)},
			want:    map[string][]Gain{"a": {{Figure: "mcq_acc", SV: 70, SWV: 40, MG: 30, Base: "gone"}}},
		},
		{
			// A figure over no sample is no score: the blind run's judgment_acc
			// gives no gain, the base's mcq_acc no leakage.
			name: "figures over no sample",
			reports: []*Report{
				run("a", false, "", 70, 80),
				func() *Report { r := run("a", true, "llm", 40, 0); r.Overall.JudgmentAcc.N = 0; return r }(),
				func() *Report { r := run("llm", true, "", 0, -1); r.Overall.MCQAcc.N = 0; return r }(),
			},
			want: map[string][]Gain{"a": {{Figure: "mcq_acc", SV: 70, SWV: 40, MG: 30, Base: "llm"}}},
		},
		{
			// A figure only one run has gives no gain.
			name:    "figures in common only",
			reports: []*Report{run("a", false, "", 70, 80), run("a", true, "", 40, -1)},
			want:    map[string][]Gain{"a": {{Figure: "mcq_acc", SV: 70, SWV: 40, MG: 30}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MultiModalGains(tt.reports)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if _, err := MultiModalGains([]*Report{run("a", true, "", 1, -1), run("a", true, "", 2, -1)}); err == nil {
		t.Error("two blind runs of one model: no error")
	}
}

func TestLeaderboardLeavesBlindRunsOut(t *testing.T) {
	board, err := Leaderboard([]*Report{run("a", false, "", 70, -1), run("a", true, "", 95, -1), run("b", false, "", 60, -1)}, "mcq_acc")
	if err != nil {
		t.Fatal(err)
	}
	var models []string
	for _, s := range board {
		models = append(models, s.Model)
	}
	if want := []string{"a", "b"}; !reflect.DeepEqual(models, want) {
		t.Errorf("ranked %v, want %v", models, want)
	}
}

func TestRightIDs(t *testing.T) {
	tests := []struct {
		results []Result
		want    []string
	}{
		{nil, nil},
		{[]Result{{SampleID: "a"}, {SampleID: "b", Missing: true}}, nil},
		{[]Result{{SampleID: "c", Correct: true}, {SampleID: "a"}, {SampleID: "b", Correct: true}}, []string{"c", "b"}},
	}
	for _, tt := range tests {
		if got := RightIDs(tt.results); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("RightIDs(%+v) = %v, want %v", tt.results, got, tt.want)
		}
	}
}

// TestWriteCSVMultiModal: the blind column and the multimodal rows appear only
// when a report is of a blind run.
func TestWriteCSVMultiModal(t *testing.T) {
	tests := []struct {
		name     string
		reports  []*Report
		wantHead int
		wantRows [][]string
	}{
		{"no blind run", []*Report{run("a", false, "", 70, -1)}, 8, [][]string{
			{"a", "overall", "", "mcq_acc", "70", "", "", "10"},
		}},
		{"blind run with base", []*Report{run("a", false, "", 70, -1), run("a", true, "llm", 40, -1), run("llm", true, "", 25, -1)}, 9, [][]string{
			{"a", "overall", "", "mcq_acc", "70", "", "", "10", "false"},
			{"a", "multimodal", "mcq_acc", "s_v", "70", "", "", "", "false"},
			{"a", "multimodal", "mcq_acc", "s_wv", "40", "", "", "", "false"},
			{"a", "multimodal", "mcq_acc", "mg", "30", "", "", "", "false"},
			{"a", "multimodal", "mcq_acc", "s_t", "25", "", "", "", "false"},
			{"a", "multimodal", "mcq_acc", "ml", "15", "", "", "", "false"},
			{"a", "overall", "", "mcq_acc", "40", "", "", "10", "true"},
			{"llm", "overall", "", "mcq_acc", "25", "", "", "10", "true"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := AttachMultiModal(tt.reports); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := WriteCSV(&buf, tt.reports); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(recs[0]) != tt.wantHead {
				t.Errorf("head %v: %d columns, want %d", recs[0], len(recs[0]), tt.wantHead)
			}
			if !reflect.DeepEqual(recs[1:], tt.wantRows) {
				t.Errorf("rows\n%v\nwant\n%v", recs[1:], tt.wantRows)
			}
		})
	}
}
