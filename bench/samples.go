package bench

import (
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// SampleInfo is a sample's row with its content: the draft while it is being written,
// the current revision once submitted.
type SampleInfo struct {
	ID         string
	ProjectID  int64
	ImageID    int64
	ImagePath  string
	Kind       annotate.Kind
	Status     verify.State
	PrevStatus verify.State
	AuthorID   int64
	AuthorName string
	Version    int // optimistic-lock token: every write carries the version it read
	Revision   int // number of the current revision, 0 before the first submit
	RevisionID int64
	Content    annotate.Sample
	UpdatedAt  string
}

// SampleFilter narrows a sample listing; zero fields do not filter.
type SampleFilter struct {
	Status   verify.State
	AuthorID int64
	Kind     annotate.Kind
	ImageID  int64
	// After, when set, is the last sample of the previous page: the page then starts
	// right after it (keyset paging, as fast deep in the list as at its top, where an
	// offset walks every row before it: 19 ms at the middle of 10k samples).
	After *SampleInfo
}
