package verify

// VoteView is what a viewer is shown of one round-3 vote.
type VoteView int

const (
	// VoteShown: the vote as it was cast, its verifier and its decision.
	VoteShown VoteView = iota
	// VoteMasked: that a vote was cast, with neither its decision nor its verifier
	// (Round3View.Mask stands in for the verifier).
	VoteMasked
	// VoteHidden: nothing of the vote, not even that it was cast.
	VoteHidden
)

func (v VoteView) String() string {
	switch v {
	case VoteShown:
		return "shown"
	case VoteMasked:
		return "masked"
	case VoteHidden:
		return "hidden"
	}
	return "VoteView(?)"
}

// The words that stand in for the verifier of a masked vote.
const (
	MaskOpen = "(hidden until round 3 closes)" // the round is still open
	MaskLate = "(hidden until you vote)"       // closed, but the viewer may still vote late on it
)

// Round3View is what one viewer is shown of the round-3 votes on one revision
// (Round3.ViewFor). It is the one statement of round-3 blindness for every
// place that shows votes: a sample's reviews, its history, and anything else
// that names who voted how.
type Round3View struct {
	viewer string
	// Others is what the viewer sees of every round-3 vote on the revision cast
	// by someone else; their own vote they always see (Vote).
	Others VoteView
	// Mask stands in for the verifier of a masked vote (MaskOpen or MaskLate).
	Mask string
	// HideCloser: the person whose reject closed the round is hidden too (from
	// the transition that closed it), since a late voter who saw them would know
	// a decision of the panel before voting.
	HideCloser bool
}

// Vote is what the viewer sees of the round-3 vote cast by voter (a user id).
func (v Round3View) Vote(voter string) VoteView {
	if voter == v.viewer {
		return VoteShown
	}
	return v.Others
}

// ViewFor is what viewer is shown of the round-3 votes on r.Revision.
//
// Whoever may see the votes (Round3.CanSee: the round closed, and viewer holds
// no seat to vote late on it) sees them all. A late voter sees that each vote
// was cast, not whose or what, nor who closed the round, until they vote or
// their seat ends. While the round is open everyone else is blind: a role that
// may count open votes (ActionCountOpenVotes: the lead) sees that each was
// cast; everyone else sees nothing of them, since, a reject closing the round
// openly, each vote of an open round is one more approval.
func (r Round3) ViewFor(p Policy, viewer User) Round3View {
	v := Round3View{viewer: viewer.ID}
	switch {
	case r.CanSee(p, viewer.ID) == nil:
		v.Others = VoteShown
	case r.ClosedByReject():
		v.Others, v.Mask, v.HideCloser = VoteMasked, MaskLate, true
	case Permitted(ActionCountOpenVotes, viewer.Role):
		v.Others, v.Mask = VoteMasked, MaskOpen
	default:
		v.Others = VoteHidden
	}
	return v
}
