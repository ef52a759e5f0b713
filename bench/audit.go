package bench

import (
	"cmp"
	"fmt"
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
