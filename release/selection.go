package release

import (
	"fmt"

	"github.com/benchwright/benchwright/annotate"
)

// ApplySplit gives samples, in place, the split a release of them carries:
// spec's when spec is set (annotate.Split: image-disjoint, stratified), none at
// all when spec is nil and none is set, else each sample's own. Its error is
// annotate.Split's sentence about spec.
func ApplySplit(samples []annotate.Sample, spec *annotate.SplitSpec, none bool) error {
	switch {
	case spec != nil:
		assign, err := annotate.Split(samples, *spec)
		if err != nil {
			return err
		}
		for i := range samples {
			samples[i].Split = assign[samples[i].ID]
		}
	case none:
		for i := range samples {
			samples[i].Split = ""
		}
	}
	return nil
}

// SameSelection refuses a selection that changed between a freeze's audit and
// its write: before and now are the current revision of every accepted sample
// (by id), images the audited images (by path) and nowImages the project's
// images as they are now. Another accepted sample, another current revision or
// another image row is a change; contents are immutable per revision, so equal
// revisions mean equal samples. Its error is the sentence saying what changed.
func SameSelection[I comparable](before, now map[string]int64, images, nowImages map[string]I) error {
	if len(before) != len(now) {
		return fmt.Errorf("the accepted samples changed during the audit (%d, now %d); freeze again", len(before), len(now))
	}
	for id, rev := range before {
		if r, ok := now[id]; !ok || r != rev {
			return fmt.Errorf("sample %s changed during the audit; freeze again", id)
		}
	}
	for path, im := range images {
		if nowImages[path] != im {
			return fmt.Errorf("image %s changed during the audit; freeze again", path)
		}
	}
	return nil
}
