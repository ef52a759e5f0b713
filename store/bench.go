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
