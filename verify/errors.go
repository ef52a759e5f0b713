package verify

import (
	"errors"
	"fmt"
	"strings"
)

// Refusals. Each error is wrapped with detail, so test for it with errors.Is. The
// message is worded for the person who was refused.
var (
	ErrUnknownState      = errors.New("unknown sample state")
	ErrUnknownEvent      = errors.New("unknown action")
	ErrInvalidTransition = errors.New("that action is not possible in the sample's current state")
	ErrNotAuthor         = errors.New("only the sample's author can do this")
	ErrNotLead           = errors.New("only a lead can do this")

	ErrNotVerifier    = errors.New("only verifiers and leads can review samples")
	ErrSelfReview     = errors.New("you cannot review a revision you wrote or corrected")
	ErrSameGroup      = errors.New("round 2 needs a verifier from a different group than round 1")
	ErrAlreadyOnPanel = errors.New("you have already reviewed this revision")
	ErrPanelFull      = errors.New("this round already has all the verifiers it needs")
	ErrStaleRevision  = errors.New("the sample has changed since you opened it; reload it and review the new revision")
	ErrWrongRound     = errors.New("the sample is not in that round")
	ErrRoundClosed    = errors.New("that round has already closed")
	ErrBlind          = errors.New("round 3 is blind: the other votes stay hidden until the round closes")
	ErrNotLate        = errors.New("that vote is not a late round-3 vote")

	ErrInvalidPolicy      = errors.New("invalid verification settings")
	ErrInvalidReview      = errors.New("invalid review")
	ErrNoReason           = errors.New("a rejection needs at least one reason")
	ErrUnknownCriterion   = errors.New("unknown criterion")
	ErrApproveWithFailure = errors.New("an approval cannot fail a criterion; reject instead")
	ErrIncompleteVerdict  = errors.New("an approval needs every criterion judged yes")
)

// ErrNotPermitted is a refusal by the access table (Permit).
var ErrNotPermitted = errors.New("not permitted")

// refusal is an error whose text is a sentence for the person refused while
// errors.Is still finds its kind (ErrNotPermitted, ErrIncompleteVerdict, …).
type refusal struct {
	msg  string
	kind error
	// plain is the message for a screen when msg names things by the ids a command
	// line takes ("Box on the answer (box_on_answer)", the reason "other"): the same
	// sentence with the names people read. Empty when msg is that already.
	plain string
}

func (r refusal) Error() string { return r.msg }
func (r refusal) Unwrap() error { return r.kind }

// refuse returns a refusal of kind with a message made like fmt.Sprintf.
func refuse(kind error, format string, args ...any) error {
	return refusal{msg: fmt.Sprintf(format, args...), kind: kind}
}

// refuseNamed is refuse with plain, the message for screens, beside the one that
// names ids for command lines.
func refuseNamed(kind error, plain string, format string, args ...any) error {
	return refusal{msg: fmt.Sprintf(format, args...), kind: kind, plain: plain}
}

// Sentence is a refusal of this package as a screen shows it: criteria and reasons
// by the names people read, never their ids (a command line, which takes the ids,
// shows Error's text). ok is false when err holds no such refusal; then the
// caller words err as it does any other.
func Sentence(err error) (string, bool) {
	var r refusal
	if !errors.As(err, &r) || r.plain == "" {
		return "", false
	}
	return strings.ToUpper(r.plain[:1]) + r.plain[1:] + ".", true
}
