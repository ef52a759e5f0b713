package bench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/benchwright/benchwright/shortcut"
)

// AuditFinding is one problem the integrity audit found.
type AuditFinding struct {
	Severity string `json:"severity"`
	Check    string `json:"check"`
	SampleID string `json:"sample,omitempty"`
	Image    string `json:"image,omitempty"`
	Message  string `json:"message"`
	// Group is every sample of a duplicate-question finding's group (sorted), the
	// finding's own included: each member has its finding, so that withdrawing one
	// sample of three never leaves a duplicate for the next audit to find
	// (WithdrawDuplicates keeps one and withdraws the rest).
	Group []string `json:"group,omitempty"`
}

func (f AuditFinding) String() string {
	where := cmp.Or(f.SampleID, f.Image, "-")
	return fmt.Sprintf("%s\t%s\t%s\t%s", f.Severity, f.Check, where, f.Message)
}

// Severities of audit findings: errors block a freeze, warnings do not.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// AuditReport is the result of an integrity audit.
type AuditReport struct {
	Samples  int // accepted samples audited
	Images   int // image files re-hashed
	Findings []AuditFinding
}

// Errors counts the findings that block a freeze.
func (r AuditReport) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == SeverityError {
			n++
		}
	}
	return n
}

// Shortcuts are the findings of the shortcut checks (issue 29: what a model
// could answer without looking): answer letters, option lengths and
// near-duplicate images. A freeze's confirmation names them.
func (r AuditReport) Shortcuts() []AuditFinding {
	var out []AuditFinding
	for _, f := range r.Findings {
		switch f.Check {
		case CheckAnswerPosition, CheckOptionLength, CheckNearDuplicate:
			out = append(out, f)
		}
	}
	return out
}

// Summary is one line: what was audited and how many errors and warnings.
func (r AuditReport) Summary() string {
	e := r.Errors()
	return fmt.Sprintf("%d accepted samples, %d images: %d errors, %d warnings", r.Samples, r.Images, e, len(r.Findings)-e)
}

// WriteText writes one tab-separated line per finding (severity, check, sample or
// image, message), then the summary.
func (r AuditReport) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String() + "\n")
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes one JSON object per finding and line.
func (r AuditReport) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	for _, f := range r.Findings {
		if err := e.Encode(f); err != nil {
			return err
		}
	}
	return nil
}

// The checks of the integrity audit, in report order.
const (
	CheckLint         = "lint"               // an accepted sample has lint errors
	CheckTrail        = "trail"              // the verification trail the policy requires is incomplete
	CheckImageMissing = "image-missing"      // the image file is gone, or not in the project
	CheckImageHash    = "image-hash"         // the image file's SHA-256 differs from the import's
	CheckDuplicate    = "duplicate-question" // two samples ask the same question about one image
	CheckSplit        = "split-overlap"      // an image has samples in both train and test
	CheckBalance      = "balance"            // a balance target is not met (a warning)
	// CheckNearDuplicate: two images look alike (perceptual hashes within the
	// project's distance, a heuristic): an error across splits, else a warning.
	CheckNearDuplicate = shortcut.CheckNearDuplicateImage
	// CheckAnswerPosition and CheckOptionLength: a task's correct letters are
	// not spread as chance spreads them, or its correct option is too often the
	// longest or the shortest (shortcut.Balance; warnings).
	CheckAnswerPosition = shortcut.CheckAnswerPosition
	CheckOptionLength   = shortcut.CheckOptionLength
)
