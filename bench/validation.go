package bench

import (
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/sampling"
)

// ImportBatchInput is a generated set to import as a batch.
type ImportBatchInput struct {
	ProjectID int64
	Name      string // the batch's name, unique in the project (letters, digits, '.', '_', '-')
	Source    string // the file it came from, for the record
	Author    string // whose samples its items become; empty = the acting lead
	Records   []annotate.Imported
}

// ValidationBatch is a generated batch and where its validation stands.
type ValidationBatch struct {
	ID         int64
	Name       string
	Source     string
	Author     string
	ImportedBy string
	ImportedAt string
	Items      int
	Sampled    int
	BySampling int // items accepted by sampling
	Findings   []AuditFinding
	// The sampling policy, fixed by the first draw (Stratify is "" before).
	Stratify  sampling.Stratify
	Seed      int64
	Method    sampling.Method
	Level     float64
	Threshold float64
	Draws     []ValidationDraw
	// AcceptedBy and AcceptedAt are set once the rest was accepted.
	AcceptedBy string
	AcceptedAt string
}

// ValidationDraw is one draw of a batch's sample: the size rule and what it added.
type ValidationDraw struct {
	PerStratum int     `json:"per_stratum,omitempty"`
	Margin     float64 `json:"margin,omitempty"`
	Expected   float64 `json:"expected,omitempty"`
	Added      int     `json:"added"`
	At         string  `json:"at"`
	By         string  `json:"by"`
}

// ImportBatchResult is what an import of a batch did.
type ImportBatchResult struct {
	Batch ValidationBatch
	// Findings are the import audit's errors: each record named is left out of the
	// batch (a generated set is held to zero tolerance).
	Findings []AuditFinding
	// Warnings are lint warnings of records imported all the same.
	Warnings []ImportProblem
}

// DrawInput is a draw of a batch's validation sample. The first draw fixes the
// policy (Stratify, Seed, Method, Level, Threshold); a later draw enlarges the
// sample under the same policy (zero values keep it; others must match), and
// since a larger size with the same seed draws a superset (sampling.Draw), every
// item already drawn stays in the sample.
type DrawInput struct {
	ProjectID int64
	Batch     string
	Stratify  sampling.Stratify
	Seed      int64
	// The size rule: PerStratum items from each stratum, or when PerStratum is 0,
	// enough for a margin of error Margin at Level for an expected error rate
	// Expected (sampling.SizeForMargin; 0 = the safest, 0.5).
	PerStratum int
	Margin     float64
	Expected   float64
	Method     sampling.Method // default sampling.Exact
	Level      float64         // default sampling.Level95
	Threshold  float64         // the error rate the upper bound must be below for accept-rest; required by the first draw
}

// ValidationStratum is one stratum's (or the batch's) estimate.
type ValidationStratum struct {
	Name      string
	Items     int // items of the stratum in the batch
	Sampled   int
	Pending   int // sampled, not judged yet
	Unsampled int
	sampling.Estimate
	Below bool // the upper bound is below the threshold
}

// ValidationStatus is where a batch's validation stands.
type ValidationStatus struct {
	Batch  ValidationBatch
	Strata []ValidationStratum // by name
	// Overall is the batch's: its N and Errors are summed over the strata, its
	// Rate and interval are the stratified estimate (sampling.Stratified), each
	// stratum weighted by its share of the batch's items.
	Overall ValidationStratum
	// Refusal is why the rest may not be accepted now (sampling.CheckAcceptRest),
	// "" when it may.
	Refusal string
}

// AcceptRestResult is what accepting a batch's rest did.
type AcceptRestResult struct {
	Accepted []string // the ids of the samples accepted by sampling
	Status   ValidationStatus
}
