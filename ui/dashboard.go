package ui

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/agreement"
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/chart"
	"github.com/benchwright/benchwright/verify"
)

// The dashboard's tabs. Everyone sees Funnel, Activity, Balance, Annotators and
// Errors; an
// annotator's Annotators tab holds only their own row, because the store gives an
// annotator nothing else (bench.Dashboard.Own). Verifiers and leads also see the
// Verifiers tab and the Agreement tab (the store refuses agreement to annotators);
// leads the Shortcuts tab (dashboard_shortcuts.go).
const (
	tabFunnel     = "Funnel"
	tabActivity   = "Activity" // per day: kept off the Funnel tab, which has no dates
	tabBalance    = "Balance"
	tabAnnotators = "Annotators"
	tabVerifiers  = "Verifiers"
	tabErrors     = "Errors"
	tabAgreement  = "Agreement"
)

// Chart sizes in pixels.
const (
	chartW, chartH = 400, 210
	heatW, heatH   = 400, 190
)

// csvTable is a dashboard table that exports itself as CSV.
type csvTable interface{ WriteCSV(w io.Writer) error }

// dashboardView is the Dashboard screen: tabs of charts and tables over the store's
// aggregates, loaded when the screen is shown and again, off the UI goroutine, on
// Refresh. Every chart is laid out from the data (charts.go) and every table
// has an Export CSV… button.
type dashboardView struct {
	widget.BaseWidget
	u       *App
	tabs    *container.AppTabs
	status  *widget.Label
	refresh *widget.Button
	loads   atomic.Int32 // finished loads, for tests
	// loading: a reload runs (its agreement can take seconds); again: others
	// changed something meanwhile, so one more follows it. UI goroutine only.
	loading, again bool

	data bench.Dashboard
	agr  *bench.Agreement // nil unless the user may see agreement
	// plant and plantErr: the check items' figures, for a lead (dashboard_verifiers.go).
	plant    *bench.PlantStatus
	plantErr error
	// sc: the Shortcuts tab's report, for a lead (dashboard_shortcuts.go);
	// scLoads counts its finished loads, for tests.
	sc      shortcutState
	scLoads atomic.Int32
}

// seesAgreement says whether the user's role gets the Verifiers and Agreement tabs.
func seesAgreement(u bench.User) bool {
	return verify.Permitted(verify.ActionSeeAgreement, verify.Role(u.Role))
}

// dashboardScreen shows the dashboard. Its aggregates (about half a second at 10,000
// samples on two cores, several at 100,000) and then the agreement (which
// bootstraps each alpha) load in the background behind "Loading…", so that the
// screen shows at once and says it is loading whatever the project's size.
func (u *App) dashboardScreen() fyne.CanvasObject {
	v := &dashboardView{u: u, status: widget.NewLabel("")}
	v.status.Wrapping = fyne.TextWrapWord // the summary grows with the project; Refresh stays on screen
	v.ExtendBaseWidget(v)
	v.refresh = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() {
		v.reload()
		if v.sc.rep != nil || v.sc.err != nil { // the shortcut report, once shown, is computed again on Refresh only: it fits a model
			v.loadShortcuts()
		}
	})
	u.onOthersChanged = v.reload // the team's work appears without pressing Refresh
	names := []string{tabFunnel, tabActivity, tabBalance, tabAnnotators, tabErrors}
	if seesAgreement(u.user) {
		names = []string{tabFunnel, tabActivity, tabBalance, tabAnnotators, tabVerifiers, tabErrors, tabAgreement}
	}
	if seesShortcuts(u.user) {
		names = append(names, tabShortcuts)
	}
	v.tabs = container.NewAppTabs()
	for _, n := range names {
		v.tabs.Append(container.NewTabItem(n, widget.NewLabel("Loading…")))
	}
	v.tabs.OnSelected = func(it *container.TabItem) {
		if it.Text == tabShortcuts {
			v.shortcutsSelected()
		}
	}
	v.reload()
	return v
}

func (v *dashboardView) CreateRenderer() fyne.WidgetRenderer {
	top := container.NewBorder(nil, nil, nil, v.refresh, v.status)
	return widget.NewSimpleRenderer(container.NewBorder(top, nil, nil, nil, v.tabs))
}

// setTab replaces the content of the tab named name, redrawing it if it shows.
func (v *dashboardView) setTab(name string, c fyne.CanvasObject) {
	for _, it := range v.tabs.Items {
		if it.Text == name {
			it.Content = container.NewPadded(c)
			if v.tabs.Selected() == it {
				v.tabs.Refresh()
			}
		}
	}
}

// reload reads the aggregates in the background and rebuilds every tab when they
// arrive; for verifiers and leads the agreement follows, its tab saying it is
// being computed meanwhile.
func (v *dashboardView) reload() {
	if v.loading { // the team's changes arrive every few seconds; one load at a time
		v.again = true
		return
	}
	v.loading = true
	v.refresh.Disable()
	v.status.SetText("Loading…")
	sess, user, pid, ctx := v.u.sess, v.u.user, v.u.project.ID, v.u.ctx()
	done := func() {
		v.loading = false
		v.refresh.Enable()
		v.loads.Add(1)
		if v.again {
			v.again = false
			v.reload()
		}
	}
	load(v.u, "", func() (bench.Dashboard, error) { return sess.Dashboard(ctx, pid) }, func(d bench.Dashboard, err error) {
		if err != nil {
			v.status.SetText(bench.Message(err))
			done()
			return
		}
		v.data = d
		v.fill()
		v.loadPlanting(ctx, sess, user, pid)
		if !seesAgreement(user) {
			done()
			return
		}
		if v.agr == nil {
			v.setTab(tabAgreement, widget.NewLabel("Computing the agreement…"))
		}
		load(v.u, "", func() (bench.Agreement, error) { return sess.Agreement(ctx, pid) }, func(a bench.Agreement, err error) {
			defer done()
			if err != nil {
				v.setTab(tabAgreement, widget.NewLabel(bench.Message(err)))
				return
			}
			v.agr = &a
			v.setTab(tabAgreement, v.agreementTab())
		})
	})
}

// fill rebuilds every tab from the loaded data, keeping the selected tab.
func (v *dashboardView) fill() {
	d := v.data
	total, review := 0, 0
	by := d.Funnel.ByState()
	for i, n := range by {
		total += n
		if verify.States[i].Round() > 0 {
			review += n
		}
	}
	accepted := strconv.Itoa(by[dashStateIndex(verify.StateAccepted)]) + " accepted"
	if d.BySampling > 0 {
		accepted += fmt.Sprintf(" (%d accepted by sampling)", d.BySampling)
	}
	// Every state is named, so that the parts add up to the total (drafts and
	// withdrawn samples were left out).
	v.status.SetText(fmt.Sprintf("%s: %s, %d in review, %s, %d returned, %d withdrawn",
		annotate.Plural(total, "sample"), annotate.Plural(by[dashStateIndex(verify.StateDraft)], "draft"), review, accepted,
		by[dashStateIndex(verify.StateReturned)], by[dashStateIndex(verify.StateWithdrawn)]))
	for _, it := range v.tabs.Items {
		var c fyne.CanvasObject
		switch it.Text {
		case tabFunnel:
			c = v.funnelTab()
		case tabActivity:
			c = v.activityTab()
		case tabBalance:
			c = v.balanceTab()
		case tabAnnotators:
			c = v.annotatorsTab()
		case tabVerifiers:
			c = v.verifiersTab()
		case tabErrors:
			c = v.errorsTab()
		case tabAgreement:
			c = v.agreementTab()
		case tabShortcuts:
			c = v.shortcutsTab()
		}
		it.Content = container.NewPadded(c)
	}
	v.tabs.Refresh()
}

func dashStateIndex(s verify.State) int {
	for i, x := range verify.States {
		if x == s {
			return i
		}
	}
	return 0
}

// section is a heading with an Export CSV… button over body, which fills the rest.
func (v *dashboardView) section(title, file string, t csvTable, body fyne.CanvasObject) fyne.CanvasObject {
	export := widget.NewButtonWithIcon("Export CSV…", theme.DocumentSaveIcon(), func() { v.u.exportTableCSV(file, t) })
	return container.NewBorder(container.NewBorder(nil, nil, heading(title), export), nil, nil, nil, body)
}

// exportTableCSV asks for a file and writes t to it.
func (u *App) exportTableCSV(name string, t csvTable) {
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			u.showError(err)
			return
		}
		if w == nil {
			return // cancelled
		}
		err = t.WriteCSV(w)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			u.showError(fmt.Errorf("export %s: %w", w.URI().Name(), err))
			return
		}
		u.setStatus("Exported %s", w.URI().Path())
	}, u.win)
	d.SetFileName(name)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv"}))
	d.Show()
}

// dashTable is a read-only table of strings with a bold header row, its columns as
// wide as their content (at most 420); it fills its place and scrolls.
func dashTable(header []string, rows [][]string) fyne.CanvasObject {
	t := widget.NewTable(
		func() (int, int) { return len(rows) + 1, len(header) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row == 0 {
				l.TextStyle.Bold = true
				l.SetText(header[id.Col])
				return
			}
			l.TextStyle.Bold = false
			l.SetText(rows[id.Row-1][id.Col])
		},
	)
	for c, w := range dashColumnWidths(header, rows) { // table_fit.go
		t.SetColumnWidth(c, w)
	}
	return t
}

// dashRate is a share as a percentage of n, or "–" when n is 0.
func dashRate(share float64, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%% of %d", 100*share, n)
}

// dashDay turns 2025-03-01 into 03-01 for chart labels.
func dashDay(day string) string {
	if len(day) == 10 {
		return day[5:]
	}
	return day
}

func (v *dashboardView) funnelTab() fyne.CanvasObject {
	d := v.data
	kinds := d.Funnel.Kinds()
	labels := make([]string, len(verify.States))
	for i, s := range verify.States {
		labels[i] = string(s)
	}
	var series []Series
	var rows [][]string
	for k, kind := range kinds {
		vals := make([]float64, len(verify.States))
		row := []string{kind}
		total := 0
		for _, r := range d.Funnel {
			if r.Kind == kind {
				vals[dashStateIndex(r.State)] = float64(r.Count)
				total += r.Count
			}
		}
		for _, x := range vals {
			row = append(row, strconv.Itoa(int(x)))
		}
		rows = append(rows, append(row, strconv.Itoa(total)))
		series = append(series, Series{Name: kind, Values: vals, Color: ChartPalette(dashKindColor(kind, k))})
	}
	states := v.u.barChart("Samples per state, by kind", labels, series, chartW, chartH)
	header := append(append([]string{"Kind"}, labels...), "total")
	return container.NewBorder(container.NewHBox(states), nil, nil, nil,
		v.section("Samples per kind and state", "funnel.csv", d.Funnel, dashTable(header, rows)))
}

// activityTab shows the samples that reached each state per day (UTC), from the
// audit log.
func (v *dashboardView) activityTab() fyne.CanvasObject {
	d := v.data
	days, _ := d.Activity.Days()
	short := make([]string, len(days))
	for i, day := range days {
		short[i] = dashDay(day)
	}
	var daily []Series
	for i, s := range verify.States {
		vals := make([]float64, len(days))
		seen := false
		for _, r := range d.Activity {
			if r.State == s {
				vals[slices.Index(days, r.Day)] += float64(r.Count)
				seen = true
			}
		}
		if seen {
			daily = append(daily, Series{Name: string(s), Values: vals, Color: ChartPalette(i)})
		}
	}
	activity := v.u.barChart("Samples reaching a state per day (UTC)", short, daily, chartW, chartH)
	return container.NewBorder(container.NewHBox(activity), nil, nil, nil,
		v.section("Samples reaching each state per day", "activity.csv", d.Activity, dashTable([]string{"Day", "State", "Samples"},
			dashRows(d.Activity, func(r bench.ActivityRow) []string { return []string{r.Day, string(r.State), strconv.Itoa(r.Count)} }))))
}

// dashKindColor gives each known kind a fixed colour across charts.
func dashKindColor(kind string, fallback int) int {
	for i, k := range annotate.Kinds {
		if string(k) == kind {
			return i
		}
	}
	return len(annotate.Kinds) + fallback
}

func dashRows[T any](xs []T, f func(T) []string) [][]string {
	out := make([][]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// dashHeat is the colour of a balance cell's level.
func dashHeat(c bench.BalanceCell) HeatCell {
	if c.Target == 0 {
		return HeatCell{Text: strconv.Itoa(c.Accepted) + " (no target)", Fill: HeatNone}
	}
	fill := HeatFar
	switch c.Level() {
	case bench.BalanceMet:
		fill = HeatMet
	case bench.BalancePartial:
		fill = HeatPartial
	}
	return HeatCell{Text: fmt.Sprintf("%d/%d", c.Accepted, c.Target), Fill: fill}
}

func (v *dashboardView) balanceTab() fyne.CanvasObject {
	d := v.data
	views := []string{string(annotate.ViewEgo), string(annotate.ViewExo)}
	rows := []string{"1-hop", "2-hop", "3-hop"}
	cells := make([][]HeatCell, 3)
	for h := range cells {
		cells[h] = make([]HeatCell, len(views))
		for c, view := range views {
			for _, b := range d.Balance {
				if b.Kind == string(annotate.KindHopQA) && b.Hop == h+1 && b.View == view {
					cells[h][c] = dashHeat(b)
					break
				}
			}
		}
	}
	grid := v.u.heatGrid("Hop QA accepted / target (green met, amber half, red far)", rows, views, cells, heatW, heatH)
	v.u.linkCells(grid, func(row, col int) bench.SampleQuery { return heatCellQuery(row+1, views[col]) })
	orAny := func(s string) string {
		if s == "" || s == "0" {
			return "any"
		}
		return s
	}
	balanceHeader := []string{"Kind", "Hop", "View", "Task", "Target", "Accepted", "In review", "Shortfall", "Level"}
	table := v.u.linkRows(dashTable(balanceHeader,
		dashRows(d.Balance, func(c bench.BalanceCell) []string {
			target, short := strconv.Itoa(c.Target), strconv.Itoa(c.Shortfall)
			if c.Target == 0 {
				target, short = bench.BalanceNone, "–"
			}
			return []string{c.Kind, orAny(strconv.Itoa(c.Hop)), orAny(c.View), orAny(c.Task), target, strconv.Itoa(c.Accepted), strconv.Itoa(c.InReview), short, c.Level()}
		})), func(row, col int) (bench.SampleQuery, bool) {
		return balanceQuery(d.Balance[row], balanceHeader[col]), true
	})
	return container.NewBorder(container.NewHBox(grid), nil, nil, nil, v.section("Balance targets", "balance.csv", d.Balance, table))
}

func (v *dashboardView) annotatorsTab() fyne.CanvasObject {
	d := v.data
	rows := dashRows(d.Annotators, func(a bench.AnnotatorRow) []string {
		row := []string{a.Name, strconv.Itoa(a.Samples), strconv.Itoa(a.Accepted), strconv.Itoa(a.Submitted), strconv.FormatFloat(a.PerDay(), 'f', 1, 64)}
		for r := 1; r <= 3; r++ {
			share, _ := a.RejectionRate(r)
			row = append(row, dashRate(share, a.Reviews[r-1]))
		}
		var rs []string
		for _, x := range a.TopReasons {
			rs = append(rs, fmt.Sprintf("%s (%d)", verify.ReasonLabel(x.Reason), x.Count))
		}
		return append(row, strings.Join(rs, ", "))
	})
	title := "Authors"
	if d.Own {
		title = "Your work"
	}
	names := []string{}
	for _, t := range d.Throughput {
		if !slices.Contains(names, t.Name) {
			names = append(names, t.Name)
		}
	}
	var days []string
	for _, t := range d.Throughput {
		if len(days) == 0 || days[len(days)-1] != t.Day {
			days = append(days, t.Day)
		}
	}
	var series []Series
	for i, n := range names {
		vals := make([]float64, len(days))
		for _, t := range d.Throughput {
			if t.Name == n {
				vals[slices.Index(days, t.Day)] += float64(t.Submitted)
			}
		}
		series = append(series, Series{Name: n, Values: vals, Color: ChartPalette(i)})
	}
	short := make([]string, len(days))
	for i, day := range days {
		short[i] = dashDay(day)
	}
	chart := v.u.barChart("Submissions per day (UTC)", short, series, chartW, chartH)
	return container.NewGridWithRows(2,
		v.section(title, "annotators.csv", d.Annotators, v.u.linkRows(dashTable([]string{"Name", "Samples", "Accepted", "Submitted", "Per day",
			"Rejected r1", "Rejected r2", "Rejected r3", "Top reject reasons"}, rows), func(row, col int) (bench.SampleQuery, bool) {
			return v.u.annotatorQuery(d.Annotators[row].Name, col), true
		})),
		container.NewBorder(nil, nil,
			// The chart is the throughput table's view; its export gives the numbers.
			v.section("Submissions", "throughput.csv", d.Throughput, container.NewVBox(chart)), nil,
			v.section("Reject reasons", "reasons.csv", d.Reasons, v.u.linkRows(dashTable([]string{"Reason", "Times"},
				dashRows(d.Reasons, func(r bench.ReasonRow) []string { return []string{verify.ReasonLabel(r.Reason), strconv.Itoa(r.Count)} })),
				func(row, _ int) (bench.SampleQuery, bool) {
					return bench.SampleQuery{RejectReason: d.Reasons[row].Reason, Desc: true}, true
				}))),
	)
}

func (v *dashboardView) verifiersTab() fyne.CanvasObject {
	d := v.data
	seconds := func(s float64, n int) string {
		if n == 0 {
			return "–"
		}
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	}
	rows := dashRows(d.Verifiers, func(x bench.VerifierRow) []string {
		panel, _ := x.PanelAgreement()
		return []string{x.Name, x.Group, strconv.Itoa(x.Reviews), strconv.Itoa(x.Rounds[0]), strconv.Itoa(x.Rounds[1]), strconv.Itoa(x.Rounds[2]),
			dashRate(x.ApprovalRate(), x.Reviews), seconds(x.MedianSeconds, x.Timed), seconds(x.P90Seconds, x.Timed), dashRate(panel, x.PanelVotes)}
	})
	help := widget.NewLabel("Open round-3 votes count once the round closes. Agreement with the panel: share of a verifier's round-3 votes equal to the panel's result.")
	help.Wrapping = fyne.TextWrapWord
	return v.withPlanting(container.NewBorder(nil, help, nil, nil,
		v.section("Verifiers", "verifiers.csv", d.Verifiers, dashTable([]string{"Name", "Group", "Reviews", "Round 1", "Round 2", "Round 3",
			"Approved", "Median time", "90th pct", "Agrees with panel"}, rows))))
}

func (v *dashboardView) errorsTab() fyne.CanvasObject {
	d := v.data
	var labels []string
	vals := make([]float64, 0, len(d.Errors))
	for _, e := range d.Errors {
		l := e.Set
		if e.Kind != string(annotate.KindHopQA) {
			l = e.Kind
		}
		labels = append(labels, l)
		vals = append(vals, 100*e.ErrorRate())
	}
	chart := v.u.barChart("Rejected reviews, % by category set", labels, []Series{{Name: "rejected %", Values: vals, Color: HeatFar}}, chartW, chartH)
	table := v.u.linkRows(dashTable([]string{"Kind", "Categories", "Reviews", "Rejected", "Error rate"},
		dashRows(d.Errors, func(e bench.ErrorRow) []string {
			return []string{e.Kind, e.Set, strconv.Itoa(e.Reviews), strconv.Itoa(e.Rejected), dashRate(e.ErrorRate(), e.Reviews)}
		})), func(row, _ int) (bench.SampleQuery, bool) { return errorRowQuery(d.Errors[row]), true })
	return container.NewBorder(container.NewHBox(chart), nil, nil, nil, v.section("Error rate by category set", "errors.csv", d.Errors, table))
}

// dashFigure are a figure's alpha, interval and reading for a table.
func dashFigure(f bench.Figure) []string {
	if !f.Defined() {
		return []string{"–", "–", "undefined: " + f.Undefined}
	}
	return []string{strconv.FormatFloat(f.Alpha, 'f', 3, 64), f.CIText(), f.Reading}
}

// alphaChart draws the decision alpha of each round (and of every round pooled)
// with its 95% interval, against the thresholds of agreement.Reading.
func (v *dashboardView) alphaChart() fyne.CanvasObject {
	var rows []chart.Interval
	for _, r := range v.agr.Rows {
		if r.Criterion != bench.CriterionDecision {
			continue
		}
		label := "Round " + bench.RoundName(r.Round)
		if r.Round == 0 {
			label = "All rounds"
		}
		in := chart.Interval{Label: label, Value: math.NaN(), Undefined: r.Undefined}
		if r.Defined() {
			in.Value, in.Lo, in.Hi = r.Alpha, r.CI95[0], r.CI95[1]
		}
		rows = append(rows, in)
	}
	var marks []chart.Mark
	for _, t := range agreement.DefaultThresholds {
		marks = append(marks, chart.Mark{At: t, Label: agreement.Reading(t)})
	}
	return v.u.intervalChart("Decision alpha with its 95% interval", rows, marks, 0, 1, 380, 170)
}

func (v *dashboardView) agreementTab() fyne.CanvasObject {
	if v.agr == nil {
		return widget.NewLabel("Computing the agreement…")
	}
	a := v.agr
	help := widget.NewLabel(fmt.Sprintf("Krippendorff's alpha (nominal) over the verifiers' judgements of closed rounds; units are revisions, "+
		"round \"all\" pools every round. 95%% interval from %d bootstrap draws. Reliable from 0.800, tentative from 0.667.", bench.AgreementDraws))
	help.Wrapping = fyne.TextWrapWord
	rows := dashRows(a.Rows, func(r bench.AgreementRow) []string {
		return append([]string{bench.RoundName(r.Round), dashCriterion(r.Criterion), strconv.Itoa(r.Units), strconv.Itoa(r.Pairable)}, dashFigure(r.Figure)...)
	})
	vrows := dashRows(a.Verifiers, func(x bench.VerifierAlpha) []string {
		change := "–"
		if c, ok := x.Change(); ok {
			change = fmt.Sprintf("%+.3f", c)
		}
		return append([]string{x.Verifier, strconv.Itoa(x.Reviews), change}, dashFigure(x.Without)...)
	})
	b := a.Boxes
	boxes := widget.NewLabel("No sample has boxes drawn by two or more people yet.")
	boxes.Wrapping = fyne.TextWrapWord // a half of a two-column grid: unwrapped, it set the window's width (1,648 px on 20k samples)
	if b.Samples > 0 {
		boxes.SetText(fmt.Sprintf("%s with boxes by two or more people: mean IoU %.3f over %d pairs, %s of pairs at IoU 0.5 or more.",
			annotate.Plural(b.Samples, "sample"), b.MeanIoU, b.Pairs, chartPercent(b.ShareAt50)))
	}
	return container.NewBorder(help, nil, nil, nil, container.NewGridWithRows(2,
		container.NewBorder(nil, nil, v.alphaChart(), nil,
			v.section("Alpha per round and criterion", "agreement.csv", a.Rows, dashTable([]string{"Round", "Criterion", "Units", "Pairable",
				"Alpha", "95% CI", "Reading"}, rows))),
		container.NewGridWithColumns(2,
			v.section("Decision alpha without each verifier", "agreement-verifiers.csv", a.Verifiers,
				dashTable([]string{"Verifier", "Reviews", "Change", "Alpha without", "95% CI", "Reading"}, vrows)),
			v.section("Boxes", "agreement-boxes.csv", b.Rows, container.NewBorder(boxes, nil, nil, nil,
				dashTable([]string{"Sample", "Authors", "Pairs", "Mean IoU", "IoU ≥ 0.5"},
					dashRows(b.Rows, func(r bench.BoxRow) []string {
						return []string{r.SampleID, strings.Join(r.Authors, ", "), strconv.Itoa(r.Pairs), strconv.FormatFloat(r.MeanIoU, 'f', 3, 64), chartPercent(r.ShareAt50)}
					})))))))
}

// dashCriterion names an agreement row's criterion as people read it: the
// decision, or the criterion's label (the CSV keeps the ids scripts read).
func dashCriterion(id string) string {
	if id == bench.CriterionDecision {
		return "Decision (approve or reject)"
	}
	return verify.ReasonLabel(id)
}
