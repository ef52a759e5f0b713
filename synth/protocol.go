package synth

// The protocol replay: the check that a stored history is one verify allows. The
// generator's tests run it on every generated sample, and the team server's load
// benchmark on every sample its simulated clients made, so that neither a
// generator nor a server can write a history the protocol forbids unnoticed.

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// ProtocolChecker replays samples' stored histories through verify. It reads the
// project file through the store's public calls, as the lead and, for the blind
// round-3 votes of panels that are still open (or whose late voters may still
// vote), as the verifiers who cast them. Make one with NewProtocolChecker.
type ProtocolChecker struct {
	db        *store.DB
	lead      bench.User
	verifiers []bench.User
	byName    map[string]bench.User
	byID      map[int64]bench.User

	// Corrections and OtherRejections count the corrections and the rejections
	// for a reason no criterion covers ("other") the replays saw; Late counts the
	// late round-3 votes.
	Corrections, OtherRejections, Late int
}

// NewProtocolChecker reads the accounts of db; lead reads the histories.
func NewProtocolChecker(ctx context.Context, db *store.DB, lead bench.User) (*ProtocolChecker, error) {
	// Every account a history may name, members of the project or not any more.
	users, err := db.Users(ctx, bench.Owner())
	if err != nil {
		return nil, fmt.Errorf("protocol check: %w", err)
	}
	c := &ProtocolChecker{db: db, lead: lead, byName: map[string]bench.User{}, byID: map[int64]bench.User{}}
	for _, u := range users {
		c.byName[u.Name], c.byID[u.ID] = u, u
		if u.Role == bench.RoleVerifier || u.Role == bench.RoleLead && u.ID != lead.ID {
			c.verifiers = append(c.verifiers, u)
		}
	}
	return c, nil
}

// ProtocolProblems replays the stored history of s under policy p and says what
// breaks the protocol (see ProtocolChecker.Problems); it reads the accounts anew,
// so a caller checking many samples makes one ProtocolChecker instead.
func ProtocolProblems(ctx context.Context, db *store.DB, lead bench.User, p verify.Policy, s bench.SampleInfo) ([]string, error) {
	c, err := NewProtocolChecker(ctx, db, lead)
	if err != nil {
		return nil, err
	}
	return c.Problems(ctx, p, s)
}

// reviews are every stored review of s, oldest first: the lead's view and, for
// the round-3 votes hidden from the lead, each verifier's own.
func (c *ProtocolChecker) reviews(ctx context.Context, s bench.SampleInfo) ([]bench.ReviewRecord, error) {
	byID := map[int64]bench.ReviewRecord{}
	for _, u := range append([]bench.User{c.lead}, c.verifiers...) {
		rs, err := c.db.Reviews(ctx, u, s.ID)
		if err != nil {
			return nil, fmt.Errorf("protocol check of %s: %w", s.ID, err)
		}
		for _, r := range rs {
			byID[r.ID] = r
		}
	}
	out := slices.Collect(maps.Values(byID))
	slices.SortFunc(out, func(a, b bench.ReviewRecord) int { return int(a.ID - b.ID) })
	return out, nil
}

// domainReview is a stored review as verify sees it.
func domainReview(r bench.ReviewRecord) verify.Review {
	return verify.Review{Round: r.Round, Reviewer: uid(r.VerifierID), Name: r.VerifierName, Group: r.Group,
		Decision: r.Decision, Reasons: r.Reasons, Judgements: r.Judgements, Comment: r.Comment}
}

// Problems replays s's stored history, revision by revision, through verify as
// the store would have played it — Transition for a submit, Correct for a
// correction, Record for each review, Transition for the withdrawal — and checks
// every stored verdict (an approval judges every criterion of its round yes; the
// stored reasons are verify's) and, for an accepted sample, the freeze trail
// (verify.Trail). It returns what is wrong, one sentence each, starting with the
// sample's id; an error only when the history cannot be read.
//
// Claims are not part of a history: a round-3 vote on a revision whose panel a
// reject had already closed is replayed as a late vote by a verifier who held
// their seat (verify.CanVoteLate checks everything else about it).
func (c *ProtocolChecker) Problems(ctx context.Context, p verify.Policy, s bench.SampleInfo) ([]string, error) {
	revs, err := c.db.SampleRevisions(ctx, c.lead, s.ID)
	if err != nil {
		return nil, fmt.Errorf("protocol check of %s: %w", s.ID, err)
	}
	stored, err := c.reviews(ctx, s)
	if err != nil {
		return nil, err
	}
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(s.ID+": "+format, args...)) }
	now := time.Now()
	author := uid(s.AuthorID)
	correctors := []string{author}
	state := verify.StateDraft
	var revAuthor string
	var current []verify.Review
	for _, rev := range revs {
		u, ok := c.byName[rev.AuthorName]
		if !ok {
			bad("revision %d is by %q, who has no account", rev.Number, rev.AuthorName)
			return out, nil
		}
		who := vuser(u)
		var carried []verify.Review
		switch rev.Change {
		case "submit", "revise":
			next, err := verify.Transition(state, verify.EventSubmit)
			if err != nil {
				bad("revision %d submitted from %s: %v", rev.Number, state, err)
				return out, nil
			}
			state = next
		case "correction":
			c.Corrections++
			rc := verify.ReviewContext{Kind: s.Kind, State: state, Round: state.Round(), Revision: rev.Number - 1, BasedOn: rev.Number - 1,
				Author: revAuthor, Correctors: correctors, Reviewer: who, Reviews: current, Now: now}
			next, kept, err := verify.Correct(p, rc)
			if err != nil {
				bad("revision %d, %s's correction breaks the protocol: %v", rev.Number, who.Name, err)
				return out, nil
			}
			state, carried = next, kept
		default:
			bad("revision %d has change %q", rev.Number, rev.Change)
			return out, nil
		}
		revAuthor = who.ID
		if !slices.Contains(correctors, who.ID) {
			correctors = append(correctors, who.ID)
		}
		current = carried
		for _, r := range stored {
			if r.Revision != rev.Number || slices.ContainsFunc(carried, func(x verify.Review) bool {
				return x.Round == r.Round && x.Reviewer == uid(r.VerifierID)
			}) {
				continue
			}
			if r.Decision == verify.DecisionApprove && !reflect.DeepEqual(r.Judgements, verify.AllPassed(s.Kind, r.Round)) {
				bad("round-%d approval by %s judged %v, not every criterion yes", r.Round, r.VerifierName, r.Judgements)
			}
			if slices.Contains(r.Reasons, verify.ReasonOther) {
				c.OtherRejections++
			}
			reviewer := vuser(c.byID[r.VerifierID])
			rc := verify.ReviewContext{Kind: s.Kind, State: state, Round: r.Round, Revision: rev.Number, BasedOn: rev.Number,
				Author: revAuthor, Correctors: correctors, Reviewer: reviewer, Reviews: current, Now: now}
			if r.Round == 3 && state.Round() != 3 {
				// After a reject closed this round 3: only a late vote may come, by a
				// panel member who held a seat.
				rc.Claims = []verify.Claim{{Sample: s.ID, Round: 3, Verifier: reviewer.ID, Expires: now.Add(time.Hour)}}
			}
			o, err := verify.Record(p, rc, verify.Verdict{Decision: r.Decision, Judgements: r.Judgements, Reasons: r.Reasons, Comment: r.Comment})
			if err != nil {
				bad("revision %d: stored round-%d %s by %s breaks the protocol: %v", rev.Number, r.Round, r.Decision, r.VerifierName, err)
				return out, nil
			}
			if o.Result == verify.ResultLate {
				c.Late++
			}
			if !reflect.DeepEqual(o.Review.Reasons, r.Reasons) && len(o.Review.Reasons)+len(r.Reasons) > 0 {
				bad("revision %d: stored reasons %v, verify gives %v", rev.Number, r.Reasons, o.Review.Reasons)
			}
			current = append(current, domainReview(r))
			state = o.State
		}
	}
	want := s.Status
	if want == verify.StateWithdrawn {
		if _, err := verify.Transition(s.PrevStatus, verify.EventWithdraw); err != nil {
			bad("withdrawn from %s: %v", s.PrevStatus, err)
		}
		want = s.PrevStatus
	}
	if state != want {
		bad("its history leads to %s, stored state %s (status %s)", state, want, s.Status)
	}
	if s.Status == verify.StateAccepted {
		for _, problem := range verify.Trail(p, revAuthor, correctors, current) {
			bad("freeze trail: %s", problem)
		}
	}
	return out, nil
}

// CheckProject replays every sample of a project under its policy and returns
// the problems found, and how many samples it checked.
func (c *ProtocolChecker) CheckProject(ctx context.Context, project bench.Project) (problems []string, checked int, err error) {
	p := project.Settings.Policy()
	var after *bench.SampleInfo
	for {
		page, err := c.db.Samples(ctx, c.lead, project.ID, bench.SampleFilter{After: after}, 0, 500)
		if err != nil {
			return problems, checked, fmt.Errorf("protocol check of %s: %w", project.Name, err)
		}
		for _, s := range page {
			ps, err := c.Problems(ctx, p, s)
			if err != nil {
				return problems, checked, err
			}
			problems = append(problems, ps...)
			checked++
		}
		if len(page) < 500 {
			return problems, checked, nil
		}
		after = &page[len(page)-1]
	}
}
