package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/benchwright/benchwright/agreement"
)

// maxDraws bounds --bootstrap: beyond it an interval no longer changes, only the
// time and memory a mistyped number would cost.
const maxDraws = 100_000

// exitUndefined is the exit code for data on which alpha is undefined.
const exitUndefined = 3

const alphaUsage = "usage: bwctl alpha [--level nominal|ordinal|interval|ratio] [--names] [--bootstrap N] [--seed S] [--json] FILE.csv"

// runAlpha prints Krippendorff's alpha of a CSV in Krippendorff's layout (one
// row per coder, one column per unit; empty, "*" or "." is missing), and with
// --bootstrap a 95% confidence interval and the chance that alpha falls below
// 0.800 and 0.667. Ctrl-C (ctx) stops the bootstrap.
func runAlpha(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("alpha", stderr)
	levelName := fs.String("level", "nominal", "level of measurement: nominal, ordinal, interval or ratio")
	names := fs.Bool("names", false, "the first column holds coder names")
	draws := fs.Int("bootstrap", 0, "bootstrap `N` replicates for a 95% confidence interval (0: none)")
	seed := fs.Uint64("seed", 1, "`seed` of the bootstrap; the same seed gives the same interval")
	asJSON := fs.Bool("json", false, "print one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, alphaUsage)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, alphaUsage)
		return exitUsage
	}
	level, err := agreement.ParseLevel(*levelName)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl alpha: --level: %v\n", err)
		return exitUsage
	}
	if *draws < 0 || *draws > maxDraws {
		fmt.Fprintf(stderr, "bwctl alpha: --bootstrap %d: want 0 (none) to %d draws (Krippendorff's procedure uses 1,000 to 10,000)\n", *draws, maxDraws)
		return exitUsage
	}

	path := pos[0]
	res, code := readAlpha(path, *names, level, stderr)
	if res == nil {
		return code
	}
	var boot *agreement.Bootstrap
	if *draws > 0 {
		if boot, err = res.Bootstrap(ctx, *draws, *seed); err != nil {
			if code, ok := interrupted(stderr, "alpha", "no interval was computed", err); ok {
				return code
			}
			fmt.Fprintf(stderr, "bwctl alpha: %s: %v\n", path, err)
			return exitUsage
		}
	}
	if *asJSON {
		return printAlphaJSON(stdout, stderr, res, boot)
	}
	fmt.Fprintf(stdout, "alpha=%.6f\nlevel=%s\nunits=%d\ndropped=%d\npairable=%d\nobserved=%s\nexpected=%s\nreading=%s\n",
		res.Alpha, res.Level, res.Units, res.DroppedUnits, res.Pairable, disagreement(res.Observed), disagreement(res.Expected), agreement.Reading(res.Alpha))
	if boot != nil {
		fmt.Fprintf(stdout, "bootstrap=%d seed=%d pairs=%d\nci95=[%.6f,%.6f]\n", boot.Draws, boot.Seed, boot.Pairs, boot.CI95[0], boot.CI95[1])
		for _, b := range boot.Below {
			fmt.Fprintf(stdout, "q(alpha<%.3f)=%.6f\n", b.Threshold, b.P)
		}
	}
	return exitOK
}

// readAlpha reads the CSV at path and computes alpha, reporting failures on
// stderr: unreadable input exits 2, undefined alpha 3.
func readAlpha(path string, names bool, level agreement.Level, stderr io.Writer) (*agreement.Result, int) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl alpha: %v\n", err)
		return nil, exitUsage
	}
	defer f.Close()
	data, _, err := agreement.ReadCSV(lineCapped(capped(f, path, maxTableBytes), path, maxCSVLineBytes), names)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl alpha: %s: %v\n", path, err)
		return nil, exitUsage
	}
	res, err := agreement.Alpha(data, level)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl alpha: %s: %v\n", path, err)
		if errors.Is(err, agreement.ErrUndefined) {
			return nil, exitUndefined
		}
		return nil, exitUsage
	}
	return res, exitOK
}

type alphaJSON struct {
	Alpha     float64          `json:"alpha"`
	Level     string           `json:"level"`
	Units     int              `json:"units"`
	Pairable  int              `json:"pairable"`
	Observed  *float64         `json:"observed"` // null when it overflows float64 (see notes)
	Expected  *float64         `json:"expected"`
	Notes     []string         `json:"notes,omitempty"`
	CI95      *[2]float64      `json:"ci95,omitempty"`
	Dropped   int              `json:"dropped"`
	Reading   string           `json:"reading"`
	Values    []valueCountJSON `json:"values"`
	Bootstrap *alphaBootJSON   `json:"bootstrap,omitempty"`
}

type valueCountJSON struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

type alphaBootJSON struct {
	Draws int         `json:"draws"`
	Seed  uint64      `json:"seed"`
	Pairs int         `json:"pairs"`
	Below []belowJSON `json:"below"`
}

type belowJSON struct {
	Threshold float64 `json:"threshold"`
	P         float64 `json:"p"`
}

func printAlphaJSON(stdout, stderr io.Writer, res *agreement.Result, boot *agreement.Bootstrap) int {
	out := alphaJSON{
		Alpha: res.Alpha, Level: res.Level.String(), Units: res.Units, Pairable: res.Pairable,
		Observed: finite(res.Observed), Expected: finite(res.Expected), Dropped: res.DroppedUnits,
		Reading: agreement.Reading(res.Alpha),
	}
	if out.Observed == nil || out.Expected == nil {
		out.Notes = append(out.Notes, overflowNote)
	}
	for _, v := range res.Values {
		out.Values = append(out.Values, valueCountJSON{v.Value, v.Count})
	}
	if boot != nil {
		out.CI95 = &boot.CI95
		out.Bootstrap = &alphaBootJSON{Draws: boot.Draws, Seed: boot.Seed, Pairs: boot.Pairs}
		for _, b := range boot.Below {
			out.Bootstrap.Below = append(out.Bootstrap.Below, belowJSON{b.Threshold, b.P})
		}
	}
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		fmt.Fprintf(stderr, "bwctl alpha: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// overflowNote explains a null observed or expected disagreement.
const overflowNote = "observed and expected disagreement are in the data's squared units, which overflow float64 for values this large; alpha is computed on scaled values and is exact"

// finite is &v, or nil when v is not a finite number (JSON has no Inf).
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// disagreement prints D_o or D_e, or says that it overflows.
func disagreement(v float64) string {
	if finite(v) == nil {
		return "overflow (beyond float64 in the data's squared units; alpha is exact)"
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}
