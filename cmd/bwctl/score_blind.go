package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

// Blind runs in bwctl score (issue 29 item 6): a model's run without the images
// (bwctl predictions import --blind) is reported beside its run with images, and
// MMStar's multi-modal gain and leakage (score.MultiModalGains, arXiv 2403.20330)
// are shown for every model that has both. None of this shows for a release
// without blind runs: its outputs are as they were.

// scoreTextHead names a report's run in the text output.
func scoreTextHead(r *score.Report) string {
	if !r.Blind {
		return r.Model
	}
	h := r.Model + " (blind: answered without the images"
	if r.Base != "" {
		h += "; base LLM " + r.Base
	}
	return h + ")"
}

// gainsNote says what MG and ML are, for the text and table outputs.
const gainsNote = "MG = S_v - S_wv and ML = max(0, S_wv - S_t) (MMStar, arXiv 2403.20330): S_v is the model's score with the images, " +
	"S_wv its blind run's (without the images), S_t the score of its base LLM's run (named by predictions import --blind --base); " +
	"no ML without a base"

// writeGainsText writes, after the text output's figures, each model's gains.
func writeGainsText(w io.Writer, reports []*score.Report) {
	if !slices.ContainsFunc(reports, func(r *score.Report) bool { return r.Blind }) {
		return
	}
	fmt.Fprintf(w, "\nmulti-modal gain and leakage, in points; %s\n", gainsNote)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  model\tfigure\tS_v\tS_wv\tMG\tbase\tS_t\tML")
	for _, r := range reports {
		for _, g := range r.MultiModal {
			st, ml := "-", "-"
			if g.ML != nil {
				st, ml = fmt.Sprintf("%.1f", *g.ST), fmt.Sprintf("%.1f", *g.ML)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%.1f\t%.1f\t%.1f\t%s\t%s\t%s\n", r.Model, g.Figure, g.SV, g.SWV, g.MG, cmpOr(g.Base, "-"), st, ml)
		}
	}
	tw.Flush()
}

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// gainColumns adds the MG and ML cells of the ranking figure to a leaderboard's
// rows (in board's order) and returns their heads and a sentence for the note;
// nothing when no report is of a blind run.
func gainColumns(reports []*score.Report, board []score.Standing, rows [][]string, rankBy string, latex bool) ([]string, string) {
	if !slices.ContainsFunc(reports, func(r *score.Report) bool { return r.Blind }) {
		return nil, ""
	}
	gains := map[string][]score.Gain{}
	for _, r := range reports {
		if !r.Blind {
			gains[r.Model] = r.MultiModal
		}
	}
	cell := func(v *float64) string {
		switch {
		case v == nil && latex:
			return "--"
		case v == nil:
			return "–"
		case latex:
			return fmt.Sprintf("$%.1f$", *v)
		}
		return fmt.Sprintf("%.1f", *v)
	}
	for i, s := range board {
		var mg, ml *float64
		if g := score.GainOn(gains[s.Model], rankBy); g != nil {
			mg, ml = &g.MG, g.ML
		}
		rows[i] = append(rows[i], cell(mg), cell(ml))
	}
	return []string{"MG", "ML"}, fmt.Sprintf("; MG and ML on %s, in points: %s", figureLabel(rankBy), gainsNote)
}

// blindRight is one model's blind run and the samples it got right.
type blindRight struct {
	Model string   `json:"model"`
	Base  string   `json:"base,omitempty"`
	N     int      `json:"n"`     // the release's samples
	Right []string `json:"right"` // the samples answered right without the images, in the release's order
}

// writeBlindRight lists, per model with a blind run (only those named, when
// models are), the samples its blind run answered right (store.ReleaseOutcomes,
// score.RightIDs): as text, or one blindRight per line with asJSON.
func writeBlindRight(ctx context.Context, db bench.Calls, ref, name string, models []string, asJSON bool, stdout, stderr io.Writer) int {
	runs, err := db.Models(ctx, ref)
	if err != nil {
		return fail(stderr, err)
	}
	outcomes, err := db.ReleaseOutcomes(ctx, ref)
	if err != nil {
		return fail(stderr, err)
	}
	var out []blindRight
	for _, r := range runs {
		if !r.Blind || (len(models) > 0 && !slices.Contains(models, r.Model)) {
			continue
		}
		b := blindRight{Model: r.Model, Base: r.Base, N: len(outcomes), Right: []string{}}
		for _, o := range outcomes {
			if slices.Contains(o.BlindRight, r.Model) {
				b.Right = append(b.Right, o.SampleID)
			}
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		fmt.Fprintf(stderr, "bwctl score: no model has a blind run on %s (bwctl predictions import --blind)\n", name)
		return exitOK
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, b := range out {
		if asJSON {
			if err := enc.Encode(b); err != nil {
				return fail(stderr, err)
			}
			continue
		}
		fmt.Fprintf(stdout, "%s: %d of %d samples of %s answered right without the images", bench.RunName(b.Model, true), len(b.Right), b.N, name)
		if len(b.Right) > 0 {
			fmt.Fprintf(stdout, ": %s", strings.Join(b.Right, ", "))
		}
		fmt.Fprintln(stdout)
	}
	return exitOK
}
