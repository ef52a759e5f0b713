package annotate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func openAnswer(answer string, numeric bool, tol *float64, tolText string) Sample {
	return Sample{ID: "op-1", Kind: KindOpen, Image: "a.jpg", Question: "How far apart are the chairs, in metres?",
		AnswerText: answer, AnswerNumber: numeric, Tolerance: tol, ToleranceText: tolText}
}

func ptr(v float64) *float64 { return &v }

// An open answer's numbers are lint's (issue 27): an invalid tolerance and a
// numeric answer that is not a number ("1,5") are errors that say how to write them.
func TestLintOpenNumbers(t *testing.T) {
	tests := []struct {
		name  string
		s     Sample
		field string // "" for no finding on the answer or the tolerance
		msg   string
		hint  string
	}{
		{"numeric answer", openAnswer("2.5", true, ptr(0.5), ""), "", "", ""},
		{"integer answer, tolerance 0", openAnswer("3", true, ptr(0), ""), "", "", ""},
		{"numeric answer without a tolerance", openAnswer("1e3", true, nil, ""), "", "", ""},
		{"a word", openAnswer("left", false, nil, ""), "", "", ""},
		{"a word with a comma", openAnswer("1,5", false, nil, ""), "", "", ""}, // not marked numeric: text
		{"decimal comma, marked numeric", openAnswer("1,5", true, nil, ""), "answer", `the answer "1,5" is not a number, but it is marked numeric`, "write it as 1.5"},
		{"decimal comma with a tolerance", openAnswer("1,5", true, ptr(0.1), ""), "answer", `the answer "1,5" is not a number`, "write it as 1.5"},
		{"bare point", openAnswer(".5", true, nil, ""), "answer", `the answer ".5" is not a number`, "write it as 0.5"},
		{"plus sign", openAnswer("+2", true, nil, ""), "answer", `the answer "+2" is not a number`, "write it as 2"},
		{"thousands?", openAnswer("1,500", true, nil, ""), "answer", `the answer "1,500" is not a number`, `write a number such as 2.5, or untick "Numeric answer with a tolerance"`},
		{"NaN", openAnswer("NaN", true, nil, ""), "answer", `the answer "NaN" is not a number`, "write a number such as 2.5"},
		{"Inf", openAnswer("Inf", false, ptr(1), ""), "answer", `the answer "Inf" is not a number, but a tolerance is set`, "or clear the tolerance"},
		{"hex", openAnswer("0x10", true, nil, ""), "answer", `the answer "0x10" is not a number`, "write a number such as 2.5"},
		{"tolerance typed with a comma", openAnswer("2.5", true, nil, "0,5"), "tolerance", `the tolerance "0,5" is not a number`, "write it as 0.5"},
		{"tolerance typed as a word", openAnswer("2.5", true, nil, "half"), "tolerance", `the tolerance "half" is not a number`, "write a number such as 2.5, or clear the tolerance"},
		{"tolerance typed negative", openAnswer("2.5", true, nil, "-1"), "tolerance", "the tolerance -1 is negative", "give a tolerance of 0 or more"},
		{"negative tolerance", openAnswer("2.5", true, ptr(-0.5), ""), "tolerance", "the tolerance -0.5 is negative", "give a tolerance of 0 or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Lint(tt.s, LintEnv{})
			i := slices.IndexFunc(fs, func(f Finding) bool { return f.Field == "answer" || f.Field == "tolerance" })
			if tt.field == "" {
				if i >= 0 {
					t.Fatalf("finding %+v, want none", fs[i])
				}
				return
			}
			if i < 0 {
				t.Fatalf("no finding on the answer or tolerance; findings %q", brief(fs))
			}
			f := fs[i]
			if f.Field != tt.field || f.Severity != SeverityError || f.Rule != RuleSchema || !strings.Contains(f.Message, tt.msg) || !strings.Contains(f.Hint, tt.hint) {
				t.Errorf("finding %+v, want an error on %s saying %q, hint %q", f, tt.field, tt.msg, tt.hint)
			}
			if !HasErrors(fs) {
				t.Errorf("no error: Submit would not be blocked")
			}
		})
	}
}

func TestParseTolerance(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want *float64
		err  string
	}{
		{"", nil, ""}, {"  ", nil, ""}, {"0.5", ptr(0.5), ""}, {" 2 ", ptr(2), ""}, {"0", ptr(0), ""}, {"1e-3", ptr(0.001), ""},
		{"1,5", nil, "not a number"}, {".5", nil, "not a number"}, {"NaN", nil, "not a number"}, {"Inf", nil, "not a number"},
		{"abc", nil, "not a number"}, {"-1", nil, "negative"}, {"1e999", nil, "not a number"},
	} {
		got, err := ParseTolerance(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseTolerance(%q) = %v, %v; want an error %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
			t.Errorf("ParseTolerance(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// A tolerance typed as text is kept through saving (the draft's JSON) and reading
// back, so lint still reports it after the editor is left and reopened; it is not
// dropped.
func TestToleranceTextRoundTrip(t *testing.T) {
	s := openAnswer("2.5", true, nil, "1,5")
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"tolerance":"1,5"`) {
		t.Fatalf("record %s does not keep the tolerance typed", b)
	}
	var back Sample
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("the record does not read back: %v", err)
	}
	if back.ToleranceText != "1,5" || back.Tolerance != nil {
		t.Errorf("read back tolerance %v / %q, want the text 1,5", back.Tolerance, back.ToleranceText)
	}
	if fs := Lint(back, LintEnv{}); !slices.ContainsFunc(fs, func(f Finding) bool { return f.Field == "tolerance" && f.Severity == SeverityError }) {
		t.Errorf("after reading back, no tolerance error: %q", brief(fs))
	}
	// A number stays a number.
	b, _ = json.Marshal(openAnswer("2.5", true, ptr(0.5), ""))
	if !strings.Contains(string(b), `"tolerance":0.5`) {
		t.Errorf("record %s", b)
	}
}
