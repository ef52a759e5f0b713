package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// letterProject is a relFixture with two tasks of 24 accepted hop questions
// each: "always-a", whose answer is always A, and "clean", whose letters are
// spread; plus, in always-a, one sample waiting in round 2 and one draft.
func letterProject(t *testing.T) (relFixture, map[string]annotate.Sample) {
	t.Helper()
	f := newRelFixture(t)
	paths := make([]string, 0, len(relImages))
	for p := range relImages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	names := []string{"a mug", "the lamp", "the old book", "a pen"}
	orig := map[string]annotate.Sample{}
	for _, task := range []string{"always-a", "clean"} {
		for i := range 24 {
			s := relHop(fmt.Sprintf("%s-%02d", task, i), paths[i%len(paths)], fmt.Sprintf("Which object is closest to the camera in shot %d of %s?", i, task))
			s.Task = task
			s.Options = append(slices.Clone(names[i%4:]), names[:i%4]...)
			if task == "clean" {
				s.AnswerIndex = (i / 4) % 4
			} else {
				s.AnswerIndex = 0
			}
			orig[s.ID] = s
			f.accept(t, s)
		}
	}
	waiting := relHop("always-a-r2", paths[0], "Which object is closest to the camera in the waiting shot?")
	waiting.Task, waiting.AnswerIndex = "always-a", 0
	orig[waiting.ID] = waiting
	f.review(t, f.submit(t, waiting), 1)
	draft := relHop("always-a-draft", paths[1], "Which object is closest to the camera in the draft shot?")
	draft.Task, draft.AnswerIndex = "always-a", 0
	orig[draft.ID] = draft
	if _, err := f.db.CreateSample(context.Background(), f.ann, f.project.ID, draft); err != nil {
		t.Fatal(err)
	}
	return f, orig
}

// positionFinding is the answer-position result of task in rep.
func positionFinding(t *testing.T, rep shortcut.Report, task string) shortcut.Result {
	t.Helper()
	for _, r := range rep.Results {
		if r.Check == shortcut.CheckAnswerPosition && r.Task == task {
			return r
		}
	}
	t.Fatalf("no answer-position result for %s", task)
	return shortcut.Result{}
}

// TestShortcutsAndRebalance: the report finds the task whose answer is always
// A; only a lead may read it or fix it (each refusal audited); the fix writes
// one correction revision by the lead with the reason per moved sample, whose
// answer is the same option text; after it the check no longer finds the task,
// the samples keep their states and reviews (the freeze's trail holds), and the
// sample in round 2 goes on being reviewed.
func TestShortcutsAndRebalance(t *testing.T) {
	ctx := context.Background()
	f, orig := letterProject(t)
	rep, err := f.db.Shortcuts(ctx, f.lead, f.project.ID, shortcut.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := positionFinding(t, rep, "always-a"); !r.Finding || r.N != 26 {
		t.Fatalf("always-a: %+v, want a finding on 26 samples (the draft included)", r)
	}
	if r := positionFinding(t, rep, "clean"); r.Finding {
		t.Fatalf("clean: a finding: %s", r.Detail)
	}

	// Leads only, reading and writing; every refusal audited.
	for _, who := range []bench.User{f.ann, f.ver, f.vs["a1"]} {
		denied := storetest.CountDenied(t, f.db)
		if _, err := f.db.Shortcuts(ctx, who, f.project.ID, shortcut.Options{}); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("Shortcuts as %s: %v, want a refusal", who.Name, err)
		}
		if _, err := f.db.RebalanceLetters(ctx, who, bench.RebalanceInput{ProjectID: f.project.ID, Reason: "r", DryRun: true}); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("RebalanceLetters as %s: %v, want a refusal", who.Name, err)
		}
		if got := storetest.CountDenied(t, f.db); got != denied+2 {
			t.Errorf("as %s: %d refusals audited, want 2", who.Name, got-denied)
		}
	}
	if _, err := f.db.RebalanceLetters(ctx, f.lead, bench.RebalanceInput{ProjectID: f.project.ID}); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a rebalance without a reason: %v", err)
	}

	dry, err := f.db.RebalanceLetters(ctx, f.lead, bench.RebalanceInput{ProjectID: f.project.ID, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	// 25 samples may move (the draft may not): 6 or 7 per letter, so 18 or 19 leave A.
	if n := len(dry.Moved); n < 18 || n > 19 || len(dry.Moved)+len(dry.Kept) != 25 {
		t.Fatalf("dry run: %d moved, %d kept; want 18-19 of 25", len(dry.Moved), len(dry.Kept))
	}
	if want := []bench.Refusal{{SampleID: "always-a-draft", Reason: "a draft sample is its author's to edit"}}; !slices.Equal(dry.Left, want) {
		t.Errorf("left: %+v, want %+v", dry.Left, want)
	}
	if revs, _ := f.db.SampleRevisions(ctx, f.lead, dry.Moved[0].SampleID); len(revs) != 1 {
		t.Fatalf("a dry run wrote: %d revisions", len(revs))
	}

	const reason = "the answer was A too often"
	done, err := f.db.RebalanceLetters(ctx, f.lead, bench.RebalanceInput{ProjectID: f.project.ID, Reason: reason})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(done.Moved, withRevision(dry.Moved)) {
		t.Errorf("the rebalance moved %+v, its dry run said %+v", done.Moved, dry.Moved)
	}
	for _, m := range done.Moved {
		si, err := f.db.Sample(ctx, f.lead, m.SampleID)
		if err != nil {
			t.Fatal(err)
		}
		o := orig[m.SampleID]
		if got, want := si.Content.Options[si.Content.AnswerIndex], o.Options[o.AnswerIndex]; got != want || annotate.AnswerLetter(si.Content.AnswerIndex) != m.To || m.From != "A" {
			t.Errorf("%s: answer %s %q, was A %q (moved %s → %s)", m.SampleID, annotate.AnswerLetter(si.Content.AnswerIndex), got, want, m.From, m.To)
		}
		revs, err := f.db.SampleRevisions(ctx, f.lead, m.SampleID)
		if err != nil {
			t.Fatal(err)
		}
		last := revs[len(revs)-1]
		if len(revs) != 2 || last.Change != "correction" || last.AuthorName != f.lead.Name || last.Comment != reason || m.Revision != 2 {
			t.Errorf("%s: revisions %d, the last %s by %s: %q (result says revision %d)", m.SampleID, len(revs), last.Change, last.AuthorName, last.Comment, m.Revision)
		}
		if want := verify.StateAccepted; m.SampleID == "always-a-r2" {
			if si.Status != verify.StateRound2 {
				t.Errorf("%s: %s, want round2", m.SampleID, si.Status)
			}
		} else if si.Status != want {
			t.Errorf("%s: %s, want %s", m.SampleID, si.Status, want)
		}
	}
	rep, err = f.db.Shortcuts(ctx, f.lead, f.project.ID, shortcut.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := positionFinding(t, rep, "always-a"); r.Finding {
		t.Errorf("always-a still a finding after the rebalance: %s", r.Detail)
	}
	// The round-2 sample goes on with its carried round-1 approval.
	if si, err := f.db.Sample(ctx, f.lead, "always-a-r2"); err == nil {
		if _, err := submitReview(f.db, ctx, f.vs["b1"], bench.ReviewInput{SampleID: si.ID, Round: 2, BasedOn: si.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove}}); err != nil {
			t.Errorf("round 2 after the rebalance: %v", err)
		}
	}
	audit, err := f.db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range audit.Findings {
		if fd.Check == bench.CheckTrail || fd.Check == bench.CheckAnswerPosition {
			t.Errorf("after the rebalance: %s %s %s: %s", fd.Severity, fd.Check, fd.SampleID, fd.Message)
		}
	}
	again, err := f.db.RebalanceLetters(ctx, f.lead, bench.RebalanceInput{ProjectID: f.project.ID, Reason: reason})
	if err != nil || len(again.Moved) != 0 {
		t.Errorf("a second rebalance moved %d samples (%v): the first left no finding", len(again.Moved), err)
	}
}

// withRevision is moves as a rebalance reports them: each at revision 2.
func withRevision(ms []bench.LetterMove) []bench.LetterMove {
	out := slices.Clone(ms)
	for i := range out {
		out[i].Revision = 2
	}
	return out
}
