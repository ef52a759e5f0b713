package score

import (
	"strings"
	"testing"
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
