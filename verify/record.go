package verify

import (
	"errors"
	"slices"
)

// Verdict is what a verifier submits: a decision, the criteria judgements and any
// explicit reasons.
type Verdict struct {
	Decision   Decision
	Judgements map[string]bool // criterion id → passed; criteria left out are not judged
	Reasons    []string        // extra reason codes for a reject: criterion ids or ReasonOther
	Comment    string          // the verifier's comment; required with ReasonOther
}

// Result says what a recorded review did to the sample.
type Result string

// The results.
const (
	ResultAdvanced Result = "advanced" // approved in round 1 or 2; on to the next round
	ResultWaiting  Result = "waiting"  // approved in round 3; the panel still has seats open
	ResultAccepted Result = "accepted" // the round-3 panel approved unanimously
	ResultReturned Result = "returned" // rejected; back to the author with reasons
	ResultLate     Result = "late"     // a round-3 vote after a reject closed the round; recorded for agreement only
)

// Outcome is the effect of recording a review.
type Outcome struct {
	Review Review // the review to store
	// Revision is the revision to store the review on. It is the current
	// revision, except for a late vote, where it is the revision voted on.
	Revision  int
	Event     Event // the event it fired; none for a late vote
	State     State // the sample's new state; unchanged by a late vote
	Result    Result
	Reasons   []string // why it was returned; nil otherwise
	Approvals int      // round 3: approvals so far, this one included
	Panel     int      // round 3: the panel size
	// Feedback is what the verifier is told after reviewing a planted check item
	// when the project gives feedback (issue 30); empty for every other review.
	Feedback string `json:",omitempty"`
}

// Record checks a verdict and returns what it does to the sample. It repeats
// CanReview and checks the verdict against the criteria for c.Kind in c.Round
// (CheckVerdict). Then it fires the verdict's event from the table: approve,
// reject, or accept when this approval completes a unanimous round-3 panel.
// The store saves Outcome.Review on Outcome.Revision and moves the sample to
// Outcome.State.
//
// A late round-3 vote is judged by CanVoteLate instead of CanReview. It fires
// no event, and it leaves the state as it is. Its Result is ResultLate, and
// its Revision is c.BasedOn. The store records it for agreement only.
func Record(p Policy, c ReviewContext, v Verdict) (Outcome, error) {
	late := CanVoteLate(p, c)
	switch {
	case errors.Is(late, ErrNotLate):
		if err := CanReview(p, c); err != nil {
			return Outcome{}, err
		}
	case late != nil:
		return Outcome{}, late
	}
	v, err := CheckVerdict(c.Kind, c.Round, v)
	if err != nil {
		return Outcome{}, err
	}
	reasons := v.Reasons
	o := Outcome{
		Review: Review{
			Round:      c.Round,
			Reviewer:   c.Reviewer.ID,
			Group:      c.Reviewer.Group,
			Decision:   v.Decision,
			Reasons:    reasons,
			Judgements: v.Judgements,
			Comment:    v.Comment,
		},
		Revision: c.Revision,
		Event:    EventApprove,
		Result:   ResultAdvanced,
	}
	if late == nil {
		return lateOutcome(p, c, o.Review), nil
	}
	if p.Final(c.Round) {
		o.Panel = p.seats(c.Round)
		o.Approvals = 1
		for _, rv := range c.Reviews {
			if rv.Round == c.Round && rv.Decision == DecisionApprove {
				o.Approvals++
			}
		}
		o.Result = ResultWaiting
		if o.Approvals >= o.Panel {
			o.Event, o.Result = EventAccept, ResultAccepted
		}
	}
	if v.Decision == DecisionReject {
		o.Event, o.Result, o.Reasons = EventReject, ResultReturned, reasons
		o.Approvals = max(o.Approvals-1, 0)
	}
	if o.State, err = Transition(c.State, o.Event); err != nil {
		return Outcome{}, err
	}
	return o, nil
}

// lateOutcome is the outcome of late vote rv: stored on the revision voted on,
// with no event and no change of state.
func lateOutcome(p Policy, c ReviewContext, rv Review) Outcome {
	r3, _ := c.lateRound3()
	o := Outcome{Review: rv, Revision: r3.Revision, State: c.State, Result: ResultLate, Panel: p.Round3Panel}
	for _, x := range append(slices.Clone(r3.Reviews), rv) {
		if x.Round == 3 && x.Decision == DecisionApprove {
			o.Approvals++
		}
	}
	return o
}

// Correct checks that c.Reviewer may correct the sample, which needs the same
// eligibility as reviewing it. It returns the state of the new revision and the
// reviews that carry over to it. Under CorrectionReentersRound1, the new
// revision goes back to round 1 with nothing carried over. Otherwise it stays in
// its round and keeps the reviews of the earlier rounds. The store saves the new
// revision attributed to the corrector and adds the corrector to its correctors.
func Correct(p Policy, c ReviewContext) (State, []Review, error) {
	if err := CanReview(p, c); err != nil {
		return "", nil, err
	}
	ev := EventCorrect
	if !p.CorrectionReentersRound1 {
		ev = EventCorrectInRound
	}
	to, err := Transition(c.State, ev)
	if err != nil {
		return "", nil, err
	}
	var carried []Review
	if ev == EventCorrectInRound {
		carried = slices.DeleteFunc(slices.Clone(c.Reviews), func(rv Review) bool { return rv.Round >= c.Round })
	}
	return to, carried, nil
}
