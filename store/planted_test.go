package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/plant"
	"github.com/benchwright/benchwright/store"
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
	return newPlantWorldIn(t, settings, waiting, 1)
}

// newPlantWorldIn is newPlantWorld with the waiting samples approved up to
// round (a1 in round 1, b1 in round 2).
func newPlantWorldIn(t *testing.T, settings map[string]string, waiting, round int) plantWorld {
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
		w.review(t, si, round-1)
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
			// The planted copies' reviews count in no agreement figure, whichever
			// way the store reads the reviews.
			var figures []string
			for _, scan := range []bool{true, false} {
				store.SetScanAllReviews(t, scan)
				a, err := w.db.Agreement(ctx, w.lead, w.project.ID)
				if err != nil {
					t.Fatal(err)
				}
				js, _ := json.Marshal(a)
				figures = append(figures, string(js))
			}
			if figures[0] != figures[1] {
				t.Errorf("the agreement read as every review kept in Go differs from the reviews joined to their samples:\n%s", firstDiff(figures[0], figures[1]))
			}
		})
	}
}

// shape is v's JSON with every string, number and bool replaced by its type,
// for comparing what two calls return field by field, modulo their values.
func shape(t *testing.T, v any) any {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(js, &x); err != nil {
		t.Fatal(err)
	}
	var walk func(any) any
	walk = func(x any) any {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				x[k] = walk(v)
			}
			return x
		case []any:
			for i, v := range x {
				x[i] = walk(v)
			}
			return x
		case nil:
			return "null"
		}
		return fmt.Sprintf("%T", x)
	}
	return walk(x)
}

// plantedAndReal plants one copy for v9 by v9's review of a real sample and
// returns it with a real sample still waiting in v9's queue.
func plantedAndReal(t *testing.T, w plantWorld, round int) (planted, real string) {
	t.Helper()
	ctx := context.Background()
	q, err := w.db.ReviewQueue(ctx, w.v9, w.project.ID, round)
	if err != nil || len(q) < 2 {
		t.Fatalf("queue %v %v", q, err)
	}
	if _, err := submitReview(w.db, ctx, w.v9, bench.ReviewInput{SampleID: q[0].SampleID, Round: round, BasedOn: q[0].Revision, Verdict: approve}); err != nil {
		t.Fatal(err)
	}
	list, err := w.db.PlantedList(ctx, w.lead, w.project.ID)
	if err != nil || len(list) != 1 {
		t.Fatalf("planted %+v %v", list, err)
	}
	return list[0].SampleID, q[1].SampleID
}

// TestPlantedLooksReal: in each round, every call a verifier can make about a
// planted copy answers as it does about a real sample in the same round, field
// by field (in round 3 its earlier rounds' reviews shown, the panel's hidden);
// the copy's id is drawn like real ones; other verifiers neither see it nor can
// take its seat, and no listing shows it.
func TestPlantedLooksReal(t *testing.T) {
	for _, round := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) { testPlantedLooksReal(t, round) })
	}
}

func testPlantedLooksReal(t *testing.T, round int) {
	ctx := context.Background()
	w := newPlantWorldIn(t, map[string]string{"plant_rate": "50", "plant_mutations": "answer-moved"}, 3, round)
	planted, real := plantedAndReal(t, w, round)
	if !regexp.MustCompile(`^p-\d{5}$`).MatchString(planted) {
		t.Errorf("a copy's id %q is not drawn like real ones (%q)", planted, real)
	}
	q, err := w.db.ReviewQueue(ctx, w.v9, w.project.ID, round)
	if err != nil {
		t.Fatal(err)
	}
	items := map[string]bench.QueueItem{}
	for _, it := range q {
		items[it.SampleID] = it
	}
	if _, ok := items[planted]; !ok {
		t.Fatalf("the copy %s is not in its verifier's queue %+v", planted, q)
	}
	pi, ri := items[planted], items[real]
	pi.SampleID, ri.SampleID = "", ""
	if pi != ri {
		t.Errorf("queue items differ: copy %+v, real %+v", pi, ri)
	}
	calls := []struct {
		name string
		call func(id string) (any, error)
		same func(p, r any) string // values that must match too; "" when they do
	}{
		{"Sample", func(id string) (any, error) { return w.db.Sample(ctx, w.v9, id) }, func(p, r any) string {
			a, b := p.(bench.SampleInfo), r.(bench.SampleInfo)
			if a.Status != b.Status || a.PrevStatus != b.PrevStatus || a.AuthorName != b.AuthorName || a.Version != b.Version ||
				a.Revision != b.Revision || a.Kind != b.Kind || a.Content.ID != a.ID {
				return fmt.Sprintf("%+v\n%+v", a, b)
			}
			if a.UpdatedAt < b.UpdatedAt {
				return "the copy entered the round before a sample already waiting: " + a.UpdatedAt + " < " + b.UpdatedAt
			}
			return ""
		}},
		{"History", func(id string) (any, error) { return w.db.History(ctx, w.v9, id) }, func(p, r any) string {
			act := func(es []bench.Event) (out []string) {
				for _, e := range es {
					out = append(out, e.Action+" "+e.Actor+" "+e.Detail)
				}
				return out
			}
			if a, b := act(p.([]bench.Event)), act(r.([]bench.Event)); !slices.Equal(a, b) {
				return fmt.Sprintf("%q\n%q", a, b)
			}
			return ""
		}},
		{"Reviews", func(id string) (any, error) { return w.db.Reviews(ctx, w.v9, id) }, func(p, r any) string {
			rounds := func(rs []bench.ReviewRecord) (out []string) {
				for _, x := range rs {
					out = append(out, fmt.Sprintf("round %d by %s: %s", x.Round, x.VerifierName, x.Decision))
				}
				return out
			}
			a, b := rounds(p.([]bench.ReviewRecord)), rounds(r.([]bench.ReviewRecord))
			if !slices.Equal(a, b) || len(a) != round-1 {
				return fmt.Sprintf("%q\n%q", a, b)
			}
			return ""
		}},
		{"SampleRevisions", func(id string) (any, error) { return w.db.SampleRevisions(ctx, w.v9, id) }, func(p, r any) string {
			a, b := p.([]bench.RevisionInfo), r.([]bench.RevisionInfo)
			if len(a) != len(b) || len(a) > 0 && (a[0].Change != b[0].Change || a[0].AuthorName != b[0].AuthorName) {
				return fmt.Sprintf("%+v\n%+v", a, b)
			}
			return ""
		}},
	}
	for _, c := range calls {
		p, perr := c.call(planted)
		r, rerr := c.call(real)
		if (perr == nil) != (rerr == nil) {
			t.Errorf("%s: copy %v, real %v", c.name, perr, rerr)
			continue
		}
		if !reflect.DeepEqual(shape(t, p), shape(t, r)) {
			t.Errorf("%s: the copy's JSON differs from a real sample's:\n%v\n%v", c.name, shape(t, p), shape(t, r))
		}
		if c.same != nil {
			if d := c.same(p, r); d != "" {
				t.Errorf("%s: %s", c.name, d)
			}
		}
	}
	// Another verifier: not in their queue; its seat refused as a held one is.
	other := w.vs["c1"]
	if queueHas(t, w.fixture, other, planted) {
		t.Errorf("%s sees %s's copy in their queue", other.Name, w.v9.Name)
	}
	if _, err := w.db.ClaimReview(ctx, w.v9, real, round); err != nil {
		t.Fatal(err)
	}
	_, errReal := w.db.ClaimReview(ctx, other, real, round)
	_, errCopy := w.db.ClaimReview(ctx, other, planted, round)
	switch {
	case round == 3 && !errors.Is(errCopy, verify.ErrPanelFull):
		// A real round 3 keeps seats for the panel: the copy's are all held.
		t.Errorf("claiming a round-3 copy: %v, want the panel full", errCopy)
	case round < 3 && (errReal == nil || errCopy == nil || strings.ReplaceAll(errCopy.Error(), planted, real) != errReal.Error()):
		t.Errorf("claiming a copy is refused as %v; a held real seat as %v", errCopy, errReal)
	}
	// No listing shows it, to anyone.
	for _, u := range []bench.User{w.lead, w.ann, w.v9} {
		ss, err := w.db.Samples(ctx, u, w.project.ID, bench.SampleFilter{}, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(ss, func(s bench.SampleInfo) bool { return s.ID == planted }) {
			t.Errorf("%s's sample list shows the copy", u.Name)
		}
	}
	page, err := w.db.SearchSamples(ctx, w.lead, w.project.ID, bench.SampleQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(fmt.Sprint(page), planted) {
		t.Errorf("the sample manager shows the copy")
	}
	// Refused to a verifier (audited), given to a lead with the origin.
	if _, err := w.db.PlantedList(ctx, w.v9, w.project.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("a verifier lists the copies: %v", err)
	}
	if _, err := w.db.PlantedStatus(ctx, w.v9, w.project.ID); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("a verifier reads the figures: %v", err)
	}
}

// TestPlantingChangesNoFigure: the same work with planting off and on leaves
// every count the project shows the same: the dashboard, the status counts, the
// sample list, agreement, and the release frozen after.
func TestPlantingChangesNoFigure(t *testing.T) {
	ctx := context.Background()
	figures := func(on bool) map[string]string {
		settings := map[string]string{}
		if on {
			settings["plant_rate"] = "50"
		}
		w := newPlantWorld(t, settings, 6)
		// The lead drew each accepted sample's box before its annotator: two
		// people's boxes, which the box agreement compares; a planted copy of
		// such a sample carries them along and must not count again.
		sdb, err := store.RawSQL(w.db.Path())
		if err != nil {
			t.Fatal(err)
		}
		if n, err := sdb.Exec(`INSERT INTO revisions (sample_id, number, content, author_id, change, created_at)
			SELECT r.sample_id, 0, r.content, ?, 'submit', r.created_at FROM revisions r JOIN samples s ON s.id = r.sample_id
			WHERE s.status = 'accepted' AND r.number = 1`, w.lead.ID); err != nil {
			t.Fatal(err)
		} else if k, _ := n.RowsAffected(); k == 0 {
			t.Fatal("no accepted sample to give a second author")
		}
		sdb.Close()
		if _, _, err := w.run(t, w.v9, false); err != nil {
			t.Fatal(err)
		}
		list, err := w.db.PlantedList(ctx, w.lead, w.project.ID)
		if err != nil || on != (len(list) > 0) {
			t.Fatalf("planting %v planted %d: %v", on, len(list), err)
		}
		out := map[string]string{}
		js := func(name string, v any, err error) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			b, _ := json.Marshal(v)
			out[name] = string(b)
		}
		d, err := w.db.Dashboard(ctx, w.lead, w.project.ID)
		js("dashboard", d, err)
		c, err := w.db.StatusCounts(ctx, w.lead, w.project.ID)
		js("status counts", c, err)
		n, err := w.db.CountSamples(ctx, w.lead, w.project.ID, bench.SampleFilter{})
		js("sample count", n, err)
		for _, scan := range []bool{true, false} { // both ways of reading the reviews and boxes
			store.SetScanAllReviews(t, scan)
			a, err := w.db.Agreement(ctx, w.lead, w.project.ID)
			js(fmt.Sprintf("agreement (scan=%v)", scan), a, err)
		}
		rel, err := w.db.Freeze(ctx, w.lead, bench.FreezeInput{ProjectID: w.project.ID, Name: "b", Version: "1"})
		if err != nil {
			t.Fatal(err)
		}
		items, err := w.db.ReleaseItems(ctx, w.lead, rel.ID)
		var ids []string
		for _, it := range items {
			ids = append(ids, it.SampleID)
		}
		js("release", ids, err)
		return out
	}
	off, on := figures(false), figures(true)
	for k := range off {
		if off[k] != on[k] {
			t.Errorf("%s changes when planting is on:\noff %s\non  %s", k, off[k], on[k])
		}
	}
}

// TestPlantPauseAndFeedback: a verifier who approves everything is paused once
// the catch rate's upper bound falls below the lead's threshold, told why, and
// claims again once a lead resumes them; with feedback on, each review of a copy
// is answered with what was planted, and with it off, with nothing.
func TestPlantPauseAndFeedback(t *testing.T) {
	ctx := context.Background()
	for _, feedback := range []bool{true, false} {
		w := newPlantWorld(t, map[string]string{"plant_rate": "50", "plant_pause_below": "60", "plant_min_items": "3",
			"plant_feedback": fmt.Sprint(feedback)}, 12)
		_, told, err := w.run(t, w.v9, false)
		if !errors.Is(err, bench.ErrForbidden) || !strings.Contains(err.Error(), "Your reviews are paused") || !strings.Contains(bench.Message(err), "A lead can resume") {
			t.Fatalf("approving everything: %v (%q)", err, bench.Message(err))
		}
		st, err := w.db.PlantedStatus(ctx, w.lead, w.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		f := st.Figures[0]
		// 0 of 5 caught: the upper bound 0.52 is the first below 0.6.
		if f.Planted != 5 || f.Caught != 0 || len(st.Paused) != 1 || st.Paused[0].Verifier != "v9" {
			t.Errorf("paused after %+v; paused %+v", f, st.Paused)
		}
		if want := f.Planted + f.Clean; feedback && len(told) != want || !feedback && len(told) != 0 {
			t.Errorf("feedback %v: told %d times after %d copies: %q", feedback, len(told), want, told)
		}
		for _, s := range told {
			if !strings.HasPrefix(s, "This was a check item: ") || !strings.Contains(s, "had been") && !strings.Contains(s, "nothing changed") {
				t.Errorf("feedback %q", s)
			}
		}
		if _, err := w.db.ClaimReview(ctx, w.v9, w.real[len(w.real)-1], 1); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("a paused verifier claims: %v", err)
		}
		if err := w.db.PlantResume(ctx, w.v9, w.project.ID, "v9"); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("a verifier resumes themself: %v", err)
		}
		if err := w.db.PlantResume(ctx, w.lead, w.project.ID, "v9"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.db.ReviewQueue(ctx, w.v9, w.project.ID, 1); err != nil {
			t.Errorf("resumed, the queue is refused: %v", err)
		}
		if st, _ := w.db.PlantedStatus(ctx, w.lead, w.project.ID); len(st.Paused) != 0 {
			t.Errorf("still paused: %+v", st.Paused)
		}
		// The project's history, which every member reads, says nothing of it:
		// the pause, the resume and the copies are the lead's audit log's.
		hist, err := w.db.ProjectHistory(ctx, w.vs["c1"], w.project.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range hist {
			if strings.HasPrefix(e.Action, "planted") || strings.Contains(e.Detail, "v9") {
				t.Errorf("a verifier reads %s %q in the project's history", e.Action, e.Detail)
			}
		}
	}
}
