package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/sampling"
)

func init() {
	commands["validation"] = command{runValidation, "validation import|draw|status|accept-rest: sampled validation of a generated batch (leads)"}
}

const validationUsage = "usage: bwctl validation import --db DB [--project P] --as LEAD --batch B [--author USER] FILE.jsonl\n" +
	"       bwctl validation draw --db DB [--project P] --as LEAD --batch B [--stratify task|kind|hop_view] [--seed S]\n" +
	"                             (--per-stratum N | --margin M [--expected P]) [--interval clopper-pearson|wilson] [--level 0.95] [--threshold T]\n" +
	"       bwctl validation status --db DB [--project P] --as USER --batch B [--json]\n" +
	"       bwctl validation accept-rest --db DB [--project P] --as LEAD --batch B"

func runValidation(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	subs := map[string]bool{"import": true, "draw": true, "status": true, "accept-rest": true}
	if len(args) == 0 || !subs[args[0]] {
		fmt.Fprintln(stderr, validationUsage)
		return exitUsage
	}
	sub := args[0]
	fs := newFlags("validation "+sub, stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name (default: the only one)")
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	batch := fs.String("batch", "", "the batch's name")
	author := fs.String("author", "", "import: whose samples the items become (default: --as)")
	stratify := fs.String("stratify", "", "draw: task, kind or hop_view (the first draw fixes it; default task)")
	seed := fs.Int64("seed", 0, "draw: the random seed (the first draw fixes it)")
	perStratum := fs.Int("per-stratum", 0, "draw: items to draw from each stratum (all of a smaller one)")
	margin := fs.Float64("margin", 0, "draw: instead of --per-stratum, the margin of error wanted per stratum (0.03 = ±3 points)")
	expected := fs.Float64("expected", 0, "draw: the error rate expected, for --margin (default 0.5, the safest)")
	interval := fs.String("interval", "", "draw: clopper-pearson (exact, default) or wilson")
	level := fs.Float64("level", 0, "draw: the confidence level (default 0.95)")
	threshold := fs.Float64("threshold", 0, "draw: the error rate the upper bound must be below to accept the rest (required by the first draw)")
	asJSON := fs.Bool("json", false, "status: one JSON object")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return usageCode(err)
	}
	if *batch == "" || (sub == "import") != (len(pos) == 1) || (sub != "import" && len(pos) != 0) {
		fmt.Fprintln(stderr, validationUsage)
		return exitUsage
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	switch sub {
	case "import":
		data, err := os.ReadFile(pos[0])
		if err != nil {
			fmt.Fprintf(stderr, "bwctl validation import: %v\n", err)
			return exitUsage
		}
		recs, bad, err := convertSamples(ctx, db, actor, p.ID, formatNative, data)
		if err != nil {
			fmt.Fprintf(stderr, "bwctl validation import: %s: %v\n", pos[0], err)
			return exitUsage
		}
		for _, b := range bad {
			fmt.Fprintf(stdout, "%s:%d\t%s\t%s\n", pos[0], b.line, b.id, b.message)
		}
		res, err := db.As(actor).ImportBatch(ctx, bench.ImportBatchInput{ProjectID: p.ID, Name: *batch, Source: filepath.Base(pos[0]), Author: *author, Records: recs})
		if err != nil {
			return fail(stderr, err)
		}
		for _, f := range res.Findings {
			fmt.Fprintln(stdout, f.String())
		}
		fmt.Fprintf(stdout, "batch %s: %d generated items imported; %d records left out by the import audit\n",
			res.Batch.Name, res.Batch.Items, len(res.Findings)+len(bad))
		if len(res.Findings)+len(bad) > 0 {
			return exitFindings
		}
		return exitOK
	case "draw":
		st, err := db.As(actor).DrawValidation(ctx, bench.DrawInput{ProjectID: p.ID, Batch: *batch, Stratify: sampling.Stratify(*stratify), Seed: *seed,
			PerStratum: *perStratum, Margin: *margin, Expected: *expected, Method: sampling.Method(*interval), Level: *level, Threshold: *threshold})
		if err != nil {
			return fail(stderr, err)
		}
		d := st.Batch.Draws[len(st.Batch.Draws)-1]
		fmt.Fprintf(stdout, "draw %d of batch %s (by %s, seed %d): %d items added to round 1; %d of %d sampled\n",
			len(st.Batch.Draws), st.Batch.Name, st.Batch.Stratify, st.Batch.Seed, d.Added, st.Overall.Sampled, st.Overall.Items)
		return exitOK
	case "status":
		st, err := db.As(actor).ValidationStatus(ctx, p.ID, *batch)
		if err != nil {
			return fail(stderr, err)
		}
		if *asJSON {
			return writeStatusJSON(stdout, st)
		}
		writeStatusText(stdout, st)
		return exitOK
	default: // accept-rest
		res, err := db.As(actor).AcceptRest(ctx, p.ID, *batch)
		if err != nil {
			return fail(stderr, err)
		}
		o := res.Status.Overall
		fmt.Fprintf(stdout, "batch %s: %d items accepted by sampling (%d errors in %d judged, upper bound %.4f below %g)\n",
			*batch, len(res.Accepted), o.Errors, o.N, o.CI.High, res.Status.Batch.Threshold)
		return exitOK
	}
}

// statusCell is one stratum (or the batch) in status --json.
type statusCell struct {
	Stratum   string     `json:"stratum"`
	Items     int        `json:"items"`
	Sampled   int        `json:"sampled"`
	Pending   int        `json:"pending"`
	N         int        `json:"n"`
	Errors    int        `json:"errors"`
	Rate      float64    `json:"rate"`
	CI95      [2]float64 `json:"ci95"`
	Below     bool       `json:"below_threshold"`
	Unsampled int        `json:"unsampled"`
}

func cell(s bench.ValidationStratum) statusCell {
	return statusCell{Stratum: s.Name, Items: s.Items, Sampled: s.Sampled, Pending: s.Pending, N: s.N, Errors: s.Errors, Rate: s.Rate,
		CI95: [2]float64{s.CI.Low, s.CI.High}, Below: s.Below, Unsampled: s.Unsampled}
}

func writeStatusJSON(stdout io.Writer, st bench.ValidationStatus) int {
	b := st.Batch
	out := struct {
		Batch      string       `json:"batch"`
		Stratify   string       `json:"stratify"`
		Seed       int64        `json:"seed"`
		Interval   string       `json:"interval"`
		Level      float64      `json:"level"`
		Threshold  float64      `json:"threshold"`
		Strata     []statusCell `json:"strata"`
		Overall    statusCell   `json:"overall"`
		CanAccept  bool         `json:"can_accept_rest"`
		Refusal    string       `json:"refusal,omitempty"`
		BySampling int          `json:"accepted_by_sampling"`
	}{Batch: b.Name, Stratify: string(b.Stratify), Seed: b.Seed, Interval: string(b.Method), Level: b.Level, Threshold: b.Threshold,
		Strata: []statusCell{}, Overall: cell(st.Overall), CanAccept: st.Refusal == "", Refusal: st.Refusal, BySampling: b.BySampling}
	for _, s := range st.Strata {
		out.Strata = append(out.Strata, cell(s))
	}
	e := json.NewEncoder(stdout)
	e.SetEscapeHTML(false)
	if err := e.Encode(out); err != nil {
		return exitUsage
	}
	return exitOK
}

func writeStatusText(stdout io.Writer, st bench.ValidationStatus) {
	b := st.Batch
	fmt.Fprintf(stdout, "batch %s: %d items, %d sampled (by %s, seed %d), %d accepted by sampling; %s interval at %g, threshold %g\n",
		b.Name, b.Items, b.Sampled, b.Stratify, b.Seed, b.BySampling, b.Method, b.Level, b.Threshold)
	tw := tabwriter.NewWriter(stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "stratum\tsampled\tpending\tn\terrors\trate\tinterval\tbelow")
	for _, s := range append(st.Strata, st.Overall) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.4f\t[%.4f, %.4f]\t%v\n", s.Name, s.Sampled, s.Pending, s.N, s.Errors, s.Rate, s.CI.Low, s.CI.High, s.Below)
	}
	tw.Flush()
	if st.Refusal != "" {
		fmt.Fprintf(stdout, "the rest cannot be accepted: %s\n", st.Refusal)
	} else {
		fmt.Fprintln(stdout, "the rest can be accepted (bwctl validation accept-rest)")
	}
}
