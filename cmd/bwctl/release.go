package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
)

func init() {
	commands["audit"] = command{runAudit, "integrity audit of a project's accepted samples (leads)"}
	commands["freeze"] = command{runFreeze, "freeze the accepted samples as a versioned release (leads)"}
	commands["releases"] = command{runReleases, "list a project's frozen releases"}
	commands["export"] = command{runExport, "export a release: " + formatList()}
	commands["verify-release"] = command{runVerifyRelease, "re-hash an exported release against its MANIFEST.json"}
}

func formatList() string {
	formats := release.Formats()
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name()
	}
	return strings.Join(names, ", ")
}

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("audit", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	asJSON := fs.Bool("json", false, "one JSON finding per line")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	rep, err := db.As(actor).Audit(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	if *asJSON {
		rep.WriteJSON(stdout)
		fmt.Fprintln(stderr, rep.Summary())
	} else {
		rep.WriteText(stdout)
	}
	if rep.Errors() > 0 {
		return exitFindings
	}
	return exitOK
}

// parseSplit reads --split: "test=0.2" or "0.2".
func parseSplit(s string) (float64, error) {
	v := strings.TrimPrefix(s, "test=")
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || !(r > 0 && r < 1) {
		return 0, fmt.Errorf("--split %q: want test=R with R between 0 and 1, e.g. test=0.2", s)
	}
	return r, nil
}

// list splits a comma-separated flag value, dropping empty items.
func list(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func runFreeze(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("freeze", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	name := fs.String("name", "", "release name")
	version := fs.String("version", "", "release version")
	kinds := fs.String("kinds", "", "only these kinds, comma-separated: "+kindNames())
	tasks := fs.String("tasks", "", "only samples with these tasks, comma-separated")
	split := fs.String("split", "", "image-disjoint stratified split, e.g. test=0.2")
	seed := fs.Uint64("seed", 0, "seed of the split")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	if *name == "" || *version == "" {
		fmt.Fprintln(stderr, "bwctl freeze: --name and --version are required")
		return exitUsage
	}
	in := bench.FreezeInput{Name: *name, Version: *version, Tasks: list(*tasks)}
	for _, k := range list(*kinds) {
		if !annotate.Kind(k).Valid() {
			fmt.Fprintf(stderr, "bwctl freeze: --kinds: unknown kind %q (%s)\n", k, kindNames())
			return exitUsage
		}
		in.Kinds = append(in.Kinds, annotate.Kind(k))
	}
	if *split != "" {
		r, err := parseSplit(*split)
		if err != nil {
			fmt.Fprintln(stderr, "bwctl freeze:", err)
			return exitUsage
		}
		in.Split = &annotate.SplitSpec{TestRatio: r, Seed: *seed}
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	in.ProjectID = p.ID
	rel, err := db.As(actor).Freeze(ctx, in)
	if err != nil {
		var audit *bench.AuditErrors
		if errors.As(err, &audit) { // the findings, one per line, after the sentence
			defer func() {
				for _, f := range audit.Findings {
					if f.Severity == bench.SeverityError {
						fmt.Fprintln(stderr, f.String())
					}
				}
			}()
		}
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "froze %s: %d samples%s\n", rel.Ref(), rel.Samples, splitText(rel))
	return exitOK
}

// splitText is ", train N, test M" for a split release.
func splitText(rel bench.Release) string {
	var keys []string
	for k := range rel.SplitCounts {
		if k != "" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range slices.Backward(keys) { // train before test
		fmt.Fprintf(&b, ", %s %d", k, rel.SplitCounts[k])
	}
	return b.String()
}

func runReleases(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("releases", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "user (needed with --server; password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, me, closeDB, code := readerAt(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	p, err := projectFor(ctx, db.As(me), me, *project)
	if err != nil {
		return fail(stderr, err)
	}
	rels, err := db.As(me).Releases(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	for _, r := range rels {
		fmt.Fprintf(stdout, "%s\t%d samples%s\tfrozen by %s at %s\n", r.Ref(), r.Samples, splitText(r), r.CreatedBy, r.CreatedAt)
	}
	return exitOK
}

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("export", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "exporting user, named in the manifest (optional; password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "the release's project (needed when two projects hold the same NAME@VERSION)")
	rel := fs.String("release", "", "NAME@VERSION (or the release id)")
	format := fs.String("format", "", formatList())
	out := fs.String("out", "", "output folder (new or empty)")
	circular := fs.Bool("circular", false, "vlmevalkit: write each question once per rotation of its options, for VLMEvalKit's circular evaluation (<Name>_circular_MCQ.tsv)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	if *rel == "" || *format == "" || *out == "" {
		fmt.Fprintln(stderr, "bwctl export: --release, --format and --out are required")
		return exitUsage
	}
	if *circular {
		if *format != "vlmevalkit" {
			fmt.Fprintf(stderr, "bwctl export: --circular is for --format vlmevalkit (VLMEvalKit's circular evaluation), not %s\n", *format)
			return exitUsage
		}
		*format = "vlmevalkit-circular"
	}
	f, err := release.Lookup(*format)
	if err != nil {
		fmt.Fprintln(stderr, "bwctl export:", err)
		return exitUsage
	}
	db, actor, closeDB, code := readerAt(ctx, at, *as, stderr) // on a server: exported there, unpacked here
	if db == nil {
		return code
	}
	defer closeDB()
	in := bench.ExportInput{Release: *rel, Format: f.Name(), OutDir: *out}
	if *project != "" {
		p, err := db.As(actor).ProjectByName(ctx, *project)
		if err != nil {
			return fail(stderr, err)
		}
		in.ProjectID = p.ID
	}
	res, err := db.As(actor).Export(ctx, in, nil)
	if err != nil {
		return fail(stderr, err)
	}
	m := res.Manifest
	skipped := ""
	if n := len(m.Skipped); n > 0 {
		var parts []string
		for _, k := range annotate.Kinds {
			if c := m.Skipped[string(k)]; c > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", c, k))
			}
		}
		skipped = " (left out, not held by this format: " + strings.Join(parts, ", ") + ")"
	}
	for _, p := range res.Removed {
		fmt.Fprintf(stderr, "bwctl export: removed %s, left by an earlier export into the same folder that was killed half-way\n", p)
	}
	fmt.Fprintf(stdout, "exported %s as %s to %s: %d samples, %d files%s\n", res.Release.Ref(), f.Name(), res.Dir, m.Counts.Samples, len(m.Files)+1, skipped)
	return exitOK
}

func runVerifyRelease(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("verify-release", stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: bwctl verify-release DIR")
		return exitUsage
	}
	d, err := release.VerifyRelease(ctx, pos[0])
	if code, ok := interrupted(stderr, "verify-release", "the release was not fully checked", err); ok {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl verify-release: %v\n", err)
		return exitUsage
	}
	for _, f := range d.Files {
		fmt.Fprintln(stdout, f)
	}
	if !d.OK() {
		fmt.Fprintf(stderr, "bwctl verify-release: %d files differ from %s, %d match\n", len(d.Files), release.ManifestName, d.Matched)
		return exitFindings
	}
	fmt.Fprintf(stdout, "ok: %d files match %s\n", d.Matched, release.ManifestName)
	return exitOK
}
