package store_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// The audit of a freeze checks the split the release will carry: each sample's own
// (overlapping here), a new image-disjoint one, or none; it counts the hashed images.
func TestAuditFreezeSplitAndProgress(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	f.acceptSome(t)
	a := relHop("hq-tr", "0002-kitchen-1/c.jpg", "Which object is farthest from the camera?")
	a.Split = annotate.SplitTrain
	b := relHop("hq-te", "0002-kitchen-1/c.jpg", "Which object is left of the mug?")
	b.Split = annotate.SplitTest
	f.accept(t, a)
	f.accept(t, b)
	for _, tt := range []struct {
		name    string
		in      bench.FreezeInput
		overlap bool
	}{
		{"own splits", bench.FreezeInput{}, true},
		{"no split", bench.FreezeInput{NoSplit: true}, false},
		{"new split", bench.FreezeInput{Split: &annotate.SplitSpec{TestRatio: 0.3, Seed: 1}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.in.ProjectID = f.project.ID
			var mu sync.Mutex
			var last, total, calls int
			rep, err := f.db.AuditFreeze(ctx, f.lead, tt.in, func(done, n int) {
				mu.Lock()
				defer mu.Unlock()
				calls++
				last, total = max(last, done), n
			})
			if err != nil {
				t.Fatal(err)
			}
			overlap := false
			for _, fd := range rep.Findings {
				overlap = overlap || fd.Check == bench.CheckSplit
			}
			if overlap != tt.overlap {
				t.Errorf("split overlap reported: %v, want %v (%+v)", overlap, tt.overlap, rep.Findings)
			}
			if total != rep.Images || last != rep.Images || calls != rep.Images+1 {
				t.Errorf("progress: %d calls, last %d of %d; %d images", calls, last, total, rep.Images)
			}
		})
	}
	if _, err := f.db.AuditFreeze(ctx, f.ann, bench.FreezeInput{ProjectID: f.project.ID}, nil); err == nil ||
		!strings.Contains(bench.Message(err), "lead") {
		t.Errorf("an annotator audits: %v", err)
	}
}
