package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/benchwright/benchwright/bench"
)

func init() {
	commands["planted"] = command{runPlanted, "planted status|list|resume: how well each verifier catches planted errors (leads)"}
}

const plantedUsage = "usage: bwctl planted status|list|resume --db DB [--project NAME] --as LEAD [--json] [VERIFIER]"

// runPlanted gives a lead the planting figures (status), the planted copies
// with their origins (list), or resumes a verifier the pause rule stopped
// (resume NAME). Anyone but a lead is refused.
func runPlanted(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "status" && args[0] != "list" && args[0] != "resume") {
		fmt.Fprintln(stderr, plantedUsage)
		return exitUsage
	}
	sub := args[0]
	fs := newFlags("planted "+sub, stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project (default: the only one)")
	as := fs.String("as", "", "a lead (password from BENCHWRIGHT_PASSWORD)")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	fs.Usage = func() {
		fmt.Fprintln(stderr, plantedUsage)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args[1:])
	if err != nil {
		return usageCode(err)
	}
	if sub == "resume" && len(pos) != 1 || sub != "resume" && len(pos) > 0 {
		fmt.Fprintln(stderr, plantedUsage)
		return exitUsage
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	switch sub {
	case "resume":
		if err := db.As(actor).PlantResume(ctx, p.ID, pos[0]); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "resumed %s\n", pos[0])
		return exitOK
	case "list":
		items, err := db.As(actor).PlantedList(ctx, p.ID)
		if err != nil {
			return fail(stderr, err)
		}
		if err := printPlantedList(stdout, items, *asJSON); err != nil {
			return fail(stderr, err)
		}
		return exitOK
	}
	st, err := db.As(actor).PlantedStatus(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	if err := printPlantedStatus(stdout, st, *asJSON); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

// plantRateJSON is a rate as bwctl prints it: {"value", "ci"}.
type plantRateJSON struct {
	Value float64    `json:"value"`
	CI    [2]float64 `json:"ci"`
}

func printPlantedStatus(w io.Writer, st bench.PlantStatus, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, f := range st.Figures {
			if err := enc.Encode(struct {
				Verifier       string        `json:"verifier"`
				Round          int           `json:"round"`
				Planted        int           `json:"planted"`
				Caught         int           `json:"caught"`
				Partial        int           `json:"partial"`
				Missed         int           `json:"missed"`
				Clean          int           `json:"clean"`
				FalseAlarms    int           `json:"false_alarms"`
				CatchRate      plantRateJSON `json:"catch_rate"`
				FalseAlarmRate plantRateJSON `json:"false_alarm_rate"`
			}{f.Verifier, f.Round, f.Planted, f.Caught, f.Partial, f.Missed, f.Clean, f.FalseAlarms,
				plantRateJSON{f.CatchRate.Value, f.CatchRate.CI}, plantRateJSON{f.FalseAlarmRate.Value, f.FalseAlarmRate.CI}}); err != nil {
				return err
			}
		}
		return nil
	}
	rate := func(r bench.PlantRate) string {
		if r.N == 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f %% [%.0f–%.0f]", 100*r.Value, 100*r.CI[0], 100*r.CI[1])
	}
	var rows [][]string
	for _, f := range st.Figures {
		rows = append(rows, []string{f.Verifier, bench.RoundName(f.Round), strconv.Itoa(f.Planted), strconv.Itoa(f.Caught),
			strconv.Itoa(f.Partial), strconv.Itoa(f.Missed), rate(f.CatchRate), strconv.Itoa(f.Clean), strconv.Itoa(f.FalseAlarms), rate(f.FalseAlarmRate)})
	}
	if err := printTable(w, []string{"VERIFIER", "ROUND", "PLANTED", "CAUGHT", "PARTIAL", "MISSED", "CATCH RATE (95% CI)", "CLEAN", "FALSE ALARMS", "FALSE-ALARM RATE"}, rows); err != nil {
		return err
	}
	for _, ps := range st.Paused {
		if _, err := fmt.Fprintf(w, "paused: %s (%s)\n", ps.Verifier, ps.Reason); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "%d planted items not yet reviewed\n", st.Pending)
	return err
}

func printPlantedList(w io.Writer, items []bench.PlantedItem, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		for _, it := range items {
			if err := enc.Encode(it); err != nil {
				return err
			}
		}
		return nil
	}
	var rows [][]string
	for _, it := range items {
		outcome := it.Outcome
		if outcome == "" {
			outcome = "(not reviewed)"
		}
		rows = append(rows, []string{it.SampleID, it.Origin, it.Mutation, it.Verifier, bench.RoundName(it.Round), outcome})
	}
	return printTable(w, []string{"ITEM", "ORIGIN", "MUTATION", "REVIEWER", "ROUND", "OUTCOME"}, rows)
}
