package store_test

// Speed of accepting a batch's rest by sampling: every unsampled item becomes an
// accepted sample, with its revision, audit rows, dashboard summaries and search
// entry, in one transaction.

import (
	"context"
	"fmt"
	"image/color"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// BenchmarkAcceptRest accepts the rest of a generated batch of 2,000 hop
// questions in five tasks, 10 per task sampled and approved (1,950 items
// accepted per iteration; the import, draw and judging are not timed).
// ns/item is the time per accepted item.
func BenchmarkAcceptRest(b *testing.B) {
	const items, perStratum = 2000, 10
	ctx := context.Background()
	db := MustOpenDB(b)
	lead, err := db.CreateFirstLead(ctx, "lead", "secret")
	if err != nil {
		b.Fatal(err)
	}
	p, err := db.CreateProject(ctx, lead, "p")
	if err != nil {
		b.Fatal(err)
	}
	ver, err := db.AddUser(ctx, lead, "a1", bench.RoleVerifier, "A", "secret")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var paths []string
	for i, c := range []color.RGBA{{200, 0, 0, 255}, {0, 200, 0, 255}, {0, 0, 200, 255}, {200, 200, 0, 255}, {0, 200, 200, 255}} {
		rel := fmt.Sprintf("0001-office-1/%c.jpg", 'a'+i)
		writeFile(b, filepath.Join(dir, filepath.FromSlash(rel)), encodeJPEG(b, 64, 48, c))
		paths = append(paths, rel)
	}
	if _, err := db.ImportImages(ctx, lead, p.ID, dir, nil); err != nil {
		b.Fatal(err)
	}
	accepted := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		name := fmt.Sprintf("gen%d", i)
		recs := make([]annotate.Imported, items)
		for k := range recs {
			s := relHop(fmt.Sprintf("%s-%05d", name, k), paths[k%len(paths)], fmt.Sprintf("Which object is closest to marker %d of %s?", k, name))
			s.Task = fmt.Sprintf("T%d", k%5+1)
			recs[k] = annotate.Imported{Line: k + 1, Sample: s}
		}
		if _, err := db.ImportBatch(ctx, lead, bench.ImportBatchInput{ProjectID: p.ID, Name: name, Records: recs}); err != nil {
			b.Fatal(err)
		}
		if _, err := db.DrawValidation(ctx, lead, bench.DrawInput{ProjectID: p.ID, Batch: name, Seed: 1, PerStratum: perStratum, Threshold: 0.5}); err != nil {
			b.Fatal(err)
		}
		queue, err := db.Samples(ctx, bench.Owner(), p.ID, bench.SampleFilter{Status: verify.StateRound1}, 0, 1<<20)
		if err != nil {
			b.Fatal(err)
		}
		for _, si := range queue {
			if _, err := submitReview(db, ctx, ver, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		res, err := db.AcceptRest(ctx, lead, p.ID, name)
		if err != nil {
			b.Fatal(err)
		}
		accepted += len(res.Accepted)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(accepted), "ns/item")
}
