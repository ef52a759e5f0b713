package store_test

import (
	"context"
	"fmt"
	"image/color"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// e2ePlan is where one sample of the end-to-end test goes: it stays a draft, is
// withdrawn by the lead in a round, waits in a round, or is accepted, on the way
// being rejected once or corrected once in a round.
type e2ePlan struct {
	final     verify.State
	withdrawA int // the round the lead withdraws it in
	rejectAt  int // the round one verifier rejects it in (round 3: after one approval)
	correctAt int // the round one verifier corrects it in (round 3: after one approval)
}

func e2ePlans(n int) []e2ePlan {
	plans := make([]e2ePlan, n)
	for i := range plans {
		p := &plans[i]
		switch {
		case i < 3:
			p.final = verify.StateDraft
		case i < 6:
			p.final, p.withdrawA = verify.StateWithdrawn, i-2
		case i < 9:
			p.final = verify.StateRound2
		default:
			p.final = verify.StateAccepted
			switch i % 4 {
			case 1:
				p.rejectAt = (i/4)%3 + 1
			case 3:
				p.correctAt = (i/4)%3 + 1
			}
		}
	}
	return plans
}

// expectedAudit is what the audit log must count for the plans, worked out from the
// protocol (spec §3) rather than from what the test did: approvals, rejections,
// revisions and state changes per sample.
func expectedAudit(plans []e2ePlan) map[string]int {
	want := map[string]int{"sample.create": len(plans)}
	// before[r] is what happens before an interruption in round r: approvals of
	// rounds 1..r-1, and in round 3 one panel approval.
	before := [4]int{0, 0, 1, 3}
	for _, p := range plans {
		if p.final == verify.StateDraft {
			continue
		}
		want["revision.submit"]++
		status := 1 // draft → round1
		switch {
		case p.final == verify.StateWithdrawn:
			want["review.approve"] += p.withdrawA - 1
			want["sample.withdraw"]++
			status += p.withdrawA - 1 + 1
		case p.final == verify.StateRound2:
			want["review.approve"]++
			status++
		case p.rejectAt > 0:
			want["review.approve"] += before[p.rejectAt] + 5
			want["review.reject"]++
			want["revision.revise"]++
			// advances before the reject, → returned, → round1 again, three advances
			status += p.rejectAt - 1 + 1 + 1 + 3
		case p.correctAt > 0:
			want["review.approve"] += before[p.correctAt] + 5
			want["revision.correction"]++
			want["sample.correct"]++
			status += p.correctAt - 1 + 1 + 3 // the correction moves it to round 1
		default:
			want["review.approve"] += 5
			status += 3
		}
		want["sample.status"] += status
	}
	return want
}

func e2eSample(kind annotate.Kind, img string, k int) annotate.Sample {
	switch kind {
	case annotate.KindHopQA:
		return hopSample(img)
	case annotate.KindStepGraph:
		return stepSample("", img)
	case annotate.KindJudgment:
		return annotate.Sample{Kind: kind, Image: img, Question: "Is the mug left of the book?", AnswerText: []string{"yes", "no"}[k%2]}
	case annotate.KindMCQ:
		return annotate.Sample{Kind: kind, Image: img, Question: "Which object is red?", Options: []string{"the mug", "the book", "the lamp"}, AnswerIndex: k % 3}
	}
	return annotate.Sample{Kind: kind, Image: img, Question: "How far is the lamp from the desk, in metres?", AnswerText: "2.5", AnswerNumber: true}
}

// reworded changes a sample's question, keeping it valid.
func reworded(s annotate.Sample, n int) annotate.Sample {
	s.Question = strings.TrimSuffix(s.Question, "?") + strings.Repeat(" now", n) + "?"
	if s.Kind == annotate.KindStepGraph {
		s.Question = fmt.Sprintf("Pick up the laptop (take %d)", n+1)
	}
	return s
}

// TestEndToEnd drives 50 samples of every kind by 3 annotators through the three
// rounds with 6 verifiers in groups A and B, with rejections, revisions, corrections,
// withdrawals and claims, choosing each reviewer among those whose queue holds the
// sample. It checks the final states, the reviews of every accepted sample, and the
// audit log against what the protocol implies.
func TestEndToEnd(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	clk := setClock(f.db)
	dir := t.TempDir()
	imgs := []string{"0001-office-1/a.jpg", "0002-kitchen-1/b.jpg", "0003-garage-1/c.jpg"}
	for i, rel := range imgs {
		writeFile(t, filepath.Join(dir, rel), encodeJPEG(t, 64+8*i, 48, color.Gray{uint8(60 * i)}))
	}
	if res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil || res.Imported != 3 {
		t.Fatalf("images: %+v %v", res, err)
	}
	ann3, err := f.db.AddUser(ctx, f.lead, "ann3", bench.RoleAnnotator, "", "secret")
	if err != nil {
		t.Fatal(err)
	}
	authors := []bench.User{f.ann, f.ann2, ann3}
	vm := addVerifiers(t, f, "a1", "a2", "a3", "b1", "b2", "b3")
	var vers []bench.User
	for _, n := range []string{"a1", "a2", "a3", "b1", "b2", "b3"} {
		vers = append(vers, vm[n])
	}
	before, err := f.db.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}

	const n = 50
	plans := e2ePlans(n)
	type progress struct {
		id          string
		author      bench.User
		interrupted bool
		r3votes     int // round-3 approvals on the current revision
		edits       int
		done        bool
	}
	ps := make([]*progress, n)
	for i := range n {
		author := authors[i%len(authors)]
		si, err := f.db.CreateSample(ctx, author, f.project.ID, e2eSample(annotate.Kinds[i%len(annotate.Kinds)], imgs[i%len(imgs)], i))
		if err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
		ps[i] = &progress{id: si.ID, author: author, done: plans[i].final == verify.StateDraft}
	}

	rng := rand.New(rand.NewPCG(2025, 3))
	eligible := func(si bench.SampleInfo) []bench.User {
		var out []bench.User
		for _, v := range vers {
			q, err := f.db.ReviewQueueLimit(ctx, v, f.project.ID, si.Status.Round(), 0)
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(q, func(it bench.QueueItem) bool { return it.SampleID == si.ID }) {
				out = append(out, v)
			}
		}
		if len(out) == 0 {
			t.Fatalf("%s in %s (revision %d): no verifier may review it", si.ID, si.Status, si.Revision)
		}
		return out
	}
	for steps := 0; ; steps++ {
		var active []int
		for i, p := range ps {
			if !p.done {
				active = append(active, i)
			}
		}
		if len(active) == 0 {
			break
		}
		if steps > 2000 {
			t.Fatalf("%d samples still moving after %d steps", len(active), steps)
		}
		clk.advance(time.Minute)
		i := active[rng.IntN(len(active))]
		p, plan := ps[i], plans[i]
		si, err := f.db.Sample(ctx, bench.Owner(), p.id)
		if err != nil {
			t.Fatal(err)
		}
		round := si.Status.Round()
		switch {
		case si.Status == verify.StateDraft:
			_, err = f.db.Submit(ctx, p.author, si.ID, si.Version, nil)
		case si.Status == verify.StateReturned:
			p.edits++
			v, err := f.db.SaveDraft(ctx, p.author, si.ID, si.Version, reworded(si.Content, p.edits))
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.db.Submit(ctx, p.author, si.ID, v, nil)
		case si.Status == verify.StateAccepted:
			p.done = true
		case plan.withdrawA == round:
			err = f.db.Withdraw(ctx, f.lead, si.ID, "out of scope")
			p.done = true
		case plan.final == verify.StateRound2 && round == 2:
			p.done = true
		case !p.interrupted && plan.rejectAt == round && (round < 3 || p.r3votes == 1):
			v := eligible(si)[0]
			failed := verify.Criteria(si.Kind, round)[rng.IntN(len(verify.Criteria(si.Kind, round)))].ID
			_, err = submitReview(f.db, ctx, v, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision,
				Verdict: verify.Verdict{Decision: verify.DecisionReject, Judgements: map[string]bool{failed: false}, Comment: "see " + failed}})
			p.interrupted, p.r3votes = true, 0
		case !p.interrupted && plan.correctAt == round && (round < 3 || p.r3votes == 1):
			es := eligible(si)
			p.edits++
			_, err = f.db.Correct(ctx, es[rng.IntN(len(es))], bench.CorrectionInput{SampleID: si.ID, Round: round, BasedOn: si.Revision,
				Content: reworded(si.Content, p.edits), Comment: "clearer wording"})
			p.interrupted, p.r3votes = true, 0
		default:
			es := eligible(si)
			v := es[rng.IntN(len(es))]
			if rng.IntN(2) == 0 { // half the reviews are claimed first, as the review screen does
				if _, err := f.db.ClaimReview(ctx, v, si.ID, round); err != nil {
					t.Fatalf("%s claims %s: %v", v.Name, si.ID, err)
				}
			}
			var out verify.Outcome
			out, err = submitReview(f.db, ctx, v, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision, Verdict: approve, Seconds: 30})
			if round == 3 {
				p.r3votes = out.Approvals
			}
		}
		if err != nil {
			t.Fatalf("step %d, %s (%s, plan %+v): %v", steps, si.ID, si.Status, plan, err)
		}
	}

	// Final states, exactly.
	counts, err := f.db.StatusCounts(ctx, bench.Owner(), f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	wantCounts := map[verify.State]int{verify.StateDraft: 3, verify.StateWithdrawn: 3, verify.StateRound2: 3, verify.StateAccepted: 41,
		verify.StateRound1: 0, verify.StateRound3: 0, verify.StateReturned: 0}
	for s, w := range wantCounts {
		if counts[s] != w {
			t.Errorf("%d samples %s, want %d (all: %v)", counts[s], s, w, counts)
		}
	}

	// Every accepted sample: rounds 1, 2 and a panel of three on its last revision,
	// round 2 in the other group, nobody who wrote or corrected it, nobody twice.
	for i, p := range ps {
		si, _ := f.db.Sample(ctx, bench.Owner(), p.id)
		if plans[i].final != verify.StateAccepted {
			continue
		}
		wantRev := 1
		if plans[i].rejectAt > 0 || plans[i].correctAt > 0 {
			wantRev = 2
		}
		if si.Revision != wantRev {
			t.Errorf("%s: revision %d, want %d", si.ID, si.Revision, wantRev)
		}
		rs, err := f.db.Reviews(ctx, f.lead, si.ID)
		if err != nil {
			t.Fatal(err)
		}
		var rounds []int
		var r1, r2 bench.ReviewRecord
		seen := map[int64]bool{}
		for _, r := range rs {
			if r.Revision != si.Revision {
				continue
			}
			rounds = append(rounds, r.Round)
			if r.Decision != verify.DecisionApprove {
				t.Errorf("%s: %s's %s in round %d on the accepted revision", si.ID, r.VerifierName, r.Decision, r.Round)
			}
			if seen[r.VerifierID] {
				t.Errorf("%s: %s reviewed revision %d twice", si.ID, r.VerifierName, si.Revision)
			}
			seen[r.VerifierID] = true
			if r.VerifierID == p.author.ID {
				t.Errorf("%s: its author reviewed it", si.ID)
			}
			switch r.Round {
			case 1:
				r1 = r
			case 2:
				r2 = r
			}
		}
		if !slices.Equal(rounds, []int{1, 2, 3, 3, 3}) {
			t.Errorf("%s: rounds %v on revision %d, want [1 2 3 3 3]", si.ID, rounds, si.Revision)
		}
		if r1.Group == r2.Group || r1.Group == "" {
			t.Errorf("%s: round 1 by %s (group %q), round 2 by %s (group %q)", si.ID, r1.VerifierName, r1.Group, r2.VerifierName, r2.Group)
		}
		if plans[i].correctAt > 0 {
			hist, _ := f.db.History(ctx, f.lead, si.ID)
			k := slices.IndexFunc(hist, func(e bench.Event) bool { return e.Action == "sample.correct" })
			if k < 0 {
				t.Fatalf("%s: no correction in its history", si.ID)
			}
			for _, r := range rs {
				if r.Revision == 2 && r.VerifierName == hist[k].Actor {
					t.Errorf("%s: the corrector %s reviewed the corrected revision", si.ID, r.VerifierName)
				}
			}
		}
		if plans[i].rejectAt == 3 || plans[i].correctAt == 3 {
			// The round-3 vote cast before the panel closed stays on revision 1.
			var r3 []verify.Decision
			for _, r := range rs {
				if r.Revision == 1 && r.Round == 3 {
					r3 = append(r3, r.Decision)
				}
			}
			want := []verify.Decision{verify.DecisionApprove}
			if plans[i].rejectAt == 3 {
				want = append(want, verify.DecisionReject)
			}
			if !slices.Equal(r3, want) {
				t.Errorf("%s: revision 1 round 3 holds %v, want %v", si.ID, r3, want)
			}
		}
	}

	// The audit log, per action: what this test did and nothing else.
	after, err := f.db.AuditCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for action, k := range after {
		if d := k - before[action]; d != 0 && !strings.HasPrefix(action, "project.") {
			got[action] = d
		}
	}
	want := expectedAudit(plans)
	for _, action := range slices.Sorted(maps.Keys(mergeKeys(got, want))) {
		if got[action] != want[action] {
			t.Errorf("audit %s: %d rows, want %d", action, got[action], want[action])
		}
	}
}

func mergeKeys(a, b map[string]int) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
