package bench

import (
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
)

// A release's items are scored as their frozen content on the first image's size.
func TestGolds(t *testing.T) {
	a := annotate.Sample{ID: "s1", Question: "Which?", Split: "test"}
	b := annotate.Sample{ID: "s2", Question: "Where?"}
	tests := []struct {
		name  string
		items []ReleaseItem
		want  []score.Gold
	}{
		{"none", nil, []score.Gold{}},
		{"two", []ReleaseItem{{SampleID: "s1", Content: a, Width: 640, Height: 480}, {SampleID: "s2", Content: b, Width: 10, Height: 20}},
			[]score.Gold{{Sample: a, Width: 640, Height: 480}, {Sample: b, Width: 10, Height: 20}}},
	}
	for _, tt := range tests {
		if got := Golds(tt.items); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Golds = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
