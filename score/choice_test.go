package score

import (
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestInferOption(t *testing.T) {
	four := []string{"mug", "cup", "kettle", "book"} // total length 16: responses over 32 characters skip the text rule
	six := []string{"one", "two", "three", "four", "five", "six"}
	for _, tc := range []struct {
		name, in string
		opts     []string
		want     string
	}{
		{"bare letter", "B", four, "B"},
		{"letter with period", "B. cup", four, "B"},
		{"parenthesized in a sentence", "The answer is (C).", four, "C"},
		{"markdown", "**Answer: D**", four, "D"},
		{"article A and a letter: two letters, verbose rule", "A mug is on the table, so the answer is B", four, "B"},
		{"lower-case letter, verbose rule", "The correct answer is **b**", four, "B"},
		{"letter not among the last four words", "Option B is wrong, I'd pick the kettle on the left side of the table here.", four, ""},
		{"same letter early and late: first occurrence counts", "B is my guess, the long explanation goes here with many words, B", four, ""},
		{"two letters, no verbose phrase", "I choose A and B", four, ""},
		{"verbose letter not an option", "answer is E", four, ""},
		{"option text", "kettle", four, "C"},
		{"option text, case-insensitive", "The Kettle", four, "C"},
		{"two option texts", "mug or cup", four, ""},
		{"refusal phrase", "Cannot determine the answer", four, Refused},
		{"a Z word", "Z", four, Refused},
		{"API failure skips the letter rule", "Failed to obtain answer via API", four, ""},
		{"six options", "F", six, "F"},
		{"letter beyond the options", "E", four, ""},
		{"empty", "", four, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := InferOption(tc.in, tc.opts); got != tc.want {
				t.Errorf("InferOption(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestYesNo(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Yes", "yes"},
		{"No.", "no"},
		{"YES!", "yes"},
		{"(yes)", "yes"},
		{"Yes, it is.", "yes"},
		{"No, there is no mug.", "no"},
		{"Yes and no", ""},
		{"yes/no", ""},             // "/" becomes a space: both words
		{"1,000 yes-no", ""},       // a digit comma deletes the marks: "yesno"
		{"no.yes", ""},             // a period not beside a digit is deleted: "noyes"
		{"Not sure", ""},           // "not" is not "no"
		{"I don't know", ""},       //
		{"nope", ""},               //
		{"yes\u00a0indeed", "yes"}, // str.split splits on a no-break space
	} {
		if got := YesNo(tc.in); got != tc.want {
			t.Errorf("YesNo(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestProcessPunctuation(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a-b", "a b"},      // no space beside "-": a space
		{"a - b", "a  b"},   // a space beside it: deleted
		{"3.5 m.", "3.5 m"}, // decimal point kept
		{"1,5;x", "15x"},    // digit comma: every mark deleted
		{strings.Repeat(".", 40), strings.Repeat(".", 8)},                      // re.sub's count is re.UNICODE = 32
		{"x" + strings.Repeat(". ", 33), "x" + strings.Repeat(" ", 32) + ". "}, // the 33rd stays
	} {
		if got := processPunctuation(tc.in); got != tc.want {
			t.Errorf("processPunctuation(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScoreChoiceKinds(t *testing.T) {
	mcq := Gold{Sample: annotate.Sample{ID: "m", Kind: annotate.KindMCQ, Options: []string{"left", "right", "behind"}, AnswerIndex: 2}}
	yn := Gold{Sample: annotate.Sample{ID: "y", Kind: annotate.KindJudgment, AnswerText: "yes"}}
	for _, tc := range []struct {
		g        Gold
		resp     string
		answer   string
		correct  bool
		parseErr bool
	}{
		{mcq, "C", "C", true, false},
		{mcq, "The answer is A", "A", false, false},
		{mcq, "behind", "C", true, false},
		{mcq, "I cannot see it", "", false, true},
		{mcq, "Cannot determine the answer", "", false, true},
		{yn, "Yes, definitely.", "yes", true, false},
		{yn, "no", "no", false, false},
		{yn, "maybe", "", false, true},
	} {
		r, err := ScoreSample(tc.g, Prediction{SampleID: tc.g.Sample.ID, Response: tc.resp}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Answer != tc.answer || r.Correct != tc.correct || (r.ParseError != "") != tc.parseErr {
			t.Errorf("%s %q: answer %q correct %v parse error %q; want %q %v %v", tc.g.Sample.Kind, tc.resp, r.Answer, r.Correct, r.ParseError, tc.answer, tc.correct, tc.parseErr)
		}
	}
}
