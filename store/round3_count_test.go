package store_test

// The dashboard and the agreement count the same round-3 votes: verify decides both
// (Round3.Settled), including while a panel member may still vote late.

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
)

// round3Figures are the round-3 votes one reader counts: the dashboard's verifier,
// annotator and error tables and panel votes, or the agreement's round-3 decision
// row; and each verifier's counted reviews of every round.
type round3Figures struct {
	votes      int
	byVerifier map[string]int
}

// dashboardRound3 reads the round-3 votes the dashboard counts. Its tables must
// agree with each other: the verifiers' round-3 reviews, the annotators' round-3
// reviews, the error table's reviews beyond rounds 1 and 2, and the panel votes
// (every vote here belongs to a panel with a result).
func dashboardRound3(t *testing.T, d bench.Dashboard) round3Figures {
	t.Helper()
	out := round3Figures{byVerifier: map[string]int{}}
	early, annotated, errs, panel := 0, 0, 0, 0
	for _, v := range d.Verifiers {
		out.votes += v.Rounds[2]
		early += v.Rounds[0] + v.Rounds[1]
		panel += v.PanelVotes
		if v.Reviews > 0 {
			out.byVerifier[v.Name] = v.Reviews
		}
	}
	for _, a := range d.Annotators {
		annotated += a.Reviews[2]
	}
	for _, e := range d.Errors {
		errs += e.Reviews
	}
	if annotated != out.votes || errs-early != out.votes || panel != out.votes {
		t.Errorf("the dashboard's tables disagree on round 3: verifiers %d, annotators %d, error table %d, panel votes %d",
			out.votes, annotated, errs-early, panel)
	}
	return out
}

// agreementRound3 reads the round-3 votes the agreement counts: the values of the
// round-3 decision row (a unit of one value counts one), and each verifier's reviews.
func agreementRound3(t *testing.T, a bench.Agreement) round3Figures {
	t.Helper()
	r := findRow(t, a, 3, bench.CriterionDecision)
	out := round3Figures{votes: r.Values + r.Units - r.Pairable, byVerifier: map[string]int{}}
	for _, v := range a.Verifiers {
		out.byVerifier[v.Verifier] = v.Reviews
	}
	return out
}

// A panel member rejects in round 3 while another still holds a seat and may vote
// late. Until that late voter votes, gives up the seat, sees it run out, or the
// sample moves on, the dashboard counts none of the round's votes, as the agreement
// does; afterwards both count the same votes. A rebuild of the summaries agrees.
func TestRound3LateVoteCountedAlike(t *testing.T) {
	tests := []struct {
		name string
		end  func(t *testing.T, f fixture, clk *clock, vs map[string]bench.User, si bench.SampleInfo)
		want int // round-3 votes counted afterwards
		// lapse: the end is a claim running out, which no write follows: the
		// dashboard decides again when it reads, the stored summaries lag.
		lapse bool
	}{
		{"the late voter votes", func(t *testing.T, f fixture, _ *clock, vs map[string]bench.User, si bench.SampleInfo) {
			if _, err := submitReview(f.db, context.Background(), vs["b2"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1,
				Verdict: approve3, Seconds: 17}); err != nil {
				t.Fatal(err)
			}
		}, 2, false},
		{"the late voter's claim runs out", func(t *testing.T, f fixture, clk *clock, _ map[string]bench.User, _ bench.SampleInfo) {
			clk.advance(21 * time.Minute) // 31 minutes after the claim: no write at all
		}, 1, true},
		{"the late voter gives up the seat", func(t *testing.T, f fixture, _ *clock, vs map[string]bench.User, si bench.SampleInfo) {
			if err := f.db.ReleaseClaim(context.Background(), vs["b2"], si.ID); err != nil {
				t.Fatal(err)
			}
		}, 1, false},
		{"the late voter claims the resubmitted revision", func(t *testing.T, f fixture, _ *clock, vs map[string]bench.User, si bench.SampleInfo) {
			ctx := context.Background()
			cur, err := f.db.Sample(ctx, bench.Owner(), si.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err = f.db.Submit(ctx, f.ann, si.ID, changedDraft(t, f.db, f.ann, cur), nil); err != nil {
				t.Fatal(err)
			}
			if _, err := f.db.ClaimReview(ctx, vs["b2"], si.ID, 1); err != nil { // b2's seat moves to round 1 of revision 2
				t.Fatal(err)
			}
		}, 1, false},
		{"the resubmitted revision is reviewed", func(t *testing.T, f fixture, _ *clock, vs map[string]bench.User, si bench.SampleInfo) {
			ctx := context.Background()
			cur, err := f.db.Sample(ctx, bench.Owner(), si.ID)
			if err != nil {
				t.Fatal(err)
			}
			if cur, err = f.db.Submit(ctx, f.ann, si.ID, changedDraft(t, f.db, f.ann, cur), nil); err != nil {
				t.Fatal(err)
			}
			mustReview(t, f, f.ver, cur, 1) // b2's seat on revision 1 ends here
		}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			f := newFixture(t)
			clk := setClock(f.db)
			img := withImage(t, f)
			vs := addVerifiers(t, f, "a1", "b1", "a2", "b2", "c1")
			si := inRound3(t, f, vs, img) // the default panel of three
			for _, n := range []string{"a2", "b2"} {
				if _, err := f.db.ClaimReview(ctx, vs[n], si.ID, 3); err != nil {
					t.Fatalf("%s claims a seat: %v", n, err)
				}
			}
			if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1,
				Verdict: reject3, Seconds: 42}); err != nil {
				t.Fatal(err)
			}
			sdb := rawDB(t, f.db.Path())
			check := func(when string, want int, lapsed bool) {
				t.Helper()
				d, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
				if err != nil {
					t.Fatal(err)
				}
				a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
				if err != nil {
					t.Fatal(err)
				}
				dash, agree := dashboardRound3(t, d), agreementRound3(t, a)
				if dash.votes != want || agree.votes != want {
					t.Errorf("%s: the dashboard counts %d round-3 votes, the agreement %d; want %d", when, dash.votes, agree.votes, want)
				}
				if !reflect.DeepEqual(dash.byVerifier, agree.byVerifier) {
					t.Errorf("%s: reviews per verifier: dashboard %v, agreement %v", when, dash.byVerifier, agree.byVerifier)
				}
				// What the store kept is what a rebuild computes from the rows now
				// (after a lapse, what the dashboard made of it).
				kept := statSnapshot(t, sdb)
				if err := f.db.RebuildStats(ctx, f.project.ID); err != nil {
					t.Fatal(err)
				}
				if again, err := f.db.Dashboard(ctx, f.lead, f.project.ID); err != nil || !reflect.DeepEqual(again, d) {
					t.Errorf("%s: the dashboard after a rebuild differs (%v):\n got %+v\nwant %+v", when, err, again, d)
				}
				if rebuilt := statSnapshot(t, sdb); !lapsed && !reflect.DeepEqual(kept, rebuilt) {
					t.Errorf("%s: the summaries differ from a rebuild", when)
					diffLines(t, kept, rebuilt)
				}
			}
			check("b2 may still vote", 0, false)
			clk.advance(10 * time.Minute) // b2's claim holds for 30 minutes
			check("b2 may still vote ten minutes later", 0, false)
			tt.end(t, f, clk, vs, si)
			check(tt.name, tt.want, tt.lapse)
		})
	}
}

// The dashboard counts a settled round's votes with their times: a late voter's
// claim running out without a write brings the rejecter's time into the median.
func TestRound3LapsedClaimTimes(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	clk := setClock(f.db)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "a2", "b2", "c1")
	// a2 has two settled round-3 votes first (approvals on samples whose panels
	// fill), then rejects one while b2 holds a seat.
	for _, s := range []float64{10, 30} {
		si := inRound3(t, f, vs, img)
		for _, n := range []string{"a2", "b2", "c1"} {
			secs := 5.0
			if n == "a2" {
				secs = s
			}
			if _, err := submitReview(f.db, ctx, vs[n], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1, Verdict: approve3,
				Seconds: secs}); err != nil {
				t.Fatal(err)
			}
		}
	}
	si := inRound3(t, f, vs, img)
	if _, err := f.db.ClaimReview(ctx, vs["b2"], si.ID, 3); err != nil {
		t.Fatal(err)
	}
	if _, err := submitReview(f.db, ctx, vs["a2"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: 1, Verdict: reject3,
		Seconds: 20.5}); err != nil {
		t.Fatal(err)
	}
	a2 := func() bench.VerifierRow {
		t.Helper()
		d, err := f.db.Dashboard(ctx, f.lead, f.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range d.Verifiers {
			if v.Name == "a2" {
				return v
			}
		}
		t.Fatal("no row for a2")
		return bench.VerifierRow{}
	}
	if v := a2(); v.Timed != 2 || v.MedianSeconds != 20 || v.PanelVotes != 2 || v.PanelMatches != 2 {
		t.Errorf("while b2 may vote late: %+v; want 2 timed, median 20, 2 of 2 panel votes", v)
	}
	clk.advance(31 * time.Minute)
	if v := a2(); v.Timed != 3 || v.MedianSeconds != 20.5 || !near(v.P90Seconds, 28.1) || v.PanelVotes != 3 || v.PanelMatches != 3 ||
		v.Rounds != [3]int{0, 0, 3} {
		t.Errorf("after b2's seat ran out: %+v; want 3 timed, median 20.5, p90 28.1, 3 of 3 panel votes", v)
	}
}
