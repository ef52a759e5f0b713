package bench

import (
	"fmt"
	"os"
	"path/filepath"
)

// Image is one imported picture. Files are referenced in place: Path() is the import
// folder joined with RelPath; the stored hash, size and modification time detect a
// file that changed or vanished after import.
type Image struct {
	ID      int64
	Root    string
	RelPath string
	SHA256  string
	Size    int64
	MtimeNS int64
	Width   int
	Height  int
	Scene   string
}

// Path is the image file's absolute path.
func (im Image) Path() string { return filepath.Join(im.Root, filepath.FromSlash(im.RelPath)) }

// CheckFile compares the file on disk with what was imported (size and modification
// time: cheap; the audit re-hashes).
func (im Image) CheckFile() error {
	st, err := os.Stat(im.Path())
	if err != nil {
		return fmt.Errorf("%s: %w", im.RelPath, ErrImageMissing)
	}
	if st.Size() != im.Size || st.ModTime().UnixNano() != im.MtimeNS {
		return fmt.Errorf("%s: %w", im.RelPath, ErrImageChanged)
	}
	return nil
}

// ImportProgress is reported while an import runs.
type ImportProgress struct {
	Total, Done                              int
	Imported, Unchanged, Duplicate, Rejected int
	Current                                  string
}

// RejectedFile is a file an import did not take, with the reason in words.
type RejectedFile struct {
	RelPath string
	Reason  string
}

// ImportResult sums up an import.
type ImportResult struct {
	Imported  int
	Unchanged int // already imported at the same path: same size and time, or same content
	Duplicate []RejectedFile
	Rejected  []RejectedFile // unreadable, changed, or not a file (links, pipes): with the reason
	Ignored   int            // files without an image ending
}
