package synth_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

// TestProtocolProblemsCatchBrokenHistories writes histories the protocol forbids
// straight through the bulk API (which judges nothing) and wants the replay to
// name what is wrong in each; a lawful history beside them has no problem.
func TestProtocolProblemsCatchBrokenHistories(t *testing.T) {
	ctx := context.Background()
	db, res := generated(t, synth.Options{Samples: 1, Images: 2, Seed: 3, Large: -1})
	w := newWorld(t, db)
	one, err := db.Samples(ctx, bench.Owner(), res.Project.ID, bench.SampleFilter{Kind: annotate.KindHopQA}, 0, 1)
	if err != nil || len(one) != 1 {
		t.Fatalf("a generated hop-QA sample: %v", err)
	}
	content := one[0].Content
	ann := w.byName["ann1"]
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

	type vote struct {
		who      string
		round    int
		decision verify.Decision
	}
	approve := func(who string, round int) vote { return vote{who, round, verify.DecisionApprove} }
	reject := func(who string, round int) vote { return vote{who, round, verify.DecisionReject} }
	accepted := []vote{approve("ver1", 1), approve("ver4", 2), approve("ver2", 3), approve("ver5", 3), approve("ver7", 3)}
	tests := []struct {
		name   string
		status verify.State
		votes  []vote
		// judge, when set, replaces the judgements of the first vote.
		judge map[string]bool
		want  string // in one of the problems; empty: none
	}{
		{"lawful: accepted by five verifiers", verify.StateAccepted, accepted, nil, ""},
		{"lawful: returned in round 3, then a late vote", verify.StateReturned,
			[]vote{approve("ver1", 1), approve("ver4", 2), reject("ver2", 3), approve("ver5", 3)}, nil, ""},
		{"round 2 by the round-1 verifier's group", verify.StateRound3,
			[]vote{approve("ver1", 1), approve("ver2", 2)}, nil, "outside group A"},
		{"accepted without a round-3 panel", verify.StateAccepted,
			[]vote{approve("ver1", 1), approve("ver4", 2)}, nil, "leads to round3, stored state accepted"},
		{"a round-3 seat for a round-1 verifier", verify.StateAccepted,
			[]vote{approve("ver1", 1), approve("ver4", 2), approve("ver1", 3), approve("ver5", 3), approve("ver7", 3)}, nil, "stored round-3 approve by ver1 breaks the protocol"},
		{"a review by an annotator", verify.StateRound2,
			[]vote{approve("ann2", 1)}, nil, "breaks the protocol"},
		{"a round skipped", verify.StateRound3,
			[]vote{approve("ver4", 2)}, nil, "stored round-2 approve by ver4 breaks the protocol"},
		{"an approval failing a criterion", verify.StateRound2,
			[]vote{approve("ver1", 1)}, map[string]bool{"objects_exist": false, "box_on_answer": true, "follows_template": true, "answer_correct": true},
			"not every criterion yes"},
		{"a fourth round-3 vote after acceptance", verify.StateAccepted,
			append(slices.Clone(accepted), approve("ver8", 3)), nil, "stored round-3 approve by ver8 breaks the protocol"},
		{"a stored state the votes do not lead to", verify.StateRound3,
			[]vote{approve("ver1", 1), reject("ver4", 2)}, nil, "leads to returned, stored state round3"},
	}
	var batch []store.BulkSample
	for i, tt := range tests {
		c := content
		c.ID = fmt.Sprintf("broken-%02d", i)
		b := store.BulkSample{Draft: c, Author: ann.ID, Status: tt.status, Version: 2, Created: t0, Updated: t0,
			Revisions: []store.BulkRevision{{Content: c, Author: ann.ID, Change: "submit", At: t0}}}
		for j, v := range tt.votes {
			r := store.BulkReview{Revision: 1, Round: v.round, Verifier: w.byName[v.who].ID, Decision: v.decision,
				Judgements: verify.AllPassed(c.Kind, v.round), At: t0.Add(time.Duration(j+1) * time.Minute)}
			if v.decision == verify.DecisionReject {
				first := verify.Criteria(c.Kind, v.round)[0].ID
				r.Judgements[first] = false
				r.Reasons = []string{first}
			}
			if j == 0 && tt.judge != nil {
				r.Judgements = tt.judge
			}
			b.Reviews = append(b.Reviews, r)
		}
		batch = append(batch, b)
	}
	if _, err := db.BulkWriteSamples(ctx, w.lead, res.Project.ID, func(yield func([]store.BulkSample, error) bool) { yield(batch, nil) }); err != nil {
		t.Fatal(err)
	}
	check, err := synth.NewProtocolChecker(ctx, db, w.lead)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Project.Settings.Policy()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := db.Sample(ctx, bench.Owner(), fmt.Sprintf("broken-%02d", i))
			if err != nil {
				t.Fatal(err)
			}
			problems, err := check.Problems(ctx, p, s)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if len(problems) > 0 {
					t.Errorf("a lawful history: %q", problems)
				}
				return
			}
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tt.want) }) {
				t.Errorf("problems %q; want one saying %q", problems, tt.want)
			}
		})
	}
	if check.Late != 1 {
		t.Errorf("%d late votes replayed, want 1", check.Late)
	}
	// The one-shot form agrees.
	s, _ := db.Sample(ctx, bench.Owner(), "broken-02")
	if problems, err := synth.ProtocolProblems(ctx, db, w.lead, p, s); err != nil || len(problems) == 0 {
		t.Errorf("ProtocolProblems on a round 2 by the same group: %q, %v", problems, err)
	}
}
