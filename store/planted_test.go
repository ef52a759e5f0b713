package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/plant"
	"github.com/benchwright/benchwright/verify"
)

// plantWorld is a project with accepted samples (the origins), a verifier v9
// who reviewed none of them, and real samples waiting in round 1.
type plantWorld struct {
	relFixture
	v9   bench.User
	real []string // the round-1 samples, by id
}

func newPlantWorld(t *testing.T, settings map[string]string, waiting int) plantWorld {
	t.Helper()
	ctx := context.Background()
	w := plantWorld{relFixture: newRelFixture(t)}
	w.acceptSome(t)
	var err error
	if w.v9, err = w.db.AddUser(ctx, w.lead, "v9", bench.RoleVerifier, "D", "secret"); err != nil {
		t.Fatal(err)
	}
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range relImages {
			if !yield(p) {
				return
			}
		}
	})
	for i := range waiting {
		si := w.submit(t, relHop(fmt.Sprintf("wait-%02d", i), paths[i%len(paths)], fmt.Sprintf("Which object is closest to the camera, %d?", i)))
		w.real = append(w.real, si.ID)
	}
	if len(settings) > 0 {
		if _, err := w.db.SetSettings(ctx, w.lead, w.project.ID, settings); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// plantBot reviews v's round-1 queue to its end: approving everything, or
// rejecting exactly the planted errors for a reason that covers them (it asks
// the lead's list which items are copies, as no verifier can).
func (w plantWorld) run(t *testing.T, v bench.User, rejectPlanted bool) (reviewed int, feedback []string, stop error) {
	t.Helper()
	ctx := context.Background()
	for range 200 {
		q, err := w.db.ReviewQueue(ctx, v, w.project.ID, 1)
		if err != nil {
			return reviewed, feedback, err
		}
		if len(q) == 0 {
			return reviewed, feedback, nil
		}
		it := q[0]
		verdict := verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(annotate.Kind(it.Kind), 1)}
		if rejectPlanted {
			list, err := w.db.PlantedList(ctx, w.lead, w.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			if i := slices.IndexFunc(list, func(p bench.PlantedItem) bool { return p.SampleID == it.SampleID }); i >= 0 && list[i].Mutation != string(plant.Clean) {
				field := plant.Mutation(list[i].Mutation).Field()
				for id := range verdict.Judgements {
					if verify.PlantCovers(field, id) {
						verdict = verify.Verdict{Decision: verify.DecisionReject, Judgements: verify.AllPassed(annotate.Kind(it.Kind), 1)}
						verdict.Judgements[id] = false
						break
					}
				}
				if verdict.Decision != verify.DecisionReject {
					t.Fatalf("no round-1 criterion of %s covers %s", it.Kind, field)
				}
			}
		}
		out, err := w.db.SubmitReview(ctx, v, bench.ReviewInput{SampleID: it.SampleID, Round: 1, BasedOn: it.Revision, Verdict: verdict})
		if err != nil {
			return reviewed, feedback, err
		}
		reviewed++
		if out.Feedback != "" {
			feedback = append(feedback, out.Feedback)
		}
	}
	t.Fatal("the queue never emptied")
	return
}

// TestPlantedCatchRates: with planting on, a verifier who approves everything
// catches none of the planted errors, one who rejects exactly them catches all,
// and neither raises a false alarm on a clean copy.
func TestPlantedCatchRates(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		reject bool
		want   float64
	}{{"approves everything", false, 0}, {"rejects the planted errors", true, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			w := newPlantWorld(t, map[string]string{"plant_rate": "50"}, 8)
			n, _, err := w.run(t, w.v9, tt.reject)
			if err != nil {
				t.Fatal(err)
			}
			st, err := w.db.PlantedStatus(ctx, w.lead, w.project.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Figures) != 1 {
				t.Fatalf("figures %+v", st.Figures)
			}
			f := st.Figures[0]
			t.Logf("reviewed %d: %+v", n, f)
			if f.Verifier != "v9" || f.Round != 1 || f.Planted == 0 || f.Planted+f.Clean != n-len(w.real) {
				t.Fatalf("reviewed %d (%d real): figures %+v", n, len(w.real), f)
			}
			if f.CatchRate.Value != tt.want || f.FalseAlarms != 0 {
				t.Errorf("catch rate %v, false alarms %d; want %v, 0 (%+v)", f.CatchRate.Value, f.FalseAlarms, tt.want, f)
			}
			if lo, hi := f.CatchRate.CI[0], f.CatchRate.CI[1]; !(lo <= f.CatchRate.Value && f.CatchRate.Value <= hi && hi-lo > 0) {
				t.Errorf("interval %v around %v", f.CatchRate.CI, f.CatchRate.Value)
			}
			if st.Pending != 0 {
				t.Errorf("%d copies left unreviewed", st.Pending)
			}
		})
	}
}
