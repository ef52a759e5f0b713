package store

import "github.com/benchwright/benchwright/bench"

// The contract lives in package bench (issue 28 item 1). These names keep the
// store's callers compiling unchanged while they move to bench's; they are the
// same errors and types, not copies (errors.Is and type identity hold across).

// Domain errors: see package bench.
var (
	ErrNotFound        = bench.ErrNotFound
	ErrConflict        = bench.ErrConflict
	ErrForbidden       = bench.ErrForbidden
	ErrInvalid         = bench.ErrInvalid
	ErrUnauthorized    = bench.ErrUnauthorized
	ErrNewerSchema     = bench.ErrNewerSchema
	ErrFault           = bench.ErrFault
	ErrSessionEnded    = bench.ErrSessionEnded
	ErrTooManyFailures = bench.ErrTooManyFailures
	ErrQuota           = bench.ErrQuota
	ErrImageMissing    = bench.ErrImageMissing
	ErrImageChanged    = bench.ErrImageChanged
	ErrDiskFull        = bench.ErrDiskFull
	ErrUnavailable     = bench.ErrUnavailable
)

// Message turns an error from this package into a sentence for people
// (bench.Message): the store hands out its driver's errors as
// bench.DatabaseError (StorageError), so no sentence needs to know a driver.
func Message(err error) string { return bench.Message(err) }

// Contract types: see package bench.
type (
	AcceptRestResult     = bench.AcceptRestResult
	ActivityRow          = bench.ActivityRow
	AgreementRow         = bench.AgreementRow
	AnnotatorRow         = bench.AnnotatorRow
	AuditFinding         = bench.AuditFinding
	AuditReport          = bench.AuditReport
	BalanceCell          = bench.BalanceCell
	BoxRow               = bench.BoxRow
	Candidate            = bench.Candidate
	CandidateFilter      = bench.CandidateFilter
	CandidateRef         = bench.CandidateRef
	CorrectionInput      = bench.CorrectionInput
	DrawInput            = bench.DrawInput
	ErrorRow             = bench.ErrorRow
	Event                = bench.Event
	ExportInput          = bench.ExportInput
	ExportResult         = bench.ExportResult
	Figure               = bench.Figure
	FunnelRow            = bench.FunnelRow
	HardCandidate        = bench.HardCandidate
	HardDecision         = bench.HardDecision
	HardSubset           = bench.HardSubset
	HardSubsetInput      = bench.HardSubsetInput
	HumanBaseline        = bench.HumanBaseline
	HumanItem            = bench.HumanItem
	Image                = bench.Image
	ImageSize            = bench.ImageSize
	ImportBatchInput     = bench.ImportBatchInput
	ImportBatchResult    = bench.ImportBatchResult
	ImportProblem        = bench.ImportProblem
	ImportProgress       = bench.ImportProgress
	ImportResult         = bench.ImportResult
	ImportSamplesOptions = bench.ImportSamplesOptions
	ImportSamplesResult  = bench.ImportSamplesResult
	Lineage              = bench.Lineage
	ModelResult          = bench.ModelResult
	ModelRun             = bench.ModelRun
	QueueItem            = bench.QueueItem
	ReasonCount          = bench.ReasonCount
	ReasonRow            = bench.ReasonRow
	Refusal              = bench.Refusal
	RejectedFile         = bench.RejectedFile
	Release              = bench.Release
	ReleaseItem          = bench.ReleaseItem
	ReviewInput          = bench.ReviewInput
	ReviewRecord         = bench.ReviewRecord
	RevisionInfo         = bench.RevisionInfo
	SampleFilter         = bench.SampleFilter
	SampleFormat         = bench.SampleFormat
	SampleInfo           = bench.SampleInfo
	SampleOutcome        = bench.SampleOutcome
	SamplePage           = bench.SamplePage
	SampleQuery          = bench.SampleQuery
	SampleRow            = bench.SampleRow
	SampleSort           = bench.SampleSort
	SelectionResult      = bench.SelectionResult
	SkipReason           = bench.SkipReason
	ThroughputRow        = bench.ThroughputRow
	ValidationBatch      = bench.ValidationBatch
	ValidationDraw       = bench.ValidationDraw
	ValidationStatus     = bench.ValidationStatus
	ValidationStratum    = bench.ValidationStratum
	VerifierAlpha        = bench.VerifierAlpha
	VerifierRow          = bench.VerifierRow
	VideoFrame           = bench.VideoFrame
)

// Their constants and values.
const (
	BalanceFar       = bench.BalanceFar
	BalanceMet       = bench.BalanceMet
	BalanceNone      = bench.BalanceNone
	BalancePartial   = bench.BalancePartial
	FormatCSV        = bench.FormatCSV
	FormatJSONL      = bench.FormatJSONL
	ImageOriginal    = bench.ImageOriginal
	ImagePreview     = bench.ImagePreview
	ImageThumb       = bench.ImageThumb
	SeverityError    = bench.SeverityError
	SeverityWarning  = bench.SeverityWarning
	SkipExists       = bench.SkipExists
	SkipInvalid      = bench.SkipInvalid
	SkipLint         = bench.SkipLint
	SkipUnknownImage = bench.SkipUnknownImage
	SortAuthor       = bench.SortAuthor
	SortCreated      = bench.SortCreated
	SortHop          = bench.SortHop
	SortID           = bench.SortID
	SortKind         = bench.SortKind
	SortState        = bench.SortState
	SortUpdated      = bench.SortUpdated
)

var (
	SampleSorts = bench.SampleSorts
)
