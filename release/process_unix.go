//go:build unix

package release

import (
	"errors"
	"syscall"
)

// processRuns reports whether a process with this id exists on this machine.
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
