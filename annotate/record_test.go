package annotate

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// canonical records (spec §5 examples, with the "..." filled in), as MarshalJSON writes them.
var canonical = []string{
	`{"id":"mh-0001","kind":"hop_qa","image":"images/kitchen_01.jpg","question":"From the perspective of the man in the blue shirt, which red object is closest to him?","options":["the mug","the kettle","the apple","the book"],"answer":2,"categories":["att","rel"],"hop":2,"view":"ego","ego_subject":"real","box":[412,188,470,240]}`,
	`{"id":"sq-0001","kind":"step_graph","image":"0001-office-1/img_003.jpg","scene":"0001-office-1","question":"Pick up the laptop","steps":[{"id":"step1","content":"Remove the book from the top of the laptop","precondition":[]},{"id":"step2","content":"Pick up the laptop","precondition":["step1"]}]}`,
	`{"id":"yn-0001","kind":"judgment","image":"a.jpg","question":"Is the cup left of the plate?","answer":"yes"}`,
	`{"id":"mc-0001","kind":"mcq","image":"b.jpg","question":"Which is closer?","options":["cup","plate"],"answer":0}`,
	`{"id":"op-0001","kind":"open","image":"c.jpg","question":"How far apart, in metres?","answer":"2.5","tolerance":0.5}`,
	`{"id":"op-0002","kind":"open","image":"c.jpg","question":"How many chairs?","answer":3,"tolerance":0,"task":"T3","split":"test","tags":["count","<indoor>"],"parent":"op-0001"}`,
	`{"id":"mh-0002","kind":"hop_qa","image":"d.jpg","question":"Which object is on the desk?","options":["a","b","c","d"],"answer":0,"categories":["pos"],"hop":1,"view":"exo","box":[0.5,1,2.25,3],"extra_list":[1,{"b":2,"a":1}],"source":"coco & paco","zzz":null}`,
}

func TestRecordRoundTrip(t *testing.T) {
	for _, line := range canonical {
		var s Sample
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("Unmarshal(%s): %v", line, err)
		}
		out, err := s.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		if string(out) != line {
			t.Errorf("round trip:\n got %s\nwant %s", out, line)
		}
		if _, fs := ParseRecord([]byte(line)); len(fs) != 0 && !strings.Contains(line, "extra_list") {
			t.Errorf("ParseRecord(%s) findings: %q", line, brief(fs))
		}
	}
}

func TestRecordCanonicalises(t *testing.T) {
	in := `{"box": [1, 2, 3, 4], "hop": 1, "answer": 1, "options": ["a","b","c","d"], "kind": "hop_qa",
	  "categories": ["rel"], "view": "exo", "question": "q?", "image": "i.jpg", "id": "x", "note": { "k" : [1, 2] }}`
	var s Sample
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	out, _ := s.MarshalJSON()
	want := `{"id":"x","kind":"hop_qa","image":"i.jpg","question":"q?","options":["a","b","c","d"],"answer":1,"categories":["rel"],"hop":1,"view":"exo","box":[1,2,3,4],"note":{"k":[1,2]}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	// Through json.Marshal too (which HTML-escapes, still the same value).
	again, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Sample
	if err := json.Unmarshal(again, &back); err != nil {
		t.Fatal(err)
	}
	if out2, _ := back.MarshalJSON(); string(out2) != want {
		t.Errorf("json.Marshal round trip: %s", out2)
	}
}

func TestRecordAnswerKinds(t *testing.T) {
	s := Sample{ID: "o", Kind: KindOpen, AnswerText: "2.50", AnswerNumber: true}
	out, _ := s.MarshalJSON()
	if !strings.Contains(string(out), `"answer":2.50`) {
		t.Errorf("numeric open answer: %s", out)
	}
	s = Sample{ID: "g", Kind: KindStepGraph, Steps: []Step{{ID: "step1", Content: "x"}}}
	out, _ = s.MarshalJSON()
	if want := `{"id":"g","kind":"step_graph","steps":[{"id":"step1","content":"x","precondition":[]}]}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
	// A step graph keeps a foreign "answer" in Extra.
	var back Sample
	if err := json.Unmarshal([]byte(`{"id":"g","kind":"step_graph","answer":{"step1":{}}}`), &back); err != nil {
		t.Fatal(err)
	}
	if string(back.Extra["answer"]) != `{"step1":{}}` {
		t.Errorf("Extra = %v", back.Extra)
	}
	if err := json.Unmarshal([]byte(`{"kind":"mcq","answer":"B"}`), &back); err == nil || !strings.Contains(err.Error(), "answer") {
		t.Errorf("Unmarshal of a letter answer for mcq: %v", err)
	}
}

func TestParseRecord(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"not an object", `[1,2]`, []string{"schema error : the record is not a JSON object"}},
		{"null", `null`, []string{"schema error : the record is not a JSON object"}},
		{"missing everything", `{}`, []string{
			"schema error id: id is missing",
			"schema error kind: kind is missing",
			"schema error image: image is missing",
			"schema error question: question is missing",
		}},
		{"unknown kind and field", `{"id":"x","kind":"essay","image":"i","question":"q","answer":1,"colour":"red"}`, []string{
			`schema error kind: unknown kind "essay"`,
			`schema warning answer: unknown field "answer" (kept as is)`,
			`schema warning colour: unknown field "colour" (kept as is)`,
		}},
		{"wrong types", `{"id":7,"kind":"hop_qa","image":"i","question":"q","options":"a,b","answer":"B","categories":"att+pos","hop":"2-hop","view":"exo","box":[1,2,3]}`, []string{
			"schema error id: id: want a string, got 7",
			`schema error options: options: want a list of strings, got "a,b"`,
			`schema error answer: answer: want an integer option index, got "B"`,
			`schema error categories: categories: want a list of strings, got "att+pos"`,
			`schema error hop: hop: want an integer, got "2-hop"`,
			"schema error box: box: want [x1, y1, x2, y2], got 3 numbers",
		}},
		{"missing hop_qa fields", `{"id":"x","kind":"hop_qa","image":"i","question":"q"}`, []string{
			"schema error answer: answer is missing",
			"schema error options: options is missing",
			"schema error categories: no reasoning category is chosen",
			"schema error view: no viewpoint is chosen",
		}},
		{"null is absent", `{"id":"x","kind":"mcq","image":"i","question":"q","options":["a","b"],"answer":null}`, []string{
			"schema error answer: answer is missing",
		}},
		{"judgment answer type", `{"id":"x","kind":"judgment","image":"i","question":"q","answer":true}`, []string{
			`schema error answer: answer: want "yes" or "no", got true`,
		}},
		{"open", `{"id":"x","kind":"open","image":"i","question":"q","answer":"far","tolerance":-1}`, []string{
			"schema error tolerance: the tolerance -1 is negative",
			`schema error answer: the answer "far" is not a number, but a tolerance is set`,
		}},
		{"open without answer", `{"id":"x","kind":"open","image":"i","question":"q"}`, []string{
			"schema error answer: answer is missing",
		}},
		{"bad enums", `{"id":"x","kind":"hop_qa","image":"i","question":"q","options":["a"],"answer":0,"categories":["pos"],"hop":1,"view":"side","ego_subject":"robot","split":"val"}`, []string{
			`schema error view: unknown view "side"`,
			`schema error ego_subject: unknown ego person "robot"`,
			`schema error split: unknown split "val"`,
		}},
		{"steps", `{"id":"x","kind":"step_graph","image":"i","question":"q","steps":[{"id":"step1","content":"c","precondition":"step0","note":1},null,{"id":2}]}`, []string{
			`schema error steps[0].precondition: steps[0].precondition: want a list of step ids, got "step0"`,
			"schema error steps[1]: steps[1]: want a step object, got null",
			"schema error steps[2].id: steps[2].id: want a string, got 2",
			`schema warning steps[0].note: unknown step field "note" (dropped)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, fs := ParseRecord([]byte(tt.in))
			if got := briefNoSample(fs); !slices.Equal(got, tt.want) {
				t.Errorf("ParseRecord(%s):\ngot  %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func briefNoSample(fs []Finding) []string {
	out := brief(fs)
	for i := range out {
		out[i] = strings.Replace(out[i], "  ", " ", 1)
	}
	return out
}

func TestParseRecordKeepsWhatItCan(t *testing.T) {
	s, fs := ParseRecord([]byte(`{"id":"x","kind":"hop_qa","hop":"two","question":"q","x-note":"kept"}`))
	if s.ID != "x" || s.Kind != KindHopQA || s.Question != "q" || s.Hop != 0 || string(s.Extra["x-note"]) != `"kept"` {
		t.Errorf("sample = %+v", s)
	}
	for _, f := range fs {
		if f.Sample != "x" {
			t.Errorf("finding without the sample id: %+v", f)
		}
	}
}

func TestReadJSONL(t *testing.T) {
	long := `{"id":"` + strings.Repeat("x", 200_000) + `"}`
	in := "\ufeff{\"id\":\"a\"}\r\n\n   \n" + long + "\n{\"id\":\"c\"}"
	var lines []int
	var sizes []int
	err := ReadJSONL(strings.NewReader(in), func(line int, raw []byte) error {
		lines = append(lines, line)
		sizes = append(sizes, len(raw))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lines, []int{1, 4, 5}) || !slices.Equal(sizes, []int{10, len(long), 10}) {
		t.Errorf("lines %v sizes %v", lines, sizes)
	}

	err = ReadJSONL(strings.NewReader("{}\n\n{\"id\": }\n{}\n"), func(int, []byte) error { return nil })
	var le *LineError
	if !errors.As(err, &le) || le.Line != 3 || !strings.Contains(err.Error(), "line 3: malformed JSON") {
		t.Errorf("malformed: %v", err)
	}

	stop := errors.New("stop")
	err = ReadJSONL(strings.NewReader("{}\n{}\n"), func(line int, _ []byte) error {
		if line == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || !strings.HasPrefix(err.Error(), "line 2:") {
		t.Errorf("callback error: %v", err)
	}
}

func ExampleReadJSONL() {
	in := `{"id":"yn-1","kind":"judgment","image":"a.jpg","question":"Is it left?","answer":"Yes"}

{"id":"yn-2","kind":"judgment","image":"a.jpg","question":"Is it right?","answer":"no"}`
	err := ReadJSONL(strings.NewReader(in), func(line int, raw []byte) error {
		s, fs := ParseRecord(raw)
		for _, f := range MergeFindings(fs, Lint(s, LintEnv{})) {
			fmt.Printf("line %d: %s %s: %s\n", line, f.Sample, f.Rule, f.Message)
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// line 1: yn-1 judgment-answer: answer "Yes" is not "yes" or "no"
	// <nil>
}

func TestAnswerLetter(t *testing.T) {
	for i, want := range map[int]string{0: "A", 3: "D", 5: "F", 25: "Z", 26: "26", -1: "-1"} {
		if got := AnswerLetter(i); got != want {
			t.Errorf("AnswerLetter(%d) = %q, want %q", i, got, want)
		}
	}
}
