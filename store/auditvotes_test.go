package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// events lists u's history of id as "action|actor|detail".
func events(t *testing.T, f fixture, u bench.User, id string) []string {
	t.Helper()
	h, err := f.db.History(context.Background(), u, id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range h {
		out = append(out, e.Action+"|"+e.Actor+"|"+e.Detail)
	}
	return out
}

// TestHistoryKnowsVotesByValue: a sample's history knows a vote by the round and
// revision its audit row carries, never by the row's words. An audit row that
// merely reads like an open round-3 vote is shown as it is; a vote logged in other
// words is masked (to the lead) and hidden (to an annotator) like any vote of an
// open round 3.
func TestHistoryKnowsVotesByValue(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "a2", "b2")
	si := inRound3(t, f, vs, img)
	if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: si.Revision, Verdict: approve3}); err != nil {
		t.Fatal(err)
	}
	// Not a vote, in a vote's words; a vote, in other words.
	if err := f.db.AuditSampleRow(ctx, vs["b2"].ID, "review.approve", si.ID, "round 3 revision 1", 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.db.AuditSampleRow(ctx, vs["b2"].ID, "review.cast", si.ID, "b2 agrees, in the old tool's words", 3, si.Revision); err != nil {
		t.Fatal(err)
	}
	lookalike := "review.approve|b2|round 3 revision 1"
	masked := "review.vote|" + verify.MaskOpen + "|round 3 revision 1"
	for _, c := range []struct {
		who         bench.User
		wantMasked  int
		seesOddVote bool
	}{
		{f.lead, 2, false},  // a2's vote and the oddly worded one: that they were cast
		{f.ann, 0, false},   // nothing of either
		{vs["b2"], 0, true}, // its own vote, whatever its words
		{vs["a1"], 0, false},
	} {
		got := events(t, f, c.who, si.ID)
		if !slices.Contains(got, lookalike) {
			t.Errorf("%s's history hides a row that only reads like a vote:\n%q", c.who.Name, got)
		}
		n := 0
		for _, e := range got {
			if e == masked {
				n++
			}
		}
		if n != c.wantMasked {
			t.Errorf("%s's history masks %d votes, want %d:\n%q", c.who.Name, n, c.wantMasked, got)
		}
		if odd := slices.Contains(got, "review.cast|b2|b2 agrees, in the old tool's words"); odd != c.seesOddVote {
			t.Errorf("%s sees b2's oddly worded vote: %v, want %v:\n%q", c.who.Name, odd, c.seesOddVote, got)
		}
		if slices.ContainsFunc(got, func(e string) bool { return e == "review.approve|a2|round 3 revision 1" }) {
			t.Errorf("%s sees a2's vote of an open round 3:\n%q", c.who.Name, got)
		}
	}
}

// TestLoggedVotesMigrate: migration 30 marks the votes a database logged before
// it, an open round's and a late vote, from their words, once: the history of a
// database whose rows lost their marks leaks them, and after the migration's Go
// part it masks them again; run twice, it changes nothing more.
func TestLoggedVotesMigrate(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "a2", "b2", "c1")
	open := inRound3(t, f, vs, img)
	if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: open.ID, Round: 3, BasedOn: 1, Verdict: approve3}); err != nil {
		t.Fatal(err)
	}
	late := inRound3(t, f, vs, img)
	for _, n := range []string{"a2", "b2", "c1"} {
		if _, err := f.db.ClaimReview(ctx, vs[n], late.ID, 3); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []struct {
		who     string
		verdict verify.Verdict
	}{{"a2", reject3}, {"b2", approve3}} { // a2 closes the round, b2 votes late; c1 has still to vote
		if _, err := submitReview(f.db, ctx, vs[v.who], bench.ReviewInput{SampleID: late.ID, Round: 3, BasedOn: 1, Verdict: v.verdict}); err != nil {
			t.Fatal(err)
		}
	}
	views := func() [][]string {
		return [][]string{events(t, f, f.lead, open.ID), events(t, f, f.ann, open.ID), events(t, f, vs["c1"], late.ID), events(t, f, f.lead, late.ID)}
	}
	want := views()
	if !slices.Contains(want[0], "review.vote|"+verify.MaskOpen+"|round 3 revision 1") ||
		!slices.Contains(want[2], "review.vote|"+verify.MaskLate+"|round 3 revision 1") ||
		!slices.Contains(want[3], "review.late|b2|round 3 revision 1: approve") {
		t.Fatalf("before: the lead sees %q\nc1 sees %q\nthe lead sees %q", want[0], want[2], want[3])
	}
	if err := f.db.ForgetLoggedVotes(ctx); err != nil {
		t.Fatal(err)
	}
	if got := views(); slices.EqualFunc(got, want, slices.Equal) {
		t.Fatal("the history masks the same without the votes' marks: it reads the words")
	}
	for range 2 {
		if err := f.db.MigrateLoggedVotes(ctx); err != nil {
			t.Fatal(err)
		}
		if got := views(); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("after the migration:\n got %q\nwant %q", got, want)
		}
	}
	// The audit log is append-only again.
	if err := f.db.TouchAuditLog(ctx); err == nil {
		t.Error("after the migration the audit log takes updates")
	}
}
