package store_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// TestSampleManagerPagesEveryPlan pages searches in every sort order, both ways,
// and checks each page against the samples filtered and sorted here: searches that
// select a quarter of the project or more (the page walks the sort index and tests
// each row), words alone (walked from a thirty-second), and narrow ones (found by
// their filters, words from the full-text index first, then sorted).
func TestSampleManagerPagesEveryPlan(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	all, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, store.SampleQuery{Sort: store.SortID, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Rows) != all.Total || all.Total < 300 {
		t.Fatalf("%d rows of %d", len(all.Rows), all.Total)
	}
	byState := map[verify.State]int{}
	for _, r := range all.Rows {
		byState[r.Status]++
	}
	common := slices.MaxFunc(slices.Collect(maps.Keys(byState)), func(a, b verify.State) int { return cmp.Compare(byState[a], byState[b]) })
	keys := map[store.SampleSort]func(store.SampleRow) string{
		store.SortUpdated: func(r store.SampleRow) string { return r.UpdatedAt },
		store.SortCreated: func(r store.SampleRow) string { return r.CreatedAt },
		store.SortID:      func(r store.SampleRow) string { return r.ID },
		store.SortState:   func(r store.SampleRow) string { return string(r.Status) },
		store.SortKind:    func(r store.SampleRow) string { return string(r.Kind) },
		store.SortAuthor:  func(r store.SampleRow) string { return r.AuthorName },
		store.SortHop:     func(r store.SampleRow) string { return fmt.Sprint(r.Content.Hop) },
	}
	for _, tc := range []struct {
		name  string
		q     store.SampleQuery
		want  func(store.SampleRow) bool
		broad bool // at least a quarter of the project
	}{
		{"dates holding every sample", store.SampleQuery{From: "2000-01-01", To: "2100-12-31"},
			func(store.SampleRow) bool { return true }, true},
		{"a word of every sample", store.SampleQuery{Text: "m"}, func(store.SampleRow) bool { return true }, true},
		{"the commonest state, dates", store.SampleQuery{States: []verify.State{common}, From: "2000-01-01"},
			func(r store.SampleRow) bool { return r.Status == common }, true},
		{"two kinds and a word of every sample", store.SampleQuery{Text: "M", Kinds: []annotate.Kind{annotate.KindHopQA, annotate.KindMCQ}},
			func(r store.SampleRow) bool { return r.Kind == annotate.KindHopQA || r.Kind == annotate.KindMCQ }, true},
		{"a word of some samples", store.SampleQuery{Text: "Lef"}, func(r store.SampleRow) bool { return hasWordStarting(r, "lef") }, false},
		{"a word of every sample, hop 3", store.SampleQuery{Text: "m", Hop: 3},
			func(r store.SampleRow) bool { return r.Content.Hop == 3 }, false},
		{"step graphs", store.SampleQuery{Kinds: []annotate.Kind{annotate.KindStepGraph}},
			func(r store.SampleRow) bool { return r.Kind == annotate.KindStepGraph }, false},
	} {
		var want []store.SampleRow
		for _, r := range all.Rows {
			if tc.want(r) {
				want = append(want, r)
			}
		}
		if broad := len(want)*4 >= all.Total; broad != tc.broad {
			t.Fatalf("%s: %d of %d samples; the case is not what it says", tc.name, len(want), all.Total)
		}
		for _, sort := range store.SampleSorts {
			for _, desc := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/desc=%v", tc.name, sort, desc), func(t *testing.T) {
					ordered := slices.Clone(want)
					slices.SortStableFunc(ordered, func(a, b store.SampleRow) int {
						c := strings.Compare(keys[sort](a), keys[sort](b))
						if desc {
							c = -c
						}
						if c == 0 {
							c = strings.Compare(a.ID, b.ID) // ties in ascending id order
						}
						return c
					})
					q := tc.q
					q.Sort, q.Desc, q.Limit = sort, desc, 23
					var got []string
					for {
						page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, q)
						if err != nil {
							t.Fatal(err)
						}
						if page.Total != len(want) {
							t.Fatalf("offset %d: total %d, want %d", q.Offset, page.Total, len(want))
						}
						for _, r := range page.Rows {
							got = append(got, r.ID)
						}
						if len(page.Rows) < q.Limit {
							break
						}
						q.Offset += q.Limit
					}
					wantIDs := make([]string, len(ordered))
					for i, r := range ordered {
						wantIDs[i] = r.ID
					}
					if !slices.Equal(got, wantIDs) {
						i := 0
						for i < min(len(got), len(wantIDs)) && got[i] == wantIDs[i] {
							i++
						}
						t.Fatalf("%d ids, want %d; first difference at %d:\ngot  %.200v\nwant %.200v", len(got), len(wantIDs), i, got[i:], wantIDs[i:])
					}
				})
			}
		}
	}
}

// hasWordStarting says whether a word of r's id, question, options, text answer or
// steps starts with prefix (lower case).
func hasWordStarting(r store.SampleRow, prefix string) bool {
	c := r.Content
	parts := append([]string{r.ID, c.Question, c.AnswerText}, c.Options...)
	for _, st := range c.Steps {
		parts = append(parts, st.Content)
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(strings.Join(parts, " ")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}
