package bench

import (
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/score"
)

// Release is a frozen, versioned selection of a project's accepted samples.
type Release struct {
	ID          int64
	ProjectID   int64
	Project     string
	Name        string
	Version     string
	Kinds       []annotate.Kind     // the kinds filter it was frozen with; empty = all
	Tasks       []string            // the tasks filter; empty = all
	Split       *annotate.SplitSpec // the split it was frozen with, or nil
	Samples     int
	SplitCounts map[string]int // samples per split ("" = none)
	CreatedBy   string
	CreatedAt   string
}

// Ref is the release's NAME@VERSION.
func (r Release) Ref() string { return r.Name + "@" + r.Version }

// ReleaseItem is one sample of a release: the revision that went in and its split.
type ReleaseItem struct {
	SampleID    string
	RevisionID  int64
	Revision    int // the revision's number
	Split       string
	ImagePath   string
	ImageSHA256 string
	Width       int
	Height      int
	Content     annotate.Sample // the frozen revision's content, Split set to the release's
	// More describes the images after the first (Content.MoreImages) as they were
	// frozen, in order; empty for a sample of one image.
	More []release.ImageFacts
}

// Gold is the item as package score scores it: the frozen content and the
// first image's size.
func (it ReleaseItem) Gold() score.Gold {
	return score.Gold{Sample: it.Content, Width: it.Width, Height: it.Height}
}

// Golds is items as package score scores them, in order.
func Golds(items []ReleaseItem) []score.Gold {
	gs := make([]score.Gold, len(items))
	for i, it := range items {
		gs[i] = it.Gold()
	}
	return gs
}

// Record is the item as release formats read it.
func (it ReleaseItem) Record() release.Record {
	return release.Record{Sample: it.Content, Width: it.Width, Height: it.Height, ImageSHA256: it.ImageSHA256, More: it.More}
}

// FreezeInput is what a lead chooses when freezing a release.
type FreezeInput struct {
	ProjectID int64
	Name      string
	Version   string
	Kinds     []annotate.Kind     // only these kinds; empty = every kind
	Tasks     []string            // only samples with these tasks; empty = every task
	Split     *annotate.SplitSpec // an image-disjoint stratified train/test split; nil keeps each sample's own split
	NoSplit   bool                // without Split: the release carries no split, each sample's own is left out
}
