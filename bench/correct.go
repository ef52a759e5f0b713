package bench

import (
	"github.com/benchwright/benchwright/annotate"
)

// CorrectionInput is a verifier's correction of the sample they are reviewing.
type CorrectionInput struct {
	SampleID string
	Round    int             // the round the verifier is reviewing in
	BasedOn  int             // the revision number the verifier looked at
	Content  annotate.Sample // the corrected content (the full sample)
	Comment  string          // required: what was corrected and why
}
