package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/benchwright/benchwright/bench"
)

func init() {
	commands["agreement"] = command{runAgreement, "inter-rater agreement (alpha per round and criterion) of a project"}
}

const agreementUsage = "usage: bwctl agreement --db DB [--project NAME] --as USER [--table rounds|verifiers|boxes] [--json]"

// runAgreement prints the agreement tables of the dashboard: alpha per round and
// criterion (round "all" pools every round), alpha of the decision without each
// verifier, or the box agreement. Like review, it acts as a verifier or lead (--as),
// because the store shows agreement to them only. Every alpha carries a 95% bootstrap
// interval with bench.AgreementDraws draws and a fixed seed. The rounds table exits 3
// when no alpha in it is defined yet.
func runAgreement(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("agreement", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project (default: the only one)")
	as := fs.String("as", "", "verifier or lead (password from BENCHWRIGHT_PASSWORD)")
	table := fs.String("table", "rounds", "rounds: alpha per round and criterion; verifiers: decision alpha without each verifier; boxes: IoU of boxes drawn by several people")
	asJSON := fs.Bool("json", false, "one JSON object per line (round 0 is all rounds)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, agreementUsage)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "bwctl agreement: unexpected argument %q\n%s\n", pos[0], agreementUsage)
		return exitUsage
	}
	if *table != "rounds" && *table != "verifiers" && *table != "boxes" {
		fmt.Fprintf(stderr, "bwctl agreement: --table %q: want rounds, verifiers or boxes\n", *table)
		return exitUsage
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	a, err := db.As(actor).Agreement(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	switch *table {
	case "verifiers":
		err = printVerifierAlphas(stdout, a.Verifiers, *asJSON)
	case "boxes":
		err = printBoxes(stdout, a.Boxes, *asJSON)
	default:
		err = printAgreementRows(stdout, a.Rows, *asJSON)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl agreement: %v\n", err)
		return exitUsage
	}
	if *table == "rounds" {
		for _, r := range a.Rows {
			if r.Defined() {
				return exitOK
			}
		}
		fmt.Fprintln(stderr, "bwctl agreement: no alpha is defined yet (see the reasons)")
		return exitUndefined
	}
	return exitOK
}

// figureJSON is one alpha for --json: alpha and ci95 are null when undefined.
type figureJSON struct {
	Alpha     *float64    `json:"alpha"`
	CI95      *[2]float64 `json:"ci95"`
	Reading   string      `json:"reading,omitempty"`
	Undefined string      `json:"undefined,omitempty"`
}

func toFigureJSON(f bench.Figure) figureJSON {
	if !f.Defined() {
		return figureJSON{Undefined: f.Undefined}
	}
	return figureJSON{Alpha: &f.Alpha, CI95: &f.CI95, Reading: f.Reading}
}

// plainFigure is a figure's alpha, ci95 and reading columns.
func plainFigure(f bench.Figure) []string {
	if !f.Defined() {
		return []string{"-", "-", "undefined: " + f.Undefined}
	}
	return []string{strconv.FormatFloat(f.Alpha, 'f', 3, 64), f.CIText(), f.Reading}
}

func printTable(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

func printAgreementRows(w io.Writer, rows bench.AgreementTable, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, r := range rows {
			if err := enc.Encode(struct {
				Round     int    `json:"round"`
				Criterion string `json:"criterion"`
				Units     int    `json:"units"`
				Pairable  int    `json:"pairable_units"`
				Values    int    `json:"values"`
				figureJSON
			}{r.Round, r.Criterion, r.Units, r.Pairable, r.Values, toFigureJSON(r.Figure)}); err != nil {
				return err
			}
		}
		return nil
	}
	var out [][]string
	for _, r := range rows {
		out = append(out, append([]string{bench.RoundName(r.Round), r.Criterion, strconv.Itoa(r.Units), strconv.Itoa(r.Pairable)}, plainFigure(r.Figure)...))
	}
	return printTable(w, []string{"ROUND", "CRITERION", "UNITS", "PAIRABLE", "ALPHA", "CI95", "READING"}, out)
}

func printVerifierAlphas(w io.Writer, rows bench.VerifierAlphaTable, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, v := range rows {
			if err := enc.Encode(struct {
				Verifier string     `json:"verifier"`
				Reviews  int        `json:"reviews"`
				With     figureJSON `json:"with"`
				Without  figureJSON `json:"without"`
			}{v.Verifier, v.Reviews, toFigureJSON(v.With), toFigureJSON(v.Without)}); err != nil {
				return err
			}
		}
		return nil
	}
	var out [][]string
	for _, v := range rows {
		change := "-"
		if c, ok := v.Change(); ok {
			change = fmt.Sprintf("%+.3f", c)
		}
		out = append(out, append([]string{v.Verifier, strconv.Itoa(v.Reviews), v.With.AlphaText(), change}, plainFigure(v.Without)...))
	}
	return printTable(w, []string{"VERIFIER", "REVIEWS", "ALPHA", "CHANGE", "WITHOUT", "CI95", "READING"}, out)
}

func printBoxes(w io.Writer, b bench.BoxAgreement, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, r := range b.Rows {
			if err := enc.Encode(struct {
				Sample    string   `json:"sample"`
				Authors   []string `json:"authors"`
				Pairs     int      `json:"pairs"`
				MeanIoU   float64  `json:"mean_iou"`
				ShareAt50 float64  `json:"share_iou50"`
			}{r.SampleID, r.Authors, r.Pairs, r.MeanIoU, r.ShareAt50}); err != nil {
				return err
			}
		}
		return nil
	}
	out := [][]string{{"all", fmt.Sprintf("%d samples", b.Samples), strconv.Itoa(b.Pairs), fmt.Sprintf("%.3f", b.MeanIoU), fmt.Sprintf("%.3f", b.ShareAt50)}}
	for _, r := range b.Rows {
		out = append(out, []string{r.SampleID, strings.Join(r.Authors, "+"), strconv.Itoa(r.Pairs), fmt.Sprintf("%.3f", r.MeanIoU), fmt.Sprintf("%.3f", r.ShareAt50)})
	}
	return printTable(w, []string{"SAMPLE", "AUTHORS", "PAIRS", "MEAN_IOU", "IOU>=0.5"}, out)
}
