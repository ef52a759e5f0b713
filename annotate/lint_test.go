package annotate

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func hopQA() Sample {
	return Sample{
		ID: "mh-0001", Kind: KindHopQA, Image: "images/kitchen_01.jpg",
		Question:    "From the perspective of the man in the blue shirt, which red object is closest to him?",
		QuestionTag: "From the perspective of the man in the blue shirt, which <ATT>red</ATT> object is <REL>closest to him</REL>?",
		Options:     []string{"the mug", "the kettle", "the apple", "the book"},
		Categories:  []Category{CatAtt, CatRel}, Hop: 2, View: ViewEgo, EgoSubject: EgoReal,
		AnswerIndex: 2, Box: &Box{412, 188, 470, 240},
	}
}

func mcq() Sample {
	return Sample{ID: "mc-1", Kind: KindMCQ, Image: "b.jpg", Question: "Which is closer?", Options: []string{"cup", "plate"}}
}

func graphSample(s ...string) Sample {
	if s == nil {
		s = []string{"step1", "step2:step1"}
	}
	return Sample{ID: "sq-1", Kind: KindStepGraph, Image: "0001-office-1/img_003.jpg", Scene: "0001-office-1", Question: "Pick up the laptop", Steps: steps(s...)}
}

func judgment(answer string) Sample {
	return Sample{ID: "yn-1", Kind: KindJudgment, Image: "a.jpg", Question: "Is the cup left of the plate?", AnswerText: answer}
}

func with(s Sample, f func(*Sample)) Sample { f(&s); return s }

// sequence is an LRR-Bench-like judgment about three images labelled A, B, C.
func sequence() Sample {
	s := Sample{ID: "lrr-1", Kind: KindJudgment, Question: "Does the camera turn left from A to C?", AnswerText: "yes", Task: "camera-rotation"}
	s.SetImages([]string{"rot/a.jpg", "rot/b.jpg", "rot/c.jpg"})
	return s
}

const videoSHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

// videoFrames is an open question about three frames of one video.
func videoFrames() Sample {
	s := Sample{ID: "vid-1", Kind: KindOpen, Question: "How many chairs does the room hold?", AnswerText: "4"}
	s.SetImages([]string{"v/f1.jpg", "v/f2.jpg", "v/f3.jpg"})
	for i, t := range []float64{0, 30, 59.5} {
		s.Frames = append(s.Frames, Frame{Video: "videos/room.mp4", VideoSHA256: videoSHA, Duration: 60, Time: t, Index: i * 900})
	}
	return s
}

// nImages is sequence with n images.
func nImages(n int) Sample {
	paths := make([]string, n)
	for i := range paths {
		paths[i] = fmt.Sprintf("seq/%02d.jpg", i)
	}
	return with(sequence(), func(s *Sample) { s.SetImages(paths) })
}

// sizes answers ImageSize from a table.
func sizes(m map[string][2]int) LintEnv {
	return LintEnv{ImageSize: func(p string) (int, int, bool) { wh, ok := m[p]; return wh[0], wh[1], ok }}
}

func nSteps(n int) []string {
	specs := []string{"step1"}
	for i := 2; i <= n; i++ {
		specs = append(specs, fmt.Sprintf("step%d:step%d", i, i-1))
	}
	return specs
}

func sized(w, h int) LintEnv {
	return LintEnv{ImageSize: func(string) (int, int, bool) { return w, h, true }}
}

func TestLintValidSamples(t *testing.T) {
	tol := 0.5
	valid := []Sample{
		hopQA(), mcq(), graphSample(), judgment("yes"), judgment("no"),
		{ID: "op-1", Kind: KindOpen, Image: "c.jpg", Question: "How far?", AnswerText: "2.5", Tolerance: &tol},
		{ID: "op-2", Kind: KindOpen, Image: "c.jpg", Question: "What colour?", AnswerText: "red"},
		with(hopQA(), func(s *Sample) {
			s.View, s.EgoSubject = ViewExo, ""
			s.Question, s.Categories, s.Hop = "Which object on the desk is highest?", []Category{CatPos, CatRel}, 2
			s.QuestionTag = "Which object <POS>on the desk</POS> is <REL>highest</REL>?"
		}),
		sequence(), videoFrames(), nImages(MaxImages),
		with(sequence(), func(s *Sample) {
			s.ImageLabels, s.Box, s.BoxImage = []string{"left", "front", "right"}, &Box{1, 1, 5, 5}, 2
		}),
	}
	for _, s := range valid {
		if fs := Lint(s, sized(1200, 800)); len(fs) != 0 {
			t.Errorf("Lint(%s) = %q, want none", s.ID, brief(fs))
		}
	}
}

// TestLintRules has, for every rule, samples on which it fires (with its severity
// and field) and samples on which it must not.
func TestLintRules(t *testing.T) {
	tests := []struct {
		name     string
		s        Sample
		env      LintEnv
		rule     string
		severity string // "" = the rule must not fire
		field    string
	}{
		{"schema: missing id", with(hopQA(), func(s *Sample) { s.ID = "" }), LintEnv{}, RuleSchema, SeverityError, "id"},
		{"schema: unknown kind", with(judgment("yes"), func(s *Sample) { s.Kind = "essay" }), LintEnv{}, RuleSchema, SeverityError, "kind"},
		{"schema: unknown field", with(judgment("yes"), func(s *Sample) { s.Extra = map[string]json.RawMessage{"x": []byte("1")} }), LintEnv{}, RuleSchema, SeverityWarning, "x"},
		{"schema: none", judgment("yes"), LintEnv{}, RuleSchema, "", ""},

		{"hop-mismatch", with(hopQA(), func(s *Sample) { s.Hop = 3 }), LintEnv{}, RuleHopMismatch, SeverityError, "hop"},
		{"hop-mismatch: duplicates count once", with(hopQA(), func(s *Sample) { s.Categories = []Category{CatAtt, CatRel, CatAtt} }), LintEnv{}, RuleHopMismatch, "", ""},
		{"hop-mismatch: matches", hopQA(), LintEnv{}, RuleHopMismatch, "", ""},

		{"category-set: att alone", with(hopQA(), func(s *Sample) { s.Categories, s.Hop = []Category{CatAtt}, 1 }), LintEnv{}, RuleCategorySet, SeverityError, "categories"},
		{"category-set: unknown name", with(hopQA(), func(s *Sample) { s.Categories = []Category{CatAtt, "colour"} }), LintEnv{}, RuleCategorySet, SeverityError, "categories"},
		{"category-set: three hops", with(hopQA(), func(s *Sample) { s.Categories, s.Hop = []Category{CatRel, CatPos, CatAtt}, 3 }), LintEnv{}, RuleCategorySet, "", ""},

		{"category-tags: untagged", with(hopQA(), func(s *Sample) { s.QuestionTag = "" }), LintEnv{}, RuleCategoryTags, SeverityWarning, "question_tag"},
		{"category-tags: untagged, no categories", with(hopQA(), func(s *Sample) { s.QuestionTag, s.Categories = "", nil }), LintEnv{}, RuleCategoryTags, "", ""},
		{"category-tags: stale", with(hopQA(), func(s *Sample) { s.Question = strings.Replace(s.Question, "closest", "nearest", 1) }), LintEnv{}, RuleCategoryTags, SeverityError, "question_tag"},
		{"category-tags: unbalanced", with(hopQA(), func(s *Sample) { s.QuestionTag = strings.Replace(s.QuestionTag, "</ATT>", "", 1) }), LintEnv{}, RuleCategoryTags, SeverityError, "question_tag"},
		{"category-tags: crossing", with(hopQA(), func(s *Sample) {
			s.QuestionTag = "From the perspective of the man in the blue shirt, which <ATT>red <REL>object</ATT> is closest to him</REL>?"
		}), LintEnv{}, RuleCategoryTags, SeverityError, "question_tag"},
		{"category-tags: outside the set", with(hopQA(), func(s *Sample) { s.Categories = []Category{CatRel}; s.Hop = 1 }), LintEnv{}, RuleCategoryTags, SeverityError, "question_tag"},
		{"category-tags: one untagged", with(hopQA(), func(s *Sample) {
			s.QuestionTag = StripTags(s.QuestionTag)
			s.QuestionTag, _ = AddTag(s.QuestionTag, CatAtt, 57, 60)
		}), LintEnv{}, RuleCategoryTags, SeverityError, "question_tag"},
		{"category-tags: on a judgment", with(judgment("yes"), func(s *Sample) { s.QuestionTag = "Is the <POS>cup</POS> left of the plate?" }), LintEnv{}, RuleCategoryTags, SeverityWarning, "question_tag"},
		{"category-tags: nested", with(hopQA(), func(s *Sample) {
			s.QuestionTag = "From the perspective of the man in the blue shirt, which <REL><ATT>red</ATT> object is closest to him</REL>?"
		}), LintEnv{}, RuleCategoryTags, "", ""},
		{"category-tags: tagged", hopQA(), LintEnv{}, RuleCategoryTags, "", ""},

		{"text-spacing: double space", with(mcq(), func(s *Sample) { s.Question = "Which  object?" }), LintEnv{}, RuleSpacing, SeverityWarning, "question"},
		{"text-spacing: trailing space in an option", with(mcq(), func(s *Sample) { s.Options[1] += " " }), LintEnv{}, RuleSpacing, SeverityWarning, "options[1]"},
		{"text-spacing: line break in a step", with(graphSample(), func(s *Sample) { s.Steps[0].Content = "Open\nthe door" }), LintEnv{}, RuleSpacing, SeverityWarning, "steps[0].content"},
		{"text-spacing: tidy", mcq(), LintEnv{}, RuleSpacing, "", ""},

		{"ego-phrase: no phrase", with(hopQA(), func(s *Sample) { s.Question = "Which red object is closest to the man?" }), LintEnv{}, RuleEgoPhrase, SeverityError, "question"},
		{"ego-phrase: empty description", with(hopQA(), func(s *Sample) { s.Question = "From the perspective of , which is red?" }), LintEnv{}, RuleEgoPhrase, SeverityError, "question"},
		{"ego-phrase: subject mismatch", with(hopQA(), func(s *Sample) { s.EgoSubject = EgoVirtual }), LintEnv{}, RuleEgoPhrase, SeverityError, "ego_subject"},
		{"ego-phrase: virtual, curly apostrophe", with(hopQA(), func(s *Sample) {
			s.EgoSubject, s.Question = EgoVirtual, "When I’m standing by the fridge and facing the camera, which red object is closest?"
		}), LintEnv{}, RuleEgoPhrase, "", ""},
		{"ego-phrase: real", hopQA(), LintEnv{}, RuleEgoPhrase, "", ""},

		{"exo-phrase", with(hopQA(), func(s *Sample) { s.View, s.EgoSubject = ViewExo, "" }), LintEnv{}, RuleExoPhrase, SeverityWarning, "question"},
		{"exo-phrase: plain question", with(hopQA(), func(s *Sample) { s.View, s.Question = ViewExo, "Which red object is closest to the man?" }), LintEnv{}, RuleExoPhrase, "", ""},

		{"option-count: hop_qa 3", with(hopQA(), func(s *Sample) { s.Options = s.Options[:3] }), LintEnv{}, RuleOptionCount, SeverityError, "options"},
		{"option-count: hop_qa 5", with(hopQA(), func(s *Sample) { s.Options = append(s.Options, "the cup") }), LintEnv{}, RuleOptionCount, SeverityError, "options"},
		{"option-count: mcq 1", with(mcq(), func(s *Sample) { s.Options = s.Options[:1] }), LintEnv{}, RuleOptionCount, SeverityError, "options"},
		{"option-count: mcq 7", with(mcq(), func(s *Sample) { s.Options = strings.Fields("a b c d e f g") }), LintEnv{}, RuleOptionCount, SeverityError, "options"},
		{"option-count: mcq 6", with(mcq(), func(s *Sample) { s.Options = strings.Fields("a b c d e f") }), LintEnv{}, RuleOptionCount, "", ""},
		{"option-count: hop_qa 4", hopQA(), LintEnv{}, RuleOptionCount, "", ""},

		{"option-empty", with(hopQA(), func(s *Sample) { s.Options[1] = "  " }), LintEnv{}, RuleOptionEmpty, SeverityError, "options[1]"},
		{"option-empty: mcq", with(mcq(), func(s *Sample) { s.Options[0] = "" }), LintEnv{}, RuleOptionEmpty, SeverityError, "options[0]"},
		{"option-empty: none", hopQA(), LintEnv{}, RuleOptionEmpty, "", ""},

		{"option-duplicate: case and punctuation", with(hopQA(), func(s *Sample) { s.Options[3] = " The  MUG. " }), LintEnv{}, RuleOptionDuplicate, SeverityError, "options[3]"},
		{"option-duplicate: hyphen", with(mcq(), func(s *Sample) { s.Options = []string{"left-side cup", "left side cup"} }), LintEnv{}, RuleOptionDuplicate, SeverityError, "options[1]"},
		{"option-duplicate: different", with(mcq(), func(s *Sample) { s.Options = []string{"mug", "mugs"} }), LintEnv{}, RuleOptionDuplicate, "", ""},

		{"answer-range: past the end", with(hopQA(), func(s *Sample) { s.AnswerIndex = 4 }), LintEnv{}, RuleAnswerRange, SeverityError, "answer"},
		{"answer-range: negative", with(mcq(), func(s *Sample) { s.AnswerIndex = -1 }), LintEnv{}, RuleAnswerRange, SeverityError, "answer"},
		{"answer-range: mcq", with(mcq(), func(s *Sample) { s.AnswerIndex = 2 }), LintEnv{}, RuleAnswerRange, SeverityError, "answer"},
		{"answer-range: last", with(hopQA(), func(s *Sample) { s.AnswerIndex = 3 }), LintEnv{}, RuleAnswerRange, "", ""},

		{"box-missing", with(hopQA(), func(s *Sample) { s.Box = nil }), LintEnv{}, RuleBoxMissing, SeverityError, "box"},
		{"box-missing: optional on mcq", mcq(), LintEnv{}, RuleBoxMissing, "", ""},

		{"box-invalid: zero width", with(hopQA(), func(s *Sample) { s.Box = &Box{10, 10, 10, 20} }), LintEnv{}, RuleBoxInvalid, SeverityError, "box"},
		{"box-invalid: swapped y", with(hopQA(), func(s *Sample) { s.Box = &Box{10, 30, 20, 20} }), LintEnv{}, RuleBoxInvalid, SeverityError, "box"},
		{"box-invalid: negative", with(hopQA(), func(s *Sample) { s.Box = &Box{-1, 0, 20, 20} }), LintEnv{}, RuleBoxInvalid, SeverityError, "box"},
		{"box-invalid: outside the image", hopQA(), sized(450, 300), RuleBoxInvalid, SeverityError, "box"},
		{"box-invalid: on a judgment", with(judgment("yes"), func(s *Sample) { s.Box = &Box{5, 5, 1, 1} }), LintEnv{}, RuleBoxInvalid, SeverityError, "box"},
		{"box-invalid: size unknown", hopQA(), LintEnv{ImageSize: func(string) (int, int, bool) { return 450, 300, false }}, RuleBoxInvalid, "", ""},
		{"box-invalid: touches the edge", hopQA(), sized(470, 240), RuleBoxInvalid, "", ""},

		{"colour-in-options", with(hopQA(), func(s *Sample) { s.Options[0] = "the light-blue mug" }), LintEnv{}, RuleColourInOptions, SeverityWarning, "options[0]"},
		{"colour-in-options: -ish", with(hopQA(), func(s *Sample) { s.Options[2] = "the reddish apple" }), LintEnv{}, RuleColourInOptions, SeverityWarning, "options[2]"},
		{"colour-in-options: att not a colour", with(hopQA(), func(s *Sample) {
			s.Question, s.QuestionTag, s.Options[0] = "From the perspective of the man, which round object is closest to him?", "", "the red mug"
		}), LintEnv{}, RuleColourInOptions, "", ""},
		{"colour-in-options: colour only in the subject phrase", with(hopQA(), func(s *Sample) {
			s.Question, s.QuestionTag, s.Options[0] = "From the perspective of the man in the blue shirt, which round object is closest?", "", "the blue mug"
		}), LintEnv{}, RuleColourInOptions, "", ""},
		// Tagged, the att condition is the ATT phrase and nothing else (issue 27).
		{"colour-in-options: colour in the POS phrase", with(hopQA(), func(s *Sample) {
			s.Question = "Which round object on the blue table is closest to the door?"
			s.QuestionTag = "Which <ATT>round</ATT> object <POS>on the blue table</POS> is <REL>closest</REL> to the door?"
			s.Categories, s.Hop, s.View, s.EgoSubject, s.Options[0] = []Category{CatAtt, CatPos, CatRel}, 3, ViewExo, "", "the blue mug"
		}), LintEnv{}, RuleColourInOptions, "", ""},
		{"colour-in-options: colour in the ATT phrase", with(hopQA(), func(s *Sample) {
			s.Question = "Which blue object on the wooden table is closest to the door?"
			s.QuestionTag = "Which <ATT>blue</ATT> object <POS>on the wooden table</POS> is <REL>closest</REL> to the door?"
			s.Categories, s.Hop, s.View, s.EgoSubject, s.Options[1] = []Category{CatAtt, CatPos, CatRel}, 3, ViewExo, "", "the green mug"
		}), LintEnv{}, RuleColourInOptions, SeverityWarning, "options[1]"},
		{"colour-in-options: colour in a POS phrase inside the ATT one", with(hopQA(), func(s *Sample) {
			s.Question = "Which round object on the blue tray is closest?"
			s.QuestionTag = "Which <ATT>round object <POS>on the blue tray</POS></ATT> is <REL>closest</REL>?"
			s.Categories, s.Hop, s.View, s.EgoSubject, s.Options[0] = []Category{CatAtt, CatPos, CatRel}, 3, ViewExo, "", "the blue mug"
		}), LintEnv{}, RuleColourInOptions, "", ""},
		{"colour-in-options: colour in the ATT phrase, POS inside", with(hopQA(), func(s *Sample) {
			s.Question = "Which red object on the tray is closest?"
			s.QuestionTag = "Which <ATT>red object <POS>on the tray</POS></ATT> is <REL>closest</REL>?"
			s.Categories, s.Hop, s.View, s.EgoSubject, s.Options[0] = []Category{CatAtt, CatPos, CatRel}, 3, ViewExo, "", "the blue mug"
		}), LintEnv{}, RuleColourInOptions, SeverityWarning, "options[0]"},
		{"colour-in-options: tagged, ATT not tagged yet", with(hopQA(), func(s *Sample) {
			s.Question = "Which object on the blue table is closest?"
			s.QuestionTag = "Which object <POS>on the blue table</POS> is closest?"
			s.Categories, s.Hop, s.View, s.EgoSubject, s.Options[0] = []Category{CatAtt, CatPos}, 2, ViewExo, "", "the blue mug"
		}), LintEnv{}, RuleColourInOptions, "", ""},
		{"colour-in-options: no att", with(hopQA(), func(s *Sample) { s.Categories, s.Options[0] = []Category{CatPos, CatRel}, "the red mug" }), LintEnv{}, RuleColourInOptions, "", ""},
		{"colour-in-options: colourless options", hopQA(), LintEnv{}, RuleColourInOptions, "", ""},

		{"steps-count: 1", graphSample("step1"), LintEnv{}, RuleStepsCount, SeverityError, "steps"},
		{"steps-count: 11", graphSample(nSteps(11)...), LintEnv{}, RuleStepsCount, SeverityError, "steps"},
		{"steps-count: 9 hand-written", graphSample(nSteps(9)...), LintEnv{HandWritten: true}, RuleStepsCount, SeverityWarning, "steps"},
		{"steps-count: 10 released", graphSample(nSteps(10)...), LintEnv{}, RuleStepsCount, "", ""},
		{"steps-count: 8 hand-written", graphSample(nSteps(8)...), LintEnv{HandWritten: true}, RuleStepsCount, "", ""},

		{"step-unknown-ref", graphSample("step1", "step2:step0"), LintEnv{}, RuleStepUnknownRef, SeverityError, "steps[1].precondition"},
		{"step-unknown-ref: none", graphSample(), LintEnv{}, RuleStepUnknownRef, "", ""},
		{"step-self-ref", graphSample("step1", "step2:step1,step2"), LintEnv{}, RuleStepSelfRef, SeverityError, "steps[1].precondition"},
		{"step-self-ref: none", graphSample(), LintEnv{}, RuleStepSelfRef, "", ""},
		{"step-cycle", graphSample("step1:step3", "step2:step1", "step3:step2", "step4:step3"), LintEnv{}, RuleStepCycle, SeverityError, "steps[0].precondition"},
		{"step-cycle: none", graphSample(nSteps(5)...), LintEnv{}, RuleStepCycle, "", ""},
		{"step-transitive", graphSample("step1", "step2:step1", "step3:step2,step1"), LintEnv{}, RuleStepTransitive, SeverityError, "steps[2].precondition"},
		{"step-transitive: diamond without shortcut", graphSample("a", "b:a", "c:a", "d:b,c"), LintEnv{}, RuleStepTransitive, "", ""},
		{"step-final: two sinks", graphSample("step1", "step2:step1", "step3"), LintEnv{}, RuleStepFinal, SeverityError, "steps"},
		{"step-final: one sink", graphSample(), LintEnv{}, RuleStepFinal, "", ""},
		{"step-unreachable", graphSample("step1", "step2", "step3:step1"), LintEnv{}, RuleStepUnreachable, SeverityWarning, "steps[1]"},
		{"step-unreachable: all lead to the end", graphSample("step1", "step2", "step3:step1,step2"), LintEnv{}, RuleStepUnreachable, "", ""},

		{"judgment-answer: capitalised", judgment("Yes"), LintEnv{}, RuleJudgmentAnswer, SeverityError, "answer"},
		{"judgment-answer: maybe", judgment("maybe"), LintEnv{}, RuleJudgmentAnswer, SeverityError, "answer"},
		{"judgment-answer: no", judgment("no"), LintEnv{}, RuleJudgmentAnswer, "", ""},

		{"scene-name: no index", with(graphSample(), func(s *Sample) { s.Scene = "office-1" }), LintEnv{}, RuleSceneName, SeverityWarning, "scene"},
		{"scene-name: short index", with(graphSample(), func(s *Sample) { s.Scene = "1-office-1" }), LintEnv{}, RuleSceneName, SeverityWarning, "scene"},
		{"scene-name: no k", with(graphSample(), func(s *Sample) { s.Scene = "0001-office" }), LintEnv{}, RuleSceneName, SeverityWarning, "scene"},
		{"scene-name: hyphenated type", with(graphSample(), func(s *Sample) { s.Scene = "0022-living-room-2" }), LintEnv{}, RuleSceneName, "", ""},
		{"scene-name: absent", with(graphSample(), func(s *Sample) { s.Scene = "" }), LintEnv{}, RuleSceneName, "", ""},

		{"schema: blank image in a sequence", with(sequence(), func(s *Sample) { s.MoreImages[0] = " " }), LintEnv{}, RuleSchema, SeverityError, "images[1]"},
		{"schema: no image at all", with(sequence(), func(s *Sample) { s.SetImages(nil) }), LintEnv{}, RuleSchema, SeverityError, "image"},
		{"schema: a sequence", sequence(), LintEnv{}, RuleSchema, "", ""},

		{"image-count: 65", nImages(65), LintEnv{}, RuleImageCount, SeverityError, "images"},
		{"image-count: 64", nImages(64), LintEnv{}, RuleImageCount, "", ""},
		{"image-count: above the kind's limit", sequence(), LintEnv{ImageLimits: []ImageLimit{{Kind: KindJudgment, Max: 2}}}, RuleImageCount, SeverityError, "images"},
		{"image-count: below the task's limit", sequence(), LintEnv{ImageLimits: []ImageLimit{{Task: "camera-rotation", Min: 4, Max: 4}}}, RuleImageCount, SeverityError, "images"},
		{"image-count: one image where a sequence is asked", judgment("yes"), LintEnv{ImageLimits: []ImageLimit{{Kind: KindJudgment, Min: 3}}}, RuleImageCount, SeverityError, "image"},
		{"image-count: a limit of another task", sequence(), LintEnv{ImageLimits: []ImageLimit{{Kind: KindJudgment, Task: "heading", Max: 1}, {Kind: KindMCQ, Max: 1}}}, RuleImageCount, "", ""},
		{"image-count: within the limit", sequence(), LintEnv{ImageLimits: []ImageLimit{{Kind: KindJudgment, Min: 3, Max: 4}}}, RuleImageCount, "", ""},

		{"image-duplicate: the same path", with(sequence(), func(s *Sample) { s.MoreImages[1] = "rot/a.jpg" }), LintEnv{}, RuleImageDuplicate, SeverityError, "images[2]"},
		{"image-duplicate: the same path written otherwise", with(sequence(), func(s *Sample) { s.MoreImages[0] = "rot/./a.jpg" }), LintEnv{}, RuleImageDuplicate, SeverityError, "images[1]"},
		{"image-duplicate: distinct", sequence(), LintEnv{}, RuleImageDuplicate, "", ""},

		{"image-labels: fewer than images", with(sequence(), func(s *Sample) { s.ImageLabels = []string{"left", "right"} }), LintEnv{}, RuleImageLabels, SeverityError, "image_labels"},
		{"image-labels: blank", with(sequence(), func(s *Sample) { s.ImageLabels = []string{"left", " ", "right"} }), LintEnv{}, RuleImageLabels, SeverityError, "image_labels[1]"},
		{"image-labels: repeated", with(sequence(), func(s *Sample) { s.ImageLabels = []string{"left", "front", " Left"} }), LintEnv{}, RuleImageLabels, SeverityError, "image_labels[2]"},
		{"image-labels: explicit", with(sequence(), func(s *Sample) { s.ImageLabels = []string{"left", "front", "right"} }), LintEnv{}, RuleImageLabels, "", ""},
		{"image-labels: default", sequence(), LintEnv{}, RuleImageLabels, "", ""},

		{"image-frames: fewer than images", with(videoFrames(), func(s *Sample) { s.Frames = s.Frames[:2] }), LintEnv{}, RuleImageFrames, SeverityError, "frames"},
		{"image-frames: no video", with(videoFrames(), func(s *Sample) { s.Frames[1].Video = "" }), LintEnv{}, RuleImageFrames, SeverityError, "frames[1].video"},
		{"image-frames: bad SHA-256", with(videoFrames(), func(s *Sample) { s.Frames[0].VideoSHA256 = strings.ToUpper(videoSHA) }), LintEnv{}, RuleImageFrames, SeverityError, "frames[0].video_sha256"},
		{"image-frames: no duration", with(videoFrames(), func(s *Sample) { s.Frames[2].Duration = 0 }), LintEnv{}, RuleImageFrames, SeverityError, "frames[2].duration"},
		{"image-frames: time past the end", with(videoFrames(), func(s *Sample) { s.Frames[2].Time = 61 }), LintEnv{}, RuleImageFrames, SeverityError, "frames[2].time"},
		{"image-frames: negative index", with(videoFrames(), func(s *Sample) { s.Frames[0].Index = -1 }), LintEnv{}, RuleImageFrames, SeverityError, "frames[0].index"},
		{"image-frames: one video two ways", with(videoFrames(), func(s *Sample) { s.Frames[1].Duration = 61 }), LintEnv{}, RuleImageFrames, SeverityError, "frames[1]"},
		{"image-frames: frames of two videos", with(videoFrames(), func(s *Sample) { s.Frames[1].Video, s.Frames[1].Duration = "videos/hall.mp4", 40 }), LintEnv{}, RuleImageFrames, "", ""},
		{"image-frames: one video", videoFrames(), LintEnv{}, RuleImageFrames, "", ""},

		{"box-image: past the last image", with(sequence(), func(s *Sample) { s.Box, s.BoxImage = &Box{1, 1, 5, 5}, 3 }), LintEnv{}, RuleBoxImage, SeverityError, "box_image"},
		{"box-image: negative", with(sequence(), func(s *Sample) { s.Box, s.BoxImage = &Box{1, 1, 5, 5}, -1 }), LintEnv{}, RuleBoxImage, SeverityError, "box_image"},
		{"box-image: on a single image", with(judgment("yes"), func(s *Sample) { s.Box, s.BoxImage = &Box{1, 1, 5, 5}, 1 }), LintEnv{}, RuleBoxImage, SeverityError, "box_image"},
		{"box-image: without a box", with(sequence(), func(s *Sample) { s.BoxImage = 2 }), LintEnv{}, RuleBoxImage, SeverityWarning, "box_image"},
		{"box-image: the last image", with(sequence(), func(s *Sample) { s.Box, s.BoxImage = &Box{1, 1, 5, 5}, 2 }), LintEnv{}, RuleBoxImage, "", ""},

		{"box-invalid: outside its own image", with(sequence(), func(s *Sample) { s.Box, s.BoxImage = &Box{300, 10, 500, 50}, 2 }),
			sizes(map[string][2]int{"rot/a.jpg": {1200, 800}, "rot/b.jpg": {1200, 800}, "rot/c.jpg": {400, 300}}), RuleBoxInvalid, SeverityError, "box"},
		{"box-invalid: inside its own image", with(sequence(), func(s *Sample) { s.Box, s.BoxImage = &Box{300, 10, 500, 50}, 1 }),
			sizes(map[string][2]int{"rot/a.jpg": {400, 300}, "rot/b.jpg": {1200, 800}, "rot/c.jpg": {400, 300}}), RuleBoxInvalid, "", ""},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := Lint(tt.s, tt.env)
			i := slices.IndexFunc(fs, func(f Finding) bool { return f.Rule == tt.rule })
			switch {
			case tt.severity == "" && i >= 0:
				t.Errorf("%s fired: %+v", tt.rule, fs[i])
			case tt.severity != "" && i < 0:
				t.Errorf("%s did not fire; findings %q", tt.rule, brief(fs))
			case tt.severity != "":
				if f := fs[i]; f.Severity != tt.severity || f.Field != tt.field || f.Sample != tt.s.ID || f.Message == "" {
					t.Errorf("finding = %+v, want severity %s field %s", f, tt.severity, tt.field)
				}
				covered[tt.rule] = true
			}
		})
	}
	for _, r := range Rules {
		if !covered[r] {
			t.Errorf("no positive case for rule %s", r)
		}
	}
}

func TestLintHidesConsequences(t *testing.T) {
	// A missing option list is a schema error; option-count and answer-range stay quiet.
	fs := Lint(with(hopQA(), func(s *Sample) { s.Options = nil }), LintEnv{})
	if got := brief(fs); !slices.Equal(got, []string{"schema error options: options is missing"}) {
		t.Errorf("got %q", got)
	}
	// A hop of the wrong type in the record is not also a hop mismatch.
	s, pf := ParseRecord([]byte(`{"id":"x","kind":"hop_qa","image":"i","question":"q","question_tag":"<POS>q</POS>","options":["a","b","c","d"],"answer":0,"categories":["pos"],"hop":"1","view":"exo","box":[1,1,2,2]}`))
	if got := brief(MergeFindings(pf, Lint(s, LintEnv{}))); !slices.Equal(got, []string{`schema error hop: hop: want an integer, got "1"`}) {
		t.Errorf("got %q", got)
	}
}

func TestLintHints(t *testing.T) {
	fs := Lint(with(hopQA(), func(s *Sample) { s.Box = &Box{470, 188, 412, 900} }), sized(1200, 800))
	if len(fs) != 1 || fs[0].Hint != "use [412, 188, 470, 800]" ||
		fs[0].Message != "box [470, 188, 412, 900]: x1 470 is not left of x2 412; box extends past the 1200×800 image" {
		t.Errorf("got %+v", fs)
	}
	fs = Lint(judgment("YES"), LintEnv{})
	if len(fs) != 1 || fs[0].Hint != `write it as "yes"` {
		t.Errorf("got %+v", fs)
	}
}

func TestHopFor(t *testing.T) {
	tests := []struct {
		cats []Category
		hop  int
	}{
		{[]Category{CatPos}, 1},
		{[]Category{CatRel}, 1},
		{[]Category{CatAtt}, 0},
		{nil, 0},
		{[]Category{CatAtt, CatPos}, 2},
		{[]Category{CatRel, CatAtt}, 2},
		{[]Category{CatPos, CatRel, CatPos}, 2},
		{[]Category{CatAtt, CatPos, CatRel}, 3},
		{[]Category{CatAtt, "size"}, 0},
	}
	for _, tt := range tests {
		if got := HopFor(tt.cats); got != tt.hop {
			t.Errorf("HopFor(%v) = %d, want %d", tt.cats, got, tt.hop)
		}
		if AllowedCategorySet(tt.cats) != (tt.hop > 0) {
			t.Errorf("AllowedCategorySet(%v) disagrees with HopFor", tt.cats)
		}
	}
}

func TestSubjectPhrase(t *testing.T) {
	for _, c := range []struct {
		subject EgoSubject
		desc    string
		want    string
	}{
		{EgoReal, "the man in the blue shirt", "From the perspective of the man in the blue shirt,"},
		{EgoReal, " the chef, ", "From the perspective of the chef,"},
		{EgoVirtual, "at the door", "When I'm standing at the door and facing the camera,"},
		{"robot", "x", ""},
	} {
		got := SubjectPhrase(c.subject, c.desc)
		if got != c.want {
			t.Errorf("SubjectPhrase(%s, %q) = %q, want %q", c.subject, c.desc, got, c.want)
		}
		if subject, ok := HasSubjectPhrase(got + " which cup is left?"); got != "" && (!ok || subject != c.subject) {
			t.Errorf("HasSubjectPhrase(%q) = %s, %v", got, subject, ok)
		}
	}
	for _, q := range []string{
		"Which cup is left?",
		"From the perspective of the man which cup is left?",  // no comma
		"from the perspective of the man, which cup?",         // case
		"When I'm standing and facing the camera, which cup?", // no location
		"When I'm standing at the door, which cup?",           // no facing clause
	} {
		if s, ok := HasSubjectPhrase(q); ok {
			t.Errorf("HasSubjectPhrase(%q) = %s, want none", q, s)
		}
	}
}

func TestColourWords(t *testing.T) {
	got := ColourWords("The Light-Blue mug, a greyish cup and a BLUE bowl (not bluebell)")
	if !slices.Equal(got, []string{"blue", "greyish"}) {
		t.Errorf("ColourWords = %q", got)
	}
}

// TestLintGolden lints testdata/bad.jsonl, one bad sample per rule, as bwctl lint
// does, and compares the findings with testdata/bad.golden (go test -update rewrites it).
func TestLintGolden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "bad.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	env := sized(1200, 800)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	err = ReadJSONL(bytes.NewReader(in), func(line int, raw []byte) error {
		s, pf := ParseRecord(raw)
		env.HandWritten = s.Parent == ""
		for _, f := range MergeFindings(pf, Lint(s, env)) {
			if err := enc.Encode(f); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "bad.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("lint output differs from %s (run go test -update to accept):\n%s", golden, out.Bytes())
	}
	for _, r := range Rules {
		if !bytes.Contains(want, []byte(`"rule":"`+r+`"`)) {
			t.Errorf("golden has no %s finding", r)
		}
	}
}

func TestMergeFindings(t *testing.T) {
	e := func(rule, field string) Finding { return errorf(rule, field, rule+" on "+field, "") }
	w := func(sample, rule, field string) Finding {
		f := warnf(rule, field, rule+" on "+field, "")
		f.Sample = sample
		return f
	}
	in := []Finding{
		w("b", RuleSchema, "x"),
		e(RuleSchema, "steps[1]"),
		e(RuleStepUnknownRef, "steps[1].precondition"), // inside a field with a schema error
		e(RuleStepUnknownRef, "steps[2].precondition"),
		e("custom-rule", "z"),
		w("", RuleSceneName, "scene"),
		e(RuleSchema, "steps[1]"), // exact duplicate
		w("b", RuleSchema, "x"),   // exact duplicate
	}
	got := brief(MergeFindings(in))
	want := []string{
		"schema error steps[1]: schema on steps[1]",
		"step-unknown-ref error steps[2].precondition: step-unknown-ref on steps[2].precondition",
		"custom-rule error z: custom-rule on z",
		"scene-name warning scene: scene-name on scene",
		"schema warning x: schema on x", // sample "b" after sample ""
	}
	if !slices.Equal(got, want) {
		t.Errorf("MergeFindings:\ngot  %q\nwant %q", got, want)
	}
	if !HasErrors(MergeFindings(in)) || HasErrors([]Finding{w("", RuleSceneName, "scene")}) {
		t.Error("HasErrors")
	}
	// A record that is not an object hides everything else about it.
	if got := MergeFindings([]Finding{e(RuleSchema, "")}, []Finding{e(RuleHopMismatch, "hop")}); len(got) != 1 {
		t.Errorf("got %+v", got)
	}
}

// The editor has no hop, ego_subject, box_image or question_tag field: the hop
// count follows the ticked categories, the person is chosen under Viewpoint, the
// box goes on the image shown and tags are made with buttons. Findings on samples
// the editor makes say what to do there, never to set such a field (issue 27).
func TestLintSaysWhatToDoInTheEditor(t *testing.T) {
	samples := []Sample{
		{ID: "h1", Kind: KindHopQA, Image: "a.jpg", Options: make([]string, 4), AnswerIndex: -1, View: ViewExo}, // a new hop question
		with(hopQA(), func(s *Sample) { s.Categories, s.Hop = []Category{CatAtt}, 1 }),
		with(hopQA(), func(s *Sample) { s.Categories, s.Hop = []Category{CatPos, CatRel}, 3 }),
		with(hopQA(), func(s *Sample) { s.EgoSubject = EgoVirtual }),
		with(hopQA(), func(s *Sample) { s.View, s.EgoSubject = ViewExo, "" }),
		with(hopQA(), func(s *Sample) { s.View, s.EgoSubject = "", "" }),
		with(hopQA(), func(s *Sample) { s.Categories, s.Hop = []Category{CatRel}, 1 }),
		with(hopQA(), func(s *Sample) { s.Categories, s.Hop = []Category{CatAtt, CatPos, CatRel}, 3 }),
		with(hopQA(), func(s *Sample) { s.QuestionTag = strings.Replace(s.QuestionTag, "</ATT>", "", 1) }),
		with(hopQA(), func(s *Sample) { s.Question += " Or not?" }),
		with(sequence(), func(s *Sample) { s.Box, s.BoxImage = &Box{1, 1, 5, 5}, 3 }),
		with(sequence(), func(s *Sample) { s.BoxImage = 2 }),
		openAnswer("1,5", true, nil, "0,5"),
		judgment(""),
	}
	for _, s := range samples {
		for _, f := range Lint(s, LintEnv{}) {
			text := f.Text() + " " + f.Hint
			for _, raw := range []string{"set hop", "hop is", "ego_subject", "set box_image", "box_image is", "question_tag", "{", "0-based", "set view"} {
				if strings.Contains(text, raw) {
					t.Errorf("%s: %q names %q", s.ID, text, raw)
				}
			}
			if f.Hint == "" && f.Rule != RuleBoxInvalid {
				t.Errorf("%s: %q says nothing to do", s.ID, f.Text())
			}
		}
	}
	// A new hop question with no category says so once: no second finding on a
	// hop count nobody can set.
	fs := Lint(samples[0], LintEnv{})
	if slices.ContainsFunc(fs, func(f Finding) bool { return f.Field == "hop" }) {
		t.Errorf("a hop finding on a sample without categories: %q", brief(fs))
	}
}
