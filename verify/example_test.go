package verify_test

import (
	"errors"
	"fmt"

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
	// true round 2 needs a verifier from a different group than round 1 (you and the round-1 verifier are both in group "red")
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
