package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/benchwright/benchwright/annotate"
)

const lintUsage = "usage: bwctl lint [--images DIR] FILE.jsonl"

// runLint implements "bwctl lint [--images DIR] FILE.jsonl". It reads native records
// (spec §5), one per line, and prints every finding as one JSON object per line:
// {"sample","rule","severity","field","message"} plus "hint" when there is one. A
// record without an id is named "line N". Samples without a parent count as
// hand-written (2–8 steps). Image paths are resolved inside --images DIR, by default
// the file's folder (its images/ folder when there is one, as in a native release),
// and their displayed sizes (EXIF orientation of JPEGs applied) bound the boxes; an
// image that cannot be found or read is noted on stderr, once, and its boxes are
// checked without bounds. Exit: 0 no error findings (warnings allowed), 1 error findings, 2 bad
// usage or unreadable input (a missing file, a malformed line: stderr names the
// file and line; findings for the lines before it are already printed).
func runLint(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("lint", stderr)
	imagesDir := fs.String("images", "", "folder the records' image paths are relative to (default: the file's images/ folder, else its folder)")
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil || len(pos) != 1 {
		fmt.Fprintln(stderr, lintUsage)
		return exitUsage
	}
	name := pos[0]
	f, err := os.Open(name)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl lint: %v\n", err)
		return exitUsage
	}
	defer f.Close()

	var env annotate.LintEnv
	dir := *imagesDir
	if dir == "" {
		dir = defaultImagesDir(name)
		fmt.Fprintf(stderr, "bwctl lint: image paths are resolved in %s (--images DIR to choose another folder)\n", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl lint: images folder: %v\n", err)
		return exitUsage
	}
	defer root.Close()
	env.ImageSize = lintImageSizes(root, stderr)

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	code := exitOK
	err = annotate.ReadJSONL(f, func(line int, raw []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, parsed := annotate.ParseRecord(raw)
		env.HandWritten = s.Parent == ""
		fs := annotate.MergeFindings(parsed, annotate.Lint(s, env))
		if annotate.HasErrors(fs) {
			code = exitFindings
		}
		for _, fd := range fs {
			if fd.Sample == "" {
				fd.Sample = fmt.Sprintf("line %d", line)
			}
			if err := enc.Encode(fd); err != nil {
				return fmt.Errorf("write findings: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		out.Flush()
		if code, ok := interrupted(stderr, "lint", "the findings above are for the lines before it", err); ok {
			return code
		}
		var le *annotate.LineError
		if errors.As(err, &le) {
			fmt.Fprintf(stderr, "bwctl lint: %s:%d: %v\n", name, le.Line, le.Err)
		} else {
			fmt.Fprintf(stderr, "bwctl lint: %s: %v\n", name, err)
		}
		return exitUsage
	}
	return code
}

// defaultImagesDir is where a JSONL file's image paths point when no folder is
// given: images/ beside it when that is a folder (a native release), else its folder.
func defaultImagesDir(file string) string {
	dir := filepath.Dir(file)
	if fi, err := os.Stat(filepath.Join(dir, "images")); err == nil && fi.IsDir() {
		return filepath.Join(dir, "images")
	}
	return dir
}

// lintImageSizes returns an annotate.LintEnv.ImageSize that reads image headers
// inside root, once per path, and notes unreadable images on stderr.
func lintImageSizes(root *os.Root, stderr io.Writer) func(string) (int, int, bool) {
	type size struct {
		w, h int
		ok   bool
	}
	known := map[string]size{}
	return func(p string) (int, int, bool) {
		if s, seen := known[p]; seen {
			return s.w, s.h, s.ok
		}
		var s size
		f, err := root.Open(filepath.FromSlash(p))
		if err == nil {
			s.w, s.h, err = annotate.ImageSize(f)
			f.Close()
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(stderr, "bwctl lint: image %s is not in %s; its boxes are not checked against its bounds\n", p, root.Name())
		case err != nil:
			fmt.Fprintf(stderr, "bwctl lint: image %s: %v; its boxes are not checked against its bounds\n", p, err)
		}
		s.ok = err == nil
		known[p] = s
		return s.w, s.h, s.ok
	}
}
