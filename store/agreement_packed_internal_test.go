package store

import (
	"cmp"
	"context"
	"database/sql"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/agreement"
)

// TestScanAllReviewsFollowsTheProjectsShare: the agreement reads every review of
// the database for a project holding at least half its samples, and looks the
// others' reviews up by sample.
func TestScanAllReviewsFollowsTheProjectsShare(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			url := filepath.Join(t.TempDir(), "bw.db")
			if engine == "postgres" {
				url = pgTestURL(t, "the SQLite run checks the same")
			}
			d, err := Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
			if err != nil {
				t.Fatal(err)
			}
			share := map[string]int{"big": 3, "small": 1, "empty": 0}
			ids := map[string]int64{}
			for _, name := range []string{"big", "small", "empty"} {
				p, err := d.CreateProject(ctx, lead, name)
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = p.ID
				for i := range share[name] {
					if _, err := d.CreateSample(ctx, lead, p.ID, openSample(i)); err != nil {
						t.Fatal(err)
					}
				}
			}
			for name, want := range map[string]bool{"big": true, "small": false, "empty": false} {
				var got bool
				err := d.readTx(ctx, func(tx *sql.Tx) (err error) {
					got, err = scanAllReviews(ctx, tx, ids[name])
					return err
				})
				if err != nil || got != want {
					t.Errorf("project %s (%d of 4 samples): scan all %v, %v; want %v", name, share[name], got, err, want)
				}
			}
		})
	}
}

// TestSortByRevision: the counting sort by revision, then by cmp within each
// revision, gives what a sort by cmp gives, for revision ids dense or spread
// (where it sorts by cmp alone), however many judgements a revision has.
func TestSortByRevision(t *testing.T) {
	// cmp orders by revision, round, then coder: the reviews' unique index, with
	// the coder index standing for the verifier's id.
	byIndex := func(a, b agreement.Judgement) int {
		return cmp.Or(cmp.Compare(a.Revision, b.Revision), cmp.Compare(a.Round, b.Round), cmp.Compare(a.Coder, b.Coder))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int, lo, span int64, coders int32) []agreement.Judgement {
		seen := map[[3]int64]bool{}
		var out []agreement.Judgement
		for len(out) < n {
			j := agreement.Judgement{Revision: lo + rng.Int64N(span), Round: int8(1 + rng.IntN(3)), Coder: rng.Int32N(coders), Reject: rng.IntN(2) == 0}
			k := [3]int64{j.Revision, int64(j.Round), int64(j.Coder)}
			if !seen[k] {
				seen[k] = true
				out = append(out, j)
			}
		}
		return out
	}
	for _, tt := range []struct {
		name string
		list []agreement.Judgement
	}{
		{"none", nil},
		{"one", random(1, 5, 1, 1)},
		{"dense, a few per revision", random(2000, 1, 700, 9)},
		{"dense, many per revision", random(500, 100, 5, 60)},
		{"ids far from zero", random(1000, 1<<40, 900, 9)},
		{"spread ids", random(300, 1, 1<<40, 9)},
		{"sorted already", func() []agreement.Judgement {
			l := random(300, 1, 200, 9)
			slices.SortFunc(l, byIndex)
			return l
		}()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.list)
			slices.SortFunc(want, byIndex)
			got := slices.Clone(tt.list)
			sortByRevision(got, byIndex)
			if !slices.Equal(got, want) {
				t.Errorf("sorted by revision:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestRevisionTable: the revisions the packed read found are found again by id,
// whether their ids are dense (held in a slice) or spread (in a map), and an id
// never read is not found.
func TestRevisionTable(t *testing.T) {
	tests := []struct {
		name      string
		ids       []int64
		wantDense bool
		missing   []int64
	}{
		{"dense from 1", []int64{3, 1, 2, 5}, true, []int64{0, 4, 6, -1, 1 << 40}},
		{"spread", []int64{1, 1 << 40, 7}, false, []int64{0, 2, 1<<40 + 1, -7}},
		{"a negative id", []int64{-3, 1, 2}, false, []int64{0, 3, -4}},
		{"none", nil, true, []int64{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			revs := make([]packedRevision, len(tt.ids))
			for i := range revs {
				revs[i] = packedRevision{sample: int32(i) - 1, number: int32(i + 1)}
			}
			tab := newRevisionTable(tt.ids, revs)
			if dense := tab.sparse == nil; dense != tt.wantDense {
				t.Errorf("held in a slice: %v, want %v", dense, tt.wantDense)
			}
			for i, id := range tt.ids {
				if got, ok := tab.get(id); !ok || got != revs[i] {
					t.Errorf("revision %d: %+v, %v; want %+v", id, got, ok, revs[i])
				}
			}
			for _, id := range tt.missing {
				if got, ok := tab.get(id); ok {
					t.Errorf("revision %d never read, found: %+v", id, got)
				}
			}
		})
	}
}
