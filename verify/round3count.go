package verify

// Round3Count is how a revision's round-3 votes count in the project's figures
// (the dashboard's summaries): whether they count, the panel's result when they
// do, and whether they wait only for late voters.
type Round3Count struct {
	Counted bool
	// Result is the panel's result, kept for counted votes only: DecisionReject
	// once a member rejected, DecisionApprove once the approvals fill the panel
	// (CanSeeRound3Votes were the revision current), else "".
	Result  Decision
	Waiting bool // not counted, and only late voters (LateVoters) keep it so
}

// Count is how r's round-3 votes count under p: once Settled, with the panel's
// result; before, not at all, waiting when only late voters hold it open.
func (r Round3) Count(p Policy) Round3Count {
	if !r.Settled(p) {
		return Round3Count{Waiting: len(r.LateVoters()) > 0}
	}
	c := Round3Count{Counted: true}
	switch {
	case r.ClosedByReject():
		c.Result = DecisionReject
	case CanSeeRound3Votes(p, r.Reviews, r.Revision, r.Revision) == nil:
		c.Result = DecisionApprove
	}
	return c
}
