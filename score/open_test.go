package score

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
)

func TestExtractOpenAnswer(t *testing.T) {
	long := strings.Repeat("x", 250)
	for _, tc := range []struct{ in, want string }{
		{"  the sofa  ", "the sofa"},
		{"<think>maybe the chair</think>The sofa", "The sofa"},
		{"<THINK>a</THINK> b <think>c</think> d", "b   d"},
		{"<think>unfinished thought", ""},
		{"reasoning the model never opened</think> 3 m", "3 m"},
		{"blah <answer> 2.5 </answer> more <answer>9</answer>", "2.5"},
		{"<think>use <answer>1</answer>?</think><answer>2</answer>", "2"},
		{long, long[:200]},
		{strings.Repeat("é", 201), strings.Repeat("é", 200)}, // characters, not bytes
	} {
		if got := ExtractOpenAnswer(tc.in); got != tc.want {
			t.Errorf("ExtractOpenAnswer(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNormalizeAnswer(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"The Sofa.", "sofa"},
		{"  a   red   mug ", "red mug"},
		{"an apple", "apple"},
		{"theatre", "theatre"}, // articles are whole words only
		{"left-hand side", "left hand side"},
		{"“Kitchen”", "kitchen"},
		{"2.5", "2.5"},
		{"25", "25"},
		{"1,000 m", "1000 m"},
		{"-3", "-3"},
		{"x-3", "x 3"},
		{"50%", "50"},
		{"3.", "3"},
		{"", ""},
		{"...", ""},
	} {
		if got := NormalizeAnswer(tc.in); got != tc.want {
			t.Errorf("NormalizeAnswer(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExtractNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"3", 3, true},
		{"There are 3 boxes", 3, true},
		{"about 2.75 meters", 2.75, true},
		{"-1.5", -1.5, true},
		{"1,000", 1, true}, // the comma ends the number, as in lmms-eval
		{"Three boxes.", 3, true},
		{"twenty-one", 21, true},
		{"three hundred and twenty-one", 321, true},
		{"two thousand five hundred", 2500, true},
		{"one apple, room 2", 1, true}, // the word comes first
		{"room 2, one apple", 2, true},
		{"none", 0, false},
		{"", 0, false},
	} {
		got, ok := ExtractNumber(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ExtractNumber(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMRA(t *testing.T) {
	if MRAThresholds[0] != 0.5 || MRAThresholds[9] != 0.95 || len(MRAThresholds) != 10 {
		t.Fatalf("MRAThresholds = %v", MRAThresholds)
	}
	// numpy's linspace rounds each step: its 9th threshold is just below 0.9.
	if MRAThresholds[8] != 0.8999999999999999 {
		t.Errorf("MRAThresholds[8] = %v, want numpy's 0.8999999999999999", MRAThresholds[8])
	}
	for _, tc := range []struct {
		pred, gold, want float64
	}{
		{10, 10, 1},
		{10.4, 10, 1},   // relative error 0.04 <= 0.05
		{10.6, 10, 0.9}, // 0.06: every θ but 0.95
		{12, 10, 0.6},   // 0.2 fails θ = 0.8: 1 - 0.8 is 0.19999999999999996 (as in the Python code)
		{5, 10, 0.1},    // 0.5: only θ = 0.5, with <= (0 with the paper's <)
		{4.9, 10, 0},
		{30, 10, 0},
		{6.3, 7, 0.9}, // 0.1 passes θ = 0.8999999999999999, as in numpy
		{-9, -10, 0.9},
		{0, 0, 1},
		{1, 0, 0},
		{math.NaN(), 10, 0},
	} {
		if got := MRA(tc.pred, tc.gold); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("MRA(%v, %v) = %v, want %v", tc.pred, tc.gold, got, tc.want)
		}
	}
}

func TestWithinTolerance(t *testing.T) {
	for _, tc := range []struct {
		pred, gold, tol float64
		want            bool
	}{
		{2.6, 2.5, 0.1, true}, // 0.10000000000000009 in binary
		{2.61, 2.5, 0.1, false},
		{2, 2, 0, true},
		{2.0000001, 2, 0, false},
		{-1, 1, 2, true},
	} {
		if got := WithinTolerance(tc.pred, tc.gold, tc.tol); got != tc.want {
			t.Errorf("WithinTolerance(%v, %v, %v) = %v", tc.pred, tc.gold, tc.tol, got)
		}
	}
}

func TestScoreOpen(t *testing.T) {
	tol := 0.5
	num := annotate.Sample{ID: "o1", Kind: annotate.KindOpen, AnswerText: "2.5", AnswerNumber: true, Tolerance: &tol}
	word := annotate.Sample{ID: "o2", Kind: annotate.KindOpen, AnswerText: "the sofa"}
	plain := annotate.Sample{ID: "o3", Kind: annotate.KindOpen, AnswerText: "2"}
	for _, tc := range []struct {
		s               annotate.Sample
		resp            string
		strict, relaxed bool
		mra             float64 // -1: none
		parseErr        bool
	}{
		{num, "2.5", true, true, 1, false},
		{num, "<answer>2.9 m</answer>", false, true, 0.7, false}, // 0.16: θ 0.5 … 0.8; within ±0.5
		{num, "3.5", false, false, 0.3, false},                   // 0.4: θ 0.5 … 0.6
		{num, "about three", false, true, 0.6, false},            // 0.2: θ 0.5 … 0.75
		{num, "I don't know", false, false, 0, false},
		{num, "", false, false, 0, true},
		{word, "The sofa.", true, true, -1, false},
		{word, "<think>the chair?</think>sofa", true, true, -1, false},
		{word, "a chair", false, false, -1, false},
		{plain, "2.0", false, true, 1, false},  // relaxed: equal numbers, no tolerance needed
		{plain, "2.1", false, false, 1, false}, // 0.05 passes θ = 0.95 in binary, as in Python
	} {
		r, err := ScoreSample(Gold{Sample: tc.s}, Prediction{SampleID: tc.s.ID, Response: tc.resp}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mra := -1.0
		if r.MRA != nil {
			mra = *r.MRA
		}
		want := tc.mra
		if r.Correct != tc.strict || r.Relaxed != tc.relaxed || math.Abs(mra-want) > 1e-12 || (r.ParseError != "") != tc.parseErr {
			t.Errorf("%s %q: strict %v relaxed %v mra %v parse error %q; want %v %v %v %v", tc.s.ID, tc.resp, r.Correct, r.Relaxed, mra, r.ParseError, tc.strict, tc.relaxed, want, tc.parseErr)
		}
	}
}

// normalizeReference is NormalizeAnswer written plainly, in several passes.
func normalizeReference(s string) string {
	rs := []rune(strings.ToLower(s))
	isD := func(i int) bool { return i >= 0 && i < len(rs) && unicode.IsDigit(rs[i]) }
	isAlnum := func(i int) bool {
		return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i]))
	}
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == ',' && isD(i-1) && isD(i+1):
			continue
		case r == '.' && isD(i-1) && isD(i+1):
		case (r == '-' || r == '+') && isD(i+1) && !isAlnum(i-1):
		case unicode.IsPunct(r) || unicode.IsSymbol(r):
			r = ' '
		}
		b.WriteRune(r)
	}
	var kept []string
	for _, w := range strings.Fields(b.String()) {
		if w != "a" && w != "an" && w != "the" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

func TestNormalizeAnswerReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	parts := []string{"a", "an", "the", "The", "A", " ", "  ", "\t", "\n", ",", ".", "-", "+", "1", "2", "x", "Ünïcode", "“", "%", "°", "!", "mug", "3.5", "\u00a0", "é"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		if got, want := NormalizeAnswer(s), normalizeReference(s); got != want {
			t.Fatalf("NormalizeAnswer(%q) = %q, reference %q", s, got, want)
		}
	}
}
