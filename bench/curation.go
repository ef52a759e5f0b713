package bench

import "fmt"

// HardSubsetInput is what a lead chooses when proposing a hard subset.
type HardSubsetInput struct {
	Models []string // the n models; none means every model with predictions on the release
	K      int      // a sample is a candidate when at least K of the models fail it
	Target int      // candidates to draw, balanced over categories; 0 = all
	Seed   int64
	Strict bool // a hop answer with the right option whose box misses counts as failed
}

// DebiasInput is what a lead chooses when proposing a debiased subset: the
// settings of the text-only model and its pruning (shortcut.Options).
type DebiasInput struct {
	Margin float64 // a task is biased while its blind accuracy is this far above chance (a share; 0.10 = ten points); 0: the default 0.10
	Folds  int     // the text-only model's k-fold; 0: the default 5
	Seed   int64   // the folds' seed, 0 or more
}

// The kinds of curated subset.
const (
	SubsetHard     = "hard"     // samples at least K of N models fail (SpatialScore-Hard)
	SubsetDebiased = "debiased" // the parent without the samples a text-only model answers (shortcut.Prune)
)

// DebiasTask is one task's blind accuracy before and after a debiased subset's
// proposal.
type DebiasTask struct {
	Task          string
	N, Left       int
	Before, After float64 // the text-only model's held-out accuracy
	Chance        float64
}

// Changed says whether the pruning removed any of the task's samples.
func (t DebiasTask) Changed() bool { return t.Left != t.N }

// String says in a sentence fragment how the pruning changed the task, e.g.
// "longest: blind accuracy 100.0 % → 0.0 % (chance 25.0 %), 0 of 40 samples left".
func (t DebiasTask) String() string {
	return fmt.Sprintf("%s: blind accuracy %.1f %% → %.1f %% (chance %.1f %%), %d of %d samples left",
		t.Task, 100*t.Before, 100*t.After, 100*t.Chance, t.Left, t.N)
}

// HardSubset is a candidate list and where its curation stands: a hard subset,
// whose kept candidates are frozen, or a debiased one, whose candidates are the
// samples the pruning proposes to remove (a drop removes one; the parent's other
// samples all stay).
type HardSubset struct {
	ID        int64
	Kind      string // SubsetHard or SubsetDebiased
	Release   string // the parent release's NAME@VERSION
	ReleaseID int64
	Models    []string // by name
	K, N      int
	Target    int
	Seed      int64
	Strict    bool
	Pool      int // samples failed by at least K models, before the draw
	// Candidates drawn; of them Kept and Dropped are decided, the rest undecided.
	Candidates, Kept, Dropped int
	CreatedBy, CreatedAt      string
	Frozen                    string // the NAME@VERSION frozen from the list; "" while it is open

	// A debiased subset's settings and outcome (Kind SubsetDebiased; Pool is then
	// the parent's samples, and Models, K, N, Target and Strict are zero).
	Margin float64 // a share
	Folds  int
	Done   bool // every task ended within the margin of chance
	Detail string
	Tasks  []DebiasTask
}

// Undecided is the number of candidates without a decision.
func (h HardSubset) Undecided() int { return h.Candidates - h.Kept - h.Dropped }

// HardCandidate is one candidate of a list with its decision, if any.
type HardCandidate struct {
	SampleID string
	Category string   // score.HardCategory
	FailedBy []string // the models that failed it (a hard subset's)
	// A debiased subset's: the shortcut checks that flag the sample
	// (shortcut.CheckTextBaseline, CheckOptionLength, CheckAnswerPosition), its
	// bias score when chosen and the pruning round (1 for the first).
	Shortcuts []string
	Bias      float64
	Round     int
	Decision  string // DecisionKeep, DecisionDrop or "" (undecided)
	Reason    string
	DecidedBy string
	DecidedAt string
}

// HardDecision keeps or drops one candidate. A drop needs a reason; a keep may
// give one.
type HardDecision struct {
	SampleID string
	Decision string // DecisionKeep or DecisionDrop
	Reason   string
}

// Decisions a lead makes on a candidate.
const (
	DecisionKeep = "keep"
	DecisionDrop = "drop"
)
