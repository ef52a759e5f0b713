package ui

// The dashboard's Verifiers tab, for leads: how well each verifier catches the
// errors planted in check items (issue 30, store/planted.go). Verifiers never
// see this part; it loads through load, off the UI goroutine.

import (
	"context"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/chart"
	"github.com/benchwright/benchwright/verify"
)

// seesPlanting says whether the user reads the planting figures: a lead.
func seesPlanting(u bench.User) bool {
	return verify.Permitted(verify.ActionChangeSettings, verify.Role(u.Role))
}

// plantTable is the planting figures, exported as CSV.
type plantTable []bench.PlantFigures

func (t plantTable) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"verifier", "round", "planted", "caught", "partial", "missed", "catch_rate", "catch_ci_low", "catch_ci_high",
		"clean", "false_alarms", "false_alarm_rate", "false_alarm_ci_low", "false_alarm_ci_high"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, r := range t {
		cw.Write([]string{r.Verifier, strconv.Itoa(r.Round), strconv.Itoa(r.Planted), strconv.Itoa(r.Caught), strconv.Itoa(r.Partial),
			strconv.Itoa(r.Missed), f(r.CatchRate.Value), f(r.CatchRate.CI[0]), f(r.CatchRate.CI[1]), strconv.Itoa(r.Clean),
			strconv.Itoa(r.FalseAlarms), f(r.FalseAlarmRate.Value), f(r.FalseAlarmRate.CI[0]), f(r.FalseAlarmRate.CI[1])})
	}
	cw.Flush()
	return cw.Error()
}

// loadPlanting reads the planting figures in the background for a lead and
// shows them in the Verifiers tab.
func (v *dashboardView) loadPlanting(ctx context.Context, sess bench.Session, user bench.User, pid int64) {
	if !seesPlanting(user) {
		return
	}
	load(v.u, "", func() (bench.PlantStatus, error) { return sess.PlantedStatus(ctx, pid) }, func(st bench.PlantStatus, err error) {
		v.plant, v.plantErr = &st, err
		v.setTab(tabVerifiers, v.verifiersTab())
	})
}

// withPlanting puts the planting section under the tab's verifier table, for a
// lead once the figures have loaded.
func (v *dashboardView) withPlanting(c fyne.CanvasObject) fyne.CanvasObject {
	if !seesPlanting(v.u.user) {
		return c
	}
	return container.NewVSplit(c, container.NewVScroll(v.plantingSection()))
}

// plantRate is a rate with its interval for a table: "60 % [32–84]".
func plantRate(r bench.PlantRate) string {
	if r.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f %% [%.0f–%.0f]", 100*r.Value, 100*r.CI[0], 100*r.CI[1])
}

// plantingSection is the check items' figures: a chart of each verifier's catch
// rate per round with its 95 % interval, the table, the panel's catch per round
// and who is paused.
func (v *dashboardView) plantingSection() fyne.CanvasObject {
	switch {
	case v.plantErr != nil:
		return widget.NewLabel(bench.Message(v.plantErr))
	case v.plant == nil:
		return widget.NewLabel("Loading the check items…")
	}
	st := *v.plant
	help := widget.NewLabel(fmt.Sprintf("Check items are copies of accepted samples with one known error (or none), planted in a verifier's queue "+
		"when plant_rate is set (Settings). Caught: rejected for a reason that covers the error; partial: rejected for another reason. "+
		"Intervals are exact (Clopper–Pearson, 95 %%). %s not yet reviewed.", annotate.Plural(st.Pending, "check item")))
	help.Wrapping = fyne.TextWrapWord
	if len(st.Figures) == 0 {
		return container.NewVBox(heading("Check items"), help, widget.NewLabel("No check item has been reviewed yet."))
	}
	var rows []chart.Interval
	for _, f := range st.Figures {
		in := chart.Interval{Label: f.Verifier + " · round " + strconv.Itoa(f.Round), Value: math.NaN(), Undefined: "no planted error seen"}
		if f.Planted > 0 {
			in.Value, in.Lo, in.Hi, in.Undefined = f.CatchRate.Value, f.CatchRate.CI[0], f.CatchRate.CI[1], ""
		}
		rows = append(rows, in)
	}
	plot := v.u.intervalChart("Catch rate with its 95% interval", rows, nil, 0, 1, chartW, float32(60+22*len(rows)))
	table := dashTable([]string{"Verifier", "Round", "Planted", "Caught", "Partial", "Missed", "Catch rate", "Clean", "False alarms", "False-alarm rate"},
		dashRows(st.Figures, func(f bench.PlantFigures) []string {
			return []string{f.Verifier, bench.RoundName(f.Round), strconv.Itoa(f.Planted), strconv.Itoa(f.Caught), strconv.Itoa(f.Partial),
				strconv.Itoa(f.Missed), plantRate(f.CatchRate), strconv.Itoa(f.Clean), strconv.Itoa(f.FalseAlarms), plantRate(f.FalseAlarmRate)}
		}))
	// In a scroll the table would shrink to one row: it gets the height of its rows.
	tall := canvas.NewRectangle(color.Transparent)
	tall.SetMinSize(fyne.NewSize(0, float32(40*(len(st.Figures)+1)+8)))
	out := container.NewVBox(heading("Check items"), help, container.NewHBox(plot),
		v.section("Catch and false-alarm rates", "planted.csv", plantTable(st.Figures), container.NewStack(tall, table)))
	for round := 1; round <= 3; round++ {
		if r, ok := st.Panel[round]; ok {
			out.Add(widget.NewLabel(fmt.Sprintf("Round %d's verifiers together caught %s of the planted errors they saw.", round, plantRate(r))))
		}
	}
	for _, p := range st.Paused {
		l := widget.NewLabel(fmt.Sprintf("%s is paused: %s", p.Verifier, p.Reason))
		l.Wrapping = fyne.TextWrapWord
		out.Add(l)
	}
	return out
}
