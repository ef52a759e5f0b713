package annotate

import (
	"strings"
	"testing"
)

func TestCheckID(t *testing.T) {
	tests := []struct {
		id   string
		want string // part of the refusal; "" = accepted
	}{
		{"mh-0001", ""},
		{"demo_00012", ""},
		{"scene3:q7.b+1@v2", ""},
		{"A", ""},
		{strings.Repeat("a", MaxIDLen), ""},
		{"", "empty"},
		{strings.Repeat("a", MaxIDLen+1), "129 bytes long"},
		{"-rf", "start with a letter or digit"},
		{".hidden", "start with a letter or digit"},
		{"a b", "a space at byte 2"},
		{"a\x00b", "control character U+0000"},
		{"q1\nline forged", "control character U+000A"},
		{"q1\x1b[31m", "control character U+001B"},
		{"caf\u00e9", `'é' at byte 4`},
		{"a/b", `'/'`},
		{`a"b`, `'"'`},
		{"a\xffb", "not UTF-8"},
	}
	for _, tt := range tests {
		err := CheckID(tt.id)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("CheckID(%q) = %v, want nil", tt.id, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("CheckID(%q) = %v, want an error with %q", tt.id, err, tt.want)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x00\n\x1b") {
			t.Errorf("CheckID(%q): the message carries a control character: %q", tt.id, err)
		}
	}
}

func TestIDPrefix(t *testing.T) {
	tests := []struct{ name, want string }{
		{"demo", "demo"},
		{"Kitchen scenes", "Kitchen_scenes"},
		{"Café  lab/2", "Caf_lab_2"},
		{"  -x", "x"},
		{"日本", "sample"},
		{"", "sample"},
		{strings.Repeat("p", 200), strings.Repeat("p", MaxIDLen/2)},
	}
	for _, tt := range tests {
		got := IDPrefix(tt.name)
		if got != tt.want {
			t.Errorf("IDPrefix(%q) = %q, want %q", tt.name, got, tt.want)
		}
		if err := CheckID(got + "-00001"); err != nil {
			t.Errorf("IDPrefix(%q) does not make a valid id: %v", tt.name, err)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	tests := []struct {
		name, data string
		path       string
		bad        bool
	}{
		{"valid", `{"id":"a","question":"Où est la tasse?"}`, "", false},
		{"question", "{\"id\":\"a\",\"question\":\"bad \xff here\"}", "question", true},
		{"id", "{\"id\":\"q\xc3\",\"question\":\"x\"}", "id", true},
		{"option", "{\"id\":\"a\",\"options\":[\"x\",\"y\xfe\",\"z\"]}", "options[1]", true},
		{"step content", "{\"id\":\"a\",\"steps\":[{\"id\":\"s1\"},{\"id\":\"s2\",\"content\":\"\xc0\xaf\"}]}", "steps[1].content", true},
		{"precondition", "{\"steps\":[{\"id\":\"s1\",\"precondition\":[\"s0\",\"\xed\xa0\x80\"]}]}", "steps[0].precondition[1]", true},
		{"field name", "{\"id\":\"a\",\"qu\xffestion\":\"x\"}", "a field name", true},
		{"nested field name", "{\"steps\":[{\"i\xffd\":\"s1\"}]}", "steps[0] (a field name)", true},
		{"after nested object", "{\"box\":[1,2,3,4],\"steps\":[],\"view\":\"e\xffgo\"}", "view", true},
		{"top-level string", "\"\xff\"", "", true},
		{"empty field name", "{\"steps\":[{\"\":\"\x85\"}]}", `steps[0].""`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, off, bad := InvalidUTF8([]byte(tt.data))
			if bad != tt.bad || path != tt.path {
				t.Fatalf("InvalidUTF8 = %q, %d, %v; want %q, %v", path, off, bad, tt.path, tt.bad)
			}
			if bad && firstInvalidUTF8([]byte(tt.data)) != off {
				t.Errorf("offset %d, want %d", off, firstInvalidUTF8([]byte(tt.data)))
			}
		})
	}
}

// A record with bytes that are not UTF-8 is refused with the field that holds
// them, instead of being stored with U+FFFD in their place.
func TestParseRecordRefusesInvalidUTF8(t *testing.T) {
	rec := "{\"id\":\"q1\",\"kind\":\"judgment\",\"image\":\"a.jpg\",\"question\":\"Is the cup left of the pl\xe4te?\",\"answer\":\"yes\"}"
	_, fs := ParseRecord([]byte(rec))
	var found bool
	for _, f := range fs {
		if f.Rule == RuleSchema && f.Severity == SeverityError && f.Field == "question" &&
			strings.Contains(f.Message, "byte 83 of the record is not UTF-8") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no schema error naming question and the byte: %+v", fs)
	}
	if HasErrors(fs) == false {
		t.Fatal("the record would be accepted")
	}
}

func TestLintRefusesUnsafeID(t *testing.T) {
	s := Sample{ID: "q1\x1b[2K", Kind: KindJudgment, Image: "a.jpg", Question: "Is it?", AnswerText: "yes"}
	fs := Lint(s, LintEnv{})
	for _, f := range fs {
		if f.Field == "id" && f.Severity == SeverityError {
			return
		}
	}
	t.Fatalf("no id error: %+v", fs)
}

func TestImportRefusesUnsafeIDAndInvalidUTF8(t *testing.T) {
	in := "[\n" +
		`{"id":"ok-1","image":"a.jpg","question":"Q? (a) x (b) y","options":["x","y"],"answer":"a"},` + "\n" +
		`{"id":"bad id","image":"a.jpg","question":"Q?","options":["x","y"],"answer":"a"},` + "\n" +
		"{\"id\":\"ok-3\",\"image\":\"a.jpg\",\"question\":\"Q\xff?\",\"options\":[\"x\",\"y\"],\"answer\":\"a\"}\n]"
	_, bad, err := ImportMultihop(strings.NewReader(in), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 2 {
		t.Fatalf("bad = %v, want records 2 and 3", bad)
	}
	if bad[0].Line != 3 || !strings.Contains(bad[0].Err.Error(), "a space") {
		t.Errorf("record 2: %v (line %d)", bad[0].Err, bad[0].Line)
	}
	if bad[1].Line != 4 || !strings.Contains(bad[1].Err.Error(), "question: byte") {
		t.Errorf("record 3: %v (line %d)", bad[1].Err, bad[1].Line)
	}
}
