package bench

// HardSubsetInput is what a lead chooses when proposing a hard subset.
type HardSubsetInput struct {
	Models []string // the n models; none means every model with predictions on the release
	K      int      // a sample is a candidate when at least K of the models fail it
	Target int      // candidates to draw, balanced over categories; 0 = all
	Seed   int64
	Strict bool // a hop answer with the right option whose box misses counts as failed
}

// HardSubset is a candidate list and where its curation stands.
type HardSubset struct {
	ID        int64
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
}

// Undecided is the number of candidates without a decision.
func (h HardSubset) Undecided() int { return h.Candidates - h.Kept - h.Dropped }

// HardCandidate is one candidate of a list with its decision, if any.
type HardCandidate struct {
	SampleID  string
	Category  string   // score.HardCategory
	FailedBy  []string // the models that failed it
	Decision  string   // DecisionKeep, DecisionDrop or "" (undecided)
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
