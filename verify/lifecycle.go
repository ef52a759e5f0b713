package verify

// Two rules the screens, the dashboard and the store each wrote out by hand (issue 28
// item 2): which states are "in review", and which samples their author may delete.

// InReview reports whether s is one of the review rounds (1–3): the sample waits
// for verifiers. A draft, a returned, an accepted or a withdrawn sample is not.
func (s State) InReview() bool { return s.Round() > 0 }

// ReviewStates lists the states in review, in protocol order (for a search of the
// samples in review).
func ReviewStates() []State {
	var out []State
	for _, s := range States {
		if s.InReview() {
			out = append(out, s)
		}
	}
	return out
}

// DraftDeletable reports whether a sample in state s whose latest submitted
// revision is revision (0: never submitted) may be deleted by its author. Only a
// draft never submitted may: a submitted sample has reviews and a history, so a lead
// withdraws it instead (EventWithdraw), and a reopened draft keeps its revisions.
func DraftDeletable(s State, revision int) bool { return s == StateDraft && revision == 0 }
