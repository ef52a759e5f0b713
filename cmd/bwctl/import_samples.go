package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

func init() {
	commands["import-samples"] = command{runImportSamples, "import samples (native JSONL, MultihopSpatial, lmms-eval test.jsonl, SpatiaLQA, VLMEvalKit TSV, COCO, Label Studio, SpatialScore) as drafts or into round 1"}
}

// The formats import-samples reads.
const (
	formatAuto      = "auto"
	formatNative    = "native"
	formatMultihop  = "multihopspatial"
	formatSpatiaLQA = "spatialqa"
	formatVLMEval   = "vlmevalkit"
	formatCOCO      = "coco"
	formatLabelStu  = "labelstudio"
	formatSpatialSc = "spatialscore"
	formatLMMSEval  = "lmms-eval"
)

// formats lists the values of --format.
var formats = []string{formatAuto, formatNative, formatMultihop, formatLMMSEval, formatSpatiaLQA, formatVLMEval, formatCOCO, formatLabelStu, formatSpatialSc}

// importSamplesUsage is import-samples' usage line.
const importSamplesUsage = "usage: bwctl import-samples --db DB --project NAME --as USER [--author USER] [--to-round1] " +
	"[--format auto|native|multihopspatial|lmms-eval|spatialqa|vlmevalkit|coco|labelstudio|spatialscore] [--images-to DIR] FILE"

// problem is one line of import-samples' report: a record skipped, or imported with
// warnings.
type problem struct {
	line    int
	id      string
	message string
	lint    bool // skipped for lint errors (else not convertible, or a warning)
	note    bool // left out as the source says (not a failure)
}

func runImportSamples(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import-samples", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name")
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	author := fs.String("author", "", "user name the samples are attributed to (default: --as; others: leads only)")
	toRound1 := fs.Bool("to-round1", false, "submit the samples into round 1, warnings acknowledged (leads only; needs --author)")
	format := fs.String("format", formatAuto, "auto, native (JSONL), multihopspatial or spatialqa (JSON array), lmms-eval (a task's test.jsonl), vlmevalkit (MCQ TSV), "+
		"coco (instances JSON), labelstudio (JSON export) or spatialscore (SpatialScore JSON, its Hard file too)")
	imagesTo := fs.String("images-to", "", "vlmevalkit: a new or empty folder to write the TSV's images into; they are imported into the project from there")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) != 1 || *project == "" {
		fmt.Fprintln(stderr, importSamplesUsage)
		return exitUsage
	}
	if !slices.Contains(formats, *format) {
		fmt.Fprintf(stderr, "bwctl import-samples: --format %q is not one of %s\n", *format, strings.Join(formats, ", "))
		return exitUsage
	}
	if *toRound1 && *author == "" {
		fmt.Fprintln(stderr, "bwctl import-samples: --to-round1 needs --author USER, the samples' author")
		return exitUsage
	}
	file := pos[0]
	data, err := readInput(file, maxDatasetBytes)
	if errors.Is(err, errTooLarge) {
		fmt.Fprintf(stderr, "bwctl import-samples: %v\n", err)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl import-samples: %s: %v\n", file, errors.Unwrap(err))
		return exitUsage
	}
	if *format == formatAuto {
		*format = detectFormat(file, data)
	}
	if *format == formatVLMEval {
		if code, ok := checkImagesTo(*imagesTo, stderr); !ok {
			return code
		}
	} else if *imagesTo != "" {
		fmt.Fprintf(stderr, "bwctl import-samples: --images-to is for VLMEvalKit TSVs, which hold their images; %s is read as %s\n", file, *format)
		return exitUsage
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	var recs []annotate.Imported
	var unconverted []problem
	if *format == formatVLMEval {
		var images map[string][]byte
		recs, images, unconverted, err = convertVLMEvalKit(data, vlmFolder(file))
		if err != nil {
			fmt.Fprintf(stderr, "bwctl import-samples: %s: %v\n", file, err)
			return exitUsage
		}
		if code, ok := importExtractedImages(ctx, db, actor, p.ID, recs, images, *imagesTo, stdout, stderr); !ok {
			return code
		}
	} else {
		recs, unconverted, err = convertSamples(ctx, db, actor, p.ID, *format, data)
		if code, ok := interrupted(stderr, "import-samples", "nothing was imported", err); ok {
			return code
		}
		if errors.Is(err, errImageLookup) {
			return fail(stderr, err)
		}
		if err != nil {
			fmt.Fprintf(stderr, "bwctl import-samples: %s: %v\n", file, err)
			return exitUsage
		}
	}
	if *format == formatCOCO || *format == formatLabelStu {
		if err := resolveByFileName(ctx, db, actor, p.ID, recs); err != nil {
			return fail(stderr, err)
		}
	}
	// Boxes from COCO and Label Studio are drafts an annotator completes: they come
	// in with their lint errors (no question yet), except into round 1.
	drafts := (*format == formatCOCO || *format == formatLabelStu) && !*toRound1
	res, err := db.As(actor).ImportSamples(ctx, p.ID, recs, bench.ImportSamplesOptions{Author: *author, ToRound1: *toRound1, AcceptLintErrors: drafts})
	state := "nothing was imported"
	if _, err := os.Stat(*imagesTo); *format == formatVLMEval && err == nil {
		state = "no sample was imported (the images written to " + *imagesTo + " were)"
	}
	if code, ok := interrupted(stderr, "import-samples", state, err); ok {
		return code
	}
	if err != nil {
		return fail(stderr, err)
	}

	counts := map[bench.SkipReason]int{}
	problems := unconverted
	failed, leftOut := 0, 0
	for _, pr := range unconverted {
		switch {
		case pr.note:
			leftOut++
		case pr.lint:
			counts[bench.SkipLint]++
			failed++
		default:
			counts[skipUnconvertible]++
			failed++
		}
	}
	for _, s := range res.Skipped {
		counts[s.Reason]++
		problems = append(problems, problem{line: s.Line, id: s.ID, message: skipMessage(s)})
	}
	for _, w := range res.Warnings {
		problems = append(problems, problem{line: w.Line, id: w.ID, message: "warning: " + w.Message})
	}
	// A draft missing only what an annotator writes (schema: no question, options,
	// categories, …) is counted, not listed; other lint findings are listed.
	for _, d := range res.Incomplete {
		if slices.ContainsFunc(d.Rules, func(r string) bool { return r != annotate.RuleSchema }) {
			problems = append(problems, problem{line: d.Line, id: d.ID, message: d.Message})
		}
	}
	slices.SortStableFunc(problems, func(a, b problem) int { return a.line - b.line })
	for _, pr := range problems {
		fmt.Fprintf(stderr, "%s:%d: %s: %s\n", file, pr.line, pr.id, pr.message)
	}
	fmt.Fprintln(stdout, importSummary(len(res.Imported), counts, len(res.Warnings), len(res.Incomplete), leftOut))
	if len(res.Skipped)+failed > 0 {
		return exitFindings
	}
	return exitOK
}

func skipMessage(s bench.ImportProblem) string {
	if s.Reason == bench.SkipLint {
		return fmt.Sprintf("skipped, lint errors [%s]: %s", strings.Join(s.Rules, ", "), s.Message)
	}
	return "skipped: " + s.Message
}

// skipUnconvertible counts the records the format's converter could not read.
const skipUnconvertible bench.SkipReason = "not convertible"

// importSummary is the one-line summary, such as
// "imported 12, skipped 2 (lint errors), 1 id already exists".
func importSummary(imported int, skipped map[bench.SkipReason]int, warned, drafts, leftOut int) string {
	parts := []string{fmt.Sprintf("imported %d", imported)}
	if drafts > 0 {
		parts = append(parts, fmt.Sprintf("%d of them drafts to complete (lint errors)", drafts))
	}
	if n := skipped[bench.SkipLint]; n > 0 {
		parts = append(parts, fmt.Sprintf("skipped %d (lint errors)", n))
	}
	if n := skipped[bench.SkipExists]; n == 1 {
		parts = append(parts, "1 id already exists")
	} else if n > 1 {
		parts = append(parts, fmt.Sprintf("%d ids already exist", n))
	}
	if n := skipped[bench.SkipUnknownImage]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d with unknown images", n))
	}
	if n := skipped[bench.SkipInvalid]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d invalid", n))
	}
	if n := skipped[skipUnconvertible]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d not convertible", n))
	}
	if warned > 0 {
		parts = append(parts, fmt.Sprintf("%d with lint warnings", warned))
	}
	if leftOut > 0 {
		parts = append(parts, fmt.Sprintf("%d left out as the file marks them", leftOut))
	}
	return strings.Join(parts, ", ")
}

// stepKey is a SpatiaLQA step key: "step1", "step12".
var stepKey = regexp.MustCompile(`"?step\d+"?\s*:`)

// detectFormat guesses a file's format: .jsonl is native, or lmms-eval when its first
// record has image_path and no kind (the MultihopSpatial records of a lmms-eval task's
// test.jsonl, release/lmmseval.go); .tsv is VLMEvalKit; a JSON
// object with "images", "annotations" and "categories" is COCO; a JSON array whose
// records have "data" and "annotations" (Label Studio tasks) is Label Studio; a JSON
// array (or object) whose records answer with step1, step2, … is SpatiaLQA; one whose
// records have img_paths and question_type is SpatialScore (its benchmark and Hard
// files, Benchwright's spatialscore export); anything else is taken for MultihopSpatial.
func detectFormat(name string, data []byte) string {
	switch ext := filepath.Ext(name); {
	case strings.EqualFold(ext, ".jsonl"):
		if lmmsEvalRecord(data) {
			return formatLMMSEval
		}
		return formatNative
	case strings.EqualFold(ext, ".tsv"):
		return formatVLMEval
	}
	var recs []map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &recs); err != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &one) != nil {
			return formatMultihop // its importer names the line that is wrong
		}
		if one["images"] != nil && one["annotations"] != nil && one["categories"] != nil {
			return formatCOCO
		}
		recs = append(recs, one)
	}
	for _, r := range recs {
		if r["data"] != nil && (r["annotations"] != nil || r["completions"] != nil) {
			return formatLabelStu
		}
	}
	for _, r := range recs {
		if r["img_paths"] != nil && r["question_type"] != nil {
			return formatSpatialSc
		}
	}
	for _, r := range recs {
		for _, key := range []string{"answer", "steps"} {
			if raw, ok := r[key]; ok && stepKey.Match(unquote(raw)) {
				return formatSpatiaLQA
			}
		}
	}
	return formatMultihop
}

// lmmsEvalRecord reports whether the first line of JSON Lines holding an object is
// a MultihopSpatial record (image_path) rather than a native one (kind, image).
func lmmsEvalRecord(data []byte) bool {
	for line := range bytes.Lines(bytes.TrimPrefix(data, []byte("\ufeff"))) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r map[string]json.RawMessage
		if json.Unmarshal(line, &r) != nil {
			return false
		}
		_, path := r["image_path"]
		_, kind := r["kind"]
		return path && !kind
	}
	return false
}

// unquote returns the text of a JSON string (an answer written as a string holding
// JSON), or raw itself.
func unquote(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	return raw
}

// convertSamples reads data in format. Records that cannot be converted are returned
// as problems; err is for input that cannot be read at all.
func convertSamples(ctx context.Context, db bench.Service, actor bench.User, projectID int64, format string, data []byte) ([]annotate.Imported, []problem, error) {
	var recs []annotate.Imported
	var bad []problem
	switch format {
	case formatNative:
		err := annotate.ReadJSONL(bytes.NewReader(data), func(line int, raw []byte) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			s, findings := annotate.ParseRecord(raw)
			if annotate.HasErrors(findings) {
				var rules, msgs []string
				for _, f := range findings {
					if f.Severity == annotate.SeverityError {
						rules = append(rules, f.Rule)
						msgs = append(msgs, fmt.Sprintf("%s (%s): %s", f.Rule, f.Field, f.Message))
					}
				}
				bad = append(bad, problem{line: line, id: s.ID, lint: true,
					message: fmt.Sprintf("skipped, lint errors [%s]: %s", strings.Join(slices.Compact(rules), ", "), strings.Join(msgs, "; "))})
				return nil
			}
			recs = append(recs, annotate.Imported{Line: line, Sample: s})
			return nil
		})
		return recs, bad, err
	case formatLMMSEval:
		// The MultihopSpatial records with the sequence fields (images, image_labels,
		// box_image, frames). No project image sizes: a record's image_resolution is
		// the size of the image its box is on, which for a sample of several images
		// need not be image_path, the first.
		recs, errs, err := annotate.ImportLMMSEval(bytes.NewReader(data), annotate.ImportOptions{})
		return recs, recordProblems(errs, "record"), err
	case formatSpatialSc:
		// img_paths as written, without their leading "./": relative to the folder the
		// project's images were imported from.
		recs, errs, err := annotate.ImportSpatialScore(bytes.NewReader(data), annotate.SpatialScoreOptions{})
		return recs, recordProblems(errs, "item"), err
	case formatMultihop, formatSpatiaLQA, formatCOCO, formatLabelStu:
		noun := map[string]string{formatCOCO: "annotation", formatLabelStu: "task"}[format]
		if noun == "" {
			noun = "record"
		}
		convert := func(sizes annotate.ImportOptions) ([]annotate.Imported, []annotate.RecordError, error) {
			switch format {
			case formatMultihop:
				return annotate.ImportMultihop(bytes.NewReader(data), sizes)
			case formatCOCO:
				return annotate.ImportCOCO(bytes.NewReader(data), sizes)
			case formatSpatiaLQA:
				return annotate.ImportSpatiaLQA(bytes.NewReader(data))
			default:
				return annotate.ImportLabelStudio(bytes.NewReader(data))
			}
		}
		if format != formatMultihop && format != formatCOCO { // they need no image sizes
			recs, errs, err := convert(annotate.ImportOptions{})
			return recs, recordProblems(errs, noun), err
		}
		// The converter asks the size of an image per record (a COCO file, per
		// annotation): a first pass learns which images, the project is asked for
		// them all at once (through a team server, one request rather than one per
		// annotation), and the second pass converts with their sizes.
		var asked []string
		seen := map[string]bool{}
		if _, _, err := convert(annotate.ImportOptions{ImageSize: func(path string) (int, int, bool) {
			if !seen[path] {
				seen[path] = true
				asked = append(asked, path)
			}
			return 0, 0, false
		}}); err != nil {
			return nil, nil, err
		}
		known, err := imagesByPaths(ctx, db, actor, projectID, asked)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", errImageLookup, err)
		}
		var lookupErr error
		recs, errs, err := convert(annotate.ImportOptions{ImageSize: func(path string) (int, int, bool) {
			if !seen[path] { // not asked in the first pass: ask for it alone
				seen[path] = true
				im, err := db.As(actor).ImageByPath(ctx, projectID, path)
				switch {
				case err == nil:
					known[path] = im
				case !errors.Is(err, bench.ErrNotFound) && lookupErr == nil:
					lookupErr = fmt.Errorf("%w: %w", errImageLookup, err)
				}
			}
			im, ok := known[path]
			return im.Width, im.Height, ok
		}})
		if err == nil {
			err = lookupErr
		}
		return recs, recordProblems(errs, noun), err
	}
	return nil, nil, fmt.Errorf("unknown format %q", format)
}

// errImageLookup marks a failure to look the file's images up in the project
// (not a fault of the file).
var errImageLookup = errors.New("looking up the file's images in the project")

// imagesByPaths finds the project's images at paths (each once), in as few calls
// as store.MaxImagePaths allows: one for any file but a huge one.
func imagesByPaths(ctx context.Context, db bench.Service, actor bench.User, projectID int64, paths []string) (map[string]bench.Image, error) {
	want := slices.Compact(slices.Sorted(slices.Values(paths)))
	out := map[string]bench.Image{}
	for chunk := range slices.Chunk(want, store.MaxImagePaths) {
		found, err := db.As(actor).ImagesByPaths(ctx, projectID, chunk)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, found)
	}
	return out, nil
}

// recordProblems reports the records a converter did not convert, each named by
// noun and its 1-based position: skipped, or left out as the file marks them.
func recordProblems(errs []annotate.RecordError, noun string) []problem {
	var bad []problem
	for _, e := range errs {
		pr := problem{line: e.Line, id: fmt.Sprintf("%s %d", noun, e.Index+1)}
		if errors.Is(e.Err, annotate.ErrLeftOut) {
			pr.note, pr.message = true, e.Err.Error()
		} else {
			pr.message = "skipped, not convertible: " + e.Err.Error()
		}
		bad = append(bad, pr)
	}
	return bad
}

// convertVLMEvalKit reads a VLMEvalKit TSV; its images are named under folder.
func convertVLMEvalKit(data []byte, folder string) ([]annotate.Imported, map[string][]byte, []problem, error) {
	recs, images, errs, err := annotate.ImportVLMEvalKitTSV(bytes.NewReader(data), annotate.VLMEvalKitOptions{Folder: folder})
	return recs, images, recordProblems(errs, "row"), err
}

// vlmFolder is the folder, below --images-to, that a TSV's images are written to:
// vlmevalkit/<the TSV's name>, so that the images of two TSVs do not meet.
func vlmFolder(file string) string {
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	stem = strings.Map(func(r rune) rune {
		if r == ':' || r == '+' || r == '@' {
			return '_'
		}
		return r
	}, annotate.IDPrefix(stem))
	return "vlmevalkit/" + stem
}

// checkImagesTo checks --images-to for a VLMEvalKit import: given, and a new or
// empty folder.
func checkImagesTo(dir string, stderr io.Writer) (int, bool) {
	if dir == "" {
		fmt.Fprintln(stderr, "bwctl import-samples: a VLMEvalKit TSV holds its images; give --images-to DIR, a new or empty folder "+
			"to write them into (the project then refers to them there)")
		return exitUsage, false
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "bwctl import-samples: --images-to %s: not a folder that can be read (%v)\n", dir, errors.Unwrap(err))
		return exitUsage, false
	case len(entries) > 0:
		fmt.Fprintf(stderr, "bwctl import-samples: --images-to %s is not empty; give a new or empty folder, so that no file of yours is overwritten or imported\n", dir)
		return exitUsage, false
	}
	return 0, true
}

// importExtractedImages writes a VLMEvalKit TSV's images into dir and imports dir
// into the project, pointing recs at the project's paths. An image the project
// already has (the same content) is not written again: the samples name it by the
// path it has. A path the project uses for other content gets the content's hash
// in its name. ok is false when the import must stop, with its exit code.
func importExtractedImages(ctx context.Context, db bench.Service, actor bench.User, projectID int64, recs []annotate.Imported,
	images map[string][]byte, dir string, stdout, stderr io.Writer) (int, bool) {
	if len(images) == 0 {
		return 0, true
	}
	rename := map[string]string{}
	var write []string
	contents := map[string][]byte{}
	taken, err := imagesByPaths(ctx, db, actor, projectID, slices.Collect(maps.Keys(images)))
	if err != nil {
		return fail(stderr, err), false
	}
	for _, p := range slices.Sorted(maps.Keys(images)) {
		sum := sha256.Sum256(images[p])
		hexSum := hex.EncodeToString(sum[:])
		im, err := db.As(actor).ImageBySHA256(ctx, projectID, hexSum)
		switch {
		case err == nil:
			rename[p] = im.RelPath
			continue
		case !errors.Is(err, bench.ErrNotFound):
			return fail(stderr, err), false
		}
		target := p
		if _, ok := taken[p]; ok {
			ext := path.Ext(p)
			target = strings.TrimSuffix(p, ext) + "-" + hexSum[:12] + ext
			rename[p] = target
		}
		write = append(write, target)
		contents[target] = images[p]
	}
	for i := range recs {
		if to, ok := rename[recs[i].Sample.Image]; ok {
			recs[i].Sample.Image = to
		}
	}
	if len(write) == 0 {
		fmt.Fprintf(stdout, "images: all %d are in the project already\n", len(images))
		return 0, true
	}
	for _, p := range write {
		local := filepath.FromSlash(p)
		if !filepath.IsLocal(local) {
			fmt.Fprintf(stderr, "bwctl import-samples: image path %q leaves %s\n", p, dir)
			return exitUsage, false
		}
		full := filepath.Join(dir, local)
		err := os.MkdirAll(filepath.Dir(full), 0o755)
		if err == nil {
			var f *os.File
			if f, err = os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
				_, err = f.Write(contents[p])
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "bwctl import-samples: writing the images into %s: %v; no sample was imported\n", dir, err)
			return exitUsage, false
		}
	}
	res, err := db.As(actor).ImportImages(ctx, projectID, dir, nil)
	if code, ok := interrupted(stderr, "import-samples", fmt.Sprintf("no sample was imported; the images in %s were imported in part (import-images %s finishes them)", dir, dir), err); ok {
		return code, false
	}
	if err != nil {
		return fail(stderr, err), false
	}
	for _, r := range res.Rejected {
		fmt.Fprintf(stderr, "%s: image not imported: %s\n", filepath.Join(dir, filepath.FromSlash(r.RelPath)), r.Reason)
	}
	for _, r := range res.Duplicate {
		fmt.Fprintf(stderr, "%s: image not imported: %s\n", filepath.Join(dir, filepath.FromSlash(r.RelPath)), r.Reason)
	}
	fmt.Fprintf(stdout, "images: wrote %d to %s, imported %d, %d in the project already\n", len(write), dir, res.Imported+res.Unchanged, len(images)-len(write))
	return 0, true
}

// resolveByFileName points each record whose image is not a project path at the
// project image with the same file name, when exactly one has it: Label Studio
// names uploads by file name only, and a COCO file_name may lack the folders the
// images were imported with.
func resolveByFileName(ctx context.Context, db bench.Service, actor bench.User, projectID int64, recs []annotate.Imported) error {
	var paths []string
	for _, r := range recs {
		if r.Sample.Image != "" {
			paths = append(paths, r.Sample.Image)
		}
	}
	known, err := imagesByPaths(ctx, db, actor, projectID, paths)
	if err != nil {
		return err
	}
	var byName map[string][]string
	for i := range recs {
		img := recs[i].Sample.Image
		if _, ok := known[img]; ok || img == "" {
			continue
		}
		if byName == nil {
			byName = map[string][]string{}
			const page = 1000
			for off := 0; ; off += page {
				ims, err := db.As(actor).Images(ctx, projectID, off, page)
				if err != nil {
					return err
				}
				for _, im := range ims {
					base := path.Base(im.RelPath)
					byName[base] = append(byName[base], im.RelPath)
				}
				if len(ims) < page {
					break
				}
			}
		}
		if found := byName[path.Base(img)]; len(found) == 1 {
			recs[i].Sample.Image = found[0]
		}
	}
	return nil
}
