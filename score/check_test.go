package score

import (
	"strings"
	"testing"
)

func TestCheckModelName(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"Qwen/Qwen2.5-VL-7B-Instruct", ""},
		{"gpt-4o mini", ""},
		{strings.Repeat("ü", 128), ""},
		{"", "the model name is empty"},
		{"a\xffb", "the model name is not UTF-8 text"},
		{strings.Repeat("ü", 129), "the model name is longer than 128 characters"},
		{" gpt", `the model name " gpt" starts or ends with a space`},
		{"gpt\n", `the model name "gpt\n" starts or ends with a space`},
		{"gpt\x1fblind", `the model name "gpt\x1fblind" holds a control character`},
	} {
		got := ""
		if err := CheckModelName(c.name); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckModelName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestCheckPrediction(t *testing.T) {
	big := strings.Repeat("a", MaxResponseBytes+1)
	matrix := func(rows, cols int) [][]int {
		m := make([][]int, rows)
		for i := range m {
			m[i] = make([]int, cols)
		}
		return m
	}
	for _, c := range []struct {
		what string
		p    Prediction
		want string
	}{
		{"plain", Prediction{SampleID: "s1", Response: "B"}, ""},
		{"at the limit", Prediction{SampleID: "s1", Response: big[1:], StepMatch: matrix(256, 256)}, ""},
		{"not UTF-8", Prediction{SampleID: "s1", Response: "\xff"}, "the response to s1 is not UTF-8 text"},
		{"too long", Prediction{SampleID: "s1", Response: big}, "the response to s1 is longer than 1 MiB"},
		{"copy not UTF-8", Prediction{SampleID: "s1", Response: "A", Copies: []string{"B", "\xff"}}, "the response to copy 2 of s1 is not UTF-8 text"},
		{"copy too long", Prediction{SampleID: "s1", Response: "A", Copies: []string{big}}, "the response to copy 1 of s1 is longer than 1 MiB"},
		{"matrix too big", Prediction{SampleID: "s1", StepMatch: matrix(257, 256)}, "the step match matrix of s1 has more than 65536 entries"},
	} {
		got := ""
		if err := CheckPrediction(c.p); err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: CheckPrediction = %q, want %q", c.what, got, c.want)
		}
	}
}
