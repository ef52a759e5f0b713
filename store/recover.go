package store

import (
	"fmt"
	"log"
	"runtime/debug"

	"github.com/benchwright/benchwright/bench"
)

// catchPanic, deferred in a goroutine the store starts for a request, turns a
// panic there into *err instead of ending the process (a server would take
// every other person's work down with it). what names the work for the log.
func catchPanic(err *error, what string) {
	v := recover()
	if v == nil {
		return
	}
	log.Printf("benchwright: panic in %s: %v\n%s", what, v, debug.Stack())
	*err = fmt.Errorf("%s: %w", what, bench.ErrFault)
}

// caught runs fn, turning a panic in it into an error (catchPanic).
func caught(what string, fn func() error) (err error) {
	defer catchPanic(&err, what)
	return fn()
}
