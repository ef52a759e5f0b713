package store_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/verify"
)

// A batch of two tasks of very different sizes, sampled with the same n: the
// batch's figure weights each task by its size (sampling.Stratified), in the
// status, in the acceptance and in the release's MANIFEST; the pooled 1/130
// would understate it.
func TestValidationBatchFigureIsStratified(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	recs := generatedBatch(1030)
	for i := range recs {
		recs[i].Sample.Task = "T1" // 1000 items
		if i >= 1000 {
			recs[i].Sample.Task = "T2" // 30 items
		}
	}
	if _, err := f.db.ImportBatch(ctx, f.lead, bench.ImportBatchInput{ProjectID: f.project.ID, Name: "uneven", Records: recs}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.DrawValidation(ctx, f.lead, bench.DrawInput{ProjectID: f.project.ID, Batch: "uneven", Stratify: sampling.ByTask,
		Seed: 3, PerStratum: 100, Threshold: 0.06}); err != nil {
		t.Fatal(err)
	}
	queue, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{Status: verify.StateRound1}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	reject := map[string]bool{}
	for _, si := range queue {
		if si.Content.Task == "T1" && len(reject) < 1 {
			reject[si.ID] = true
		}
	}
	f.judge(t, reject)

	// By hand: T1 1 error in 100 of 1000, T2 none in its 30 (sampled in full).
	//   p̂ = (1000/1030)·0.01 = 10/1030
	//   Var = (1000/1030)²·(1 − 100/1000)·0.01·0.99/100
	//   n* = p̂(1−p̂)/Var = 10·1020·100/(1000²·0.9·0.99) = 102000/891 ≈ 114.5 (< 130)
	st, err := f.db.ValidationStatus(ctx, f.lead, f.project.ID, "uneven")
	if err != nil {
		t.Fatal(err)
	}
	o := st.Overall
	if o.N != 130 || o.Errors != 1 || o.Items != 1030 || o.Sampled != 130 || o.Unsampled != 900 || !o.Stratified {
		t.Fatalf("batch: %+v", o)
	}
	if math.Abs(o.Rate-10.0/1030) > 1e-15 || math.Abs(o.EffectiveN-102000.0/891) > 1e-9 {
		t.Errorf("batch rate %.15g n* %.15g, want %.15g, %.15g", o.Rate, o.EffectiveN, 10.0/1030, 102000.0/891)
	}
	want := sampling.ClopperPearson(1, 130, 0.95) // the pooled bound, lower than the stratified one
	if !(o.CI.High > want.High+0.002) {
		t.Errorf("batch upper bound %.6f, pooled %.6f: the batch figure is pooled", o.CI.High, want.High)
	}
	if !(o.CI.High < 0.06) || st.Refusal != "" {
		t.Fatalf("upper bound %.6f, refusal %q", o.CI.High, st.Refusal)
	}

	res, err := f.db.AcceptRest(ctx, f.lead, f.project.ID, "uneven")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Accepted) != 900 {
		t.Fatalf("accepted %d", len(res.Accepted))
	}
	if _, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "uneven", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "export")
	if _, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: "uneven@1", Format: "native", OutDir: out}, nil); err != nil {
		t.Fatal(err)
	}
	m, err := release.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Validation) != 1 || m.Validation[0].N != 130 || m.Validation[0].Errors != 1 || m.Validation[0].Upper != o.CI.High {
		t.Errorf("manifest: %+v; want the stratified upper bound %.15g", m.Validation, o.CI.High)
	}
}
