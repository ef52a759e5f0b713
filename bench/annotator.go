package bench

import (
	"github.com/benchwright/benchwright/annotate"
)

// RevisionInfo is one immutable revision of a sample.
type RevisionInfo struct {
	Number     int
	Change     string // "submit", "revise" or "correction"
	AuthorName string
	CreatedAt  string
	// Acknowledged lists the lint warning rule ids the author acknowledged when
	// submitting ("submit" and "revise" revisions).
	Acknowledged []string
	// Comment is a correction's comment.
	Comment string
	Content annotate.Sample
}
