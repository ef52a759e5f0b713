package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

func init() {
	commands["predictions"] = command{runPredictions, "predictions import|list: models' raw answers on a frozen release (leads import)"}
	commands["score"] = command{runScore, "score models on a frozen release: figures with intervals, leaderboard tables"}
}

const (
	predictionsUsage = "usage: bwctl predictions import --db DB [--project P] --release NAME@VERSION --model NAME --as LEAD [--format auto|jsonl|tsv] [--blind [--base LLM]] FILE...\n" +
		"       bwctl predictions list --db DB [--project P] --release NAME@VERSION --as USER [--model NAME]"
	scoreUsage = "usage: bwctl score --db DB [--project P] --release NAME@VERSION --as USER [--model NAME]... [--json|--csv|--markdown|--latex]\n" +
		"                  [--denominator all|parsed] [--seed S] [--draws N] [--step-mode micro|macro] [--step-skip none|unparsed|unmatched]\n" +
		"                  [--yes-no vlmevalkit|lrr] [--rank-by FIGURE] [--columns FIGURE,...] [--blind-right]"
)

// predLoc is where a prediction was read: a file and the 1-based line its record
// starts on.
type predLoc struct {
	file string
	line int
}

func (l predLoc) String() string { return fmt.Sprintf("%s:%d", l.file, l.line) }

// predInput is the predictions of one import, in input order, with where each was read.
type predInput struct {
	preds []score.Prediction
	locs  []predLoc
}

func runPredictions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "import" && args[0] != "list") {
		fmt.Fprintln(stderr, predictionsUsage)
		return exitUsage
	}
	if args[0] == "import" {
		return runPredictionsImport(ctx, args[1:], stdout, stderr)
	}
	return runPredictionsList(ctx, args[1:], stdout, stderr)
}

// runPredictionsImport reads prediction files and imports them as one model's
// predictions on a release (store.ImportPredictions). Files are JSON Lines, one
// {"id": ..., "response": "raw model text"} per line ("sample_id" and "prediction"
// are accepted for the two keys, "step_match" is optional, other keys are
// ignored), or VLMEvalKit result TSVs of the release's vlmevalkit export (matched
// by their id column). Several files are one import: VLMEvalKit writes one result
// file per dataset (NAME_MCQ, NAME_YN). A file that cannot be read is named with
// its line and nothing is imported (exit 2); predictions for samples outside the
// release and second predictions for one sample are reported with their lines and
// left out (exit 1).
func runPredictionsImport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("predictions import", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "NAME@VERSION (or the release id)")
	project := fs.String("project", "", "the release's project (needed when two projects hold the same NAME@VERSION)")
	model := fs.String("model", "", "the model's name; importing a name again replaces its predictions")
	format := fs.String("format", string(score.PredictionsAuto), "auto (by the file's ending and first byte), jsonl or tsv (a VLMEvalKit result file, PRED_FORMAT=tsv)")
	blind := fs.Bool("blind", false, "the model answered without the images (text only): its blind run, kept beside its run with images, for MMStar's multi-modal gain and leakage")
	base := fs.String("base", "", "with --blind: the text-only LLM the model is built on, a model imported on the release (for the leakage)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, predictionsUsage)
		fs.PrintDefaults()
	}
	files, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(files) == 0 || *rel == "" || *model == "" {
		fmt.Fprintln(stderr, "bwctl predictions import: --release, --model and at least one FILE are required\n"+predictionsUsage)
		return exitUsage
	}
	if !slices.Contains([]score.PredictionFormat{score.PredictionsAuto, score.PredictionsJSONL, score.PredictionsTSV}, score.PredictionFormat(*format)) {
		fmt.Fprintf(stderr, "bwctl predictions import: --format %q: want auto, jsonl or tsv\n", *format)
		return exitUsage
	}
	var in predInput
	var names []string
	for _, file := range files {
		if err := readPredictionFile(file, *format, &in); err != nil {
			fmt.Fprintf(stderr, "bwctl predictions import: %v\n", err)
			fmt.Fprintln(stderr, "bwctl predictions import: nothing was imported")
			return exitUsage
		}
		names = append(names, filepath.Base(file))
	}
	db, actor, ref, _, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	source := strings.Join(names, ", ")
	res, err := db.As(actor).ImportPredictions(ctx, ref, *model, in.preds, source, bench.PredictionRun{Blind: *blind, Base: *base})
	if err != nil {
		return fail(stderr, err)
	}
	ref = res.Release.Ref()
	reportPredictionProblems(stderr, in, res, ref)
	circularNote(stderr, in.preds) // score_circular.go
	line := fmt.Sprintf("imported %d predictions of %s for %s from %s", res.Imported, bench.RunName(res.Model, res.Run.Blind), ref, source)
	if r := res.Replaced; r != nil {
		line += fmt.Sprintf("; they replace the %d imported by %s at %s from %s", r.Predictions, r.ImportedBy, r.ImportedAt, r.Source)
	}
	fmt.Fprintln(stdout, line)
	if res.Unknown.Count+res.Duplicate.Count > 0 {
		return exitFindings
	}
	return exitOK
}

// reportPredictionProblems names, with their lines, the predictions the store left
// out (the first few of each kind it lists), and notes the samples left without one.
func reportPredictionProblems(w io.Writer, in predInput, res bench.ImportPredictionsResult, ref string) {
	where := map[string][]predLoc{} // sample id → where its predictions were read, in input order
	for i, p := range in.preds {
		where[p.SampleID] = append(where[p.SampleID], in.locs[i])
	}
	for _, id := range res.Unknown.IDs {
		fmt.Fprintf(w, "%s: %s: not a sample of %s; not imported\n", where[id][0], id, ref)
	}
	if more := res.Unknown.Count - len(res.Unknown.IDs); more > 0 {
		fmt.Fprintf(w, "... and %d more predictions for samples not in %s; not imported\n", more, ref)
	}
	nth := map[string]int{}
	for _, id := range res.Duplicate.IDs {
		nth[id]++
		fmt.Fprintf(w, "%s: %s: another prediction for the sample (the first is at %s); not imported\n", where[id][nth[id]], id, where[id][0])
	}
	if more := res.Duplicate.Count - len(res.Duplicate.IDs); more > 0 {
		fmt.Fprintf(w, "... and %d more second predictions for a sample; not imported\n", more)
	}
	if b := res.PixelBoxes; b.Count > 0 {
		fmt.Fprintf(w, "warning: %s\n", bench.PixelBoxesWarning(b))
	}
	if m := res.Missing; m.Count > 0 {
		more := ""
		if n := m.Count - len(m.IDs); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		fmt.Fprintf(w, "note: %d samples of %s have no prediction and are scored as empty responses: %s%s\n",
			m.Count, ref, strings.Join(m.IDs, ", "), more)
	}
}

// readPredictionFile reads one prediction file into in, as format
// (score.ReadPredictions reads it; bwctl only opens the file).
func readPredictionFile(file, format string, in *predInput) error {
	data, err := readInput(file, score.MaxPredictionFileBytes)
	if errors.Is(err, errTooLarge) {
		return err
	}
	if err != nil {
		return fmt.Errorf("%s: %v", file, errors.Unwrap(err))
	}
	preds, lines, err := score.ReadPredictions(file, data, score.PredictionFormat(format))
	if err != nil {
		return err
	}
	for i, p := range preds {
		in.preds = append(in.preds, p)
		in.locs = append(in.locs, predLoc{file, lines[i]})
	}
	return nil
}

func runPredictionsList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("predictions list", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "verifier or lead (password from BENCHWRIGHT_PASSWORD); --model needs a lead")
	rel := fs.String("release", "", "NAME@VERSION (or the release id)")
	project := fs.String("project", "", "the release's project (needed when two projects hold the same NAME@VERSION)")
	model := fs.String("model", "", "print this model's predictions as JSON Lines instead of listing the models (its blind run: \"NAME (blind)\", as listed)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" {
		fmt.Fprintln(stderr, "bwctl predictions list: --release is required, and no other arguments\n"+predictionsUsage)
		return exitUsage
	}
	db, actor, ref, name, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	if *model != "" {
		preds, err := db.As(actor).Predictions(ctx, ref, *model)
		if err != nil {
			return fail(stderr, err)
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		for _, p := range preds {
			if err := enc.Encode(p); err != nil {
				return fail(stderr, err)
			}
		}
		return exitOK
	}
	runs, err := db.As(actor).Models(ctx, ref)
	if err != nil {
		return fail(stderr, err)
	}
	if len(runs) == 0 {
		fmt.Fprintf(stderr, "bwctl predictions list: no model has predictions on %s\n", name)
	}
	for _, r := range runs {
		name := bench.RunName(r.Model, r.Blind)
		if r.Base != "" {
			name += ", base " + r.Base
		}
		fmt.Fprintf(stdout, "%s\t%d predictions, %d missing\tfrom %s\timported by %s at %s\n",
			name, r.Predictions, r.Missing, r.Source, r.ImportedBy, r.ImportedAt)
	}
	return exitOK
}

// releaseArg is the release reference to hand the store, and the release's name
// for people. Without a project it is --release as given (the store looks in every
// project); with one, the release is looked up in that project and named by its id.
// connectRelease is connectAs followed by releaseArg: the preamble of the
// commands that act on one frozen release. On failure it has said why and returns
// a nil Service.
func connectRelease(ctx context.Context, at where, as, project, rel string, stderr io.Writer) (bench.Service, bench.User, string, string, func(), int) {
	db, actor, closeDB, code := connectAs(ctx, at, as, stderr)
	if db == nil {
		return nil, bench.User{}, "", "", nil, code
	}
	ref, name, err := releaseArg(ctx, db.As(actor), project, rel)
	if err != nil {
		closeDB()
		return nil, bench.User{}, "", "", nil, fail(stderr, err)
	}
	return db, actor, ref, name, closeDB, exitOK
}

func releaseArg(ctx context.Context, db bench.Calls, project, ref string) (arg, name string, err error) {
	if project == "" {
		return ref, ref, nil
	}
	p, err := db.ProjectByName(ctx, project)
	if err != nil {
		return "", "", err
	}
	rel, err := db.ReleaseByRef(ctx, p.ID, ref)
	if err != nil {
		return "", "", err
	}
	return strconv.FormatInt(rel.ID, 10), rel.Ref(), nil
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// runScore scores models on a release (store.Score, package score's rules) and
// prints the figures: as text (default), JSON Lines of score.Report, CSV rows of
// model × group × figure, or a leaderboard table in Markdown or LaTeX.
func runScore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("score", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "verifier or lead (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "NAME@VERSION (or the release id)")
	project := fs.String("project", "", "the release's project (needed when two projects hold the same NAME@VERSION)")
	var models stringList
	fs.Var(&models, "model", "a model to score (repeat for several; default: every model with predictions)")
	asJSON := fs.Bool("json", false, "one score.Report per line: model, n, overall figures, breakdowns (by)")
	asCSV := fs.Bool("csv", false, "one row per model × group × figure (dimension overall for the whole release)")
	asMD := fs.Bool("markdown", false, "a leaderboard table in Markdown")
	asTeX := fs.Bool("latex", false, "a leaderboard table in LaTeX (booktabs)")
	denom := fs.String("denominator", string(score.DenomAll), "what mcq_acc and acc50iou divide by: all (lmms-eval) or parsed (the official MultihopSpatial script)")
	seed := fs.Uint64("seed", 0, "bootstrap seed: the same seed gives the same intervals")
	draws := fs.Int("draws", 1000, "bootstrap replicates (0 or less: no intervals)")
	stepMode := fs.String("step-mode", string(score.StepMicro), "step-graph figures: micro (pooled counts, SpatiaLQA's total) or macro (mean per sample)")
	stepSkip := fs.String("step-skip", string(score.SkipNone), "step graphs left out of the step figures: none, unparsed or unmatched")
	yesNo := fs.String("yes-no", string(score.YesNoVLMEvalKit), "how yes/no answers are read: vlmevalkit (exactly one of the words yes and no) or lrr (LRR-Bench: No when the word No is there, else Yes)")
	rankBy := fs.String("rank-by", "", "--markdown/--latex: the figure models are ranked by (default: the first one they have of "+strings.Join(score.MetricNames[1:], ", ")+")")
	columns := fs.String("columns", "", "--markdown/--latex: the figures shown, comma-separated (default: every figure a model has)")
	pm := fs.Bool("pm", false, "--markdown/--latex: write value ± half the interval's width instead of value [low, high] (percentile intervals need not be symmetric)")
	blindRight := fs.Bool("blind-right", false, "list, per model with a blind run, the samples it answered right without the images (--json: one object per model)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, scoreUsage)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" {
		fmt.Fprintln(stderr, "bwctl score: --release is required, and no other arguments\n"+scoreUsage)
		return exitUsage
	}
	outputs := 0
	for _, b := range []bool{*asJSON, *asCSV, *asMD, *asTeX} {
		if b {
			outputs++
		}
	}
	if outputs > 1 {
		fmt.Fprintln(stderr, "bwctl score: give at most one of --json, --csv, --markdown and --latex")
		return exitUsage
	}
	opt := score.Options{Denominator: score.Denominator(*denom), StepMode: score.StepMode(*stepMode),
		StepSkip: score.StepSkip(*stepSkip), YesNo: score.YesNoRule(*yesNo), Draws: *draws, Seed: *seed}
	if opt.Draws <= 0 {
		opt.Draws = -1 // score.Options: 0 would mean the default
	}
	for _, c := range []struct {
		flag, v string
		ok      []string
	}{
		{"denominator", *denom, []string{string(score.DenomAll), string(score.DenomParsed)}},
		{"step-mode", *stepMode, []string{string(score.StepMicro), string(score.StepMacro)}},
		{"step-skip", *stepSkip, []string{string(score.SkipNone), string(score.SkipUnparsed), string(score.SkipUnmatched)}},
		{"yes-no", *yesNo, []string{string(score.YesNoVLMEvalKit), string(score.YesNoLRR)}},
	} {
		if !slices.Contains(c.ok, c.v) {
			fmt.Fprintf(stderr, "bwctl score: --%s %q: want %s\n", c.flag, c.v, strings.Join(c.ok, ", "))
			return exitUsage
		}
	}
	cols := list(*columns)
	for _, name := range append(slices.Clone(cols), *rankBy) {
		if name != "" && !slices.Contains(score.MetricNames, name) {
			fmt.Fprintf(stderr, "bwctl score: unknown figure %q (figures: %s)\n", name, strings.Join(score.MetricNames, ", "))
			return exitUsage
		}
	}
	db, actor, ref, name, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	if *blindRight { // cmd/bwctl/score_blind.go
		return writeBlindRight(ctx, db.As(actor), ref, name, models, *asJSON, stdout, stderr)
	}
	reports, err := db.As(actor).Score(ctx, ref, models, opt)
	if err != nil {
		return fail(stderr, err)
	}
	if _, err := score.AttachMultiModal(reports); err != nil { // MMStar's MG and ML on each model with a blind run
		return fail(stderr, err)
	}
	if len(models) == 0 { // every model, and the human baseline's row when people answered it (store/human.go)
		human, ok, err := db.As(actor).HumanReport(ctx, ref, opt)
		if err != nil {
			return fail(stderr, err)
		}
		if ok {
			reports = append(reports, human)
		}
	}
	switch {
	case *asJSON:
		err = writeScoreJSON(stdout, reports)
	case *asCSV:
		err = score.WriteCSV(stdout, reports)
	case *asMD, *asTeX:
		err = writeLeaderboard(stdout, name, reports, leaderboardStyle{rankBy: *rankBy, cols: cols, latex: *asTeX, pm: *pm})
	default:
		err = writeScoreText(stdout, name, reports)
	}
	if err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

func writeScoreJSON(w io.Writer, reports []*score.Report) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range reports {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// num formats a percentage exactly, for machines.

// settingsText says how the figures were computed: the denominator, the step
// options and the intervals.
func settingsText(r *score.Report) string {
	var b strings.Builder
	if r.Denominator == score.DenomParsed {
		b.WriteString("mcq_acc and acc50iou divide by the samples whose answer letter was read (--denominator parsed)")
	} else {
		b.WriteString("mcq_acc and acc50iou divide by all their samples (--denominator all); " +
			"the *_parsed_denominator figures by those whose answer letter was read")
	}
	fmt.Fprintf(&b, "; step figures %s, step graphs left out: %s", r.StepMode, r.StepSkip)
	fmt.Fprintf(&b, "; yes/no answers read by the %s rule (--yes-no)", r.YesNo)
	if bs := r.Bootstrap; bs != nil {
		fmt.Fprintf(&b, "; %d %% percentile bootstrap intervals, %d draws, seed %d", bs.Level, bs.Draws, bs.Seed)
	} else {
		b.WriteString("; no intervals")
	}
	return b.String()
}

func writeScoreText(w io.Writer, rel string, reports []*score.Report) error {
	fmt.Fprintf(w, "%s, %d samples: %s.\n", rel, reports[0].N, settingsText(reports[0]))
	for _, r := range reports {
		fmt.Fprintf(w, "\n%s\n", scoreTextHead(r))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  figure\tvalue\t95 % interval\tn")
		for _, name := range score.MetricNames {
			m := r.Overall.Metric(name)
			if m == nil {
				continue
			}
			ci := "-"
			if m.CI != nil {
				ci = fmt.Sprintf("[%.1f, %.1f]", m.CI[0], m.CI[1])
			}
			fmt.Fprintf(tw, "  %s\t%5.1f\t%s\t%d\n", name, m.Value, ci, m.N)
		}
		if mx := r.Overall.LRRScoreMax; mx != nil {
			fmt.Fprintf(tw, "  lrr_score_max\t%5.1f\t-\t%d\n", *mx, r.Overall.LRRScore.N)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	writeGainsText(w, reports) // cmd/bwctl/score_blind.go
	fmt.Fprintln(w, "\n(--json or --csv for the breakdowns by "+strings.Join(score.Dimensions, ", ")+")")
	return nil
}

// figureLabels are the column heads of leaderboard tables.
var figureLabels = map[string]string{
	"parsed": "Parsed", "mcq_acc": "MCQ Acc", "mcq_acc_parsed_denominator": "MCQ Acc (parsed)",
	"acc50iou": "Acc@50IoU", "acc50iou_parsed_denominator": "Acc@50IoU (parsed)", "mean_iou": "mIoU",
	"judgment_acc": "Y/N Acc", "strict_acc": "Open strict", "relaxed_acc": "Open relaxed", "mra": "MRA",
	"content_p": "Step P", "content_r": "Step R", "content_f1": "Step F1",
	"precond_p": "Precond P", "precond_r": "Precond R", "precond_f1": "Precond F1", "lrr_score": "LRR score",
}

func figureLabel(name string) string {
	if l, ok := figureLabels[name]; ok {
		return l
	}
	return name
}

// leaderboardStyle says what a leaderboard table shows and how.
type leaderboardStyle struct {
	rankBy string   // the figure ranked by; "" picks one
	cols   []string // the figures shown; none: every figure a model has
	latex  bool     // LaTeX, else Markdown
	pm     bool     // value ± half the interval's width, else value [low, high]
}

// writeLeaderboard writes a paper-ready table of the reports: rank (score.Leaderboard
// on the ranking figure, ties marked), model, and each figure with its interval.
func writeLeaderboard(w io.Writer, rel string, reports []*score.Report, st leaderboardStyle) error {
	rankBy, cols, latex := st.rankBy, st.cols, st.latex
	if len(cols) == 0 {
		for _, name := range score.MetricNames {
			if slices.ContainsFunc(reports, func(r *score.Report) bool { return r.Overall.Metric(name) != nil }) {
				cols = append(cols, name)
			}
		}
	}
	if rankBy == "" {
		for _, name := range score.MetricNames[1:] { // "parsed" ranks nothing worth ranking
			if !slices.ContainsFunc(reports, func(r *score.Report) bool { return r.Overall.Metric(name) == nil }) {
				rankBy = name
				break
			}
		}
		if rankBy == "" {
			return fmt.Errorf("%w: the models share no figure to rank them by; name one with --rank-by", bench.ErrInvalid)
		}
	}
	if !slices.Contains(cols, rankBy) {
		cols = append([]string{rankBy}, cols...)
	}
	board, err := score.Leaderboard(reports, rankBy)
	if err != nil {
		return fmt.Errorf("%w: %s", bench.ErrInvalid, strings.TrimPrefix(err.Error(), "score: "))
	}
	byModel := map[string]*score.Report{}
	for _, r := range reports {
		if !r.Blind { // a blind run's figures show as MG and ML (gainColumns)
			byModel[r.Model] = r
		}
	}
	cell := func(m *score.Metric) string {
		switch {
		case m == nil && latex:
			return "--"
		case m == nil:
			return "–"
		case m.CI == nil && latex:
			return fmt.Sprintf("$%.1f$", m.Value)
		case m.CI == nil:
			return fmt.Sprintf("%.1f", m.Value)
		}
		half := (m.CI[1] - m.CI[0]) / 2
		switch {
		case st.pm && latex:
			return fmt.Sprintf("$%.1f \\pm %.1f$", m.Value, half)
		case st.pm:
			return fmt.Sprintf("%.1f ± %.1f", m.Value, half)
		case latex:
			return fmt.Sprintf("$%.1f$\\,{\\scriptsize[%.1f, %.1f]}", m.Value, m.CI[0], m.CI[1])
		}
		return fmt.Sprintf("%.1f [%.1f, %.1f]", m.Value, m.CI[0], m.CI[1])
	}
	var ties []string
	rows := make([][]string, len(board))
	for i, s := range board {
		rank := strconv.Itoa(s.Rank)
		if len(s.TiedWith) > 0 {
			rank += map[bool]string{true: "$^{*}$", false: `\*`}[latex]
			ties = append(ties, s.Model+" with "+strings.Join(s.TiedWith, ", "))
		}
		rows[i] = []string{rank, s.Model}
		for _, c := range cols {
			rows[i] = append(rows[i], cell(byModel[s.Model].Overall.Metric(c)))
		}
	}
	r0 := reports[0]
	note := fmt.Sprintf("Percentages on %s (%d samples)", rel, r0.N)
	if bs := r0.Bootstrap; bs != nil {
		what := "with"
		if st.pm {
			what = "± half the width of"
		}
		note += fmt.Sprintf(" %s the %d %% percentile bootstrap interval (%d draws, seed %d)", what, bs.Level, bs.Draws, bs.Seed)
	}
	if r0.Denominator == score.DenomParsed {
		note += "; MCQ Acc and Acc@50IoU divide by the samples whose answer letter was read"
	} else {
		note += "; MCQ Acc and Acc@50IoU divide by all their samples"
	}
	if slices.Contains(cols, "lrr_score") {
		note += "; " + lrrNote(reports)
	}
	gainHeads, gainNote := gainColumns(reports, board, rows, rankBy, latex) // cmd/bwctl/score_blind.go
	note += gainNote
	note += fmt.Sprintf(". Ranked by %s: rank is 1 + the number of models whose interval lies wholly above", figureLabel(rankBy))
	if len(ties) > 0 {
		note += "; * tied (the intervals overlap): " + strings.Join(ties, "; ")
	}
	note += "."

	heads := []string{"Rank", "Model"}
	for _, c := range cols {
		heads = append(heads, figureLabel(c))
	}
	heads = append(heads, gainHeads...)
	if latex {
		return writeLaTeXTable(w, rel, heads, rows, note)
	}
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	line := func(cells []string) {
		for i := range cells {
			cells[i] = esc(cells[i])
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	line(heads)
	align := []string{"---:", ":---"}
	for range len(cols) + len(gainHeads) {
		align = append(align, "---:")
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(align, "|"))
	for _, r := range rows {
		line(r)
	}
	fmt.Fprintf(w, "\n%s\n", strings.Replace(esc(note), "* tied", `\* tied`, 1))
	return nil
}

// lrrNote says what the LRR score is and its maximum, for a leaderboard's note.
func lrrNote(reports []*score.Report) string {
	most := 0.0
	for _, r := range reports {
		if m := r.Overall.LRRScoreMax; m != nil {
			most = max(most, *m)
		}
	}
	return fmt.Sprintf("LRR score is LRR-Bench's points, not a percentage: per task of the yes/no samples w·2(p − 50) if its accuracy p ≥ 50 %%, else 0, summed (at most %s)",
		strconv.FormatFloat(most, 'f', -1, 64))
}

// texEscape escapes LaTeX's special characters in text.
func texEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '&', '%', '$', '#', '_', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '±':
			b.WriteString(`$\pm$`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func writeLaTeXTable(w io.Writer, rel string, heads []string, rows [][]string, note string) error {
	fmt.Fprintf(w, "%% bwctl score --latex: %s; needs \\usepackage{booktabs}\n", rel)
	fmt.Fprintln(w, `\begin{table}[t]`)
	fmt.Fprintln(w, `  \centering`)
	fmt.Fprintln(w, `  \small`)
	fmt.Fprintf(w, "  \\begin{tabular}{rl%s}\n", strings.Repeat("r", len(heads)-2))
	fmt.Fprintln(w, `    \toprule`)
	h := make([]string, len(heads))
	for i, s := range heads {
		h[i] = texEscape(s)
	}
	fmt.Fprintf(w, "    %s \\\\\n", strings.Join(h, " & "))
	fmt.Fprintln(w, `    \midrule`)
	for _, r := range rows {
		cells := slices.Clone(r)
		cells[1] = texEscape(cells[1]) // the model's name; the other cells are written as LaTeX
		fmt.Fprintf(w, "    %s \\\\\n", strings.Join(cells, " & "))
	}
	fmt.Fprintln(w, `    \bottomrule`)
	fmt.Fprintln(w, `  \end{tabular}`)
	caption := strings.ReplaceAll(texEscape(note), "* tied", "$^{*}$ tied")
	fmt.Fprintf(w, "  \\caption{%s}\n", caption)
	label := strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return r
		}
		return '-'
	}, rel)
	fmt.Fprintf(w, "  \\label{tab:scores-%s}\n", label)
	_, err := fmt.Fprintln(w, `\end{table}`)
	return err
}
