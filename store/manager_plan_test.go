package store_test

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// TestSampleManagerPagesEveryPlan pages searches in every sort order, both ways,
// and checks each page against the samples filtered and sorted here: searches that
// select a quarter of the project or more (the page walks the sort index and tests
// each row), words alone (walked from a thirty-second), and narrow ones (found by
// their filters, words from the full-text index first, then sorted). Each search
// is paged again with QuickTotal: words alone in more samples than the quick
// count's limit (here a thirty-second of the project, ten samples) give that
// limit as a lower bound, and the same pages (walked on PostgreSQL with each row's
// words read by key, as far as one row per row of the page and the pages before:
// past it the words are found first); every other search counts exactly. And
// once more with a quick count's limit above every search's matches (1,000): the
// words' count and their page in one statement.
func TestSampleManagerPagesEveryPlan(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	f.db.SetWalkRows(1)
	all, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{Sort: bench.SortID, Limit: 1000})
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
	keys := map[bench.SampleSort]func(bench.SampleRow) string{
		"":                func(r bench.SampleRow) string { return r.UpdatedAt }, // no order named: the last change's
		bench.SortUpdated: func(r bench.SampleRow) string { return r.UpdatedAt },
		bench.SortCreated: func(r bench.SampleRow) string { return r.CreatedAt },
		bench.SortID:      func(r bench.SampleRow) string { return r.ID },
		bench.SortState:   func(r bench.SampleRow) string { return string(r.Status) },
		bench.SortKind:    func(r bench.SampleRow) string { return string(r.Kind) },
		bench.SortAuthor:  func(r bench.SampleRow) string { return r.AuthorName },
		bench.SortHop:     func(r bench.SampleRow) string { return fmt.Sprint(r.Content.Hop) },
	}
	for _, floor := range []int{5, 1000} {
		f.db.SetQuickFloor(floor)
		quickLimit := max(floor, (all.Total+31)/32)
		for _, tc := range []struct {
			name  string
			q     bench.SampleQuery
			want  func(bench.SampleRow) bool
			broad bool // at least a quarter of the project
		}{
			{"dates holding every sample", bench.SampleQuery{From: "2000-01-01", To: "2100-12-31"},
				func(bench.SampleRow) bool { return true }, true},
			{"a word of every sample", bench.SampleQuery{Text: "m"}, func(bench.SampleRow) bool { return true }, true},
			{"the commonest state, dates", bench.SampleQuery{States: []verify.State{common}, From: "2000-01-01"},
				func(r bench.SampleRow) bool { return r.Status == common }, true},
			{"two kinds and a word of every sample", bench.SampleQuery{Text: "M", Kinds: []annotate.Kind{annotate.KindHopQA, annotate.KindMCQ}},
				func(r bench.SampleRow) bool { return r.Kind == annotate.KindHopQA || r.Kind == annotate.KindMCQ }, true},
			{"a word of some samples", bench.SampleQuery{Text: "Lef"}, func(r bench.SampleRow) bool { return hasWordStarting(r, "lef") }, false},
			{"a word of every sample, hop 3", bench.SampleQuery{Text: "m", Hop: 3},
				func(r bench.SampleRow) bool { return r.Content.Hop == 3 }, false},
			{"step graphs", bench.SampleQuery{Kinds: []annotate.Kind{annotate.KindStepGraph}},
				func(r bench.SampleRow) bool { return r.Kind == annotate.KindStepGraph }, false},
		} {
			var want []bench.SampleRow
			for _, r := range all.Rows {
				if tc.want(r) {
					want = append(want, r)
				}
			}
			if broad := len(want)*4 >= all.Total; broad != tc.broad {
				t.Fatalf("%s: %d of %d samples; the case is not what it says", tc.name, len(want), all.Total)
			}
			wordsAlone := tc.q.Text != "" && reflect.DeepEqual(tc.q, bench.SampleQuery{Text: tc.q.Text})
			if tc.name == "a word of every sample" && (!wordsAlone || len(want) <= quickLimit) != (floor > len(want)) {
				t.Fatalf("%s: %d samples; a quick count would not stop at %d", tc.name, len(want), quickLimit)
			}
			for _, sort := range append([]bench.SampleSort{""}, bench.SampleSorts...) {
				for _, c := range []struct {
					desc, quick bool
				}{{false, false}, {true, false}, {false, true}, {true, true}} {
					desc := c.desc
					t.Run(fmt.Sprintf("%s/%s/desc=%v/quick=%v/floor=%d", tc.name, sort, desc, c.quick, floor), func(t *testing.T) {
						ordered := slices.Clone(want)
						slices.SortStableFunc(ordered, func(a, b bench.SampleRow) int {
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
						q.Sort, q.Desc, q.Limit, q.QuickTotal = sort, desc, 23, c.quick
						wantTotal, wantAtLeast := len(want), false
						if c.quick && wordsAlone && len(want) > quickLimit {
							wantTotal, wantAtLeast = quickLimit, true
						}
						var got []string
						for {
							page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, q)
							if err != nil {
								t.Fatal(err)
							}
							if page.Total != wantTotal || page.TotalAtLeast != wantAtLeast {
								t.Fatalf("offset %d: total %d (at least: %v), want %d (%v)", q.Offset, page.Total, page.TotalAtLeast, wantTotal, wantAtLeast)
							}
							for _, r := range page.Rows {
								got = append(got, r.ID)
							}
							if len(page.Rows) < q.Limit {
								break
							}
							if len(got) > len(want) { // a page that repeats would page on forever
								t.Fatalf("offset %d: %d ids paged, and the pages go on; want %d in all", q.Offset, len(got), len(want))
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
}

// hasWordStarting says whether a word of r's id, question, options, text answer or
// steps starts with prefix (lower case).
func hasWordStarting(r bench.SampleRow, prefix string) bool {
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

// TestWordsKeepEveryShortPrefix: migration 37 makes SQLite's full-text index of
// the words again with one- and three-letter prefixes kept; a file whose index
// was made by migration 16 (two and four) finds, after it, what it found before,
// the words written by the rebuild and one by one alike.
func TestWordsKeepEveryShortPrefix(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	if strings.HasPrefix(f.db.Path(), "postgres") {
		t.Skip("SQLite's full-text index; PostgreSQL's GIN index has no prefixes to keep")
	}
	words := []string{"m", "le", "lef", "t", "th", "the", "chair left", f.project.Name}
	found := func(db *store.DB) map[string][]string {
		out := map[string][]string{}
		for _, w := range words {
			ids, err := db.SampleIDs(ctx, f.lead, f.project.ID, bench.SampleQuery{Text: w, Sort: bench.SortID})
			if err != nil {
				t.Fatal(err)
			}
			out[w] = ids
		}
		return out
	}
	before := found(f.db)
	if len(before["t"]) == 0 || len(before["the"]) == 0 || len(before["m"]) != 300 {
		t.Fatalf("the words found: %d for t, %d for the, %d for m", len(before["t"]), len(before["the"]), len(before["m"]))
	}
	path := f.db.Path()
	f.db.Close()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	// The index as migration 16 made it, and the version before 37.
	for _, stmt := range []string{
		`CREATE VIRTUAL TABLE sample_words_16 USING fts4(body, tokenize=unicode61, prefix="2,4")`,
		`INSERT INTO sample_words_16 (docid, body) SELECT docid, body FROM sample_words`,
		`DROP TABLE sample_words`,
		`ALTER TABLE sample_words_16 RENAME TO sample_words`,
		`PRAGMA user_version = 36`,
	} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if after := found(db); !reflect.DeepEqual(after, before) {
		t.Errorf("after migration 37 the words find %v, before %v", after, before)
	}
	raw, err = sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var def string
	var version int
	if err := raw.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'sample_words'`).Scan(&def); err != nil || !strings.Contains(def, `prefix="1,2,3,4"`) {
		t.Errorf("the words' table after migration 37: %q (%v)", def, err)
	}
	if err := raw.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version < 37 {
		t.Errorf("schema version %d (%v)", version, err)
	}
}
