package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// TestAgreementPackedOddSampleIDs gives a project a sample whose id holds the
// characters the packed read joins values with (store/agreement_packed.go) and
// others: its reviews must count as they do when each review is joined to its
// sample in SQL. An id holding the separator itself makes the packed read fall
// back to reading row by row; read packed regardless, every later review would be
// taken for another sample's.
func TestAgreementPackedOddSampleIDs(t *testing.T) {
	for _, tt := range []struct{ name, id string }{
		{"plain", "odd-1"},
		{"comma and colon", "odd,1:2"},
		{"the values' separator", "odd\x1e1"},
		{"criteria's separator", "odd\x1f1"},
		{"both, twice", "\x1e\x1fodd\x1e\x1f"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			f := newAgreeFixture(t)
			f.seed12(t)
			before, err := f.db.Agreement(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			// A sample written directly, read like any other: approved in round 1
			// by v1, rejected in round 2 by v2, with judgements of its own. It is
			// written before another sample's reviews, so that reviews follow its own.
			sdb := rawDB(t, f.db.Path())
			const at = "2026-01-01T00:00:00Z"
			mustExecRaw(t, sdb, `INSERT INTO samples (id, project_id, kind, status, author_id, created_at, updated_at)
				VALUES (?, ?, 'hop_qa', 'rejected', ?, ?, ?)`, tt.id, f.project.ID, f.ann.ID, at, at)
			var rev int64
			if err := sdb.QueryRow(`INSERT INTO revisions (sample_id, number, content, author_id, change, created_at)
				VALUES (?, 1, '{}', ?, 'create', ?) RETURNING id`, tt.id, f.ann.ID, at).Scan(&rev); err != nil {
				t.Fatal(err)
			}
			mustExecRaw(t, sdb, `UPDATE samples SET current_rev = ? WHERE id = ?`, rev, tt.id)
			mustExecRaw(t, sdb, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision, reasons, created_at)
				VALUES (?, ?, 1, ?, '{"answer_correct":true,"box_on_answer":true}', 'approve', '[]', ?),
				       (?, ?, 2, ?, '{"answer_correct":false,"box_on_answer":true}', 'reject', '["answer_correct"]', ?)`,
				tt.id, rev, f.v1.ID, at, tt.id, rev, f.v2.ID, at)
			f.seed12(t)

			var got [2]bench.Agreement
			for i, scan := range []bool{true, false} {
				store.SetScanAllReviews(t, scan)
				if got[i], err = f.db.Agreement(ctx, f.lead, f.project.ID); err != nil {
					t.Fatalf("scan=%v: %v", scan, err)
				}
			}
			packed, _ := json.MarshalIndent(got[0], "", "\t")
			joined, _ := json.MarshalIndent(got[1], "", "\t")
			if string(packed) != string(joined) {
				t.Errorf("read packed, the agreement differs from the one joined in SQL:\n%s", firstDiff(string(packed), string(joined)))
			}
			// 12 revisions before, 25 now: the odd sample's counts.
			b, a := findRow(t, before, 0, bench.CriterionDecision), findRow(t, got[1], 0, bench.CriterionDecision)
			if a.Units != 2*b.Units+1 {
				t.Errorf("round 0 decision: %d units, want %d (twice %d and the odd sample)", a.Units, 2*b.Units+1, b.Units)
			}
		})
	}
}

// TestAgreementRound3SettlesWhenTheNewRevisionIsReviewed: a panel member's reject
// closed round 3 while another holds a seat; the sample, resubmitted, has a new
// revision. Until that revision has a review the seat is still the old revision's
// (a late vote may come), so its round-3 votes stay out; once it is reviewed they
// count, whoever holds a seat then. Both ways of reading the reviews decide alike (the packed read takes
// "reviewed" from the reviews it read, the joined one from the database).
func TestAgreementRound3SettlesWhenTheNewRevisionIsReviewed(t *testing.T) {
	for _, scan := range []bool{true, false} {
		t.Run(map[bool]string{true: "packed", false: "joined"}[scan], func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			setClock(f.db)
			img := withImage(t, f)
			vs := addVerifiers(t, f, "a1", "b1", "a2", "b2")
			store.SetScanAllReviews(t, scan)
			si := inRound3(t, f, vs, img)
			for _, n := range []string{"a2", "b2"} {
				if _, err := f.db.ClaimReview(ctx, vs[n], si.ID, 3); err != nil {
					t.Fatalf("%s claims a seat: %v", n, err)
				}
			}
			if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1, Verdict: reject3}); err != nil {
				t.Fatal(err)
			}
			round3Units := func(when string, want int) {
				t.Helper()
				a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
				if err != nil {
					t.Fatal(err)
				}
				if r := findRow(t, a, 3, bench.CriterionDecision); r.Units != want {
					t.Errorf("%s: %d round-3 units, want %d", when, r.Units, want)
				}
			}
			round3Units("closed by a reject, b2 seated", 0)
			returned, err := f.db.Sample(ctx, bench.Owner(), si.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.db.Submit(ctx, f.ann, si.ID, changedDraft(t, f.db, f.ann, returned), nil); err != nil {
				t.Fatalf("resubmit: %v", err)
			}
			round3Units("resubmitted, its new revision not reviewed", 0)
			again, err := f.db.Sample(ctx, bench.Owner(), si.ID)
			if err != nil || again.Revision != 2 {
				t.Fatalf("resubmitted: revision %d, %v; want 2", again.Revision, err)
			}
			mustReview(t, f, vs["a1"], again, 1)
			round3Units("its new revision reviewed", 1)
			// The review ended every claim on the sample; a round-3 seat held now is
			// not revision 1's, whose votes still count.
			mustExecRaw(t, rawDB(t, f.db.Path()), `INSERT INTO claims (sample_id, round, verifier_id, expires_at) VALUES (?, 3, ?, ?)`,
				si.ID, vs["b2"].ID, "2099-01-01T00:00:00Z")
			round3Units("its new revision reviewed, b2 seated again", 1)
		})
	}
}

// TestAgreementJoinedWithoutRound3Summary: read row by row (a project with few of
// the database's samples), the round-3 facts come from stat_rev3, or from the
// revisions for the revisions it misses; the packed read needs neither. Both give
// the figures they give with the summary.
func TestAgreementJoinedWithoutRound3Summary(t *testing.T) {
	for _, scan := range []bool{true, false} {
		t.Run(map[bool]string{true: "packed", false: "joined"}[scan], func(t *testing.T) {
			ctx := context.Background()
			f := newAgreeFixture(t)
			store.SetScanAllReviews(t, scan)
			f.seed12(t)
			si := f.submit(t, f.ann, hopSample(f.img))
			f.review(t, f.v1, si, 1, agreeApprove, 10)
			f.review(t, f.v2, si, 2, agreeApprove, 20)
			f.review(t, f.p1, si, 3, agreeApprove, 30) // an open panel: p1's vote stays out
			want, err := f.db.Agreement(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			if r := findRow(t, want, 3, bench.CriterionDecision); r.Units != 12 {
				t.Fatalf("round-3 decision: %d units, want the 12 closed panels", r.Units)
			}
			mustExecRaw(t, rawDB(t, f.db.Path()), `DELETE FROM stat_rev3`)
			got, err := f.db.Agreement(ctx, f.lead, f.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("without stat_rev3:\n%s", firstDiff(string(g), string(w)))
			}
		})
	}
}
