package video

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// ImportOptions say how ImportVideo takes a video's frames.
type ImportOptions struct {
	// Frames is how many frames to take (1 to annotate.MaxImages; 0 means 8, as
	// SpatialScore takes).
	Frames int
	// Sampling is Uniform (the default when "") or UniformTail.
	Sampling string
	// Root is the folder on this machine the frames are written into, one folder per
	// video, and imported from (through the team server's upload for a remote Service).
	Root string
}

// ImportVideo takes opts.Frames frames of the video file, writes them as
// <Root>/<video name>/frame-01.jpg … and imports Root as ordinary project images,
// recording for each frame its video and its time (RecordVideoFrames). It returns
// the frames' project paths in order. It works over any Session: of a project file or
// of a team server (whose ImportImages uploads Root). A video whose frames cannot all be
// taken leaves nothing behind: the frames are extracted into a hidden folder below
// Root (which imports skip) and moved in place only when all of them are there.
// Errors for an unreadable file wrap ErrNotVideo and name the file.
func ImportVideo(ctx context.Context, sess bench.Session, projectID int64, file string, opts ImportOptions) ([]string, error) {
	n, sampling := opts.Frames, opts.Sampling
	if n == 0 {
		n = 8
	}
	if sampling == "" {
		sampling = Uniform
	}
	if n < 1 || n > annotate.MaxImages {
		return nil, fmt.Errorf("%w: a video gives 1 to %d frames, not %d", bench.ErrInvalid, annotate.MaxImages, n)
	}
	if opts.Root == "" {
		return nil, fmt.Errorf("%w: no folder for the frames", bench.ErrInvalid)
	}
	root := opts.Root
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("cannot make the folder %s for the frames: %w", root, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	sum, err := fileSHA256(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, ErrNotVideo, errors.Unwrap(err))
	}
	info, err := Probe(ctx, file)
	if err != nil {
		return nil, err
	}
	idx := Indices(info, n, sampling)
	times := Times(info, n, sampling)
	tmp, err := os.MkdirTemp(root, ".import-video-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	files, err := Extract(ctx, file, times, tmp)
	if err != nil {
		return nil, err
	}
	name, err := frameFolder(root, file, sum, files)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, name)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return nil, err
		}
	}
	res, err := sess.ImportImages(ctx, projectID, root, nil)
	if err != nil {
		return nil, err
	}
	rejected := map[string]string{}
	for _, r := range res.Rejected {
		rejected[r.RelPath] = r.Reason
	}
	paths := make([]string, len(files))
	rec := make([]bench.VideoFrame, len(files))
	for i, f := range files {
		rel := path.Join(name, filepath.Base(f))
		if why, ok := rejected[rel]; ok {
			return nil, fmt.Errorf("frame %s was not imported: %s", rel, why)
		}
		im, err := sess.ImageByPath(ctx, projectID, rel)
		if errors.Is(err, bench.ErrNotFound) {
			// The same picture is in the project already (a still scene, or a frame
			// imported before): images are kept once, by content.
			var fsum string
			if fsum, err = fileSHA256(filepath.Join(dir, filepath.Base(f))); err == nil {
				im, err = sess.ImageBySHA256(ctx, projectID, fsum)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("frame %s: %w", rel, err)
		}
		paths[i] = im.RelPath
		rec[i] = bench.VideoFrame{Path: im.RelPath, Frame: annotate.Frame{Video: abs, VideoSHA256: sum,
			Duration: info.Duration, Time: times[i], Index: idx[i]}}
	}
	if err := sess.RecordVideoFrames(ctx, projectID, rec); err != nil {
		return nil, err
	}
	return paths, nil
}

// frameFolder chooses the folder below root for a video's frames: the video's
// name without its extension, or with the start of its SHA-256 appended when
// another video's frames have that name. A folder holding exactly these frames
// already (the same video imported again the same way) is used again.
func frameFolder(root, file, sum string, frames []string) (string, error) {
	base := strings.TrimLeft(strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), ".")
	if base == "" {
		base = "video"
	}
	for _, name := range []string{base, base + "-" + sum[:12]} {
		dir := filepath.Join(root, name)
		if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
			return name, nil
		}
		if sameFiles(dir, frames) {
			return name, nil
		}
	}
	return "", fmt.Errorf("%s: the folders %s and %s-%s in %s hold other files; move them away or write the frames into another folder (--to)", file, base, base, sum[:12], root)
}

// sameFiles reports whether dir holds exactly the files frames (by name and
// content).
func sameFiles(dir string, frames []string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != len(frames) {
		return false
	}
	for _, f := range frames {
		a, err1 := fileSHA256(f)
		b, err2 := fileSHA256(filepath.Join(dir, filepath.Base(f)))
		if err1 != nil || err2 != nil || a != b {
			return false
		}
	}
	return true
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
