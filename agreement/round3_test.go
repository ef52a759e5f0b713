package agreement

import (
	"reflect"
	"slices"
	"testing"
)

func TestDropUnsettledRound3(t *testing.T) {
	j := func(rev int64, round int8, coder int32) Judgement {
		return Judgement{Revision: rev, Round: round, Coder: coder}
	}
	list := []Judgement{
		j(1, 1, 0), j(1, 2, 1), // no round 3
		j(2, 1, 0), j(2, 3, 1), j(2, 3, 2), // settled
		j(3, 3, 1), j(3, 3, 2), // open
		j(4, 2, 0), j(4, 3, 1), // open: its round-2 judgement stays
		j(5, 3, 2), // settled
	}
	tests := []struct {
		name    string
		settled []int64 // the revisions whose round 3 is settled
		want    []Judgement
	}{
		{"all settled", []int64{2, 3, 4, 5}, list},
		{"some open", []int64{2, 5}, []Judgement{j(1, 1, 0), j(1, 2, 1), j(2, 1, 0), j(2, 3, 1), j(2, 3, 2), j(4, 2, 0), j(5, 3, 2)}},
		{"none settled", nil, []Judgement{j(1, 1, 0), j(1, 2, 1), j(2, 1, 0), j(4, 2, 0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js := &Judgements{List: slices.Clone(list)}
			if got, want := js.Round3Revisions(), []int64{2, 3, 4, 5}; !slices.Equal(got, want) {
				t.Errorf("Round3Revisions = %v, want %v", got, want)
			}
			var asked []int64
			js.DropUnsettledRound3(func(group []Judgement) bool {
				rev := group[0].Revision
				asked = append(asked, rev)
				for _, g := range group {
					if g.Revision != rev {
						t.Errorf("group of revision %d holds %+v", rev, g)
					}
				}
				if len(group) != countRev(list, rev) {
					t.Errorf("revision %d asked with %d judgements, it has %d", rev, len(group), countRev(list, rev))
				}
				return slices.Contains(tt.settled, rev)
			})
			if !slices.Equal(asked, []int64{2, 3, 4, 5}) {
				t.Errorf("asked about %v, want each revision with round-3 judgements once", asked)
			}
			if !reflect.DeepEqual(js.List, tt.want) {
				t.Errorf("List = %v\nwant   %v", js.List, tt.want)
			}
		})
	}
}

func countRev(list []Judgement, rev int64) int {
	n := 0
	for _, j := range list {
		if j.Revision == rev {
			n++
		}
	}
	return n
}
