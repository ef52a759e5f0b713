package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// TestAcceptRestSummaries: accepting a batch's rest in bulk keeps the dashboard's
// summaries exactly as a rebuild from the rows computes them, and gives every
// sample the history and state the per-sample moves would.
func TestAcceptRestSummaries(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.submit(t, relHop("hand-1", "misc/e.jpg", "Which object is nearest the door?")) // a sample of the project before
	recs := generatedBatch(60)
	if _, err := f.db.ImportBatch(ctx, f.lead, bench.ImportBatchInput{ProjectID: f.project.ID, Name: "g", Records: recs}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.DrawValidation(ctx, f.lead, bench.DrawInput{ProjectID: f.project.ID, Batch: "g", Seed: 3, PerStratum: 5, Threshold: 0.6}); err != nil {
		t.Fatal(err)
	}
	f.judge(t, nil)
	sdb := rawDB(t, f.db.Path())
	res, err := f.db.AcceptRest(ctx, f.lead, f.project.ID, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Accepted) != 35 || res.Status.Batch.BySampling != 35 {
		t.Fatalf("accepted %d, batch %+v", len(res.Accepted), res.Status.Batch)
	}

	before := checkRebuildMatches(t, f.db, sdb, f.lead, f.project.ID, "after accepting the rest")
	if before.BySampling != 35 {
		t.Errorf("the dashboard counts %d accepted by sampling, want 35", before.BySampling)
	}
	// The sample manager finds exactly them with its "accepted by sampling" flag.
	ids, err := f.db.SampleIDs(ctx, f.lead, f.project.ID, bench.SampleQuery{BySampling: true})
	if err != nil {
		t.Fatal(err)
	}
	bySampling := slices.Clone(res.Accepted)
	slices.Sort(bySampling)
	slices.Sort(ids)
	if !slices.Equal(ids, bySampling) {
		t.Errorf("the manager's accepted-by-sampling filter finds %d samples, want the %d accepted by sampling", len(ids), len(bySampling))
	}
	if n, _ := f.db.StatusCounts(ctx, bench.Owner(), f.project.ID); n[verify.StateAccepted] != 35 {
		t.Errorf("status counts %v", n)
	}

	// One sample as the per-sample moves leave it.
	id := res.Accepted[0]
	si, err := f.db.Sample(ctx, bench.Owner(), id)
	if err != nil {
		t.Fatal(err)
	}
	if si.Status != verify.StateAccepted || si.Revision != 1 || si.Version != 2 || si.AuthorName != "lead" || si.Content.ID != id {
		t.Errorf("sample %+v", si)
	}
	hist, err := f.db.History(ctx, f.lead, id)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, e := range hist {
		actions = append(actions, e.Action)
	}
	want := []string{"sample.create", "revision.import", "sample.status", "sample.accepted_by_sampling"}
	for _, a := range want {
		if !slices.Contains(actions, a) {
			t.Errorf("history of %s: %v, want %v", id, actions, want)
			break
		}
	}
	revs, err := f.db.SampleRevisions(ctx, f.lead, id)
	if err != nil || len(revs) != 1 {
		t.Fatalf("revisions of %s: %v %v", id, revs, err)
	}
}
