package main

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
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/video"
)

func init() {
	commands["import-video"] = command{runImportVideo, "take frames of videos (ffmpeg) and import them as project images with their provenance"}
}

const importVideoUsage = "usage: bwctl import-video --db DB --project NAME --as USER [--frames N] [--sampling uniform|uniform-tail] [--to DIR] FILE…"

// runImportVideo takes --frames frames of each video, writes them as
// <to>/<video name>/frame-01.jpg … and imports <to> as ordinary project images,
// recording for each frame its video and its time (store.RecordVideoFrames). It
// prints the frames' project paths, one a line, in order. A video whose frames
// cannot all be taken is reported by name and leaves nothing behind: the frames
// are extracted into a hidden folder below <to> (which imports skip) and moved in
// place only when all of them are there.
func runImportVideo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import-video", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name")
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	frames := fs.Int("frames", 8, "frames to take of each video (SpatialScore takes 8)")
	sampling := fs.String("sampling", video.Uniform, "uniform: first, last and evenly spaced frames (lmms-eval's VSI-Bench, SpatialScore); uniform-tail: VLMEvalKit's spacing with the last frame appended")
	to := fs.String("to", "", "folder the frames are written into and imported from, one folder per video (default: video-frames beside a database file)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) == 0 || *project == "" || *frames < 1 || *frames > annotate.MaxImages || !slices.Contains(video.Samplings, *sampling) {
		fmt.Fprintln(stderr, importVideoUsage)
		if *frames < 1 || *frames > annotate.MaxImages {
			fmt.Fprintf(stderr, "--frames is from 1 to %d (the most images a sample shows)\n", annotate.MaxImages)
		}
		if !slices.Contains(video.Samplings, *sampling) {
			fmt.Fprintf(stderr, "--sampling is uniform or uniform-tail, not %q\n", *sampling)
		}
		return exitUsage
	}
	if err := video.Available(); err != nil {
		fmt.Fprintf(stderr, "bwctl: %v.\n", err)
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	root := *to
	if root == "" {
		file, ok := db.(*store.DB)
		if !ok {
			fmt.Fprintln(stderr, "bwctl import-video: give --to DIR, the folder on this workstation the frames are written into and uploaded from")
			return exitUsage
		}
		root = filepath.Join(file.FilesDir(), "video-frames")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		fmt.Fprintf(stderr, "bwctl import-video: cannot make the folder %s for the frames: %v\n", root, err)
		return exitUsage
	}
	p, err := db.ProjectByName(ctx, actor, *project)
	if err != nil {
		return fail(stderr, err)
	}
	exit := exitOK
	for _, file := range pos {
		paths, err := importVideo(ctx, db, actor, p.ID, file, *frames, *sampling, root)
		if code, ok := interrupted(stderr, "import-video", "the frames of "+file+" were not imported", err); ok {
			return code
		}
		if err != nil {
			fmt.Fprintf(stderr, "bwctl import-video: %s\n", videoMessage(file, err))
			exit = exitFindings
			continue
		}
		for _, p := range paths {
			fmt.Fprintln(stdout, p)
		}
	}
	return exit
}

// videoMessage says why a video was not imported, naming the file.
func videoMessage(file string, err error) string {
	switch {
	case errors.Is(err, video.ErrNotVideo):
		// The video package's error names the file and gives ffmpeg's reason.
		return err.Error() + "; nothing of it was imported"
	case errors.Is(err, store.ErrForbidden), errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrInvalid):
		return file + ": " + store.Message(err)
	}
	return file + ": " + err.Error()
}

// importVideo imports one video's frames and returns their project paths.
func importVideo(ctx context.Context, db store.Service, actor store.User, projectID int64, file string, n int, sampling, root string) ([]string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	sum, err := fileSHA256(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", file, video.ErrNotVideo, errors.Unwrap(err))
	}
	info, err := video.Probe(ctx, file)
	if err != nil {
		return nil, err
	}
	idx := video.Indices(info, n, sampling)
	times := video.Times(info, n, sampling)
	tmp, err := os.MkdirTemp(root, ".import-video-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	files, err := video.Extract(ctx, file, times, tmp)
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
	res, err := db.ImportImages(ctx, actor, projectID, root, nil)
	if err != nil {
		return nil, err
	}
	rejected := map[string]string{}
	for _, r := range res.Rejected {
		rejected[r.RelPath] = r.Reason
	}
	paths := make([]string, len(files))
	rec := make([]store.VideoFrame, len(files))
	for i, f := range files {
		rel := path.Join(name, filepath.Base(f))
		if why, ok := rejected[rel]; ok {
			return nil, fmt.Errorf("frame %s was not imported: %s", rel, why)
		}
		im, err := db.ImageByPath(ctx, actor, projectID, rel)
		if errors.Is(err, store.ErrNotFound) {
			// The same picture is in the project already (a still scene, or a frame
			// imported before): images are kept once, by content.
			var fsum string
			if fsum, err = fileSHA256(filepath.Join(dir, filepath.Base(f))); err == nil {
				im, err = db.ImageBySHA256(ctx, actor, projectID, fsum)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("frame %s: %w", rel, err)
		}
		paths[i] = im.RelPath
		rec[i] = store.VideoFrame{Path: im.RelPath, Frame: annotate.Frame{Video: abs, VideoSHA256: sum,
			Duration: info.Duration, Time: times[i], Index: idx[i]}}
	}
	if err := db.RecordVideoFrames(ctx, actor, projectID, rec); err != nil {
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
	return "", fmt.Errorf("%s: the folders %s and %s-%s in %s hold other files; move them away or give another --to", file, base, base, sum[:12], root)
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
