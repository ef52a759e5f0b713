package bench

import (
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// TestNewHumanItem: a person is shown the question, never the gold.
func TestNewHumanItem(t *testing.T) {
	box := &annotate.Box{1, 2, 30, 40}
	tests := []struct {
		name     string
		it       ReleaseItem
		answered string
		want     HumanItem
	}{
		{"one image", ReleaseItem{SampleID: "s1", ImagePath: "a/1.jpg", Width: 640, Height: 480, RevisionID: 9, Split: "test",
			Content: annotate.Sample{ID: "s1", Kind: annotate.KindHopQA, Question: "Which?", Options: []string{"x", "y"}, Hop: 2,
				AnswerIndex: 1, Box: box, Image: "a/1.jpg"}},
			"", HumanItem{SampleID: "s1", Kind: annotate.KindHopQA, Question: "Which?", Options: []string{"x", "y"}, Hop: 2,
				ImagePath: "a/1.jpg", Width: 640, Height: 480}},
		{"a sequence, answered", ReleaseItem{SampleID: "s2", ImagePath: "a/1.jpg", Width: 10, Height: 20,
			Content: annotate.Sample{ID: "s2", Kind: annotate.KindMCQ, Question: "When?", Options: []string{"first", "second"},
				AnswerIndex: 0, Image: "a/1.jpg", MoreImages: []string{"a/2.jpg"}, ImageLabels: []string{"before", "after"}}},
			"B", HumanItem{SampleID: "s2", Kind: annotate.KindMCQ, Question: "When?", Options: []string{"first", "second"},
				ImagePath: "a/1.jpg", Width: 10, Height: 20, More: []string{"a/2.jpg"}, Labels: []string{"before", "after"}, Answered: "B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewHumanItem(tt.it, tt.answered); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
