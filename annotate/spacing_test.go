package annotate

import (
	"reflect"
	"testing"
)

func TestSpacingProblem(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Which object is nearest?", ""},
		{" Which object?", "starts with white space"},
		{"Which object? ", "ends with white space"},
		{"Which\tobject?", "holds a tab or line break"},
		{"Which object is to the left of  the cup?", `has two spaces in a row after "the left of"`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := spacingProblem(tt.text); got != tt.want {
			t.Errorf("spacingProblem(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TidyText fixes what the rule finds, keeps the tags on their phrases and leaves
// the original sample alone.
func TestTidyText(t *testing.T) {
	s := Sample{Kind: KindHopQA, Question: "Which  round object is   closest? ", QuestionTag: "Which  <ATT>round</ATT> object is   <REL>closest</REL>? ",
		Options: []string{" a", "b  c", "d", "e"}, Categories: []Category{CatAtt, CatRel}, Hop: 2}
	orig := s
	orig.Options = append([]string(nil), s.Options...)
	got := TidyText(s)
	if got.Question != "Which round object is closest?" || got.QuestionTag != "Which <ATT>round</ATT> object is <REL>closest</REL>?" ||
		!reflect.DeepEqual(got.Options, []string{"a", "b c", "d", "e"}) {
		t.Errorf("TidyText = %q / %q / %q", got.Question, got.QuestionTag, got.Options)
	}
	if !reflect.DeepEqual(s, orig) {
		t.Errorf("TidyText changed its argument: %+v", s)
	}
	if fs := spacingFindings(got); len(fs) != 0 {
		t.Errorf("findings after TidyText: %+v", fs)
	}
	g := Sample{Kind: KindStepGraph, Steps: []Step{{ID: "s1", Content: " Open  the door"}}}
	if TidyText(g).Steps[0].Content != "Open the door" || g.Steps[0].Content != " Open  the door" {
		t.Errorf("steps: %q (original %q)", TidyText(g).Steps[0].Content, g.Steps[0].Content)
	}
}

func TestTidyTagged(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Which <ATT> red</ATT>  cup?", "Which <ATT>red</ATT> cup?"},
		{"  <POS>on the  desk</POS> ", "<POS>on the desk</POS>"},
		{"Où est la <ATT>tasse  rouge</ATT>?", "Où est la <ATT>tasse rouge</ATT>?"},
		{"a <REL> </REL> b", "a b"},
		{"bad \xff <ATT>x</ATT>", "bad \xff <ATT>x</ATT>"},
	}
	for _, tt := range tests {
		got, ok := tidyTagged(tt.in)
		if !ok || got != tt.want {
			t.Errorf("tidyTagged(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
		if StripTags(got) != tidy(StripTags(tt.in)) {
			t.Errorf("tidyTagged(%q) = %q does not strip to the tidied question", tt.in, got)
		}
	}
}

// TestTidyLabels: image labels are text shown to models; their spaces are tidied
// on a copy, and the rule names the label.
func TestTidyLabels(t *testing.T) {
	s := Sample{Kind: KindJudgment, Image: "a.jpg", MoreImages: []string{"b.jpg"}, ImageLabels: []string{" left", "right  view"}}
	if got := brief(spacingFindings(s)); !reflect.DeepEqual(got, []string{
		"text-spacing warning image_labels[0]: image_labels[0] starts with white space",
		`text-spacing warning image_labels[1]: image_labels[1] has two spaces in a row after "right"`,
	}) {
		t.Errorf("findings %q", got)
	}
	got := TidyText(s)
	if !reflect.DeepEqual(got.ImageLabels, []string{"left", "right view"}) || s.ImageLabels[0] != " left" {
		t.Errorf("TidyText labels %q (original %q)", got.ImageLabels, s.ImageLabels)
	}
	if TidyText(Sample{}).ImageLabels != nil {
		t.Error("TidyText gave labels to a sample without")
	}
}
