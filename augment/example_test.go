package augment_test

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
)

func ExampleDerive() {
	parent := annotate.Sample{ID: "sq-0001", Kind: annotate.KindStepGraph, Image: "0001-office-1/img_003.jpg",
		Question: "Pick up the laptop", Steps: []annotate.Step{
			{ID: "step1", Content: "Remove the stapler from the top of the book"},
			{ID: "step2", Content: "Remove the book from the top of the laptop", Precondition: []string{"step1"}},
			{ID: "step3", Content: "Pick up the laptop", Precondition: []string{"step2"}},
		}}
	cs, _ := augment.Derive(parent)
	for _, c := range cs {
		fmt.Printf("%s %q (parent %s)\n", c.Key(), c.Sample.Question, c.Sample.Parent)
		for _, s := range c.Sample.Steps {
			fmt.Printf("  %s %s %v\n", s.ID, s.Content, s.Precondition)
		}
	}
	// Output:
	// subgraph:step2 "Remove the book from the top of the laptop" (parent sq-0001)
	//   step1 Remove the stapler from the top of the book []
	//   step2 Remove the book from the top of the laptop [step1]
	// expand:step1 "Place the laptop on the stapler" (parent sq-0001)
	//   step1 Pick up the stapler []
	//   step2 Remove the book from the top of the laptop [step1]
	//   step3 Pick up the laptop [step2]
	//   step4 Put down the stapler [step1]
	//   step5 Place the laptop on the stapler [step3 step4]
	// expand:step2 "Place the laptop on the book" (parent sq-0001)
	//   step1 Remove the stapler from the top of the book []
	//   step2 Pick up the book [step1]
	//   step3 Pick up the laptop [step2]
	//   step4 Put down the book [step2]
	//   step5 Place the laptop on the book [step3 step4]
}

func ExampleDerive_manualEditing() {
	parent := annotate.Sample{ID: "sq-0002", Kind: annotate.KindStepGraph, Question: "Pick up the cup and the saucer",
		Steps: []annotate.Step{
			{ID: "step1", Content: "Remove the spoon from the saucer"},
			{ID: "step2", Content: "Pick up the cup and the saucer", Precondition: []string{"step1"}},
		}}
	cs, _ := augment.Derive(parent, augment.Expand)
	fmt.Println(cs[0].Key(), "needs editing:", cs[0].Edit)
	// Output:
	// expand:step1 needs editing: the final step step2 "Pick up the cup and the saucer": "the cup and the saucer" does not name one object
}
