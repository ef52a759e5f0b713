package store_test

import (
	"context"
	"errors"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

func TestVideoFrames(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "clip", "frame-01.jpg"), encodeJPEG(t, 32, 24, color.RGBA{200, 0, 0, 255}))
	writeFile(t, filepath.Join(dir, "clip", "frame-02.jpg"), encodeJPEG(t, 32, 24, color.RGBA{0, 200, 0, 255}))
	writeFile(t, filepath.Join(dir, "still.jpg"), encodeJPEG(t, 32, 24, color.RGBA{0, 0, 200, 255}))
	if _, err := f.db.ImportImages(ctx, f.ann, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	sum := strings.Repeat("ab", 32)
	frames := []bench.VideoFrame{
		{Path: "clip/frame-01.jpg", Frame: annotate.Frame{Video: "/v/clip.mp4", VideoSHA256: sum, Duration: 4, Time: 0, Index: 0}},
		{Path: "clip/frame-02.jpg", Frame: annotate.Frame{Video: "/v/clip.mp4", VideoSHA256: sum, Duration: 4, Time: 3.96, Index: 99}},
	}
	cases := []struct {
		name   string
		actor  bench.User
		frames []bench.VideoFrame
		want   error
	}{
		{"a verifier may not record frames", f.ver, frames, bench.ErrForbidden},
		{"an unknown path records nothing", f.ann, append(frames[:1:1], bench.VideoFrame{Path: "clip/nope.jpg", Frame: frames[1].Frame}), bench.ErrNotFound},
		{"a frame without its video's hash", f.ann, []bench.VideoFrame{{Path: "still.jpg", Frame: annotate.Frame{Video: "/v/clip.mp4"}}}, bench.ErrInvalid},
		{"an annotator records them", f.ann, frames, nil},
		{"recording again replaces", f.lead, frames, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := f.db.RecordVideoFrames(ctx, c.actor, f.project.ID, c.frames)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			got, err := f.db.VideoFrames(ctx, f.lead, f.project.ID, []string{"clip/frame-02.jpg", "still.jpg", "clip/frame-01.jpg", "missing.jpg"})
			if err != nil {
				t.Fatal(err)
			}
			if c.want != nil && len(got) != 0 {
				// The refusals come first: nothing may have been recorded.
				t.Fatalf("a refused call recorded %v", got)
			}
			if c.want == nil {
				want := []bench.VideoFrame{frames[1], frames[0]}
				if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
					t.Fatalf("VideoFrames = %+v, want %+v (in the order asked, the still image left out)", got, want)
				}
			}
		})
	}
}
