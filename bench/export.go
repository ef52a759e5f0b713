package bench

import (
	"github.com/benchwright/benchwright/release"
)

// ExportInput says which release to export, how and where.
type ExportInput struct {
	Release   string // NAME@VERSION or the release's id
	ProjectID int64  // the release's project; 0 looks in every project
	Format    string // a format's name (release.Formats)
	OutDir    string // a folder that does not exist yet or is empty
}

// ExportResult is a finished export.
type ExportResult struct {
	Release  Release
	Dir      string
	Manifest release.Manifest
	// Removed are hidden folders of earlier exports into the same folder that were
	// killed half-way (their process is gone), removed before this one started.
	Removed []string
}
