package bench

import (
	"github.com/benchwright/benchwright/verify"
)

// FunnelRow counts the samples of one kind in one state.
type FunnelRow struct {
	Kind  string
	State verify.State
	Count int
}

// ActivityRow counts the samples that reached a state on a day (draft: created).
type ActivityRow struct {
	Day   string
	State verify.State
	Count int
}

// ReasonCount is how often a reason code was given.
type ReasonCount struct {
	Reason string
	Count  int
}

// AnnotatorRow is one author's work: everyone who authored samples or revisions
// (a verifier's correction counts for the verifier). Reviews and rejections are of
// the revisions the author wrote.
type AnnotatorRow struct {
	Name       string
	Samples    int    // samples authored
	Accepted   int    // of those, accepted
	Submitted  int    // revisions submitted: first submissions and revisions after a return
	Days       int    // days with a submission
	Reviews    [3]int // reviews of the author's revisions, per round
	Rejected   [3]int // of those, rejections
	TopReasons []ReasonCount
}

// PerDay is the mean number of submissions on the days the author submitted.
func (a AnnotatorRow) PerDay() float64 {
	if a.Days == 0 {
		return 0
	}
	return float64(a.Submitted) / float64(a.Days)
}

// RejectionRate is the share of round's (1-3) reviews that rejected, and false when
// there were none.
func (a AnnotatorRow) RejectionRate(round int) (float64, bool) {
	if a.Reviews[round-1] == 0 {
		return 0, false
	}
	return float64(a.Rejected[round-1]) / float64(a.Reviews[round-1]), true
}

// ThroughputRow counts an author's submissions on a day.
type ThroughputRow struct {
	Day       string
	Name      string
	Submitted int
}

// ReasonRow is a reject reason and how often it was given.
type ReasonRow = ReasonCount

// VerifierRow is one verifier's work: every verifier, and anyone else who reviewed.
type VerifierRow struct {
	Name          string
	Group         string
	Reviews       int
	Rounds        [3]int // reviews per round
	Approved      int
	Timed         int     // reviews with a recorded time
	MedianSeconds float64 // over the timed reviews
	P90Seconds    float64
	PanelVotes    int // round-3 votes on revisions whose panel has a result
	PanelMatches  int // of those, votes equal to the panel's result
}

// ApprovalRate is the share of the verifier's reviews that approved (0 without reviews).
func (v VerifierRow) ApprovalRate() float64 {
	if v.Reviews == 0 {
		return 0
	}
	return float64(v.Approved) / float64(v.Reviews)
}

// PanelAgreement is the share of the verifier's round-3 votes that match the
// panel's result (rejected if anyone rejected, accepted if the panel approved), and
// false without such votes.
func (v VerifierRow) PanelAgreement() (float64, bool) {
	if v.PanelVotes == 0 {
		return 0, false
	}
	return float64(v.PanelMatches) / float64(v.PanelVotes), true
}

// ErrorRow counts the reviews and rejections of one kind and category set (hop QA:
// "att+rel" and so on, sorted; "none" for samples without categories).
type ErrorRow struct {
	Kind     string
	Set      string
	Reviews  int
	Rejected int
}

// ErrorRate is Rejected / Reviews.
func (e ErrorRow) ErrorRate() float64 {
	if e.Reviews == 0 {
		return 0
	}
	return float64(e.Rejected) / float64(e.Reviews)
}

// BalanceCell is one cell of the balance grid: the samples of Kind with Hop and View
// (hop QA) or Task (other kinds). A target's zero Hop, empty View or empty Task
// matches any value. Cells without a target hold samples no target asked for.
type BalanceCell struct {
	Kind      string
	Hop       int
	View      string
	Task      string
	Target    int
	Accepted  int
	InReview  int // in rounds 1–3
	Shortfall int // max(Target-Accepted, 0)
}

// The levels of a balance cell.
const (
	BalanceMet     = "met"     // the target is reached
	BalancePartial = "partial" // half of the target or more
	BalanceFar     = "far"     // less than half of the target
	BalanceNone    = "no target"
)

// Level says how far the cell is from its target: BalanceMet, BalancePartial or
// BalanceFar, or BalanceNone for a cell no target asked for (it was "met").
func (c BalanceCell) Level() string {
	switch {
	case c.Target == 0:
		return BalanceNone
	case c.Shortfall == 0:
		return BalanceMet
	case 2*c.Accepted >= c.Target:
		return BalancePartial
	}
	return BalanceFar
}
