package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// scipyBounds is scipy.stats.beta.ppf's Clopper–Pearson interval of each k/n
// at 95 %, computed by Debian's python3 (skipped with BENCHWRIGHT_SKIP_CONSUMERS=1).
func scipyBounds(t *testing.T, kn [][2]int) [][2]float64 {
	t.Helper()
	if os.Getenv("BENCHWRIGHT_SKIP_CONSUMERS") == "1" {
		t.Log("BENCHWRIGHT_SKIP_CONSUMERS=1: the intervals were not compared with scipy")
		return nil
	}
	const script = `
import json, sys
from scipy.stats import beta
out = []
for pair in sys.argv[1:]:
    k, n = map(int, pair.split("/"))
    lo = 0.0 if k == 0 else float(beta.ppf(0.025, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(0.975, k + 1, n - k))
    out.append([lo, hi])
print(json.dumps(out))
`
	args := []string{"-c", script}
	for _, p := range kn {
		args = append(args, fmt.Sprintf("%d/%d", p[0], p[1]))
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("/usr/bin/python3", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("python3 with scipy (apt-get install python3-scipy, or BENCHWRIGHT_SKIP_CONSUMERS=1): %v\n%s", err, stderr.String())
	}
	var out [][2]float64
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("scipy printed %q: %v", stdout.String(), err)
	}
	return out
}

// generatedBatch is a generated set of n valid hop questions over the fixture's
// images, in five tasks T1–T5.
func generatedBatch(n int) []annotate.Imported {
	paths := make([]string, 0, len(relImages))
	for p := range relImages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	recs := make([]annotate.Imported, n)
	for i := range recs {
		s := relHop(fmt.Sprintf("gen-%05d", i+1), paths[i%len(paths)], fmt.Sprintf("Which object is closest to marker %d?", i))
		s.Task = fmt.Sprintf("T%d", i%5+1)
		recs[i] = annotate.Imported{Line: i + 1, Sample: s}
	}
	return recs
}

// judge submits a round-1 verdict on every pending sampled item of the batch
// as verifier a1: the items in reject are rejected, the others approved.
func (f relFixture) judge(t *testing.T, reject map[string]bool) {
	t.Helper()
	ctx := context.Background()
	queue, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{Status: verify.StateRound1}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range queue {
		v := verify.Verdict{Decision: verify.DecisionApprove}
		if reject[si.ID] {
			v = verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}, Comment: "the marker is not visible"}
		}
		if _, err := submitReview(f.db, ctx, f.vs["a1"], bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: v}); err != nil {
			t.Fatalf("%s: %v", si.ID, err)
		}
	}
}

func TestSampledValidationOf20kBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("20,000 items")
	}
	ctx := context.Background()
	f := newRelFixture(t)
	taken := relHop("taken-1", "misc/e.jpg", "Which object is nearest the door?")
	f.submit(t, taken)

	recs := generatedBatch(20000)
	bad := []annotate.Imported{
		{Line: 20001, Sample: relHop("gen-bad-lint", "misc/e.jpg", "")},
		{Line: 20002, Sample: relHop("gen-bad-image", "misc/nowhere.jpg", "Which object is left of the lamp?")},
		{Line: 20003, Sample: relHop("gen-bad-dup", recs[0].Sample.Image, recs[0].Sample.Question)},
		{Line: 20004, Sample: relHop("taken-1", "misc/e.jpg", "Which object is right of the lamp?")},
		{Line: 20005, Sample: relHop("gen-bad-dup2", "misc/e.jpg", "Which object is nearest the door?")},
	}
	imp, err := f.db.ImportBatch(ctx, f.lead, bench.ImportBatchInput{ProjectID: f.project.ID, Name: "pcsr-gen1", Source: "gen1.jsonl", Records: append(recs, bad...)})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Batch.Items != 20000 {
		t.Errorf("batch holds %d items, want 20000", imp.Batch.Items)
	}
	gotChecks := map[string]string{}
	for _, fd := range imp.Findings {
		gotChecks[fd.SampleID] = fd.Check
	}
	wantChecks := map[string]string{"gen-bad-lint": bench.CheckLint, "gen-bad-image": bench.CheckImageMissing,
		"gen-bad-dup": bench.CheckDuplicate, "taken-1": store.CheckIDTaken, "gen-bad-dup2": bench.CheckDuplicate}
	for id, c := range wantChecks {
		if gotChecks[id] != c {
			t.Errorf("import audit of %s: %q, want %q (findings %v)", id, gotChecks[id], c, imp.Findings)
		}
	}
	// Nothing of the batch is a sample yet: no queue, no funnel.
	if n, _ := f.db.StatusCounts(ctx, bench.Owner(), f.project.ID); n[verify.StateDraft]+n[verify.StateRound1] != 1 {
		t.Errorf("the import made samples: %v", n)
	}

	// The first draw: 300 per task, seeded; the policy is fixed.
	if _, err := f.db.DrawValidation(ctx, f.ver, bench.DrawInput{ProjectID: f.project.ID, Batch: "pcsr-gen1", PerStratum: 300, Threshold: 0.05}); err == nil {
		t.Error("a verifier drew a sample")
	}
	st, err := f.db.DrawValidation(ctx, f.lead, bench.DrawInput{ProjectID: f.project.ID, Batch: "pcsr-gen1", Stratify: sampling.ByTask, Seed: 7, PerStratum: 300, Threshold: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if st.Overall.Sampled != 1500 || st.Overall.Pending != 1500 || len(st.Strata) != 5 || !strings.Contains(st.Refusal, "1500 sampled items still wait for round 1") {
		t.Fatalf("after the draw: %+v, refusal %q", st.Overall, st.Refusal)
	}
	if _, err := f.db.AcceptRest(ctx, f.lead, f.project.ID, "pcsr-gen1"); err == nil {
		t.Fatal("the rest was accepted before the sample was judged")
	}

	// 12 errors in T1's 300: T1's upper bound is above 5 %.
	reject := map[string]bool{}
	items, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{Status: verify.StateRound1}, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for _, si := range items {
		if si.Content.Task == "T1" && len(reject) < 12 {
			reject[si.ID] = true
		}
	}
	f.judge(t, reject)
	st, err = f.db.ValidationStatus(ctx, f.ver, f.project.ID, "pcsr-gen1")
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstScipy(t, st)
	_, err = f.db.AcceptRest(ctx, f.lead, f.project.ID, "pcsr-gen1")
	if err == nil || !strings.Contains(bench.Message(err), "T1: 12 errors in 300 (4.00 %), upper bound 6.88 %") {
		t.Fatalf("accept-rest above the threshold: %v", err)
	}
	if auditCount(t, f.db.Path(), "denied:batch.accept_rest") != 2 {
		t.Error("the refusals are not in the audit log")
	}

	// The lead enlarges the sample to 600 per task (same seed: the first 300 stay).
	st, err = f.db.DrawValidation(ctx, f.lead, bench.DrawInput{ProjectID: f.project.ID, Batch: "pcsr-gen1", PerStratum: 600})
	if err != nil {
		t.Fatal(err)
	}
	if st.Overall.Sampled != 3000 || st.Overall.Pending != 1500 {
		t.Fatalf("after enlarging: sampled %d, pending %d", st.Overall.Sampled, st.Overall.Pending)
	}
	f.judge(t, nil)
	st, err = f.db.ValidationStatus(ctx, f.lead, f.project.ID, "pcsr-gen1")
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstScipy(t, st)
	if st.Refusal != "" || st.Overall.N != 3000 || st.Overall.Errors != 12 {
		t.Fatalf("after judging 3000: %+v, refusal %q", st.Overall, st.Refusal)
	}
	res, err := f.db.AcceptRest(ctx, f.lead, f.project.ID, "pcsr-gen1")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Accepted) != 17000 || res.Status.Batch.BySampling != 17000 || res.Status.Batch.AcceptedBy != "lead" {
		t.Fatalf("accepted %d by sampling, batch %+v", len(res.Accepted), res.Status.Batch)
	}
	if _, err := f.db.AcceptRest(ctx, f.lead, f.project.ID, "pcsr-gen1"); err == nil {
		t.Error("the rest was accepted twice")
	}
	if got := auditCount(t, f.db.Path(), "sample.accepted_by_sampling"); got != 17000 {
		t.Errorf("%d samples audited as accepted by sampling", got)
	}

	// The release: its audit takes the batch's acceptance as the trail, and the
	// MANIFEST counts the samples and records the policy.
	rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors() > 0 {
		t.Fatalf("audit: %v", rep.Findings[:min(5, len(rep.Findings))])
	}
	if _, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "pcsr", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "export")
	ex, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: "pcsr@1", Format: "native", OutDir: out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := release.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Counts.BySampling != 17000 || ex.Manifest.Counts.BySampling != 17000 || len(m.Validation) != 1 {
		t.Fatalf("manifest counts %+v, validation %+v", m.Counts, m.Validation)
	}
	v := m.Validation[0]
	if v.Batch != "pcsr-gen1" || v.Seed != 7 || v.Stratify != "task" || v.Method != "clopper-pearson" || v.Threshold != 0.05 ||
		v.N != 3000 || v.Errors != 12 || v.InRelease != 17000 || v.AcceptedBy != "lead" || len(v.Strata) != 5 || !(v.Upper < 0.05) {
		t.Errorf("manifest's policy: %+v", v)
	}
}

// checkAgainstScipy compares every interval of a status with scipy's to 1e-9.
func checkAgainstScipy(t *testing.T, st bench.ValidationStatus) {
	t.Helper()
	all := append(slices.Clone(st.Strata), st.Overall)
	kn := make([][2]int, len(all))
	for i, s := range all {
		kn[i] = [2]int{s.Errors, s.N}
	}
	want := scipyBounds(t, kn)
	for i, s := range all {
		if want == nil {
			break
		}
		if math.Abs(s.CI.Low-want[i][0]) > 1e-9 || math.Abs(s.CI.High-want[i][1]) > 1e-9 {
			t.Errorf("%s (%d/%d): [%.12f, %.12f], scipy [%.12f, %.12f]", s.Name, s.Errors, s.N, s.CI.Low, s.CI.High, want[i][0], want[i][1])
		}
	}
}
