package score

import (
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// show renders a literal compactly, to compare with expectations.
func show(v lit) string {
	switch v.kind {
	case litString:
		return "'" + v.str + "'"
	case litList:
		var parts []string
		for _, x := range v.list {
			parts = append(parts, show(x))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case litObject:
		var parts []string
		for i, k := range v.keys {
			parts = append(parts, k+":"+show(v.vals[i]))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return v.text()
}

func TestParseLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1, "b": [true, null, -2.5e1]}`, "{a:1,b:[True,None,-2.5e1]}"},
		{`{'a': (1, 2,), 'b': {'x', 'y'},}`, "{a:[1,2],b:['x','y']}"},
		{`{"k": 1, "j": 2, "k": 3}`, "{k:3,j:2}"},
		{`"tab\there \u00e9 \ud83d\ude00 \x41 \q"`, "'tab\there é 😀 A \\q'"},
		{`'it\'s'`, `'it's'`},
		{`{1: "one"}`, "{1:'one'}"},
		{`[]`, "[]"},
		{`{}`, "{}"},
		{"  [ 1 ,\n 2 ]  ", "[1,2]"},
	} {
		v, err := parseLiteral(tc.in)
		if err != nil {
			t.Errorf("parseLiteral(%q): %v", tc.in, err)
			continue
		}
		if got := show(v); got != tc.want {
			t.Errorf("parseLiteral(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, in := range []string{
		`{"a": 1`, `{"a" 1}`, `[1 2]`, `{"a": 1} x`, `"open`, `{[1]: 2}`, `nope`, `1.2.3`, `"\u12"`,
		strings.Repeat("[", 100) + strings.Repeat("]", 100),
		"",
	} {
		if v, err := parseLiteral(in); err == nil {
			t.Errorf("parseLiteral(%q) = %s, want an error", in, show(v))
		}
	}
}

func FuzzParseStepGraph(f *testing.F) {
	f.Add(`<ans>{"step1": {"content": "a", "precondition": []}}</ans>`)
	f.Add("```json\n[{\"step1\": {\"content\": \"a\", \"precondition\": \"step1\"}}]\n```")
	f.Add(`{'steps': [{'content': 'x', 'precondition': ('step2',)}, {'content': 'y'}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		steps, err := ParseStepGraph(s)
		if err == nil && len(steps) == 0 {
			t.Errorf("ParseStepGraph(%q) found an empty graph without an error", s)
		}
	})
}

// FuzzResponse feeds one model response to every parser that reads model output.
// None may panic; what they return keeps their contracts: an option letter is one
// of the options', a yes/no answer is "yes", "no" or "", a parsed box holds
// unsigned numbers and its IoU with a gold box is in [0, 1], and MRA stays in [0, 1].
func FuzzResponse(f *testing.F) {
	f.Add("Answer: (b) green round container\nBounding Box: [100, 200, 300, 400]")
	f.Add(`{"bbox_2d": [0.1, 0.2, 0.3, 0.4]} The answer is C`)
	f.Add("Yes, it is. 3.5 meters")
	f.Add("[1e308, -1e308, NaN, 4]")
	options := []string{"the red cup", "the lamp", "a green round container", "the book"}
	f.Fuzz(func(t *testing.T, s string) {
		if l, ok := ParseHopAnswer(s); ok && (len(l) != 1 || l[0] < 'A' || l[0] > 'D') {
			t.Errorf("ParseHopAnswer(%q) = %q", s, l)
		}
		if b, err := ParseHopBox(s); err == nil {
			for _, v := range b {
				if v != v || v < 0 {
					t.Errorf("ParseHopBox(%q) = %v: not unsigned numbers", s, b)
				}
			}
			if CheckUnitBox(b) == nil {
				if iou := HopIoU(b, annotate.Box{10, 10, 50, 40}, 100, 80); iou < 0 || iou > 1 || iou != iou {
					t.Errorf("HopIoU of %v = %v", b, iou)
				}
			}
		}
		if o := InferOption(s, options); o != "" && o != "Z" && (len(o) != 1 || o[0] < 'A' || o[0] > 'D') {
			t.Errorf("InferOption(%q) = %q", s, o)
		}
		if yn := YesNo(s); yn != "" && yn != "yes" && yn != "no" {
			t.Errorf("YesNo(%q) = %q", s, yn)
		}
		NormalizeAnswer(ExtractOpenAnswer(s))
		if v, ok := ExtractNumber(s); ok {
			if m := MRA(v, 3.5); m < 0 || m > 1 || m != m {
				t.Errorf("MRA(%v, 3.5) = %v", v, m)
			}
		}
	})
}
