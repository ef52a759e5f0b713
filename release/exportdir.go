package release

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// An OutDirError refuses an export's output folder (it is not empty, or cannot
// be read); its text is the sentence saying why.
type OutDirError struct{ Reason string }

func (e *OutDirError) Error() string { return e.Reason }

// CheckOutDir accepts an output folder that does not exist or is empty.
func CheckOutDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return &OutDirError{fmt.Sprintf("output folder %s: %v", dir, err)}
	case len(entries) > 0:
		return &OutDirError{fmt.Sprintf("output folder %s is not empty", dir)}
	}
	return nil
}

// ExportDir exports req into the folder out (an absolute path), which must be
// missing or empty (CheckOutDir): the release is written into a hidden folder
// beside it, ".out.partial-PID-…", renamed to out when complete, so that out
// never holds half an export; the hidden folder is removed when the export
// fails. The hidden folders that exports into out left when they were killed
// are removed first; their paths are returned.
func ExportDir(ctx context.Context, out string, req ExportRequest) (Manifest, []string, error) {
	if err := CheckOutDir(out); err != nil {
		return Manifest{}, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return Manifest{}, nil, err
	}
	removed := RemoveStalePartials(out)
	// The hidden folder's name carries this process's id, so that a later export can
	// tell a folder left by a killed export from one still being written.
	tmp, err := os.MkdirTemp(filepath.Dir(out), fmt.Sprintf("%s%d-", partialPrefix(out), os.Getpid()))
	if err != nil {
		return Manifest{}, removed, err
	}
	m, err := Export(ctx, DirSink(tmp), req)
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		err = moveInto(tmp, out)
	}
	if err != nil {
		os.RemoveAll(tmp)
		return Manifest{}, removed, err
	}
	return m, removed, nil
}

// partialPrefix is the name prefix of the hidden folders an export into out
// writes before renaming: ".out.partial-PID-".
func partialPrefix(out string) string { return "." + filepath.Base(out) + ".partial-" }

// RemoveStalePartials removes the hidden folders that exports into out left when
// they were killed (kill -9, a power cut): those whose process id no longer runs.
// A folder of an export still running, or one it cannot attribute, is kept. It
// returns the paths removed.
func RemoveStalePartials(out string) []string {
	parent, prefix := filepath.Dir(out), partialPrefix(out)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processRuns(pid) {
			continue
		}
		p := filepath.Join(parent, e.Name())
		if os.RemoveAll(p) == nil {
			removed = append(removed, p)
		}
	}
	return removed
}

// moveInto renames the finished export tmp to out, which is missing or empty.
func moveInto(tmp, out string) error {
	if err := CheckOutDir(out); err != nil {
		return err
	}
	if err := os.Remove(out); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(tmp, out)
}
