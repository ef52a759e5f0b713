package store

import (
	"context"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// TestWriteRoundTrips: on PostgreSQL each of a team's everyday writes — create,
// save a draft, submit, claim a seat, review — and the verifier's queue, the read
// a team server answers most, makes at most its number of round
// trips to the server (pgConn.trips: BEGIN, the locks, every statement, the
// summaries' batch, COMMIT). Each round trip is spent inside the write's locks,
// and on a loaded machine each costs a wait for the server's process: their
// number is what the team server's write latency is made of
// (BenchmarkTeamServerLoadVsSQLite). The counts are logged; before issue 31
// they were 22, 16, 32, 17 and 35; before session 16, 16, 11, 24, 8 and 24;
// before session 17, 13, 10, 18, 6 and 18, and the queue's 9 (writes whose
// result is not read wait for the next round trip now: execLater, pgLater);
// before session 18, 13, 8, 13, 5 and 14 (the activity's count no longer reads
// back the audit row, a submission counts its sample out and in once, single-row
// reads take the waiting writes along: readRow; a review's summaries and project
// are read with its facts; a write's locks go with its first reads), and the
// queue's 4 (its candidates go with the verifier's read, its COMMIT with the
// facts: queueShape, readAllEnd).
func TestWriteRoundTrips(t *testing.T) {
	d, lead, p := pgLeadProject(t)
	ctx := context.Background()
	img := withImage(t, d, lead, p.ID)
	ann, err := d.AddUserToProject(ctx, lead, p.ID, "ann", bench.RoleAnnotator, "", "annotator-long-password")
	if err != nil {
		t.Fatal(err)
	}
	ver, err := d.AddUserToProject(ctx, lead, p.ID, "ver", bench.RoleVerifier, "A", "verifier-long-password")
	if err != nil {
		t.Fatal(err)
	}
	var si bench.SampleInfo
	var version int
	calls := []struct {
		name string
		max  int64
		do   func() error
	}{
		{"CreateSample", 7, func() (err error) {
			s := openSample(1)
			s.Image = img
			si, err = d.CreateSample(ctx, ann, p.ID, s)
			return err
		}},
		{"SaveDraft", 5, func() (err error) {
			s := si.Content
			s.Question += " Count again."
			version, err = d.SaveDraft(ctx, ann, si.ID, si.Version, s)
			return err
		}},
		{"Submit", 8, func() (err error) {
			si, err = d.Submit(ctx, ann, si.ID, version, nil)
			return err
		}},
		{"ReviewQueueLimit", 3, func() error { // a read: BEGIN with the actor, the pause and the policy; the candidates; their facts with the COMMIT
			q, err := d.ReviewQueueLimit(ctx, ver, p.ID, 0, 8)
			if err == nil && len(q) != 1 {
				t.Fatalf("the queue holds %d samples, want the one submitted", len(q))
			}
			return err
		}},
		{"ReviewQueueLimit again", 2, func() error { // the candidates now go with the actor's read (queueShape)
			q, err := d.ReviewQueueLimit(ctx, ver, p.ID, 0, 8)
			if err == nil && len(q) != 1 {
				t.Fatalf("the queue holds %d samples, want the one submitted", len(q))
			}
			return err
		}},
		{"ClaimReview", 4, func() error {
			_, err := d.ClaimReview(ctx, ver, si.ID, 1)
			return err
		}},
		{"SubmitReview", 8, func() error {
			_, err := d.SubmitReview(ctx, ver, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision,
				Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, 1)}, Seconds: 30})
			return err
		}},
	}
	for _, c := range calls {
		before := d.pgTrips.Load()
		if err := c.do(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := d.pgTrips.Load() - before
		t.Logf("%s: %d round trips", c.name, n)
		if n > c.max {
			t.Errorf("%s made %d round trips to the server; at most %d", c.name, n, c.max)
		}
	}
}
