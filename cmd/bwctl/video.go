package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/video"
)

func init() {
	commands["import-video"] = command{runImportVideo, "take frames of videos (ffmpeg) and import them as project images with their provenance"}
}

const importVideoUsage = "usage: bwctl import-video --db DB --project NAME --as USER [--frames N] [--sampling uniform|uniform-tail] [--to DIR] FILE…"

// runImportVideo takes --frames frames of each video and imports them below <to>
// (video.ImportVideo, which the app's "Import video…" calls too), and prints the
// frames' project paths, one a line, in order. A video whose frames cannot all be
// taken is reported by name and leaves nothing behind.
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
	p, err := db.As(actor).ProjectByName(ctx, *project)
	if err != nil {
		return fail(stderr, err)
	}
	exit := exitOK
	for _, file := range pos {
		paths, err := video.ImportVideo(ctx, db.As(actor), p.ID, file, video.ImportOptions{Frames: *frames, Sampling: *sampling, Root: root})
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
	case errors.Is(err, bench.ErrForbidden), errors.Is(err, bench.ErrNotFound), errors.Is(err, bench.ErrInvalid):
		return file + ": " + bench.Message(err)
	}
	return file + ": " + err.Error()
}
