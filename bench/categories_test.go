package bench

import (
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestCategorySet(t *testing.T) {
	tests := []struct {
		cats []annotate.Category
		want string
	}{
		{nil, "none"},
		{[]annotate.Category{}, "none"},
		{[]annotate.Category{annotate.CatRel}, "rel"},
		{[]annotate.Category{annotate.CatRel, annotate.CatAtt}, "att+rel"},
		{[]annotate.Category{annotate.CatRel, annotate.CatAtt, annotate.CatRel}, "att+rel"},
	}
	for _, tt := range tests {
		if got := CategorySet(tt.cats); got != tt.want {
			t.Errorf("CategorySet(%v) = %q, want %q", tt.cats, got, tt.want)
		}
	}
}
