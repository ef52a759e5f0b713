package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

func init() {
	commands["gen-project"] = command{runGenProject, "testing aid: generate a synthetic project (benchmarks, fault tests)"}
}

func runGenProject(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen-project", stderr)
	dbPath := fs.String("db", "", "database file, or postgres://USER@HOST/DB (created if needed)")
	project := fs.String("project", "", "name of the new project")
	samples := fs.Int("samples", 1000, "number of samples")
	images := fs.Int("images", 200, "number of images")
	seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same project")
	imageDir := fs.String("image-dir", "", "folder for the generated JPEGs, missing or empty (default: PROJECT-images beside the database)")
	large := fs.Int("large", 0, "number of 4000×3000 images (default: 1 in 100, at most 20; -1 for none)")
	quiet := fs.Bool("q", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: bwctl gen-project --db DB --project NAME [--samples N] [--images M] [--seed S]

A testing aid, not for real work: builds a synthetic project for benchmarks and fault
tests. It writes only to a new database or one it made before, and refuses any
database holding real work. The lead "lead" (password from BENCHWRIGHT_PASSWORD) is
created on a new database and must sign in on a generated one; the accounts ann1…ann8 and ver1…ver9
(groups A, B, C) get the same password. Generated JPEG images of mixed sizes are
written and imported; samples of every kind in every state, with review histories
played through the protocol's own rules, are inserted directly in batches (one audit
row per batch).

flags:`)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *project == "" || *samples < 0 || *images < 1 {
		fmt.Fprintln(stderr, "bwctl gen-project: --project is required, --images at least 1, --samples not negative, no other arguments")
		return exitUsage
	}
	pw, ok := os.LookupEnv("BENCHWRIGHT_PASSWORD")
	if !ok {
		fmt.Fprintln(stderr, "bwctl gen-project: set BENCHWRIGHT_PASSWORD to the lead's password")
		return exitUsage
	}
	db, code := createDB(ctx, *dbPath, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	last := ""
	opt := synth.Options{
		Project: *project, Lead: "lead", Password: pw, Samples: *samples, Images: *images, Seed: *seed,
		ImageDir: *imageDir, Large: *large,
		Progress: func(stage string, done, total int) {
			if *quiet || (done != total && done%500 != 0) {
				return
			}
			if line := fmt.Sprintf("%s %d/%d", stage, done, total); line != last {
				fmt.Fprintln(stderr, line)
				last = line
			}
		},
	}
	res, err := synth.Generate(ctx, db, opt)
	if err != nil {
		return fail(stderr, err)
	}
	var counts []string
	for _, s := range verify.States {
		counts = append(counts, fmt.Sprintf("%s %d", s, res.Counts[s]))
	}
	fmt.Fprintf(stdout, "generated project %q in %s: %d images in %s, %d samples (%s), %d revisions, %d reviews\n",
		res.Project.Name, *dbPath, res.Images, res.ImageDir, res.Samples, strings.Join(counts, ", "), res.Revisions, res.Reviews)
	return exitOK
}
