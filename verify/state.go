package verify

import (
	"fmt"
	"slices"
)

// State is where a sample stands in the protocol.
type State string

// The states.
const (
	StateDraft     State = "draft"
	StateRound1    State = "round1"
	StateRound2    State = "round2"
	StateRound3    State = "round3"
	StateAccepted  State = "accepted"
	StateReturned  State = "returned"
	StateWithdrawn State = "withdrawn"
)

// States lists every state in protocol order.
var States = []State{StateDraft, StateRound1, StateRound2, StateRound3, StateAccepted, StateReturned, StateWithdrawn}

// Valid reports whether s is a known state.
func (s State) Valid() bool { return slices.Contains(States, s) }

// Round returns the review round s stands for (1-3), or 0 when s is not a round.
func (s State) Round() int {
	switch s {
	case StateRound1:
		return 1
	case StateRound2:
		return 2
	case StateRound3:
		return 3
	}
	return 0
}

// Event is something that happens to a sample.
type Event string

// The events.
const (
	EventSubmit         Event = "submit"           // the author sends the sample for review
	EventApprove        Event = "approve"          // a verifier approves; in round 3, seats are still open
	EventReject         Event = "reject"           // a verifier rejects, with reasons
	EventAccept         Event = "accept"           // the approval that completes the final round (Policy.Final)
	EventCorrect        Event = "correct"          // a verifier's correction; the new revision re-enters round 1
	EventCorrectInRound Event = "correct_in_round" // the same, when Policy.CorrectionReentersRound1 is off
	EventWithdraw       Event = "withdraw"         // a lead takes the sample out of the process
	EventReopen         Event = "reopen"           // a lead puts it back (see Reopen)
	EventAcceptSampled  Event = "accept_sampled"   // a lead accepts an unsampled item of a generated batch whose sample passed (see sampled.go)
)

// Events lists every event.
var Events = []Event{EventSubmit, EventApprove, EventReject, EventAccept, EventCorrect, EventCorrectInRound, EventWithdraw, EventReopen, EventAcceptSampled}

// Valid reports whether e is a known event.
func (e Event) Valid() bool { return slices.Contains(Events, e) }

// Actor says who may fire an event.
type Actor string

// The actors.
const (
	ActorAuthor   Actor = "author"   // the sample's author
	ActorVerifier Actor = "verifier" // a verifier or lead who passes CanReview
	ActorLead     Actor = "lead"     // a lead
)

// Rule is one row of the transition table.
type Rule struct {
	From  State
	Event Event
	To    State
	Who   Actor
}

// rules is the transition table: the only place the protocol's moves are written.
var rules = []Rule{
	// From          Event                To              Who
	{StateDraft, EventSubmit, StateRound1, ActorAuthor},
	{StateReturned, EventSubmit, StateRound1, ActorAuthor}, // after revising

	{StateRound1, EventApprove, StateRound2, ActorVerifier},
	{StateRound1, EventReject, StateReturned, ActorVerifier},
	{StateRound2, EventApprove, StateRound3, ActorVerifier},
	{StateRound2, EventAccept, StateAccepted, ActorVerifier}, // the final round of a 2-round project
	{StateRound2, EventReject, StateReturned, ActorVerifier},
	{StateRound3, EventApprove, StateRound3, ActorVerifier}, // panel not complete yet
	{StateRound3, EventAccept, StateAccepted, ActorVerifier},
	{StateRound3, EventReject, StateReturned, ActorVerifier}, // the first reject closes round 3; later votes are late (CanVoteLate) and fire nothing

	{StateRound1, EventCorrect, StateRound1, ActorVerifier},
	{StateRound2, EventCorrect, StateRound1, ActorVerifier},
	{StateRound3, EventCorrect, StateRound1, ActorVerifier},
	{StateRound1, EventCorrectInRound, StateRound1, ActorVerifier},
	{StateRound2, EventCorrectInRound, StateRound2, ActorVerifier},
	{StateRound3, EventCorrectInRound, StateRound3, ActorVerifier},

	{StateDraft, EventWithdraw, StateWithdrawn, ActorLead},
	{StateRound1, EventWithdraw, StateWithdrawn, ActorLead},
	{StateRound2, EventWithdraw, StateWithdrawn, ActorLead},
	{StateRound3, EventWithdraw, StateWithdrawn, ActorLead},
	{StateAccepted, EventWithdraw, StateWithdrawn, ActorLead},
	{StateReturned, EventWithdraw, StateWithdrawn, ActorLead},
	{StateWithdrawn, EventReopen, StateDraft, ActorLead}, // Reopen restores the state it had

	{StateDraft, EventAcceptSampled, StateAccepted, ActorLead}, // accepted by sampling: fired only by a batch's accept-rest, never on a sample someone wrote
}

// Rules returns a copy of the transition table, for display and documentation.
func Rules() []Rule { return slices.Clone(rules) }

// Transition returns the state that ev moves a sample in from to. Reopening gives
// StateDraft here, so use Reopen to restore the state the sample had.
func Transition(from State, ev Event) (State, error) {
	if !from.Valid() {
		return "", fmt.Errorf("%w %q", ErrUnknownState, from)
	}
	if !ev.Valid() {
		return "", fmt.Errorf("%w %q", ErrUnknownEvent, ev)
	}
	for _, r := range rules {
		if r.From == from && r.Event == ev {
			return r.To, nil
		}
	}
	return "", fmt.Errorf("cannot %s a sample that is %s: %w", ev, from, ErrInvalidTransition)
}

// Reopen returns the state that a withdrawn sample goes back to. That is prev,
// the state it had when it was withdrawn, or StateDraft when prev is unknown.
func Reopen(from, prev State) (State, error) {
	to, err := Transition(from, EventReopen)
	if err != nil {
		return "", err
	}
	if prev.Valid() && prev != StateWithdrawn {
		return prev, nil
	}
	return to, nil
}

// Authorize checks that u may fire ev according to the table's Who column.
// isAuthor says whether u wrote the sample. Authorize only checks the role of a
// verifier event. CanReview decides whether that verifier may review this sample.
func Authorize(ev Event, u User, isAuthor bool) error {
	i := slices.IndexFunc(rules, func(r Rule) bool { return r.Event == ev })
	if i < 0 {
		return fmt.Errorf("%w %q", ErrUnknownEvent, ev)
	}
	switch rules[i].Who {
	case ActorAuthor:
		if !isAuthor {
			return fmt.Errorf("%s: %w (%s is not the author)", ev, ErrNotAuthor, u.display())
		}
	case ActorLead:
		if u.Role != RoleLead {
			return fmt.Errorf("%s: %w (%s is %s)", ev, ErrNotLead, u.display(), roleName(u.Role))
		}
	case ActorVerifier:
		if !u.Role.CanVerify() {
			return fmt.Errorf("%s: %w (%s is %s)", ev, ErrNotVerifier, u.display(), roleName(u.Role))
		}
	}
	return nil
}

// roleName names a role with its article, as in "Ann is an annotator".
func roleName(r Role) string {
	switch r {
	case "":
		return "a user with no role"
	case RoleAnnotator:
		return "an annotator"
	}
	return "a " + string(r)
}
