package annotate

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const multihopFile = "\ufeff" + `[
  {
    "id": 17,
    "image_path": "coco/0001.jpg",
    "question": "Which object on the desk is highest?",
    "options": ["A. the mug", "B. the kettle", "C. the apple", "D. the book"],
    "answer": "(B)",
    "hop": "2-hop",
    "categories": "pos+rel",
    "view": "Exo-centric",
    "bbox": [10, 20, 30, 40],
    "source": "coco"
  },
  {"image": "ego/2.jpg", "question": "From the perspective of the chef, which red pot is left of him?",
   "options": {"B": "the pot", "A": "the pan", "D": "the lid", "C": "the cup"}, "answer": 1,
   "categories": ["Attribute", "Position"], "view": "ego", "bbox_1000": [100, 150, 200, 275]},
  {"image": "x.jpg", "question": "Which is nearest?", "choices": ["the mug", "the cup", "the pen", "A box"],
   "answer": "The Cup", "category": "rel", "viewpoint": "exo", "bbox_norm": [0.1, 0.2, 0.3, 0.4], "split": "test"},
  {"image": "x.jpg", "question": "q", "options": ["a", "b", "c", "d"], "answer": "maybe"},
  {"image": "x.jpg", "question": "q", "options": 5, "answer": 0, "hop": "many"},
  {"image": "unknown.jpg", "question": "q", "options": ["a", "b", "c", "d"], "answer": 0, "bbox_1000": [1, 2, 3, 4]},
  {"id": "17", "image": "x.jpg", "question": "q", "options": ["a", "b", "c", "d"], "answer": 0},
  "not a record"
]`

func testSizes(p string) (int, int, bool) {
	switch p {
	case "ego/2.jpg":
		return 1200, 800, true
	case "x.jpg":
		return 1000, 500, true
	}
	return 0, 0, false
}

func TestImportMultihop(t *testing.T) {
	got, bad, err := ImportMultihop(strings.NewReader(multihopFile), ImportOptions{ImageSize: testSizes})
	if err != nil {
		t.Fatal(err)
	}
	want := []Imported{
		{Line: 2, Sample: Sample{
			ID: "17", Kind: KindHopQA, Image: "coco/0001.jpg", Question: "Which object on the desk is highest?",
			Options: []string{"the mug", "the kettle", "the apple", "the book"}, AnswerIndex: 1,
			Categories: []Category{CatPos, CatRel}, Hop: 2, View: ViewExo, Box: &Box{10, 20, 30, 40},
			Extra: map[string]json.RawMessage{"source": json.RawMessage(`"coco"`)},
		}},
		{Line: 14, Sample: Sample{
			ID: "mh-0002", Kind: KindHopQA, Image: "ego/2.jpg", Question: "From the perspective of the chef, which red pot is left of him?",
			Options: []string{"the pan", "the pot", "the cup", "the lid"}, AnswerIndex: 1,
			Categories: []Category{CatAtt, CatPos}, Hop: 2, View: ViewEgo, EgoSubject: EgoReal, Box: &Box{120, 120, 240, 220},
		}},
		{Line: 17, Sample: Sample{
			ID: "mh-0003", Kind: KindHopQA, Image: "x.jpg", Question: "Which is nearest?",
			Options: []string{"the mug", "the cup", "the pen", "A box"}, AnswerIndex: 1,
			Categories: []Category{CatRel}, Hop: 1, View: ViewExo, Box: &Box{100, 100, 300, 200}, Split: "test",
		}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d samples, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g := got[i]
		if g.Sample.Box != nil && !near(*g.Sample.Box, *want[i].Sample.Box, 1e-9) {
			t.Errorf("record %d box = %v, want %v", i, *g.Sample.Box, *want[i].Sample.Box)
		}
		g.Sample.Box = want[i].Sample.Box
		if !reflect.DeepEqual(g, want[i]) {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, g, want[i])
		}
	}
	wantBad := []string{
		`record 4 (line 19): answer: "maybe" is not a letter, an index or one of the options`,
		`record 5 (line 20): options: want a list of strings or an object of labelled options, got 5` + "\n" + `hop: no number in "many"`,
		`record 6 (line 21): bbox_1000: converting it to pixels needs the size of image "unknown.jpg"`,
		`record 7 (line 22): id "17" is already used by record 1`,
		`record 8 (line 23): want a record object, got "not a record"`,
	}
	if len(bad) != len(wantBad) {
		t.Fatalf("got %d bad records, want %d: %v", len(bad), len(wantBad), bad)
	}
	for i, e := range bad {
		if e.Error() != wantBad[i] {
			t.Errorf("bad[%d] = %q\n          want %q", i, e.Error(), wantBad[i])
		}
	}
	// The imported samples are clean for lint, except what the source got wrong
	// and the category tags this source does not have.
	for _, im := range got {
		fs := slices.DeleteFunc(Lint(im.Sample, LintEnv{}), func(f Finding) bool {
			return f.Rule == RuleCategoryTags && f.Severity == SeverityWarning
		})
		if len(fs) != 0 && im.Sample.ID != "17" {
			t.Errorf("%s: %q", im.Sample.ID, brief(fs))
		}
	}
}

func TestImportSpatiaLQA(t *testing.T) {
	in := `[{"question": "Pick up the laptop",
  "answer": {
    "step10": {"content": "Pick up the laptop", "precondition": ["step9"]},
    "step2": {"content": "c2", "precondition": ["step1"]},
    "step1": {"content": "c1", "precondition": []},
    "step3": {"content": "c3", "precondition": ["step2"]}, "step4": {"content": "c4", "precondition": ["step3"]},
    "step5": {"content": "c5", "precondition": ["step4"]}, "step6": {"content": "c6", "precondition": ["step5"]},
    "step7": {"content": "c7", "precondition": ["step6"]}, "step8": {"content": "c8", "precondition": ["step7"]},
    "step9": {"content": "c9", "precondition": ["step8"]}
  },
  "image": "0001-office-1/img_003.jpg", "scene_category": "office"},
 {"id": "given", "question": "Pick up the cup", "answer": "<ans>{\"step1\": {\"content\": \"Remove the lid\", \"precondition\": []}, \"step2\": {\"content\": \"Pick up the cup\", \"precondition\": [1]}}</ans>",
  "image_path": "misc/1.jpg", "scene_category": "kitchen"},
 {"question": "q", "answer": 3, "image": "a.jpg"}
]`
	got, bad, err := ImportSpatiaLQA(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(bad) != 1 {
		t.Fatalf("got %+v, bad %v", got, bad)
	}
	first := got[0].Sample
	var ids []string
	for _, s := range first.Steps {
		ids = append(ids, s.ID)
	}
	if got[0].Line != 1 || first.ID != "sq-0001" || first.Scene != "0001-office-1" || string(first.Extra["scene_category"]) != `"office"` ||
		strings.Join(ids, " ") != "step1 step2 step3 step4 step5 step6 step7 step8 step9 step10" {
		t.Errorf("first = line %d %+v", got[0].Line, first)
	}
	if fs := brief(Lint(first, LintEnv{})); len(fs) != 1 || fs[0] != `schema warning scene_category: unknown field "scene_category" (kept as is)` {
		t.Errorf("lint: %q", fs)
	}
	second := got[1].Sample
	wantSteps := []Step{{"step1", "Remove the lid", []string{}}, {"step2", "Pick up the cup", []string{"step1"}}}
	if got[1].Line != 12 || second.ID != "given" || second.Image != "misc/1.jpg" || second.Scene != "kitchen" || !reflect.DeepEqual(second.Steps, wantSteps) {
		t.Errorf("second = line %d %+v", got[1].Line, second)
	}
	if want := `record 3 (line 14): answer: want an object or a list of steps, got 3`; bad[0].Error() != want {
		t.Errorf("bad = %q, want %q", bad[0].Error(), want)
	}

	one, _, err := ImportSpatiaLQA(strings.NewReader(`  {"id": "solo", "question": "q", "steps": [{"content": "a"}, {"content": "b", "precondition": ["step1"]}]}`))
	if err != nil || len(one) != 1 || one[0].Sample.ID != "solo" || one[0].Sample.Steps[1].ID != "step2" {
		t.Errorf("single object: %v %+v", err, one)
	}
}

func TestImportFileErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "line 1: want a JSON array or object: unexpected EOF"},
		{"\n\n  hello", "line 3: want a JSON array or object"},
		{"[\n{\"question\": \"q\"},\n{\"question\": \"q\"\n", "line 4: unexpected EOF"},
		{"[\n{\"question\": \"q\"},\n{\"question\" \"q\"}]", `line 3: invalid character '"' after object key`},
		{"[\n{},\n{},\n{},\n{\"a\": 1,\n\"b\" 2}]", `line 6: invalid character '2' after object key`},
	}
	for _, tt := range tests {
		_, _, err := ImportSpatiaLQA(strings.NewReader(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("ImportSpatiaLQA(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestImportLinesOfALargeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	const n = 3000
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		if i%100 == 0 {
			b.WriteString("\n\n") // blank lines between some records
		}
		b.WriteString(`{"question": "Pick up the cup", "answer": {"step1": {"content": "Remove the lid", "precondition": []}}}`)
	}
	b.WriteString("\n]\n")
	got, bad, err := ImportSpatiaLQA(strings.NewReader(b.String()))
	if err != nil || len(bad) != 0 || len(got) != n {
		t.Fatalf("err %v, %d bad, %d samples", err, len(bad), len(got))
	}
	for i, im := range got {
		want := 2 + i + 2*(i/100+1)
		if im.Line != want {
			t.Fatalf("record %d on line %d, want %d", i, im.Line, want)
		}
	}
}

// Records of the official MultihopSpatial release (data/multihop_test_4500.json):
// options inside the question, answer "(x) text", pixel [x, y, w, h] boxes that may
// leave the image, categories in question_tag.
func TestImportOfficialMultihop(t *testing.T) {
	in := `[
{"id": 1, "image_path": "000000303219.jpg", "image_resolution": "640x480", "view": "ego", "hop": "1hop",
 "question": "From the perspective of the woman holding the remote control, which object is on her right? <choice>(a) cat on the cushion, (b) glass bottle, (c) frame of the reed picture, (d) dark brown armchair</choice> And provide the bounding box coordinate of the region related to your answer.",
 "question_tag": "From the perspective of the woman holding the remote control, which object is <POS>on her right</POS>? <choice>(a) cat on the cushion, (b) glass bottle, (c) frame of the reed picture, (d) dark brown armchair</choice> And provide the bounding box coordinate of the region related to your answer.",
 "answer": "(c) frame of the reed picture", "bbox": [52.86, 38.7, 70.95, 97.83]},
{"id": 2, "image_path": "x.jpg", "image_resolution": "640x480", "view": "exo", "hop": "3hop",
 "question": "Which <ATT>round object</ATT> <POS>on the table</POS> is <REL>farthest</REL> from the pamphlet? <choice>(a) a cup, red, (b) the plate</choice> And provide the bounding box coordinate of the region related to your answer.",
 "answer": "(a) a cup, red", "bbox": [23.09, -7.28, 136.34, 202.1]},
{"id": 3, "image_path": "y.jpg", "view": "exo", "hop": "1hop", "question": "Which? <choice>(b) x, (a) y</choice>", "answer": "(a) y", "bbox": [1, 2, 3, 4]}
]`
	ok, bad, err := ImportMultihop(strings.NewReader(in), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ok) != 2 || len(bad) != 1 || bad[0].Line != 9 || !strings.Contains(bad[0].Err.Error(), "<choice> block") {
		t.Fatalf("imported %d, bad %v; want 2 and record 3 on line 9 refused", len(ok), bad)
	}
	a, b := ok[0].Sample, ok[1].Sample
	wantA := Sample{ID: "1", Kind: KindHopQA, Image: "000000303219.jpg",
		Question:    "From the perspective of the woman holding the remote control, which object is on her right?",
		QuestionTag: "From the perspective of the woman holding the remote control, which object is <POS>on her right</POS>?",
		Options:     []string{"cat on the cushion", "glass bottle", "frame of the reed picture", "dark brown armchair"}, AnswerIndex: 2,
		Categories: []Category{CatPos}, Hop: 1, View: ViewEgo, EgoSubject: a.EgoSubject, Box: &Box{52.86, 38.7, 52.86 + 70.95, 38.7 + 97.83}}
	if !reflect.DeepEqual(a, wantA) {
		t.Errorf("record 1:\n%+v\nwant\n%+v", a, wantA)
	}
	if b.QuestionTag != "Which <ATT>round object</ATT> <POS>on the table</POS> is <REL>farthest</REL> from the pamphlet?" {
		t.Errorf("record 2 tags %q", b.QuestionTag)
	}
	if fs := Lint(a, LintEnv{}); HasErrors(fs) {
		t.Errorf("record 1 lints with errors: %v", fs)
	}
	if b.Question != "Which round object on the table is farthest from the pamphlet?" || !reflect.DeepEqual(b.Options, []string{"a cup, red", "the plate"}) ||
		b.AnswerIndex != 0 || !reflect.DeepEqual(b.Categories, []Category{CatAtt, CatPos, CatRel}) || b.Hop != 3 {
		t.Errorf("record 2: %+v", b)
	}
	if *b.Box != (Box{23.09, 0, 23.09 + 136.34, -7.28 + 202.1}) || string(b.Extra["source_bbox"]) != "[23.09, -7.28, 136.34, 202.1]" {
		t.Errorf("record 2 box %v (source %s), want it clamped into 640x480 with the released box kept", *b.Box, b.Extra["source_bbox"])
	}
}

// An official SpatiaLQA record holds the image as a data: URI or URL for the model;
// its image_path is what the sample keeps.
func TestImportSpatiaLQAPrefersImagePath(t *testing.T) {
	tests := []struct{ record, image string }{
		{`{"id":"a","image":"data:image/png;base64,AA==","image_path":"0001-x-1/a.png","question":"Q","answer":{"step1":{"content":"a","precondition":[]},"step2":{"content":"b","precondition":["step1"]}}}`, "0001-x-1/a.png"},
		{`{"id":"a","image":"https://h/a.jpg","image_path":"x/a.jpg","question":"Q","answer":{"step1":{"content":"a","precondition":[]},"step2":{"content":"b","precondition":["step1"]}}}`, "x/a.jpg"},
		{`{"id":"a","image":"x/b.jpg","image_path":"x/a.jpg","question":"Q","answer":{"step1":{"content":"a","precondition":[]},"step2":{"content":"b","precondition":["step1"]}}}`, "x/b.jpg"},
		{`{"id":"a","image":"data:,","question":"Q","answer":{"step1":{"content":"a","precondition":[]},"step2":{"content":"b","precondition":["step1"]}}}`, "data:,"},
	}
	for _, tt := range tests {
		ok, bad, err := ImportSpatiaLQA(strings.NewReader("[" + tt.record + "]"))
		if err != nil || len(bad) != 0 || len(ok) != 1 {
			t.Fatalf("%s: %v %v", tt.record, bad, err)
		}
		if got := ok[0].Sample; got.Image != tt.image || strings.Contains(string(got.Extra["image"]), "data:image") {
			t.Errorf("%s: image %q (extra %s), want %q", tt.record, got.Image, got.Extra["image"], tt.image)
		}
	}
}

// JSON Lines (lmms-eval's test.jsonl): one record object after another, each with
// its own index and line; text after the records is an error naming its line.
func TestImportJSONLines(t *testing.T) {
	in := "\ufeff" + `{"id": "a", "image": "x.jpg", "question": "q", "options": ["a", "b"], "answer": 0}
{"id": "b", "image": "x.jpg", "question": "q", "options": ["a", "b"], "answer": "zebra"}

{"id": "c", "image": "x.jpg", "question": "q",
 "options": ["a", "b"], "answer": 1}
"not a record"
`
	ok, bad, err := ImportMultihop(strings.NewReader(in), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ok) != 2 || ok[0].Sample.ID != "a" || ok[0].Line != 1 || ok[1].Sample.ID != "c" || ok[1].Line != 4 || ok[1].Sample.AnswerIndex != 1 {
		t.Errorf("imported %+v", ok)
	}
	checkErrs := []string{
		`record 2 (line 2): answer: "zebra" is not a letter, an index or one of the options`,
		`record 4 (line 6): want a record object, got "not a record"`,
	}
	if len(bad) != len(checkErrs) {
		t.Fatalf("bad %v, want %q", bad, checkErrs)
	}
	for i, e := range bad {
		if e.Error() != checkErrs[i] {
			t.Errorf("bad[%d] = %q, want %q", i, e.Error(), checkErrs[i])
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"{\"question\": \"q\"}\n{\"question\": \"q\"}\n]\n", "line 3: invalid character ']' looking for beginning of value"},
		{"{\"question\": \"q\"}\n{\"question\": \"q\"\n", "line 3: unexpected EOF"},
		{"{\"question\": \"q\"}\n\n{\"question\" \"q\"}\n", `line 3: invalid character '"' after object key`},
	} {
		if _, _, err := ImportSpatiaLQA(strings.NewReader(tt.in)); err == nil || err.Error() != tt.want {
			t.Errorf("ImportSpatiaLQA(%q) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}
