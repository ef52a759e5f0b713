package release

import (
	"errors"
	"syscall"
)

// processRuns reports whether a process with this id exists on this machine: it
// can be opened (or is another user's) and has not exited.
func processRuns(pid int) bool {
	const queryLimitedInformation = 0x1000 // PROCESS_QUERY_LIMITED_INFORMATION
	const stillActive = 259                // STILL_ACTIVE
	h, err := syscall.OpenProcess(queryLimitedInformation, false, uint32(pid))
	if err != nil {
		return errors.Is(err, syscall.ERROR_ACCESS_DENIED)
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
