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

// Contract types, their constants and pure functions: see package bench.
const FormatCSV = bench.FormatCSV
const FormatJSONL = bench.FormatJSONL
const ImageOriginal = bench.ImageOriginal
const ImagePreview = bench.ImagePreview
const ImageThumb = bench.ImageThumb
const SkipExists = bench.SkipExists
const SkipInvalid = bench.SkipInvalid
const SkipLint = bench.SkipLint
const SkipUnknownImage = bench.SkipUnknownImage
const SortAuthor = bench.SortAuthor
const SortCreated = bench.SortCreated
const SortHop = bench.SortHop
const SortID = bench.SortID
const SortKind = bench.SortKind
const SortState = bench.SortState
const SortUpdated = bench.SortUpdated

type AcceptRestResult = bench.AcceptRestResult
type ActivityRow = bench.ActivityRow
type AgreementRow = bench.AgreementRow
type AnnotatorRow = bench.AnnotatorRow
type AuditFinding = bench.AuditFinding
type BoxRow = bench.BoxRow
type Candidate = bench.Candidate
type CandidateFilter = bench.CandidateFilter
type CandidateRef = bench.CandidateRef
type CorrectionInput = bench.CorrectionInput
type DrawInput = bench.DrawInput
type ErrorRow = bench.ErrorRow
type Event = bench.Event
type ExportInput = bench.ExportInput
type ExportResult = bench.ExportResult
type Figure = bench.Figure
type FunnelRow = bench.FunnelRow
type HardCandidate = bench.HardCandidate
type HardDecision = bench.HardDecision
type HardSubset = bench.HardSubset
type HardSubsetInput = bench.HardSubsetInput
type HumanBaseline = bench.HumanBaseline
type HumanItem = bench.HumanItem
type Image = bench.Image
type ImageSize = bench.ImageSize
type ImportBatchInput = bench.ImportBatchInput
type ImportBatchResult = bench.ImportBatchResult
type ImportProblem = bench.ImportProblem
type ImportProgress = bench.ImportProgress
type ImportResult = bench.ImportResult
type ImportSamplesOptions = bench.ImportSamplesOptions
type ImportSamplesResult = bench.ImportSamplesResult
type Lineage = bench.Lineage
type ModelResult = bench.ModelResult
type ModelRun = bench.ModelRun
type QueueItem = bench.QueueItem
type ReasonCount = bench.ReasonCount
type ReasonRow = bench.ReasonRow
type Refusal = bench.Refusal
type RejectedFile = bench.RejectedFile
type Release = bench.Release
type ReleaseItem = bench.ReleaseItem
type ReviewInput = bench.ReviewInput
type ReviewRecord = bench.ReviewRecord
type RevisionInfo = bench.RevisionInfo
type SampleFilter = bench.SampleFilter
type SampleFormat = bench.SampleFormat
type SampleInfo = bench.SampleInfo
type SampleOutcome = bench.SampleOutcome
type SamplePage = bench.SamplePage
type SampleQuery = bench.SampleQuery
type SampleRow = bench.SampleRow
type SampleSort = bench.SampleSort
type SkipReason = bench.SkipReason
type ThroughputRow = bench.ThroughputRow
type ValidationBatch = bench.ValidationBatch
type ValidationDraw = bench.ValidationDraw
type ValidationStatus = bench.ValidationStatus
type ValidationStratum = bench.ValidationStratum
type VerifierAlpha = bench.VerifierAlpha
type VerifierRow = bench.VerifierRow
type VideoFrame = bench.VideoFrame

var SampleSorts = bench.SampleSorts
