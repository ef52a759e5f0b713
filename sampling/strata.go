package sampling

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
)

// Stratify names how a batch's items are grouped into strata.
type Stratify string

// The stratifications.
const (
	ByTask    Stratify = "task"     // the sample's task (PCSR-Bench's task-wise sampling)
	ByKind    Stratify = "kind"     // the sample's kind
	ByHopView Stratify = "hop_view" // hop × view for hop-QA samples, the kind for others
)

// Stratifications lists the stratifications.
var Stratifications = []Stratify{ByTask, ByKind, ByHopView}

// Valid reports whether s is a known stratification.
func (s Stratify) Valid() bool { return s == ByTask || s == ByKind || s == ByHopView }

// StratumOf is the stratum of sample s under by: "T3", "mcq", "hop 2 ego";
// a sample without a task is in stratum "(no task)".
func StratumOf(by Stratify, s annotate.Sample) string {
	switch by {
	case ByTask:
		if s.Task == "" {
			return "(no task)"
		}
		return s.Task
	case ByHopView:
		if s.Kind == annotate.KindHopQA {
			return fmt.Sprintf("hop %d %s", s.Hop, s.View)
		}
	}
	return string(s.Kind)
}
