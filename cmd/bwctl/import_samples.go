package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/store"
)

func init() {
	commands["import-samples"] = command{runImportSamples, "import samples (native JSONL, MultihopSpatial, SpatiaLQA) as drafts or into round 1"}
}

// The formats import-samples reads.
const (
	formatAuto      = "auto"
	formatNative    = "native"
	formatMultihop  = "multihopspatial"
	formatSpatiaLQA = "spatialqa"
)

// problem is one line of import-samples' report: a record skipped, or imported with
// warnings.
type problem struct {
	line    int
	id      string
	message string
	lint    bool // skipped for lint errors (else not convertible, or a warning)
}

func runImportSamples(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import-samples", stderr)
	dbPath := fs.String("db", "", "database file")
	project := fs.String("project", "", "project name")
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	author := fs.String("author", "", "user name the samples are attributed to (default: --as; others: leads only)")
	toRound1 := fs.Bool("to-round1", false, "submit the samples into round 1, warnings acknowledged (leads only; needs --author)")
	format := fs.String("format", formatAuto, "auto, native (JSONL), multihopspatial or spatialqa (JSON array)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) != 1 || *project == "" {
		fmt.Fprintln(stderr, "usage: bwctl import-samples --db DB --project NAME --as USER [--author USER] [--to-round1] [--format auto|native|multihopspatial|spatialqa] FILE")
		return exitUsage
	}
	if !slices.Contains([]string{formatAuto, formatNative, formatMultihop, formatSpatiaLQA}, *format) {
		fmt.Fprintf(stderr, "bwctl import-samples: --format %q is not one of auto, native, multihopspatial, spatialqa\n", *format)
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
	db, actor, p, code := openProjectAs(ctx, *dbPath, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	recs, unconverted, err := convertSamples(ctx, db, p.ID, *format, data)
	if code, ok := interrupted(stderr, "import-samples", "nothing was imported", err); ok {
		return code
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl import-samples: %s: %v\n", file, err)
		return exitUsage
	}
	res, err := db.ImportSamples(ctx, actor, p.ID, recs, store.ImportSamplesOptions{Author: *author, ToRound1: *toRound1})
	if code, ok := interrupted(stderr, "import-samples", "nothing was imported", err); ok {
		return code
	}
	if err != nil {
		return fail(stderr, err)
	}

	counts := map[store.SkipReason]int{}
	problems := unconverted
	for _, pr := range unconverted {
		if pr.lint {
			counts[store.SkipLint]++
		} else {
			counts[skipUnconvertible]++
		}
	}
	for _, s := range res.Skipped {
		counts[s.Reason]++
		problems = append(problems, problem{line: s.Line, id: s.ID, message: skipMessage(s)})
	}
	for _, w := range res.Warnings {
		problems = append(problems, problem{line: w.Line, id: w.ID, message: "warning: " + w.Message})
	}
	slices.SortStableFunc(problems, func(a, b problem) int { return a.line - b.line })
	for _, pr := range problems {
		fmt.Fprintf(stderr, "%s:%d: %s: %s\n", file, pr.line, pr.id, pr.message)
	}
	fmt.Fprintln(stdout, importSummary(len(res.Imported), counts, len(res.Warnings)))
	if len(res.Skipped)+len(unconverted) > 0 {
		return exitFindings
	}
	return exitOK
}

func skipMessage(s store.ImportProblem) string {
	if s.Reason == store.SkipLint {
		return fmt.Sprintf("skipped, lint errors [%s]: %s", strings.Join(s.Rules, ", "), s.Message)
	}
	return "skipped: " + s.Message
}

// skipUnconvertible counts the records the format's converter could not read.
const skipUnconvertible store.SkipReason = "not convertible"

// importSummary is the one-line summary, such as
// "imported 12, skipped 2 (lint errors), 1 id already exists".
func importSummary(imported int, skipped map[store.SkipReason]int, warned int) string {
	parts := []string{fmt.Sprintf("imported %d", imported)}
	if n := skipped[store.SkipLint]; n > 0 {
		parts = append(parts, fmt.Sprintf("skipped %d (lint errors)", n))
	}
	if n := skipped[store.SkipExists]; n == 1 {
		parts = append(parts, "1 id already exists")
	} else if n > 1 {
		parts = append(parts, fmt.Sprintf("%d ids already exist", n))
	}
	if n := skipped[store.SkipUnknownImage]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d with unknown images", n))
	}
	if n := skipped[store.SkipInvalid]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d invalid", n))
	}
	if n := skipped[skipUnconvertible]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d not convertible", n))
	}
	if warned > 0 {
		parts = append(parts, fmt.Sprintf("%d with lint warnings", warned))
	}
	return strings.Join(parts, ", ")
}

// stepKey is a SpatiaLQA step key: "step1", "step12".
var stepKey = regexp.MustCompile(`"?step\d+"?\s*:`)

// detectFormat guesses a file's format: .jsonl is native; a JSON array (or object)
// whose records answer with step1, step2, … is SpatiaLQA; anything else is taken for
// MultihopSpatial.
func detectFormat(name string, data []byte) string {
	if strings.EqualFold(filepath.Ext(name), ".jsonl") {
		return formatNative
	}
	var recs []map[string]json.RawMessage
	if err := json.Unmarshal(data, &recs); err != nil {
		var one map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimPrefix(data, []byte("\ufeff")), &one) != nil {
			return formatMultihop // its importer names the line that is wrong
		}
		recs = append(recs, one)
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
func convertSamples(ctx context.Context, db *store.DB, projectID int64, format string, data []byte) ([]annotate.Imported, []problem, error) {
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
	case formatMultihop, formatSpatiaLQA:
		var errs []annotate.RecordError
		var err error
		if format == formatMultihop {
			recs, errs, err = annotate.ImportMultihop(bytes.NewReader(data), annotate.ImportOptions{ImageSize: func(path string) (int, int, bool) {
				im, err := db.ImageByPath(ctx, projectID, path)
				return im.Width, im.Height, err == nil
			}})
		} else {
			recs, errs, err = annotate.ImportSpatiaLQA(bytes.NewReader(data))
		}
		for _, e := range errs {
			bad = append(bad, problem{line: e.Line, id: fmt.Sprintf("record %d", e.Index+1), message: "skipped, not convertible: " + e.Err.Error()})
		}
		return recs, bad, err
	}
	return nil, nil, fmt.Errorf("unknown format %q", format)
}
