package bench

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// SampleSort is a column the manager sorts by.
type SampleSort string

// The sort columns.
const (
	SortUpdated SampleSort = "updated" // last change (the default)
	SortCreated SampleSort = "created"
	// Ties are in ascending id order, also when the column is sorted descending.
	SortID     SampleSort = "id"
	SortState  SampleSort = "state"
	SortKind   SampleSort = "kind"
	SortAuthor SampleSort = "author" // the author's name
	SortHop    SampleSort = "hop"
)

// SampleSorts lists the sort columns in the order a screen offers them.
var SampleSorts = []SampleSort{SortUpdated, SortCreated, SortID, SortState, SortKind, SortAuthor, SortHop}

// SampleQuery selects and orders a project's samples for the manager. Zero fields do
// not filter; every set field must hold.
type SampleQuery struct {
	// Text: every word must start a word of the sample's id, question, options, text
	// answer or step contents ("chair lef" finds "the chair on the left").
	Text     string
	IDs      []string // exactly these samples (a link from an audit finding)
	States   []verify.State
	Kinds    []annotate.Kind
	AuthorID int64
	// VerifierID: samples this verifier reviewed (in Round, when set). Votes of a
	// round 3 still open are left out: whose they are is hidden until it closes.
	VerifierID int64
	Round      int // reviewed in this round (1–3)
	ImageID    int64
	Hop        int
	View       annotate.View
	Categories string // the category set as the dashboard names it: "att+rel", "none"
	Task       string
	Split      string
	// RejectReason: a rejection of any revision gave this reason (a criterion id, or "other").
	RejectReason string
	// Rejected: some revision was rejected (in Round, when set).
	Rejected     bool
	Acknowledged bool   // the current revision was submitted with lint warnings acknowledged
	Derived      bool   // the sample was derived from another (it names a parent)
	BySampling   bool   // accepted by sampling with the rest of a validated batch
	From, To     string // last change on or after From, on or before To (YYYY-MM-DD, UTC)

	Sort   SampleSort // SortUpdated when empty
	Desc   bool       // newest, highest or last first
	Offset int
	Limit  int // 50 when 0; at most 1000

	// QuickTotal: a search of words alone stops counting once it knows the
	// search is broad (a thirty-second of the project, and at least 1,000
	// samples), returns that many as Total and sets the page's TotalAtLeast. A
	// word in most samples then answers as fast as a rare one; the Samples
	// screen asks this first and for the exact count after. Other searches
	// count exactly either way.
	QuickTotal bool
}

// SampleRow is one sample of a manager page: the sample and what the manager shows
// of it beside its content.
type SampleRow struct {
	SampleInfo
	Categories   string   // the category set ("att+rel", "none")
	Reasons      []string // every reason its rejections gave, ids as stored
	Acknowledged bool
	Derived      bool
	CreatedAt    string
}

// SamplePage is a page of a search and the number of samples the whole search finds.
type SamplePage struct {
	Rows  []SampleRow
	Total int
	// TotalAtLeast: the search finds more than Total samples (QuickTotal
	// stopped counting at Total).
	TotalAtLeast bool
}

// Refusal is a sample an action left unchanged and the reason, in words.
type Refusal struct {
	SampleID string
	Reason   string
}

// SampleFormat is a file format ExportSamples writes.
type SampleFormat string

// The formats of ExportSamples.
const (
	FormatCSV   SampleFormat = "csv"   // one row per sample: its row and the fields people filter by
	FormatJSONL SampleFormat = "jsonl" // one native record per line (annotate's JSON), importable again
)

// SelectionResult says what an action on a selection of samples did: the samples it
// changed and, for each it left as it was, why.
type SelectionResult struct {
	Done    []string
	Refused []Refusal
	// Withdrawn: samples a withdrawal found withdrawn already. Nothing was left
	// undone there, so they are neither changed nor refused (nor audited).
	Withdrawn []string
}

// Summary says in one line what happened: "withdrew 3 samples; 1 refused (…)".
func (r SelectionResult) Summary(verb string) string {
	s := verb + " " + annotate.Plural(len(r.Done), "sample")
	if len(r.Withdrawn) > 0 {
		s += fmt.Sprintf("; %s withdrawn already", annotate.Plural(len(r.Withdrawn), "sample"))
	}
	if len(r.Refused) > 0 {
		s += fmt.Sprintf("; %d refused (%s: %s)", len(r.Refused), r.Refused[0].SampleID, r.Refused[0].Reason)
	}
	return s
}

// AuditErrors is a freeze refused because the audit found errors: the findings, so
// that a screen can open the samples they name. It is ErrInvalid (errors.Is).
type AuditErrors struct {
	Findings []AuditFinding
	text     string
}

// AuditErrorsOf rebuilds the refusal from its findings and text (a team server's
// client does, so that the screens can open the samples it names there too).
func AuditErrorsOf(findings []AuditFinding, text string) *AuditErrors {
	return &AuditErrors{Findings: findings, text: text}
}

func (e *AuditErrors) Error() string { return e.text }

// Message is the refusal for people: how many errors, and where to see them (the
// findings' own lines, with check ids and file paths, are for bwctl and the log).
func (e *AuditErrors) Message() string {
	n := 0
	for _, f := range e.Findings {
		if f.Severity == SeverityError {
			n++
		}
	}
	return fmt.Sprintf("Nothing was frozen: the audit found %s. Open the samples with errors, or run the audit, to see and fix them.", annotate.Plural(n, "error"))
}

func (e *AuditErrors) Unwrap() error { return ErrInvalid }
