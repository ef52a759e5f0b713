package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

const shortcutsUsage = "usage: bwctl shortcuts [--json] [--margin POINTS] [--folds K] [--seed N] " +
	"(--db DB --project NAME --as USER [--rebalance [--samples IDS|all-findings] (--reason TEXT | --dry-run)] | " +
	"[--format auto|native|multihopspatial|lmms-eval|spatialqa|vlmevalkit|spatialscore] FILE)"

// allFindings is --samples' default: the samples of the tasks answer-position finds.
const allFindings = "all-findings"

func init() {
	commands["shortcuts"] = command{runShortcuts, "what a model could answer without the images: letters, lengths, a text-only model, its pruning"}
}

// runShortcuts implements "bwctl shortcuts": the shortcut audit (package
// shortcut, issue 29) of a project's samples, or of any benchmark file without a
// database. It prints the report for people, or with --json one object per line,
// one line per check and task evaluated, finding or not:
// {"check","task","finding","figure","chance","ci":[lo,hi],"samples":[…]} (samples:
// those that drive a finding, highest bias score first). Exit: 0 no finding, 1
// findings, 2 bad usage or unreadable input.
//
// For a project it adds near-duplicate-image, per task: the pairs of the task's
// images whose perceptual hashes (made at import) are within the project's
// distance, figure the number of pairs, ci that number, chance 0, and "pairs":
// [{"a","b","distance","cross"}] (cross: in two splits). A benchmark file has no
// hashes: no near-duplicate-image line (the text report says so). A project's
// report is the store's (the call Shortcuts, a lead's alone), the same rule
// the app's Shortcuts tab shows.
//
// --rebalance fixes skewed answer letters (rebalanceLetters): the call
// RebalanceLetters reorders the options of the samples chosen (--samples, default
// all-findings) with a correction revision by the lead per moved sample, the
// --reason recorded with each; --dry-run says what would move.
func runShortcuts(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("shortcuts", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name (with --db or --server)")
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	format := fs.String("format", formatAuto, "the FILE's format: auto, native, multihopspatial, lmms-eval, spatialqa, vlmevalkit or spatialscore")
	asJSON := fs.Bool("json", false, "one JSON object per line, one per check and task")
	margin := fs.Float64("margin", 10, "points above chance that make a finding")
	folds := fs.Int("folds", 5, "k of the text-only model's k-fold cross-validation")
	seed := fs.Uint64("seed", 1, "seed of the folds, the model's training order and the rebalance's choice of letters")
	rebalance := fs.Bool("rebalance", false, "reorder options so each task's correct letters balance: a correction revision by you per moved sample")
	chosen := fs.String("samples", allFindings, "with --rebalance: the samples that may move, ids separated by commas, or all-findings (every multiple-choice sample of the tasks answer-position finds)")
	reason := fs.String("reason", "", "with --rebalance: why, recorded with every revision (required unless --dry-run)")
	dryRun := fs.Bool("dry-run", false, "with --rebalance: say what would move and change nothing")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	fromDB := *at.db != "" || *at.server != ""
	if fromDB == (len(pos) == 1) || len(pos) > 1 || fromDB && (*project == "" || *as == "") {
		fmt.Fprintln(stderr, shortcutsUsage)
		return exitUsage
	}
	if !(*margin > 0 && *margin < 100) || *folds < 2 || *folds > 20 {
		fmt.Fprintln(stderr, "bwctl shortcuts: --margin must be between 0 and 100 points and --folds between 2 and 20")
		return exitUsage
	}
	opt := shortcut.Options{Margin: *margin / 100, Folds: *folds, Seed: *seed}
	if *rebalance && !fromDB || !*rebalance && (*reason != "" || *dryRun || *chosen != allFindings) {
		fmt.Fprintln(stderr, "bwctl shortcuts: --rebalance (with --reason, --samples, --dry-run) works on a project: --db or --server")
		return exitUsage
	}
	if *rebalance && strings.TrimSpace(*reason) == "" && !*dryRun {
		fmt.Fprintln(stderr, "bwctl shortcuts: --rebalance needs --reason TEXT (recorded with every revision it writes), or --dry-run")
		return exitUsage
	}
	var rep shortcut.Report
	var n int
	if fromDB {
		svc, me, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
		if svc == nil {
			return code
		}
		defer closeDB()
		if *rebalance {
			return rebalanceLetters(ctx, svc, me, p.ID, opt, *chosen, *reason, *dryRun, *asJSON, stdout, stderr)
		}
		var err error
		if rep, err = svc.As(me).Shortcuts(ctx, p.ID, opt); err != nil {
			return fail(stderr, err)
		}
		if n, err = auditedSamples(ctx, svc, me, p.ID); err != nil {
			return fail(stderr, err)
		}
	} else {
		samples, code := readBenchmark(ctx, *format, pos[0], stderr)
		if code != exitOK {
			return code
		}
		rep, n = shortcut.Audit(samples, opt), len(samples)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range rep.Results {
			ids := r.Samples
			if ids == nil {
				ids = []string{}
			}
			var pairs []nearPair
			if r.Check == shortcut.CheckNearDuplicateImage {
				pairs = []nearPair{}
				for _, p := range r.Pairs {
					pairs = append(pairs, nearPair{p.A, p.B, p.Distance, p.Cross})
				}
			}
			if err := enc.Encode(struct {
				Check   string     `json:"check"`
				Task    string     `json:"task"`
				Finding bool       `json:"finding"`
				Figure  float64    `json:"figure"`
				Chance  float64    `json:"chance"`
				CI      [2]float64 `json:"ci"`
				N       int        `json:"n"`
				Samples []string   `json:"samples"`
				Pairs   []nearPair `json:"pairs,omitempty"`
			}{r.Check, r.Task, r.Finding, r.Figure, r.Chance, [2]float64{r.CI.Low, r.CI.High}, r.N, ids, pairs}); err != nil {
				fmt.Fprintf(stderr, "bwctl shortcuts: %v\n", err)
				return exitUsage
			}
		}
	} else {
		writeShortcuts(stdout, rep, n)
		if !fromDB {
			fmt.Fprintln(stdout, "\nNear-duplicate images: not checked (it needs a project's imported images: --db or --server).")
		}
	}
	if len(rep.Findings()) > 0 {
		return exitFindings
	}
	return exitOK
}

// auditedSamples counts the samples the store's report looks at: those not withdrawn.
func auditedSamples(ctx context.Context, svc bench.Service, me bench.User, projectID int64) (int, error) {
	all, err := svc.As(me).CountSamples(ctx, projectID, bench.SampleFilter{})
	if err != nil {
		return 0, err
	}
	gone, err := svc.As(me).CountSamples(ctx, projectID, bench.SampleFilter{Status: verify.StateWithdrawn})
	return all - gone, err
}

// rebalanceLetters is bwctl shortcuts --rebalance: RebalanceLetters on the
// samples chosen (all-findings: those of the tasks answer-position finds), then
// what moved, per sample ("id (task): A → C, revision 3"), what was kept and
// what was left with why; --json one object per moved sample. Exit 0 when done.
func rebalanceLetters(ctx context.Context, svc bench.Service, me bench.User, projectID int64, opt shortcut.Options,
	chosen, reason string, dryRun, asJSON bool, stdout, stderr io.Writer) int {
	in := bench.RebalanceInput{ProjectID: projectID, Reason: reason, Options: opt, DryRun: dryRun}
	if chosen != allFindings {
		for _, id := range strings.Split(chosen, ",") {
			if id = strings.TrimSpace(id); id != "" {
				in.SampleIDs = append(in.SampleIDs, id)
			}
		}
		if len(in.SampleIDs) == 0 {
			fmt.Fprintln(stderr, "bwctl shortcuts: --samples names no sample (ids separated by commas, or all-findings)")
			return exitUsage
		}
	}
	res, err := svc.As(me).RebalanceLetters(ctx, in)
	if err != nil {
		return fail(stderr, err)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		for _, m := range res.Moved {
			if err := enc.Encode(m); err != nil {
				return fail(stderr, err)
			}
		}
		return exitOK
	}
	verb := "Moved"
	if dryRun {
		verb = "Would move"
	}
	fmt.Fprintf(stdout, "%s the correct option of %d samples; %d stay where the balance wants them; %d left as they are.\n",
		verb, len(res.Moved), len(res.Kept), len(res.Left))
	for _, m := range res.Moved {
		rev := ""
		if m.Revision > 0 {
			rev = fmt.Sprintf(", revision %d", m.Revision)
		}
		fmt.Fprintf(stdout, "  %s (%s): %s → %s%s\n", m.SampleID, m.Task, m.From, m.To, rev)
	}
	for _, l := range res.Left {
		fmt.Fprintf(stdout, "  left %s: %s\n", l.SampleID, l.Reason)
	}
	return exitOK
}

// nearPair is a near-duplicate-image pair in bwctl shortcuts --json.
type nearPair struct {
	A        string `json:"a"`
	B        string `json:"b"`
	Distance int    `json:"distance"`
	Cross    bool   `json:"cross"` // in two splits
}

// writeShortcuts prints the report for people: per task, every check with its
// figure, interval and chance; the samples behind each finding (the first ten);
// and the pruning proposal.
func writeShortcuts(w io.Writer, rep shortcut.Report, n int) {
	fmt.Fprintf(w, "Shortcut audit of %d samples: %d findings\n", n, len(rep.Findings()))
	task := ""
	for _, r := range rep.Results {
		if r.Task != task {
			task = r.Task
			fmt.Fprintf(w, "\n%s\n", task)
		}
		mark := "  ok     "
		if r.Finding {
			mark = "  FINDING"
		}
		if r.Check == shortcut.CheckNearDuplicateImage {
			fmt.Fprintf(w, "%s %s: %s\n", mark, r.Check, r.Detail)
			for i, p := range r.Pairs {
				if i == 10 {
					fmt.Fprintf(w, "           and %d more pairs\n", len(r.Pairs)-10)
					break
				}
				fmt.Fprintf(w, "           %s\n", p.Describe())
			}
			continue
		}
		fmt.Fprintf(w, "%s %-15s %5.1f %% (95 %% CI %.1f–%.1f; chance %.1f %%): %s\n", mark, r.Check, 100*r.Figure, 100*r.CI.Low, 100*r.CI.High, 100*r.Chance, r.Detail)
		if r.Check == shortcut.CheckNumericPrior {
			continue
		}
		if len(r.Samples) > 0 {
			more := ""
			ids := r.Samples
			if len(ids) > 10 {
				ids, more = ids[:10], fmt.Sprintf(" and %d more", len(r.Samples)-10)
			}
			fmt.Fprintf(w, "           samples: %s%s\n", strings.Join(ids, ", "), more)
		}
	}
	p := rep.Prune
	fmt.Fprintf(w, "\nPruning proposal: %s.\n", p.Detail)
	for _, t := range p.Tasks {
		if t.Left != t.N {
			fmt.Fprintf(w, "  %s: blind accuracy %.1f %% → %.1f %% (chance %.1f %%), %d of %d samples left\n", t.Task, 100*t.Before, 100*t.After, 100*t.Chance, t.Left, t.N)
		}
	}
	if len(p.Removed) > 0 {
		ids := make([]string, 0, len(p.Removed))
		for _, r := range p.Removed {
			ids = append(ids, r.ID)
		}
		fmt.Fprintf(w, "  remove: %s\n", strings.Join(ids, ", "))
	}
}

// readBenchmark reads a benchmark file for the audit: every record that converts
// (a record that does not is named on stderr and left out).
func readBenchmark(ctx context.Context, format, file string, stderr io.Writer) ([]annotate.Sample, int) {
	data, err := readInput(file, maxDatasetBytes)
	if errors.Is(err, errTooLarge) {
		fmt.Fprintf(stderr, "bwctl shortcuts: %v\n", err)
		return nil, exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl shortcuts: %s: %v\n", file, errors.Unwrap(err))
		return nil, exitUsage
	}
	if format == formatAuto {
		format = detectFormat(file, data)
	}
	var recs []annotate.Imported
	var bad []problem
	switch format {
	case formatNative, formatLMMSEval, formatSpatialSc, formatSpatiaLQA:
		recs, bad, err = convertSamples(ctx, nil, bench.User{}, 0, format, data)
	case formatMultihop: // the boxes' image sizes do not matter here
		var errs []annotate.RecordError
		recs, errs, err = annotate.ImportMultihop(bytes.NewReader(data), annotate.ImportOptions{})
		bad = recordProblems(errs, "record")
	case formatVLMEval:
		recs, _, bad, err = convertVLMEvalKit(data, vlmFolder(file))
	default:
		fmt.Fprintf(stderr, "bwctl shortcuts: --format %q: %s holds no questions to audit (formats: native, multihopspatial, lmms-eval, spatialqa, vlmevalkit, spatialscore)\n", format, file)
		return nil, exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl shortcuts: %s: %v\n", file, err)
		return nil, exitUsage
	}
	for _, p := range bad {
		fmt.Fprintf(stderr, "bwctl shortcuts: %s line %d: left out: %s\n", file, p.line, p.message)
	}
	out := make([]annotate.Sample, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Sample)
	}
	if len(out) == 0 {
		fmt.Fprintf(stderr, "bwctl shortcuts: %s: no record to audit\n", file)
		return nil, exitUsage
	}
	return slices.Clip(out), exitOK
}
