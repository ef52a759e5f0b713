package bench

import (
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// CategorySet is a sample's categories as the dashboard and the sample manager
// group them (ErrorRow.Set): sorted, once each, joined by "+" ("att+rel"), or
// "none".
func CategorySet(cats []annotate.Category) string {
	if len(cats) == 0 {
		return "none"
	}
	ss := make([]string, len(cats))
	for i, c := range cats {
		ss[i] = string(c)
	}
	slices.Sort(ss)
	return strings.Join(slices.Compact(ss), "+")
}
