package verify_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

func ExampleTransition() {
	s := verify.StateDraft
	for _, ev := range []verify.Event{verify.EventSubmit, verify.EventApprove, verify.EventReject, verify.EventSubmit} {
		s, _ = verify.Transition(s, ev)
		fmt.Println(ev, "→", s)
	}
	_, err := verify.Transition(verify.StateAccepted, verify.EventApprove)
	fmt.Println(err)
	// Output:
	// submit → round1
	// approve → round2
	// reject → returned
	// submit → round1
	// cannot approve a sample that is accepted: that action is not possible in the sample's current state
}

func ExampleCanReview() {
	p := verify.DefaultPolicy()
	round1 := verify.Review{Round: 1, Reviewer: "vera", Group: "red", Decision: verify.DecisionApprove}
	c := verify.ReviewContext{
		Kind: annotate.KindHopQA, State: verify.StateRound2, Round: 2,
		Revision: 1, BasedOn: 1, Author: "ann",
		Reviews: []verify.Review{round1},
	}

	c.Reviewer = verify.User{ID: "rita", Role: verify.RoleVerifier, Group: "red"}
	err := verify.CanReview(p, c)
	fmt.Println(errors.Is(err, verify.ErrSameGroup), err)

	c.Reviewer = verify.User{ID: "walt", Role: verify.RoleVerifier, Group: "blue"}
	fmt.Println(verify.CanReview(p, c))
	// Output:
	// true round 2 must be reviewed by someone outside group red, which reviewed round 1
	// <nil>
}

func ExampleRecord() {
	p := verify.DefaultPolicy()
	c := verify.ReviewContext{
		Kind: annotate.KindHopQA, State: verify.StateRound1, Round: 1,
		Revision: 1, BasedOn: 1, Author: "ann",
		Reviewer: verify.User{ID: "vera", Role: verify.RoleVerifier, Group: "red"},
	}
	o, err := verify.Record(p, c, verify.Verdict{
		Decision:   verify.DecisionReject,
		Judgements: map[string]bool{"objects_exist": true, "box_on_answer": false},
		Reasons:    []string{"other"},
		Comment:    "the mug in the options is not in the picture",
	})
	fmt.Println(o.Result, o.State, o.Reasons, err)
	// Output: returned returned [box_on_answer other] <nil>
}

func ExampleCriteria() {
	for _, c := range verify.Criteria(annotate.KindHopQA, 3) {
		fmt.Printf("%-22s %s\n", c.ID, c.Help)
	}
	// Output:
	// option_entities_exist  Each option names one object, and that object is in the image.
	// box_precise            The box matches the target object precisely.
	// answer_unique          The image supports the labelled answer and no other option.
}

func ExampleCanSeeRound3Votes() {
	p := verify.DefaultPolicy()
	votes := []verify.Review{{Round: 3, Reviewer: "p1", Decision: verify.DecisionApprove}}
	fmt.Println(verify.CanSeeRound3Votes(p, votes, 1, 1))
	votes = append(votes, verify.Review{Round: 3, Reviewer: "p2", Decision: verify.DecisionReject})
	fmt.Println(verify.CanSeeRound3Votes(p, votes, 1, 1))
	// Output:
	// round 3 is blind: the other votes stay hidden until the round closes (1 of 3 votes cast)
	// <nil>
}

func ExampleCanVoteLate() {
	p := verify.DefaultPolicy()
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	// p1 rejected revision 1 in round 3 while p2 and p3 held seats on its panel.
	c := verify.ReviewContext{
		Kind: annotate.KindHopQA, State: verify.StateReturned, Round: 3,
		Revision: 1, BasedOn: 1, Author: "ann",
		Reviews: []verify.Review{
			{Round: 1, Reviewer: "vera", Decision: verify.DecisionApprove},
			{Round: 2, Reviewer: "walt", Decision: verify.DecisionApprove},
			{Round: 3, Reviewer: "p1", Decision: verify.DecisionReject, Reasons: []string{"box_precise"}},
		},
		Claims: []verify.Claim{
			verify.NewClaim(p, "mh-0001", 3, "p2", now.Add(-10*time.Minute)),
			verify.NewClaim(p, "mh-0001", 3, "p3", now.Add(-40*time.Minute)),
		},
		Now: now,
	}
	r3 := verify.Round3{Revision: 1, Current: 1, Reviews: c.Reviews, Claims: c.Claims, Now: now}
	fmt.Println("may vote late:", r3.LateVoters())
	fmt.Println("p2 sees the votes:", r3.CanSee(p, "p2"))

	c.Reviewer = verify.User{ID: "p2", Role: verify.RoleVerifier}
	o, err := verify.Record(p, c, verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(c.Kind, 3)})
	fmt.Println(o.Result, o.State, o.Revision, err)

	c.Reviewer = verify.User{ID: "p3", Role: verify.RoleVerifier}
	fmt.Println(verify.CanVoteLate(p, c))
	// Output:
	// may vote late: [p2]
	// p2 sees the votes: round 3 is blind: the other votes stay hidden until the round closes (it has closed, but you hold a seat on its panel: they stay hidden until you vote or your seat ends)
	// late returned 1 <nil>
	// round 3: that round has already closed (a panel member rejected revision 1, and your seat on its panel ended at 2025-03-01 08:50 UTC)
}

// Permit is the access table every store method asks before it acts.
func ExamplePermit() {
	ann := verify.User{ID: "7", Name: "ann1", Role: verify.RoleAnnotator}
	fmt.Println(verify.Permit(verify.ActionWriteSamples, ann))
	fmt.Println(verify.Permit(verify.ActionChangeSettings, ann))
	// Output:
	// <nil>
	// ann1 is an annotator, and only leads may change project settings
}

// CheckVerdict is the one definition of a valid decision: the GUI's buttons and
// bwctl both call it before the store does.
func ExampleCheckVerdict() {
	_, err := verify.CheckVerdict(annotate.KindHopQA, 1, verify.Verdict{
		Decision:   verify.DecisionApprove,
		Judgements: map[string]bool{"objects_exist": true, "box_on_answer": true, "answer_correct": true},
	})
	fmt.Println(err)
	v, err := verify.CheckVerdict(annotate.KindHopQA, 1, verify.Verdict{
		Decision: verify.DecisionReject, Reasons: []string{"box_on_answer"}, Comment: " box is on the lid ",
	})
	fmt.Println(v.Judgements, v.Reasons, v.Comment, err)
	// Output:
	// an approval needs every criterion of round 1 judged yes; not judged: Follows the template (follows_template)
	// map[box_on_answer:false] [box_on_answer] box is on the lid <nil>
}

// Trail says what an accepted sample lacks before it can be frozen.
func ExampleTrail() {
	p := verify.DefaultPolicy()
	p.Round3Panel = 2
	reviews := []verify.Review{
		{Round: 1, Reviewer: "4", Name: "ver1", Decision: verify.DecisionApprove},
		{Round: 3, Reviewer: "6", Name: "ver5", Decision: verify.DecisionApprove},
	}
	for _, problem := range verify.Trail(p, "2", nil, reviews) {
		fmt.Println(problem)
	}
	// Output:
	// no round-2 approval on the accepted revision
	// round 3 has 1 approvals, the policy needs a panel of 2
}
