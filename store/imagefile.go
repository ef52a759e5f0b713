package store

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
)

// probe is what an import learns of one file before storing it: where it is in the
// project (RelPath, Scene) and what package imagefile read of it.
type probe struct {
	RelPath string
	Scene   string
	SHA256  string
	Size    int64
	MtimeNS int64
	Width   int
	Height  int
	PHash   nullHash // perceptual hash of the thumbnail (neardup.go)
}

// testHookBeforeRead, when set (by tests), runs after a file's header was checked and
// before the file is read whole.
var testHookBeforeRead func(abs string)

// probeImage reads one file of an import (imagefile.Read: checked, decoded, hashed,
// its preview and thumbnail written into previewDir) and names it in the project:
// its path relative to the folder imported and its scene, the folder it is in.
func probeImage(abs, rel, previewDir string) (probe, error) {
	p := probe{RelPath: filepath.ToSlash(rel)}
	if dir := filepath.Dir(rel); dir != "." {
		p.Scene = filepath.Base(dir)
	}
	var before func()
	if hook := testHookBeforeRead; hook != nil {
		before = func() { hook(abs) }
	}
	info, err := imagefile.Read(abs, previewDir, before)
	p.SHA256, p.Size, p.MtimeNS, p.Width, p.Height = info.SHA256, info.Size, info.MtimeNS, info.Width, info.Height
	var notFile *imagefile.NotAFileError
	switch {
	case errors.As(err, &notFile):
		return p, fmt.Errorf("%w: %s", imagefile.ErrBadImage, annotate.NotAFileReason(notFile.Mode))
	case err != nil && !errors.Is(err, imagefile.ErrBadImage):
		return p, fmt.Errorf("%s: %w", rel, err)
	case err == nil:
		p.PHash = importHash(previewDir, p.SHA256, info.Thumb)
	}
	return p, err
}
