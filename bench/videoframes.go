package bench

import (
	"github.com/benchwright/benchwright/annotate"
)

// VideoFrame is the provenance of a project image that is a frame of a video
// (migration 0023, bwctl import-video): the image's project path and where in
// which video it was taken.
type VideoFrame struct {
	Path string `json:"path"`
	annotate.Frame
}
