package bench

import (
	"fmt"
	"strconv"

	"github.com/benchwright/benchwright/agreement"
)

// Figure is one Krippendorff's alpha (nominal) with its bootstrap interval and reading,
// or the reason it is undefined.
type Figure struct {
	Alpha     float64
	CI95      [2]float64 // 2.5th and 97.5th percentiles of AgreementDraws replicates
	Reading   string     // agreement.Reading of Alpha; "" when undefined
	Undefined string     // why alpha is undefined, "" when it is defined
	Units     int        // units with at least one value
	Pairable  int        // units with two or more values: the ones alpha is computed on
	Values    int        // values in the pairable units
}

// Defined reports whether the figure has an alpha.
func (f Figure) Defined() bool { return f.Undefined == "" }

// AlphaText is the alpha with three decimals, or "undefined: <reason>".
func (f Figure) AlphaText() string {
	if !f.Defined() {
		return "undefined: " + f.Undefined
	}
	return strconv.FormatFloat(f.Alpha, 'f', 3, 64)
}

// CIText is the 95% interval as "[lo, hi]", or "" when alpha is undefined.
func (f Figure) CIText() string {
	if !f.Defined() {
		return ""
	}
	return fmt.Sprintf("[%.3f, %.3f]", f.CI95[0], f.CI95[1])
}

// AgreementRow is the agreement on one criterion (or the decision, or all criteria
// pooled) in one round; Round 0 takes every round together, with each verifier of
// any round as a coder of the revision.
type AgreementRow struct {
	Round     int
	Criterion string // a criterion id, CriterionDecision or CriterionAll
	Figure
}

// VerifierAlpha is the decision agreement across rounds with and without one
// verifier: a verifier whose removal raises alpha markedly is the outlier.
type VerifierAlpha struct {
	Verifier string
	Reviews  int // the verifier's visible reviews
	With     Figure
	Without  Figure
}

// Change is Without.Alpha - With.Alpha, and false when either is undefined.
func (v VerifierAlpha) Change() (float64, bool) {
	if !v.With.Defined() || !v.Without.Defined() {
		return 0, false
	}
	return v.Without.Alpha - v.With.Alpha, true
}

// BoxRow is the agreement of the boxes that two or more people drew on one sample's
// target: each person's latest box among the sample's revisions.
type BoxRow struct {
	SampleID string
	Authors  []string // in the order of their first boxed revision
	agreement.BoxSummary
}
