package store_test

// Write-speed benchmark: the summaries are kept in the same transaction as every
// write, so a sample's whole trip through the protocol measures what keeping them
// costs the writers.

import (
	"context"
	"image/color"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// BenchmarkWriteLifecycle runs one sample through the protocol per iteration on a
// project with the default three-seat panel: "accept" creates and submits it, has
// round 1 and 2 approved and three panel members claim and approve round 3 (10
// writes); "reject-late" has the first panel member reject while the two others hold
// seats, then both vote late (10 writes). ns/write is the mean per exported call.
func BenchmarkWriteLifecycle(b *testing.B) {
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
	ann, err := db.AddUser(ctx, lead, "ann", bench.RoleAnnotator, "", "secret")
	if err != nil {
		b.Fatal(err)
	}
	vs := map[string]bench.User{}
	for _, n := range []string{"a1", "b1", "c1", "c2", "c3"} {
		if vs[n], err = db.AddUser(ctx, lead, n, bench.RoleVerifier, n[:1], "secret"); err != nil {
			b.Fatal(err)
		}
	}
	dir := b.TempDir()
	writeFile(b, filepath.Join(dir, "0001-office-1", "a.jpg"), encodeJPEG(b, 64, 48, color.White))
	if _, err := db.ImportImages(ctx, lead, p.ID, dir, nil); err != nil {
		b.Fatal(err)
	}
	img := "0001-office-1/a.jpg"
	reject := verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{"box_precise"}}
	for _, late := range []bool{false, true} {
		name := "accept"
		if late {
			name = "reject-late"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				si, err := db.CreateSample(ctx, ann, p.ID, hopSample(img))
				if err != nil {
					b.Fatal(err)
				}
				if si, err = db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
					b.Fatal(err)
				}
				vote := func(u bench.User, round int, v verify.Verdict) {
					if _, err := submitReview(db, ctx, u, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: 1, Verdict: v, Seconds: 12.5}); err != nil {
						b.Fatal(err)
					}
				}
				vote(vs["a1"], 1, verify.Verdict{Decision: verify.DecisionApprove})
				vote(vs["b1"], 2, verify.Verdict{Decision: verify.DecisionApprove})
				if !late {
					for _, n := range []string{"c1", "c2", "c3"} {
						if _, err := db.ClaimReview(ctx, vs[n], si.ID, 3); err != nil {
							b.Fatal(err)
						}
						vote(vs[n], 3, verify.Verdict{Decision: verify.DecisionApprove})
					}
					continue
				}
				for _, n := range []string{"c1", "c2", "c3"} {
					if _, err := db.ClaimReview(ctx, vs[n], si.ID, 3); err != nil {
						b.Fatal(err)
					}
				}
				vote(vs["c1"], 3, reject)
				vote(vs["c2"], 3, verify.Verdict{Decision: verify.DecisionApprove})
				vote(vs["c3"], 3, reject)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10, "ns/write")
		})
	}
}
