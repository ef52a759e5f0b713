package release

// Curation is the provenance of a release curated from another. Method
// "hard-subset": a hard subset (SpatialScore-Hard) of the parent release's
// samples that at least K of the N models failed, drawn balanced over
// categories to Target by Seed, then kept or dropped by hand. Method
// "debiased": the parent release without the samples a text-only model
// answers ("train on the test set"'s iterative bias pruning, shortcut.Prune,
// fitted Folds-fold with Seed until every task's blind accuracy is within
// Margin of chance), each proposed sample dropped or kept by hand; Pool is then
// the parent's samples and Kept the candidates kept in. MANIFEST.json records
// it under release.curation.
type Curation struct {
	Method     string             `json:"method"`           // "hard-subset" or "debiased"
	Parent     string             `json:"parent"`           // the parent release's NAME@VERSION
	Models     []string           `json:"models,omitempty"` // the N models, in the order given
	K          int                `json:"k,omitempty"`
	N          int                `json:"n,omitempty"`
	Target     int                `json:"target"` // 0: every candidate
	Seed       int64              `json:"seed"`
	Strict     bool               `json:"strict,omitempty"` // a hop answer whose box missed counted as failed
	Pool       int                `json:"pool"`             // samples failed by at least K models; debiased: the parent's samples
	Candidates int                `json:"candidates"`       // drawn into the candidate list; debiased: proposed for removal
	Kept       int                `json:"kept"`
	Decisions  []CurationDecision `json:"decisions"` // every candidate's, by sample id
	ProposedBy string             `json:"proposed_by"`
	ProposedAt string             `json:"proposed_at"`

	// Debiased only.
	Margin float64        `json:"margin,omitempty"` // a share: 0.10 is ten points above chance
	Folds  int            `json:"folds,omitempty"`
	Done   bool           `json:"done,omitempty"` // every task ended within the margin
	Detail string         `json:"detail,omitempty"`
	Tasks  []CurationTask `json:"tasks,omitempty"` // every task the text-only model judged
}

// CurationDecision is a lead's decision on one candidate.
type CurationDecision struct {
	SampleID  string   `json:"sample_id"`
	Category  string   `json:"category"` // debiased: the task
	FailedBy  []string `json:"failed_by,omitempty"`
	Decision  string   `json:"decision"` // "keep" or "drop"
	Reason    string   `json:"reason,omitempty"`
	DecidedBy string   `json:"decided_by"`
	DecidedAt string   `json:"decided_at"`
	// Debiased only: the shortcut checks that flag it, its bias score (the
	// held-out probability the text-only model put on its gold answer) and the
	// pruning round that chose it.
	Shortcuts []string `json:"shortcuts,omitempty"`
	Bias      *float64 `json:"bias_score,omitempty"`
	Round     int      `json:"round,omitempty"`
}

// CurationTask is one task's text-only accuracy before and after a debiased
// subset's pruning, proposed (before the lead's decisions).
type CurationTask struct {
	Task   string  `json:"task"`
	N      int     `json:"n"`
	Left   int     `json:"left"`
	Before float64 `json:"blind_before"`
	After  float64 `json:"blind_after"`
	Chance float64 `json:"chance"`
}
