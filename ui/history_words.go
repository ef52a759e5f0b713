package ui

import (
	"strings"

	"github.com/benchwright/benchwright/bench"
)

// eventWords says what one event of a sample's history did, in words: "moved from
// Round 3 to Returned", "approved (round 1, revision 2)". The audit log's action ids
// ("sample.status", "review.approve") are for bwctl and the log itself; an action
// this list does not know is shown as the log has it.
func eventWords(e bench.Event) string {
	detail := strings.TrimSpace(e.Detail)
	with := func(what string) string {
		if detail == "" {
			return what
		}
		return what + " (" + detail + ")"
	}
	switch e.Action {
	case "sample.status":
		if c, ok := bench.ParseStatusChange(detail); ok {
			return "moved from " + stateTitle(c.From) + " to " + stateTitle(c.To)
		}
		return with("changed state")
	case "sample.create":
		return "created the sample"
	case "sample.import":
		return with("imported the sample")
	case "sample.correct":
		return with("corrected the sample")
	case "sample.augment":
		return with("derived the sample")
	case "sample.derive":
		return with("derived a new sample from it")
	case "sample.delete":
		return "deleted the draft"
	case "sample.reassign":
		return with("reassigned the draft")
	case "sample.accepted_by_sampling", "batch.sampled":
		return with("accepted by the sampled validation")
	case "sample.submit", "revision.submit":
		return with("submitted it for review")
	case "revision.revise":
		return with("resubmitted it after changes")
	case "revision.correction":
		return with("saved a correction")
	case "revision.import", "revision.augment", "revision.sample":
		return with("wrote a revision")
	case "review.approve":
		return with("approved")
	case "review.reject":
		return with("rejected")
	case "review.late":
		return with("voted after round 3 closed")
	case "review.vote":
		return with("voted in round 3")
	case "review.claim":
		return with("claimed it for review")
	case "review.release":
		return with("released a review claim")
	case "sample.withdraw":
		return with("withdrew it")
	case "sample.reopen":
		return with("reopened it")
	case "sample.accept_sampled":
		return with("accepted it: its batch passed the sampled validation")
	case "augment.discard":
		return with("discarded a derived candidate")
	}
	if ev, ok := strings.CutPrefix(e.Action, "sample."); ok { // a protocol event: withdraw, reopen, …
		return with(strings.ReplaceAll(ev, "_", " "))
	}
	if denied, ok := strings.CutPrefix(e.Action, "denied:"); ok {
		return with("was refused " + strings.ReplaceAll(denied, "_", " "))
	}
	return with(e.Action)
}
