package bench

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
)

// CandidateRef names one candidate: a transform of one revision of a parent, started
// at one of its steps.
type CandidateRef struct {
	Parent         string            `json:"parent"`
	ParentRevision int               `json:"parent_revision"`
	Transform      augment.Transform `json:"transform"`
	Anchor         string            `json:"anchor"` // the parent's step the candidate was made from, or the shuffled order
}

// String is "office-00004 r2 subgraph:step3".
func (r CandidateRef) String() string {
	return fmt.Sprintf("%s r%d %s:%s", r.Parent, r.ParentRevision, r.Transform, r.Anchor)
}

// Candidate is a derived sample offered for acceptance.
type Candidate struct {
	CandidateRef
	// Sample is the derived content: no id (one is given on acceptance), Parent and
	// Transform set.
	Sample annotate.Sample
	// ParentSample is the parent's content at ParentRevision, for showing the two
	// side by side.
	ParentSample annotate.Sample
	// Origin[i] is the parent step Sample.Steps[i] comes from ("" for an added step).
	Origin []string
	// Edit, when set, says why the candidate must be edited before it can be
	// accepted; it can still be taken to the editor as a draft.
	Edit string
	// Duplicate, when set, names the sample on the same images (in the same order)
	// that asks the same question (or "candidate …" for an earlier candidate of this list); such a
	// candidate cannot be accepted.
	Duplicate string
	// Findings are the lint findings of the derived sample (errors block acceptance).
	Findings []annotate.Finding
}

// Acceptable reports whether Accept would take the candidate as it is.
func (c Candidate) Acceptable() bool {
	return c.Edit == "" && c.Duplicate == "" && !annotate.HasErrors(c.Findings)
}

// CandidateFilter narrows a candidate listing; zero fields do not filter.
type CandidateFilter struct {
	Transform augment.Transform
	Parent    string
}

// Lineage is where a derived sample came from.
type Lineage struct {
	Sample         string            `json:"sample"`
	Parent         string            `json:"parent"`
	ParentRevision int               `json:"parent_revision"`
	Transform      augment.Transform `json:"transform"`
	Anchor         string            `json:"anchor"`
	By             string            `json:"by"`
	At             string            `json:"at"`
}
