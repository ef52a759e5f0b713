package synth

// The generated review histories. A sample's life is played move by move through
// the verify package, as the store plays a real one: a submit is verify.Transition,
// a review is verify.Record on the ReviewContext the sample's simulated reviews,
// state and authors make, a correction is verify.Correct, a withdrawal is
// verify.Authorize and verify.Transition. The generator picks who acts and what they
// decide; verify decides whether they may and what it does to the sample, and the
// state and the review it returns are what is written.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// generator plans samples from one random stream, so a seed gives the same project.
type generator struct {
	rng                   *rand.Rand
	project               bench.Project
	policy                verify.Policy
	images                []bench.Image
	lead                  bench.User
	annotators, verifiers []bench.User
	base                  time.Time
	clock                 time.Time
}

// tick moves the clock on by one to 240 minutes and returns it.
func (g *generator) tick() time.Time {
	g.clock = g.clock.Add(time.Duration(1+g.rng.IntN(240)) * time.Minute)
	return g.clock
}

// uid is a store user's id as verify knows it.
func uid(id int64) string { return strconv.FormatInt(id, 10) }

// vuser is a store user as verify knows them.
func vuser(u bench.User) verify.User {
	return verify.User{ID: uid(u.ID), Name: u.Name, Role: verify.Role(u.Role), Group: u.Group}
}

// otherProblems are the comments of rejections for a reason no criterion covers.
var otherProblems = []string{"the image is too dark to judge the answer", "two objects fit the question equally well",
	"the question gives the answer away", "the scene is cropped so that the target is cut off"}

// sample plans sample i. The first 35 cover every kind in every state; the rest
// follow the weights of a project in full swing.
func (g *generator) sample(i int) (store.BulkSample, error) {
	var kind annotate.Kind
	var target verify.State
	if i < len(annotate.Kinds)*len(verify.States) {
		kind, target = annotate.Kinds[i%len(annotate.Kinds)], verify.States[i/len(annotate.Kinds)]
	} else {
		kind = annotate.Kinds[weighted(g.rng, 50, 20, 10, 10, 10)]
		target = verify.States[weighted(g.rng, 8, 20, 15, 15, 30, 8, 4)]
	}
	id := fmt.Sprintf("%s-%06d", strings.ReplaceAll(g.project.Name, " ", "_"), i+1)
	author := pick(g.rng, g.annotators)
	if g.rng.IntN(50) == 0 {
		author = g.lead
	}
	content := g.content(kind, id, pick(g.rng, g.images))
	g.clock = g.base.Add(time.Duration(i) * time.Minute)
	h := &history{g: g, kind: kind, author: author, state: verify.StateDraft, correctors: []string{uid(author.ID)}}
	h.out = store.BulkSample{Draft: content, Author: author.ID, Version: 1}
	h.out.Created = g.tick()
	h.out.Updated = h.out.Created

	flowTo := target
	if target == verify.StateWithdrawn {
		flowTo = verify.States[weighted(g.rng, 2, 2, 1, 1, 2, 1)]
	}
	if flowTo == verify.StateRound3 && g.policy.Rounds < 3 {
		flowTo = verify.StateRound2 // a project of two rounds never enters round 3
	}
	err := h.flow(content, flowTo)
	if err == nil && target == verify.StateWithdrawn {
		err = h.withdraw()
	}
	if err != nil {
		return store.BulkSample{}, fmt.Errorf("sample %s: %w", id, err)
	}
	h.out.Status = h.state
	return h.out, nil
}

// history is one sample's life as verify sees it, and the rows it leaves.
type history struct {
	g      *generator
	kind   annotate.Kind
	author bench.User
	state  verify.State
	// revAuthor is the id of the user the current revision is attributed to.
	revAuthor string
	// correctors are the ids of the sample's author and of everyone who wrote or
	// corrected one of its revisions.
	correctors []string
	// reviews are the reviews on the current revision, and any carried over to it.
	reviews []verify.Review
	out     store.BulkSample
}

// flow takes the sample from creation to target: drafts are saved a few times;
// submitted samples sometimes have a rejected first revision and a revised second
// one, hop-QA samples sometimes a verifier's correction of the box, and then the
// reviews their state needs. verify must lead to target; anything else is an error.
func (h *history) flow(content annotate.Sample, target verify.State) error {
	g := h.g
	saves := g.rng.IntN(4)
	h.out.Version += saves
	for range saves {
		h.out.Updated = g.tick()
	}
	h.out.Draft = content
	if target == verify.StateDraft {
		return nil
	}
	if err := h.submit(content, "submit"); err != nil {
		return err
	}
	if target != verify.StateReturned && g.rng.IntN(4) == 0 {
		if err := h.rejectIn(1 + weighted(g.rng, 5, 3, 2)); err != nil {
			return err
		}
		content = revised(content)
		h.out.Version++ // the author's edit
		h.out.Updated = g.tick()
		if err := h.submit(content, "revise"); err != nil {
			return err
		}
	}
	if h.kind == annotate.KindHopQA && target != verify.StateRound1 && g.rng.IntN(10) == 0 {
		if err := h.approveUntil(roundState(1 + g.rng.IntN(2))); err != nil {
			return err
		}
		content = corrected(content)
		if err := h.correct(content, "moved the box onto the whole object"); err != nil {
			return err
		}
	}
	var err error
	switch target {
	case verify.StateRound1:
	case verify.StateRound2, verify.StateAccepted:
		err = h.approveUntil(target)
	case verify.StateRound3:
		if err = h.approveUntil(target); err == nil {
			err = h.votes(g.rng.IntN(g.policy.Round3Panel))
		}
	case verify.StateReturned:
		err = h.rejectIn(1 + weighted(g.rng, 5, 3, 2))
	default:
		err = fmt.Errorf("cannot plan state %q", target)
	}
	if err != nil {
		return err
	}
	if h.state != target {
		return fmt.Errorf("planned %s, verify led to %s", target, h.state)
	}
	return nil
}

// roundState is the state of review round r.
func roundState(r int) verify.State {
	return []verify.State{verify.StateRound1, verify.StateRound2, verify.StateRound3}[r-1]
}

// revised is the author's revision of a returned sample: the question reworded.
func revised(s annotate.Sample) annotate.Sample {
	if q, ok := strings.CutSuffix(s.Question, "?"); ok {
		s.Question = q + " in this picture?"
	} else {
		s.Question += " carefully"
	}
	if s.QuestionTag != "" {
		s.QuestionTag = annotate.Retag(s.QuestionTag, s.Question)
	}
	return s
}

// corrected is a verifier's correction of a hop-QA sample: the box grown by two
// pixels up and to the left, within the image. The box is copied, so earlier
// revisions keep theirs.
func corrected(s annotate.Sample) annotate.Sample {
	if s.Box != nil {
		b := *s.Box
		b[0], b[1] = max(0, b[0]-2), max(0, b[1]-2)
		s.Box = &b
	}
	return s
}

// submit is the author's submit of content as a new revision (change "submit" or
// "revise"): verify.Transition moves the sample, the new revision has no reviews.
func (h *history) submit(content annotate.Sample, change string) error {
	to, err := verify.Transition(h.state, verify.EventSubmit)
	if err != nil {
		return fmt.Errorf("%s by %s: %w", change, h.author.Name, err)
	}
	at := h.g.tick()
	h.out.Revisions = append(h.out.Revisions, store.BulkRevision{Content: content, Author: h.author.ID, Change: change, At: at})
	h.out.Draft, h.out.Updated = content, at
	h.out.Version++
	h.revAuthor, h.reviews, h.state = uid(h.author.ID), nil, to
	return nil
}

// context is what verify is told when v reviews the current revision in round.
func (h *history) context(round int, v bench.User) verify.ReviewContext {
	rev := len(h.out.Revisions)
	return verify.ReviewContext{
		Kind: h.kind, State: h.state, Round: round, Revision: rev, BasedOn: rev,
		Author: h.revAuthor, Correctors: h.correctors, Reviewer: vuser(v), Reviews: h.reviews, Now: h.g.clock,
	}
}

// seat picks, in random order, the first generated verifier verify.CanReview lets
// review the current revision in its round, and returns the review context.
func (h *history) seat() (verify.ReviewContext, bench.User, error) {
	round := h.state.Round()
	if round == 0 {
		return verify.ReviewContext{}, bench.User{}, fmt.Errorf("nobody reviews a sample that is %s", h.state)
	}
	for _, i := range h.g.rng.Perm(len(h.g.verifiers)) {
		v := h.g.verifiers[i]
		c := h.context(round, v)
		if verify.CanReview(h.g.policy, c) == nil {
			return c, v, nil
		}
	}
	return verify.ReviewContext{}, bench.User{}, fmt.Errorf("no generated verifier may review revision %d in round %d", len(h.out.Revisions), round)
}

// review records verdict v in the current round by a verifier who may give it:
// verify.Record checks the verdict and says what it does, and its review and state
// are what the sample keeps.
func (h *history) review(v verify.Verdict) error {
	c, who, err := h.seat()
	if err != nil {
		return err
	}
	out, err := verify.Record(h.g.policy, c, v)
	if err != nil {
		return fmt.Errorf("round-%d %s by %s: %w", c.Round, v.Decision, who.Name, err)
	}
	if out.Result == verify.ResultLate || out.Revision != c.Revision {
		return fmt.Errorf("round-%d %s by %s: verify took it as a late vote", c.Round, v.Decision, who.Name)
	}
	at := h.g.tick()
	h.reviews = append(h.reviews, out.Review)
	h.out.Reviews = append(h.out.Reviews, store.BulkReview{
		Revision: out.Revision, Round: out.Review.Round, Verifier: who.ID, Decision: out.Review.Decision,
		Judgements: out.Review.Judgements, Reasons: out.Review.Reasons, Comment: out.Review.Comment,
		Seconds: float64(10 + h.g.rng.IntN(170)), At: at,
	})
	h.out.Updated = at
	if out.State != h.state {
		h.out.Version++ // the review moved the sample
		h.state = out.State
	}
	return nil
}

// approve records an approval in the current round: every criterion judged yes.
func (h *history) approve() error {
	return h.review(verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(h.kind, h.state.Round())})
}

// reject records a rejection in the current round: one or two criteria judged no
// and the others yes, or now and then every criterion yes and another problem named
// in the comment.
func (h *history) reject() error {
	r := h.g.rng
	round := h.state.Round()
	j := verify.AllPassed(h.kind, round)
	if r.IntN(12) == 0 {
		return h.review(verify.Verdict{Decision: verify.DecisionReject, Judgements: j,
			Reasons: []string{verify.ReasonOther}, Comment: pick(r, otherProblems)})
	}
	crit := verify.Criteria(h.kind, round)
	j[pick(r, crit).ID] = false
	if r.IntN(3) == 0 {
		j[pick(r, crit).ID] = false
	}
	return h.review(verify.Verdict{Decision: verify.DecisionReject, Judgements: j})
}

// approveUntil approves round after round until the sample is in state target.
func (h *history) approveUntil(target verify.State) error {
	for range 3 + h.g.policy.Round3Panel {
		if h.state == target {
			return nil
		}
		if err := h.approve(); err != nil {
			return err
		}
	}
	if h.state != target {
		return fmt.Errorf("approvals led to %s, not %s", h.state, target)
	}
	return nil
}

// votes records k round-3 approvals that leave seats of the panel open.
func (h *history) votes(k int) error {
	for range k {
		if err := h.approve(); err != nil {
			return err
		}
		if h.state != verify.StateRound3 {
			return fmt.Errorf("a round-3 vote that was to leave a seat open made the sample %s", h.state)
		}
	}
	return nil
}

// rejectIn approves the current revision up to round (the last round of the
// policy at most) and rejects it there; in round 3 some panel members may have
// approved first.
func (h *history) rejectIn(round int) error {
	round = min(round, h.g.policy.Rounds)
	if err := h.approveUntil(roundState(round)); err != nil {
		return err
	}
	if round == 3 {
		if err := h.votes(h.g.rng.IntN(h.g.policy.Round3Panel)); err != nil {
			return err
		}
	}
	return h.reject()
}

// correct records a verifier's correction in the current round instead of a
// decision: verify.Correct says whether they may, the new state and the reviews
// that carry over to the new revision, which is attributed to them.
func (h *history) correct(content annotate.Sample, comment string) error {
	c, who, err := h.seat()
	if err != nil {
		return err
	}
	to, carried, err := verify.Correct(h.g.policy, c)
	if err != nil {
		return fmt.Errorf("round-%d correction by %s: %w", c.Round, who.Name, err)
	}
	at := h.g.tick()
	prev := len(h.out.Revisions)
	h.out.Revisions = append(h.out.Revisions, store.BulkRevision{Content: content, Author: who.ID, Change: "correction", Reason: comment, At: at})
	for _, rv := range carried { // copied onto the new revision, as the store does
		i := slices.IndexFunc(h.out.Reviews, func(b store.BulkReview) bool {
			return b.Revision == prev && b.Round == rv.Round && uid(b.Verifier) == rv.Reviewer
		})
		if i < 0 {
			return fmt.Errorf("round-%d correction by %s: verify carried over a review the sample does not have", c.Round, who.Name)
		}
		b := h.out.Reviews[i]
		b.Revision, b.Seconds = prev+1, 0
		h.out.Reviews = append(h.out.Reviews, b)
	}
	h.out.Draft, h.out.Updated = content, at
	h.out.Version++
	h.revAuthor, h.reviews, h.state = uid(who.ID), carried, to
	if !slices.Contains(h.correctors, h.revAuthor) {
		h.correctors = append(h.correctors, h.revAuthor)
	}
	return nil
}

// withdraw is the lead's withdrawal: verify.Authorize and verify.Transition allow
// and make it, and the sample remembers the state it had.
func (h *history) withdraw() error {
	if err := verify.Authorize(verify.EventWithdraw, vuser(h.g.lead), h.author.ID == h.g.lead.ID); err != nil {
		return err
	}
	to, err := verify.Transition(h.state, verify.EventWithdraw)
	if err != nil {
		return fmt.Errorf("withdraw: %w", err)
	}
	h.out.PrevStatus, h.state = h.state, to
	h.out.Version++
	h.out.Updated = h.g.tick()
	return nil
}
