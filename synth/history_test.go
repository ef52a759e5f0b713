package synth

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// testGenerator is a generator over made-up accounts, for histories without a database.
func testGenerator() *generator {
	g := &generator{rng: rand.New(rand.NewPCG(1, 2)), project: bench.Project{Name: "t"}, policy: verify.DefaultPolicy(),
		images: []bench.Image{{ID: 1, RelPath: "0001-office-1/img_001.jpg", Scene: "0001-office-1", Width: 640, Height: 480}},
		lead:   bench.User{ID: 1, Name: "lead", Role: bench.RoleLead},
		base:   time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)}
	g.annotators = []bench.User{{ID: 2, Name: "ann1", Role: bench.RoleAnnotator}}
	for i, grp := range []string{"A", "A", "B", "B", "C", "C"} {
		g.verifiers = append(g.verifiers, bench.User{ID: int64(10 + i), Name: "ver" + string(rune('1'+i)), Role: bench.RoleVerifier, Group: grp})
	}
	return g
}

// submitted is a hop-QA history submitted once.
func submitted(t *testing.T, g *generator) *history {
	t.Helper()
	a := g.annotators[0]
	h := &history{g: g, kind: annotate.KindHopQA, author: a, state: verify.StateDraft, correctors: []string{uid(a.ID)}}
	if err := h.submit(g.content(annotate.KindHopQA, "t-1", g.images[0]), "submit"); err != nil {
		t.Fatal(err)
	}
	return h
}

// A move verify refuses is an error of the generator, and leaves the history as it
// was: an approval that leaves criteria unjudged or fails one, a rejection without a
// reason, a review of a sample in no round, a second submit.
func TestImpossibleMovesAreErrors(t *testing.T) {
	g := testGenerator()
	tests := []struct {
		name string
		move func(h *history) error
		want error
	}{
		{"approval with empty judgements", func(h *history) error {
			return h.review(verify.Verdict{Decision: verify.DecisionApprove, Judgements: map[string]bool{}})
		}, verify.ErrIncompleteVerdict},
		{"approval failing a criterion", func(h *history) error {
			j := verify.AllPassed(h.kind, 1)
			j["box_on_answer"] = false
			return h.review(verify.Verdict{Decision: verify.DecisionApprove, Judgements: j})
		}, verify.ErrApproveWithFailure},
		{"rejection without a reason", func(h *history) error {
			return h.review(verify.Verdict{Decision: verify.DecisionReject, Judgements: verify.AllPassed(h.kind, 1)})
		}, verify.ErrNoReason},
		{"other without a comment", func(h *history) error {
			return h.review(verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}})
		}, verify.ErrNoReason},
		{"a criterion of another round", func(h *history) error {
			return h.review(verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(h.kind, 2)})
		}, verify.ErrUnknownCriterion},
		{"submit twice", func(h *history) error { return h.submit(h.out.Draft, "submit") }, verify.ErrInvalidTransition},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := submitted(t, g)
			before := len(h.out.Reviews)
			if err := tt.move(h); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if len(h.out.Reviews) != before || h.state != verify.StateRound1 || len(h.out.Revisions) != 1 {
				t.Errorf("the refused move changed the history: %d reviews, %d revisions, state %s", len(h.out.Reviews), len(h.out.Revisions), h.state)
			}
		})
	}

	// Nobody may review a sample in no round, and a panel of three needs three
	// verifiers who served on neither round 1 nor round 2.
	h := submitted(t, g)
	if err := h.reject(); err != nil {
		t.Fatal(err)
	}
	if err := h.approve(); err == nil {
		t.Error("a returned sample was approved")
	}
	g.verifiers = g.verifiers[:4]
	h = submitted(t, g)
	if err := h.approveUntil(verify.StateAccepted); err == nil {
		t.Errorf("four verifiers accepted a sample (state %s) though rounds 1-3 need five", h.state)
	}
}

// The generator's own moves are the protocol's: a full history reaches every
// planned state, and a 2-round policy accepts in round 2.
func TestHistoriesReachTheirStates(t *testing.T) {
	for _, rounds := range []int{3, 2} {
		g := testGenerator()
		g.policy.Rounds = rounds
		for i := range 400 {
			s, err := g.sample(i)
			if err != nil {
				t.Fatalf("%d rounds: %v", rounds, err)
			}
			if rounds == 2 && s.Status == verify.StateRound3 {
				t.Fatalf("%d rounds: %s planned into round 3", rounds, s.Draft.ID)
			}
			for _, rv := range s.Reviews {
				if rv.Decision == verify.DecisionApprove && len(rv.Judgements) != len(verify.Criteria(s.Draft.Kind, rv.Round)) {
					t.Fatalf("%s: round-%d approval judged %v", s.Draft.ID, rv.Round, rv.Judgements)
				}
			}
		}
	}
}
