package bench

import (
	"github.com/benchwright/benchwright/verify"
)

// ReviewInput is one verifier's decision on a sample in a round.
type ReviewInput struct {
	SampleID string
	Round    int
	BasedOn  int            // the revision number the verifier looked at
	Verdict  verify.Verdict // its Comment is the review's comment
	Seconds  float64        // time spent, for the dashboards
}

// ReviewRecord is a stored review.
type ReviewRecord struct {
	ID           int64
	SampleID     string
	Revision     int
	Round        int
	VerifierID   int64
	VerifierName string
	Group        string
	Decision     verify.Decision
	Judgements   map[string]bool
	Reasons      []string
	Comment      string
	Seconds      float64
	CreatedAt    string
}

// QueueItem is a sample a verifier may take now.
type QueueItem struct {
	SampleID string
	Round    int
	Kind     string
	Revision int
}

// Event is one line of a sample's timeline.
type Event struct {
	At     string
	Actor  string
	Action string
	Detail string
	Client string // the network address it came from through a team server, "" for local work
}
