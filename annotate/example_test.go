package annotate_test

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
)

func ExampleLint() {
	s := annotate.Sample{
		ID: "mh-0007", Kind: annotate.KindHopQA, Image: "images/kitchen_01.jpg",
		Question:   "Which red object is closest to the man?",
		Options:    []string{"the mug", "the red kettle", "the apple", "The mug."},
		Categories: []annotate.Category{annotate.CatAtt, annotate.CatRel}, Hop: 3,
		View: annotate.ViewEgo, AnswerIndex: 1, Box: &annotate.Box{412, 188, 1300, 240},
	}
	env := annotate.LintEnv{ImageSize: func(string) (int, int, bool) { return 1200, 800, true }}
	for _, f := range annotate.Lint(s, env) {
		fmt.Printf("%s %s %s: %s\n", f.Severity, f.Rule, f.Field, f.Message)
	}
	// Output:
	// error hop-mismatch hop: the hop count is 3 but there are 2 distinct categories (att, rel)
	// error ego-phrase question: an ego question must start with a subject phrase
	// error option-duplicate options[3]: option D "The mug." repeats option A "the mug"
	// error box-invalid box: box [412, 188, 1300, 240]: box extends past the 1200×800 image
	// warning category-tags question_tag: the categories are not tagged in the question
	// warning colour-in-options options[1]: option B names a colour (red) while the att condition is a colour (red)
}

// A finding's Field is the record's path, for JSON and CSV; Place and Text are what
// the screens show people.
func ExampleFinding_Place() {
	for _, f := range []annotate.Finding{
		{Field: "options[2]", Message: "option C is blank"},
		{Field: "steps[1].precondition", Message: "step2 lists itself as a precondition"},
		{Field: "ego_subject", Message: "ego_subject is real but the question opens with the virtual-person phrase"},
		{Field: "", Message: "unknown kind"},
	} {
		fmt.Printf("%s → %s\n", f.Field, f.Text())
	}
	// Output:
	// options[2] → option C is blank
	// steps[1].precondition → step #2's preconditions: step2 lists itself as a precondition
	// ego_subject → the viewpoint's person: ego_subject is real but the question opens with the virtual-person phrase
	//  → the whole sample: unknown kind
}

func ExampleCheckGraph() {
	steps := []annotate.Step{
		{ID: "step1", Content: "Remove the stapler from the top of the book"},
		{ID: "step2", Content: "Remove the book from the top of the laptop", Precondition: []string{"step1"}},
		{ID: "step3", Content: "Pick up the laptop", Precondition: []string{"step2", "step1"}},
	}
	for _, f := range annotate.CheckGraph(steps) {
		fmt.Printf("%s: %s (%s)\n", f.Rule, f.Message, f.Hint)
	}
	for _, e := range annotate.RedundantEdges(steps) {
		steps = annotate.RemovePrecondition(steps, e.From, e.To)
	}
	fmt.Println(len(annotate.CheckGraph(steps)), annotate.Layers(steps))
	// Output:
	// step-transitive: redundant edge step1 → step3: already implied by step1 → step2 → step3 (remove step1 from the preconditions of step3)
	// 0 [[step1] [step2] [step3]]
}

func ExampleBox_To1000() {
	b := annotate.Box{100, 120, 200, 220}
	fmt.Println(b.To1000(1200, 800), b.ToCOCO(), b.Area())
	// Output: [83 150 167 275] [100 120 100 100] 10000
}

func ExampleSubjectPhrase() {
	fmt.Println(annotate.SubjectPhrase(annotate.EgoVirtual, "behind the sofa"), "which lamp is on my left?")
	fmt.Println(annotate.HasSubjectPhrase("From the perspective of the girl in red, which cup is nearest?"))
	// Output:
	// When I'm standing behind the sofa and facing the camera, which lamp is on my left?
	// real true
}

func ExampleJSONObject() {
	b, err := annotate.JSONObject(func(w *annotate.ObjectWriter) {
		w.Value("question", "Which <ATT>red</ATT> mug?") // no HTML escaping
		w.Str("split", "")                               // empty: left out
		w.Raw("bbox", []byte("[1.00, 2.00, 3.00, 4.00]"))
	})
	fmt.Println(string(b), err)
	// Output: {"question":"Which <ATT>red</ATT> mug?","bbox":[1.00, 2.00, 3.00, 4.00]} <nil>
}
