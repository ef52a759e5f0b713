package ui

// The dashboard's Shortcuts tab, for leads (issue 29): what a model could answer
// without looking at the images — the text-only ("blind") model's accuracy per
// task against chance, the correct letters' and the option lengths' shares, the
// near-duplicate images side by side — from the store's Shortcuts call (the
// report bwctl shortcuts prints), loaded off the UI goroutine when the tab is
// first shown and again on Refresh. The answer-letter section's button fixes
// skewed letters (RebalanceLetters) after a confirmation naming how many
// samples change.

import (
	"context"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/chart"
	scut "github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// tabShortcuts is the Shortcuts tab's name.
const tabShortcuts = "Shortcuts"

// maxShownPairs is how many near-duplicate pairs the tab shows with their
// thumbnails; the table lists every task's count, and bwctl shortcuts every pair.
const maxShownPairs = 12

// seesShortcuts says whether the user gets the Shortcuts tab: a lead (the
// audit's right, which the store's Shortcuts call requires).
func seesShortcuts(u bench.User) bool {
	return verify.Permitted(verify.ActionAuditRelease, verify.Role(u.Role))
}

// shortcutState is the tab's data: the report, or why there is none, and the
// thumbnails of the pairs shown (image path → local file).
type shortcutState struct {
	rep     *bench.ShortcutReport
	err     error
	loading bool
	thumbs  map[string]string
	samples int    // the samples the report looked at
	note    string // what the last rebalance did, shown above the report
}

// shortcutLoad is what one load of the tab reads: the report and the files of
// the thumbnails of the pairs it shows.
type shortcutLoad struct {
	rep     bench.ShortcutReport
	thumbs  map[string]string
	samples int
}

// readShortcuts reads the report and the thumbnails of the first pairs.
//
//bw:background
func readShortcuts(ctx context.Context, sess bench.Session, pid int64) (shortcutLoad, error) {
	rep, err := sess.Shortcuts(ctx, pid, bench.ShortcutOptions{})
	if err != nil {
		return shortcutLoad{}, err
	}
	out := shortcutLoad{rep: rep, thumbs: map[string]string{}}
	all, err := sess.CountSamples(ctx, pid, bench.SampleFilter{})
	if err != nil {
		return shortcutLoad{}, err
	}
	gone, err := sess.CountSamples(ctx, pid, bench.SampleFilter{Status: verify.StateWithdrawn})
	if err != nil {
		return shortcutLoad{}, err
	}
	out.samples = all - gone
	var paths []string
	for _, p := range shownPairs(rep) {
		paths = append(paths, p.A, p.B)
	}
	if len(paths) == 0 {
		return out, nil
	}
	ims, err := sess.ImagesByPaths(ctx, pid, paths)
	if err != nil {
		return out, nil // the pairs are still named; their pictures are missing
	}
	for p, im := range ims {
		if f, err := sess.ImageFile(ctx, im.SHA256, bench.ImageThumb); err == nil {
			out.thumbs[p] = f
		}
	}
	return out, nil
}

// shownPairs are the near-duplicate pairs the tab shows: each pair once (a pair
// is in the result of every task showing both images), cross-split first, at
// most maxShownPairs.
func shownPairs(rep bench.ShortcutReport) []scut.NearDuplicate {
	out := distinctPairs(rep)
	return out[:min(len(out), maxShownPairs)]
}

// distinctPairs are the report's near-duplicate pairs, each once, cross-split first.
func distinctPairs(rep bench.ShortcutReport) []scut.NearDuplicate {
	var out []scut.NearDuplicate
	for _, r := range rep.Results {
		for _, p := range r.Pairs {
			if !slices.ContainsFunc(out, func(q scut.NearDuplicate) bool { return q.A == p.A && q.B == p.B }) {
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b scut.NearDuplicate) int {
		switch {
		case a.Cross == b.Cross:
			return 0
		case a.Cross:
			return -1
		}
		return 1
	})
	return out
}

// loadShortcuts reads the report in the background and shows it in the tab;
// the tab says it is computing meanwhile.
func (v *dashboardView) loadShortcuts() {
	if !seesShortcuts(v.u.user) {
		return
	}
	v.sc.loading = true
	v.setTab(tabShortcuts, v.shortcutsTab())
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "dashboard.shortcuts", func() (shortcutLoad, error) { return readShortcuts(ctx, sess, pid) }, func(l shortcutLoad, err error) {
		v.sc.loading = false
		v.sc.err = err
		if err == nil {
			v.sc.rep, v.sc.thumbs, v.sc.samples = &l.rep, l.thumbs, l.samples
		}
		v.setTab(tabShortcuts, v.shortcutsTab())
		v.scLoads.Add(1)
	})
}

// shortcutsSelected loads the report the first time the tab is shown.
func (v *dashboardView) shortcutsSelected() {
	if v.sc.rep == nil && v.sc.err == nil && !v.sc.loading {
		v.loadShortcuts()
	}
}

// resultsOf are the report's results of one check, by task.
func resultsOf(rep bench.ShortcutReport, check string) []scut.Result {
	var out []scut.Result
	for _, r := range rep.Results {
		if r.Check == check {
			out = append(out, r)
		}
	}
	return out
}

// shortcutsTab is the tab: a help sentence, the charts, the near-duplicate
// pairs, and the table of every result, each row opening its samples.
func (v *dashboardView) shortcutsTab() fyne.CanvasObject {
	st := v.sc
	switch {
	case st.rep == nil && st.err != nil:
		l := widget.NewLabel("The shortcut report could not be made: " + bench.Message(st.err))
		l.Wrapping = fyne.TextWrapWord
		return container.NewVBox(l)
	case st.rep == nil:
		return widget.NewLabel("Computing the shortcut report (a text-only model is fitted on every task)…")
	}
	rep := *st.rep
	findings := len(rep.Findings())
	summary := fmt.Sprintf("%s not withdrawn; %s. ", annotate.Plural(st.samples, "sample"), annotate.Plural(findings, "finding"))
	if st.note != "" {
		summary = st.note + " " + summary
	}
	if st.loading {
		summary = "Computing again… " + summary
	}
	help := widget.NewLabel(summary + "Each check is judged per task (20 samples or more): a finding is a figure 10 points or more " +
		"above chance whose 95 % interval lies above it. Tap a row to open its samples.")
	help.Wrapping = fyne.TextWrapWord
	if st.err != nil {
		help.SetText("The shortcut report could not be made again: " + bench.Message(st.err) + " (showing the last one). " + help.Text)
	}
	var charts fyne.CanvasObject = container.NewGridWrap(fyne.NewSize(chartW+20, chartH+60), v.blindChart(rep), v.letterSection(rep), v.lengthChart(rep))
	if len(resultsOf(rep, scut.CheckTextBaseline))+len(resultsOf(rep, scut.CheckAnswerPosition))+len(resultsOf(rep, scut.CheckNumericPrior)) == 0 {
		charts = widget.NewLabel("No task has the 20 questions a check needs yet: nothing to chart.")
	}
	out := container.NewVBox(help, charts, v.pairsSection(rep), v.shortcutTable(rep), widget.NewLabel("Pruning proposal: "+rep.Prune.Detail+"."))
	return container.NewVScroll(out)
}

// blindChart is the text-only model's held-out accuracy per task with its 95 %
// interval, chance marked.
func (v *dashboardView) blindChart(rep bench.ShortcutReport) fyne.CanvasObject {
	var rows []chart.Interval
	var marks []chart.Mark
	for _, r := range resultsOf(rep, scut.CheckTextBaseline) {
		label := r.Task
		if r.Finding {
			label += " (finding)"
		}
		rows = append(rows, chart.Interval{Label: label, Value: r.Figure, Lo: r.CI.Low, Hi: r.CI.High})
		if !slices.ContainsFunc(marks, func(m chart.Mark) bool { return math.Abs(m.At-r.Chance) < 0.005 }) && len(marks) < 3 {
			marks = append(marks, chart.Mark{At: r.Chance, Label: "chance " + chartPercent(r.Chance)})
		}
	}
	if len(rows) == 0 {
		return shortcutNote("Text-only model", "No task has 20 questions with options or yes/no answers to fit it on.")
	}
	// In its grid cell the chart keeps the height of its rows (a VBox), not the cell's.
	return container.NewVBox(v.u.intervalChart("Text-only model's accuracy, 95% interval", rows, marks, 0, 1, chartW, float32(max(120, 70+28*len(rows)))))
}

// shortcutNote is a chart's place when there is nothing to chart.
func shortcutNote(title, text string) fyne.CanvasObject {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return container.NewVBox(heading(title), l)
}

// letterSection is the correct letters' shares per task, and the button that
// balances them.
func (v *dashboardView) letterSection(rep bench.ShortcutReport) fyne.CanvasObject {
	rs := resultsOf(rep, scut.CheckAnswerPosition)
	if len(rs) == 0 {
		return shortcutNote("Answer letters", "No task has 20 multiple-choice questions.")
	}
	width := 0
	for _, r := range rs {
		width = max(width, len(r.Shares))
	}
	var labels []string
	series := make([]Series, width)
	for l := range series {
		series[l] = Series{Name: annotate.AnswerLetter(l), Color: ChartPalette(l)}
	}
	skewed := 0
	for _, r := range rs {
		labels = append(labels, r.Task)
		for l := range series {
			x := math.NaN()
			if l < len(r.Shares) {
				x = 100 * r.Shares[l]
			}
			series[l].Values = append(series[l].Values, x)
		}
		if r.Finding {
			skewed++
		}
	}
	c := v.u.groupedBarChart("Correct letter's share, % per task", labels, series, chartW, chartH)
	fix := widget.NewButtonWithIcon("Balance the letters…", theme.ViewRefreshIcon(), v.askRebalance)
	if skewed == 0 {
		fix.Disable()
	}
	return container.NewBorder(nil, container.NewHBox(fix), nil, nil, c)
}

// lengthChart is, per task, how often the correct option is the longest and the
// shortest, against chance.
func (v *dashboardView) lengthChart(rep bench.ShortcutReport) fyne.CanvasObject {
	rs := resultsOf(rep, scut.CheckOptionLength)
	if len(rs) == 0 {
		return shortcutNote("Option lengths", "No task has 20 multiple-choice questions.")
	}
	var labels []string
	longest := Series{Name: "longest", Color: ChartPalette(0)}
	shortest := Series{Name: "shortest", Color: ChartPalette(1)}
	chance := Series{Name: "chance", Color: color.NRGBA{0x9e, 0x9e, 0x9e, 0xff}}
	for _, r := range rs {
		labels = append(labels, r.Task)
		l, s := math.NaN(), math.NaN()
		if len(r.Shares) == 2 {
			l, s = 100*r.Shares[0], 100*r.Shares[1]
		}
		longest.Values = append(longest.Values, l)
		shortest.Values = append(shortest.Values, s)
		chance.Values = append(chance.Values, 100*r.Chance)
	}
	return v.u.groupedBarChart("Correct option is the longest / shortest, %", labels, []Series{longest, shortest, chance}, chartW, chartH)
}

// pairsSection shows the near-duplicate pairs side by side: the two
// thumbnails, what they are, and a button opening the samples showing them.
func (v *dashboardView) pairsSection(rep bench.ShortcutReport) fyne.CanvasObject {
	pairs := shownPairs(rep)
	total := len(distinctPairs(rep))
	title := heading("Near-duplicate images")
	if len(pairs) == 0 {
		return container.NewVBox(title, widget.NewLabel("No two images of the project look alike (perceptual hashes, confirmed on the thumbnails)."))
	}
	out := container.NewVBox(title)
	if total > len(pairs) {
		out.Add(widget.NewLabel(fmt.Sprintf("The first %d of %d pairs; bwctl shortcuts lists them all.", len(pairs), total)))
	}
	for _, p := range pairs {
		text := widget.NewLabel(p.Describe())
		text.Wrapping = fyne.TextWrapWord
		where := "within one split: a warning"
		if p.Cross {
			where = "across splits: blocks the freeze"
		}
		ids := append(slices.Clone(p.SamplesA), p.SamplesB...)
		open := widget.NewButton("Open the samples", func() { v.u.openSamples(bench.SampleQuery{IDs: ids, Desc: true}) })
		if !v.u.may(verify.ActionSearchSamples) {
			open.Disable()
		}
		info := container.NewVBox(text, widget.NewLabel(where), container.NewHBox(open))
		out.Add(container.NewBorder(nil, nil, container.NewHBox(v.pairThumb(p.A), v.pairThumb(p.B)), nil, info))
	}
	return out
}

// pairThumbSide is the side of a pair's thumbnails.
const pairThumbSide = 120

// pairThumb is an image's thumbnail, or its name where it cannot be had.
func (v *dashboardView) pairThumb(path string) fyne.CanvasObject {
	if f, ok := v.sc.thumbs[path]; ok {
		img := canvas.NewImageFromFile(f)
		img.FillMode = canvas.ImageFillContain
		img.SetMinSize(fyne.NewSize(pairThumbSide, pairThumbSide))
		return img
	}
	box := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	box.SetMinSize(fyne.NewSize(pairThumbSide, pairThumbSide))
	l := widget.NewLabel(path)
	l.Wrapping = fyne.TextWrapBreak
	return container.NewStack(box, l)
}

// shortcutTable is every result, a row each, with an Export CSV… button; a tap
// on a row opens its samples (those that drive a finding, else the task's).
func (v *dashboardView) shortcutTable(rep bench.ShortcutReport) fyne.CanvasObject {
	header := []string{"Task", "Check", "Figure", "95% CI", "Chance", "Finding", "Samples"}
	rows := dashRows(rep.Results, func(r scut.Result) []string {
		fig, ci, chance := chartPercent(r.Figure), chartPercent(r.CI.Low)+"–"+chartPercent(r.CI.High), chartPercent(r.Chance)
		switch r.Check {
		case scut.CheckNearDuplicateImage:
			fig, ci, chance = annotate.Plural(len(r.Pairs), "pair"), "–", "0"
		case scut.CheckNumericPrior:
			fig, ci = fmt.Sprintf("MRA %.2f", r.Figure), fmt.Sprintf("%.2f–%.2f", r.CI.Low, r.CI.High)
			chance = fmt.Sprintf("%.2f", r.Chance)
		}
		finding := "no"
		if r.Finding {
			finding = "yes"
		}
		return []string{r.Task, r.Check, fig, ci, chance, finding, strconv.Itoa(len(r.Samples))}
	})
	table := v.u.linkRows(dashTable(header, rows), func(row, _ int) (bench.SampleQuery, bool) {
		r := rep.Results[row]
		if len(r.Samples) > 0 {
			return bench.SampleQuery{IDs: r.Samples, Desc: true}, true
		}
		return bench.SampleQuery{Task: r.Task, Desc: true}, true
	})
	// In a scroll the table would shrink to one row: it gets the height of its rows.
	tall := canvas.NewRectangle(color.Transparent)
	tall.SetMinSize(fyne.NewSize(0, float32(40*(min(len(rows), 12)+1)+8)))
	return v.section("Every check per task", "shortcuts.csv", shortcutCSV(rep.Results), container.NewStack(tall, table))
}

// shortcutCSV is the report's results as CSV (the samples' ids joined by spaces).
type shortcutCSV []scut.Result

func (t shortcutCSV) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"task", "check", "finding", "n", "figure", "ci_low", "ci_high", "chance", "samples", "detail"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, r := range t {
		cw.Write([]string{r.Task, r.Check, strconv.FormatBool(r.Finding), strconv.Itoa(r.N), f(r.Figure), f(r.CI.Low), f(r.CI.High),
			f(r.Chance), strings.Join(r.Samples, " "), r.Detail})
	}
	cw.Flush()
	return cw.Error()
}

// askRebalance asks the store what balancing the letters would change (a dry
// run), then asks the lead to confirm, naming how many samples change and
// asking the reason every revision records.
func (v *dashboardView) askRebalance() {
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "dashboard.rebalance", func() (bench.RebalanceResult, error) {
		return sess.RebalanceLetters(ctx, bench.RebalanceInput{ProjectID: pid, DryRun: true})
	}, func(plan bench.RebalanceResult, err error) {
		if err != nil {
			v.u.showError(err)
			return
		}
		if len(plan.Moved) == 0 {
			dialog.ShowInformation("Balance the letters", "No sample needs to change: "+rebalanceLeft(plan), v.u.win)
			return
		}
		v.confirmRebalance(plan)
	})
}

// rebalanceLeft says in words what a rebalance keeps and leaves.
func rebalanceLeft(plan bench.RebalanceResult) string {
	s := fmt.Sprintf("%s keep their letter", annotate.Plural(len(plan.Kept), "sample"))
	if len(plan.Left) > 0 {
		s += fmt.Sprintf("; %s cannot change (%s: %s)", annotate.Plural(len(plan.Left), "sample"), plan.Left[0].SampleID, plan.Left[0].Reason)
	}
	return s + "."
}

// confirmRebalance shows the confirmation of a rebalance planned: how many
// samples change in which tasks, and the reason; Balance writes them.
func (v *dashboardView) confirmRebalance(plan bench.RebalanceResult) {
	var tasks []string
	for _, m := range plan.Moved {
		if !slices.Contains(tasks, m.Task) {
			tasks = append(tasks, m.Task)
		}
	}
	what := widget.NewLabel(fmt.Sprintf("%s of %s will have their options reordered so that the correct letters balance: the correct option "+
		"swaps places with the option at its new letter, and the answer stays the same text. Each gets a correction revision by you "+
		"with the reason below; states and reviews stay. %s",
		annotate.Plural(len(plan.Moved), "sample"), strings.Join(tasks, ", "), rebalanceLeft(plan)))
	what.Wrapping = fyne.TextWrapWord
	reason := widget.NewEntry()
	reason.SetPlaceHolder("Why (kept in each sample's history)")
	reason.Validator = func(s string) error {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("a reason is needed")
		}
		return nil
	}
	d := dialog.NewForm(fmt.Sprintf("Change %s?", annotate.Plural(len(plan.Moved), "sample")), "Balance", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("What", what), widget.NewFormItem("Reason", reason)}, func(yes bool) {
			if yes {
				v.rebalance(strings.TrimSpace(reason.Text))
			}
		}, v.u.win)
	d.Resize(fyne.NewSize(520, d.MinSize().Height))
	d.Show()
	v.u.win.Canvas().Focus(reason)
}

// rebalance balances the letters with reason, then says what changed and
// computes the report again.
func (v *dashboardView) rebalance(reason string) {
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "dashboard.rebalance", func() (bench.RebalanceResult, error) {
		return sess.RebalanceLetters(ctx, bench.RebalanceInput{ProjectID: pid, Reason: reason})
	}, func(res bench.RebalanceResult, err error) {
		if err != nil {
			v.u.showError(err)
			return
		}
		// The status bar is rewritten when the project's counts move (as they just
		// did): the tab keeps the note.
		v.sc.note = fmt.Sprintf("Balanced the letters: %s reordered, each with a correction revision by you.", annotate.Plural(len(res.Moved), "sample"))
		v.u.setStatus("%s", v.sc.note)
		v.loadShortcuts()
	})
}
