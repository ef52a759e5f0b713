package release

// Curation is the provenance of a release curated from another: a hard subset
// (SpatialScore-Hard) of the parent release's samples that at least K of the N
// models failed, drawn balanced over categories to Target by Seed, then kept or
// dropped by hand. MANIFEST.json records it under release.curation.
type Curation struct {
	Method     string             `json:"method"` // "hard-subset"
	Parent     string             `json:"parent"` // the parent release's NAME@VERSION
	Models     []string           `json:"models"` // the N models, in the order given
	K          int                `json:"k"`
	N          int                `json:"n"`
	Target     int                `json:"target"` // 0: every candidate
	Seed       int64              `json:"seed"`
	Strict     bool               `json:"strict,omitempty"` // a hop answer whose box missed counted as failed
	Pool       int                `json:"pool"`             // samples failed by at least K models
	Candidates int                `json:"candidates"`       // drawn into the candidate list
	Kept       int                `json:"kept"`
	Decisions  []CurationDecision `json:"decisions"` // every candidate's, by sample id
	ProposedBy string             `json:"proposed_by"`
	ProposedAt string             `json:"proposed_at"`
}

// CurationDecision is a lead's decision on one candidate.
type CurationDecision struct {
	SampleID  string   `json:"sample_id"`
	Category  string   `json:"category"`
	FailedBy  []string `json:"failed_by"`
	Decision  string   `json:"decision"` // "keep" or "drop"
	Reason    string   `json:"reason,omitempty"`
	DecidedBy string   `json:"decided_by"`
	DecidedAt string   `json:"decided_at"`
}
