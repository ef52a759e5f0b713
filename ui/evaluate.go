package ui

import (
	"fmt"
	"image"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/ui/boxcanvas"
	"github.com/benchwright/benchwright/verify"
)

// The Evaluate screen shows how models did on a frozen release: the model runs a
// lead imported, a leaderboard over the figures package score computes, the hop
// and view breakdowns as charts, and one sample at a time, model by model. Every
// figure, rank and per-sample verdict comes from the store (store.Score,
// store.SampleScores) and package score; the screen only lays them out. Verifiers
// and leads see it (verify.ActionSeeScores); only leads see the models' raw text.

// The Evaluate screen's tabs.
const (
	evalTabBoard   = "Leaderboard"
	evalTabChart   = "By hop and view"
	evalTabSamples = "Samples"
)

// evalFigures are the leaderboard's columns, in order, where a model has them:
// hop QA's, then the option questions', judgment's, open answers', step graphs'
// and last the share of responses an answer was read from.
var evalFigures = []string{"mcq_acc", "acc50iou", "mean_iou", "judgment_acc", "strict_acc", "mra", "content_f1", "precond_f1", "parsed"}

// Chart size of the hop and view charts, in pixels.
const evalChartW, evalChartH = 400, 240

// evaluateView is the Evaluate screen, a widget over root.
type evaluateView struct {
	widget.BaseWidget
	u    *App
	root fyne.CanvasObject

	releases []store.Release
	release  *widget.Select
	denom    *widget.Select
	refresh  *widget.Button
	status   *widget.Label
	tabs     *container.AppTabs

	// The loaded release: its model runs, their reports and the release's samples.
	gen     int // bumped by every load; a late answer of an older one is dropped
	rel     store.Release
	runs    []store.ModelRun
	reports []*score.Report
	items   []store.ReleaseItem

	// Leaderboard.
	rankBy       *widget.Select
	board        []score.Standing
	boardRows    [][]string // the table's rows, for tests
	cols         []string   // the figures shown
	boardNote    *widget.Label
	boardSection *fyne.Container // the table and the note: laid out again when the note changes
	boardBox     *fyne.Container
	exportBtn    *widget.Button
	runsBox      *fyne.Container
	runsRows     [][]string // for tests
	chartModel   *widget.CheckGroup
	chartFig     *widget.Select
	chartBox     *fyne.Container

	// Samples.
	sampleList *widget.List
	cmpBox     *fyne.Container
	cmp        *evalComparison // the sample shown, nil before one is chosen
	sampleGen  int

	loads       atomic.Int32 // finished release loads, for tests
	sampleLoads atomic.Int32 // finished sample loads, for tests
}

// evaluateScreen shows the Evaluate screen on the newest release.
func (u *App) evaluateScreen() fyne.CanvasObject { return u.newEvaluateView() }

func (v *evaluateView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.root) }

func (u *App) newEvaluateView() *evaluateView {
	v := &evaluateView{u: u, status: widget.NewLabel("")}
	v.ExtendBaseWidget(v)
	v.status.Truncation = fyne.TextTruncateEllipsis
	rels, err := u.db.Releases(u.ctx(), u.project.ID)
	if err != nil {
		v.root = widget.NewLabel(store.Message(err))
		v.loads.Add(1)
		return v
	}
	v.releases = rels
	if len(rels) == 0 {
		l := widget.NewLabel("No release is frozen yet. A lead freezes one on the Export screen and imports each model's " +
			"answers to it (bwctl predictions import); the models' scores then show here.")
		l.Wrapping = fyne.TextWrapWord
		v.root = container.NewBorder(heading("Evaluate models"), nil, nil, nil, l)
		v.loads.Add(1)
		return v
	}
	v.release = widget.NewSelect(nil, func(string) { v.load() })
	v.setReleases(rels)
	v.denom = widget.NewSelect([]string{string(score.DenomAll), string(score.DenomParsed)}, func(string) { v.load() })
	v.denom.PlaceHolder = string(score.DenomParsed) + "  "
	v.refresh = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), v.reload)

	v.rankBy = widget.NewSelect(nil, func(string) { v.fillBoard() })
	v.rankBy.PlaceHolder = "judgment_acc  "
	v.exportBtn = widget.NewButtonWithIcon("Export CSV…", theme.DocumentSaveIcon(), v.exportCSV)
	v.boardNote = widget.NewLabel("")
	v.boardNote.Wrapping = fyne.TextWrapWord
	v.boardNote.Importance = widget.LowImportance
	v.boardBox, v.runsBox = container.NewStack(), container.NewStack()
	runs := container.NewBorder(heading("Model runs"), nil, nil, nil, v.runsBox)
	boardTop := container.NewBorder(nil, nil, container.NewHBox(heading("Leaderboard"), widget.NewLabel("ranked by"), v.rankBy), v.exportBtn)
	v.boardSection = container.NewBorder(boardTop, v.boardNote, nil, nil, v.boardBox)
	split := container.NewVSplit(runs, v.boardSection)
	split.Offset = 0.4

	v.chartModel = widget.NewCheckGroup(nil, func([]string) { v.fillChart() })
	v.chartModel.Horizontal = true
	v.chartFig = widget.NewSelect(nil, func(string) { v.fillChart() })
	v.chartFig.PlaceHolder = "judgment_acc  "
	v.chartBox = container.NewStack()
	chartTop := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Figure"), v.chartFig), nil, v.chartModel)
	chart := container.NewBorder(chartTop, nil, nil, nil, v.chartBox)

	v.sampleList = widget.NewList(
		func() int { return len(v.items) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("demo-hq-000 · step_graph")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			it := v.items[i]
			o.(*widget.Label).SetText(it.SampleID + " · " + string(it.Content.Kind))
		},
	)
	v.sampleList.OnSelected = func(i widget.ListItemID) { v.loadSample(i) }
	v.cmpBox = container.NewStack(widget.NewLabel("Choose a sample to see each model's answer to it."))
	samples := container.NewHSplit(container.NewBorder(heading("Samples of the release"), nil, nil, nil, v.sampleList), v.cmpBox)
	samples.Offset = 0.24

	v.tabs = container.NewAppTabs(
		container.NewTabItem(evalTabBoard, container.NewPadded(split)),
		container.NewTabItem(evalTabChart, container.NewPadded(chart)),
		container.NewTabItem(evalTabSamples, container.NewPadded(samples)),
	)
	top := container.NewBorder(nil, nil,
		container.NewHBox(widget.NewLabel("Release"), v.release, widget.NewLabel("Denominator"), v.denom), v.refresh, v.status)
	v.root = container.NewBorder(top, nil, nil, nil, v.tabs)
	v.denom.SetSelected(string(score.DenomAll))
	v.release.SetSelected(v.release.Options[0]) // newest first: loads it
	return v
}

// setReleases offers rels (newest first) in the release picker.
func (v *evaluateView) setReleases(rels []store.Release) {
	v.releases = rels
	v.release.Options = nil
	widest := ""
	for _, r := range rels {
		v.release.Options = append(v.release.Options, r.Ref())
		if len(r.Ref()) > len(widest) {
			widest = r.Ref()
		}
	}
	v.release.PlaceHolder = widest + "  "
	v.release.Refresh()
}

// reload lists the releases again (a lead may have frozen one since) and scores
// the chosen one again, or the newest when the chosen one is gone.
func (v *evaluateView) reload() {
	rels, err := v.u.db.Releases(v.u.ctx(), v.u.project.ID)
	if err != nil || len(rels) == 0 { // releases are never deleted: none means an error
		v.status.SetText(store.Message(err))
		return
	}
	cur := v.release.Selected
	v.setReleases(rels)
	if slices.Contains(v.release.Options, cur) {
		v.load()
		return
	}
	v.release.SetSelected(v.release.Options[0]) // loads it
}

// selectedRelease is the release chosen in the picker.
func (v *evaluateView) selectedRelease() (store.Release, bool) {
	i := v.release.SelectedIndex()
	if i < 0 || i >= len(v.releases) {
		return store.Release{}, false
	}
	return v.releases[i], true
}

// ref names a release to the store unambiguously: by its id.
func evalRef(r store.Release) string { return strconv.FormatInt(r.ID, 10) }

// load reads the chosen release's model runs, scores them and lists its samples,
// off the UI goroutine (scoring bootstraps every figure), then fills the tabs.
func (v *evaluateView) load() {
	rel, ok := v.selectedRelease()
	if !ok || v.denom.Selected == "" {
		return
	}
	v.gen++
	gen := v.gen
	v.refresh.Disable()
	v.status.SetText(fmt.Sprintf("Scoring the models on %s…", rel.Ref()))
	db, user, ctx := v.u.db, v.u.user, v.u.ctx()
	opt := score.Options{Denominator: score.Denominator(v.denom.Selected)}
	go func() {
		runs, err := db.Models(ctx, user, evalRef(rel))
		var reports []*score.Report
		if err == nil && len(runs) > 0 {
			reports, err = db.Score(ctx, user, evalRef(rel), nil, opt)
		}
		var items []store.ReleaseItem
		if err == nil {
			items, err = db.ReleaseItems(ctx, rel.ID)
		}
		fyne.Do(func() {
			defer v.loads.Add(1)
			if gen != v.gen {
				return
			}
			v.refresh.Enable()
			if err != nil {
				v.status.SetText(store.Message(err))
				return
			}
			v.rel, v.runs, v.reports, v.items = rel, runs, reports, items
			v.fill()
		})
	}()
}

// fill lays out everything loaded.
func (v *evaluateView) fill() {
	what, _ := releaseDetails(v.rel)
	v.status.SetText(fmt.Sprintf("%s: %s · %s", v.rel.Ref(), what, plural(len(v.runs), "model")))
	v.runsRows = dashRows(v.runs, func(r store.ModelRun) []string {
		return []string{r.Model, strconv.Itoa(r.Predictions), strconv.Itoa(r.Missing), r.Source, r.ImportedBy, evalTime(r.ImportedAt)}
	})
	v.runsBox.Objects = []fyne.CanvasObject{dashTable([]string{"Model", "Predictions", "Missing", "From", "Imported by", "Imported at"}, v.runsRows)}
	v.runsBox.Refresh()

	// The columns: the figures any model has; ranked by one every model has.
	v.cols = nil
	var rankable []string
	for _, name := range evalFigures {
		if slices.ContainsFunc(v.reports, func(r *score.Report) bool { return r.Overall.Metric(name) != nil }) {
			v.cols = append(v.cols, name)
			if name != "parsed" && !slices.ContainsFunc(v.reports, func(r *score.Report) bool { return r.Overall.Metric(name) == nil }) {
				rankable = append(rankable, name)
			}
		}
	}
	keep := v.rankBy.Selected
	v.rankBy.Options = rankable
	v.rankBy.ClearSelected()
	switch {
	case slices.Contains(rankable, keep):
		v.rankBy.SetSelected(keep) // fills the board
	case len(rankable) > 0:
		v.rankBy.SetSelected(rankable[0])
	default:
		v.fillBoard()
	}

	var models []string
	for _, r := range v.reports {
		models = append(models, r.Model)
	}
	var figs []string
	for _, name := range evalFigures {
		if slices.ContainsFunc(v.reports, func(r *score.Report) bool {
			return slices.ContainsFunc(append(slices.Clone(r.By[score.ByHop]), r.By[score.ByView]...), func(g score.Group) bool { return g.Metric(name) != nil })
		}) {
			figs = append(figs, name)
		}
	}
	if !slices.Equal(v.chartModel.Options, models) { // the same models keep their choice
		v.chartModel.Options = models
		v.chartModel.Selected = models
		v.chartModel.Refresh()
	}
	keep = v.chartFig.Selected
	v.chartFig.Options = figs
	v.chartFig.ClearSelected()
	switch {
	case slices.Contains(figs, keep):
		v.chartFig.SetSelected(keep)
	case len(figs) > 0:
		v.chartFig.SetSelected(figs[0])
	default:
		v.fillChart()
	}

	v.sampleList.UnselectAll()
	v.sampleList.Refresh()
	v.cmp = nil
	v.cmpBox.Objects = []fyne.CanvasObject{widget.NewLabel("Choose a sample to see each model's answer to it.")}
	v.cmpBox.Refresh()
}

// evalTime shortens a stored RFC 3339 time to "2006-01-02 15:04".
func evalTime(at string) string {
	if len(at) >= 16 {
		return strings.Replace(at[:16], "T", " ", 1)
	}
	return at
}

// evalCell writes a figure as "value [low, high]", the value alone without an
// interval, "–" when the model lacks the figure and "– (n 0)" when it divides by
// no sample (score reports 0 then: mean_iou without a right answer with a box,
// mcq_acc over the parsed samples when none was).
func evalCell(m *score.Metric) string {
	switch {
	case m == nil:
		return "–"
	case m.N == 0:
		return "– (n 0)"
	case m.CI == nil:
		return fmt.Sprintf("%.1f", m.Value)
	}
	return fmt.Sprintf("%.1f [%.1f, %.1f]", m.Value, m.CI[0], m.CI[1])
}

// fillBoard ranks the models by the chosen figure (score.Leaderboard) and shows
// the table and the note under it.
func (v *evaluateView) fillBoard() {
	v.board, v.boardRows = nil, nil
	metric := v.rankBy.Selected
	if len(v.reports) == 0 {
		v.boardBox.Objects = []fyne.CanvasObject{widget.NewLabel(fmt.Sprintf(
			"No model has answers on %s yet. A lead imports each model's with bwctl predictions import.", v.rel.Ref()))}
		v.boardBox.Refresh()
		v.boardNote.SetText("")
		v.exportBtn.Disable()
		return
	}
	if metric == "" {
		v.boardBox.Objects = []fyne.CanvasObject{widget.NewLabel("The models share no figure to rank them by.")}
		v.boardBox.Refresh()
		v.boardNote.SetText("")
		v.exportBtn.Disable()
		return
	}
	board, err := score.Leaderboard(v.reports, metric)
	if err != nil {
		v.boardBox.Objects = []fyne.CanvasObject{widget.NewLabel(err.Error())}
		v.boardBox.Refresh()
		v.boardNote.SetText("")
		v.exportBtn.Disable()
		return
	}
	v.board = board
	byModel := v.byModel()
	var ties []string
	for _, s := range board {
		rank := strconv.Itoa(s.Rank)
		if len(s.TiedWith) > 0 {
			rank += "*"
			ties = append(ties, s.Model+" with "+strings.Join(s.TiedWith, ", "))
		}
		row := []string{rank, s.Model}
		for _, c := range v.cols {
			row = append(row, evalCell(byModel[s.Model].Overall.Metric(c)))
		}
		v.boardRows = append(v.boardRows, row)
	}
	v.boardBox.Objects = []fyne.CanvasObject{dashTable(append([]string{"Rank", "Model"}, v.cols...), v.boardRows)}
	v.boardBox.Refresh()
	v.boardNote.SetText(evalNote(v.rel, v.reports[0], metric, ties))
	v.boardSection.Refresh() // the note's height follows its text
	v.exportBtn.Enable()
}

// evalNote says what the leaderboard's numbers are: the samples, the intervals, the
// denominator the reports were computed with, and how ranks and ties are read.
func evalNote(rel store.Release, r0 *score.Report, metric string, ties []string) string {
	note := fmt.Sprintf("Percentages on %s (%s)", rel.Ref(), plural(r0.N, "sample"))
	if bs := r0.Bootstrap; bs != nil {
		note += fmt.Sprintf(" with the %d %% percentile bootstrap interval (%d draws, seed %d)", bs.Level, bs.Draws, bs.Seed)
	}
	if r0.Denominator == score.DenomParsed {
		note += ". Denominator parsed: mcq_acc and acc50iou divide by the samples whose answer letter was read"
	} else {
		note += ". Denominator all: mcq_acc and acc50iou divide by all their samples"
	}
	note += fmt.Sprintf(". Ranked by %s: rank is 1 + the number of models whose interval lies wholly above", metric)
	if len(ties) > 0 {
		note += "; * tied (the intervals overlap): " + strings.Join(ties, "; ")
	}
	return note + "."
}

func (v *evaluateView) byModel() map[string]*score.Report {
	m := make(map[string]*score.Report, len(v.reports))
	for _, r := range v.reports {
		m[r.Model] = r
	}
	return m
}

// exportCSV writes the leaderboard as shown.
func (v *evaluateView) exportCSV() {
	if len(v.board) == 0 {
		return
	}
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '-'
		}
		return r
	}, v.rel.Ref())
	v.u.exportTableCSV(name+"-leaderboard.csv", evalCSV{board: v.board, cols: v.cols, reports: v.reports})
}

// evalCSV is the leaderboard as shown, for the CSV export (score.WriteLeaderboardCSV).
type evalCSV struct {
	board   []score.Standing
	cols    []string
	reports []*score.Report
}

func (e evalCSV) WriteCSV(w io.Writer) error {
	return score.WriteLeaderboardCSV(w, e.board, e.reports, e.cols)
}

// evalGroupLabel writes a breakdown's group label for a chart: hops as "1-hop".
func evalGroupLabel(dim, label string) string {
	if dim == score.ByHop {
		return label + "-hop"
	}
	return label
}

// fillChart draws the chosen figure by hop and by view for the chosen models, side
// by side (score breaks figures down by hop and by view, not by both at once), and
// lists the numbers under the charts.
func (v *evaluateView) fillChart() {
	fig := v.chartFig.Selected
	if len(v.reports) == 0 || fig == "" {
		v.chartBox.Objects = []fyne.CanvasObject{widget.NewLabel("No model has a figure by hop or view on this release.")}
		v.chartBox.Refresh()
		return
	}
	var chosen []*score.Report
	for _, r := range v.reports {
		if slices.Contains(v.chartModel.Selected, r.Model) {
			chosen = append(chosen, r)
		}
	}
	var charts []fyne.CanvasObject
	var rows [][]string
	for _, dim := range []string{score.ByHop, score.ByView} {
		var labels []string
		for _, r := range chosen {
			for _, g := range r.By[dim] {
				if !slices.Contains(labels, g.Label) {
					labels = append(labels, g.Label)
				}
			}
		}
		shown := make([]string, len(labels))
		for i, l := range labels {
			shown[i] = evalGroupLabel(dim, l)
		}
		var series []Series
		for _, r := range chosen {
			vals := make([]float64, len(labels))
			for i := range vals {
				vals[i] = math.NaN()
			}
			for _, g := range r.By[dim] {
				if m := g.Metric(fig); m != nil {
					vals[slices.Index(labels, g.Label)] = m.Value
					rows = append(rows, []string{r.Model, dim, evalGroupLabel(dim, g.Label), evalCell(m), strconv.Itoa(m.N)})
				}
			}
			series = append(series, Series{Name: r.Model, Values: vals, Color: ChartPalette(slices.Index(v.reports, r))})
		}
		charts = append(charts, chartImage(groupedBarChart(fig+" by "+dim+" (%)", shown, series, evalChartW, evalChartH)))
	}
	table := dashTable([]string{"Model", "Breakdown", "Group", fig, "n"}, rows)
	v.chartBox.Objects = []fyne.CanvasObject{container.NewBorder(container.NewHBox(charts...), nil, nil, nil, table)}
	v.chartBox.Refresh()
}

// groupedBarChart draws a w×h chart of percentages: per label a cluster of bars,
// one per series in its colour and order, the value above each bar when it fits,
// a legend, and a y axis from 0 to 100 (further when a value exceeds 100) with four
// grid lines. A NaN value draws no bar (the group has no such figure for that
// series). It is drawn with charts.go's helpers; BarChart stacks its series, which
// suits counts, not figures side by side.
func groupedBarChart(title string, labels []string, series []Series, w, h int) *image.RGBA {
	img := chartCanvas(w, h)
	top := chartHeader(img, title, series, w, len(series) > 0)
	top += chartLineH // room for the values above the tallest bar
	maxV, some := 0.0, false
	for _, s := range series {
		for _, x := range s.Values {
			if !math.IsNaN(x) {
				maxV, some = max(maxV, x), true
			}
		}
	}
	yMax := 100.0
	if maxV > 100 {
		yMax = chartNiceMax(maxV, false)
	}
	axisW := chartTextWidth(chartValue(yMax))
	left, right, bottom := chartPadding+axisW+4, w-chartPadding, h-chartPadding/2-chartLineH
	if bottom-top < 10 || right-left < 10 {
		return img
	}
	for i := 0; i <= 4; i++ {
		y := bottom - int(math.Round(float64(bottom-top)*float64(i)/4))
		chartFill(img, image.Rect(left, y, right, y+1), chartGrid)
		s := chartValue(yMax * float64(i) / 4)
		chartText(img, left-4-chartTextWidth(s), y-chartAscent/2-1, s, chartMuted)
	}
	chartFill(img, image.Rect(left, top, left+1, bottom+1), chartInk)
	chartFill(img, image.Rect(left, bottom, right, bottom+1), chartInk)
	if len(labels) == 0 || len(series) == 0 || !some {
		msg := "no data"
		chartText(img, left+(right-left-chartTextWidth(msg))/2, (top+bottom)/2-chartAscent/2, msg, chartMuted)
		return img
	}
	slot := float64(right-left) / float64(len(labels))
	barW := max(1, int(slot*0.8/float64(len(series))))
	scale := float64(bottom-top) / yMax
	for i, l := range labels {
		x0 := left + int(math.Round(slot*float64(i)+(slot-float64(barW*len(series)))/2))
		for j, s := range series {
			if i >= len(s.Values) || math.IsNaN(s.Values[i]) {
				continue
			}
			x := x0 + j*barW
			val := max(0, s.Values[i])
			y := bottom - int(math.Round(val*scale))
			chartFill(img, image.Rect(x+1, y, x+barW-1, bottom), s.Color)
			if t := fmt.Sprintf("%.0f", val); chartTextWidth(t) <= barW+2 {
				chartText(img, x+(barW-chartTextWidth(t))/2, y-chartLineH+1, t, chartInk)
			}
		}
		t := chartClip(l, int(slot)-2)
		cx := left + int(math.Round(slot*float64(i)+slot/2))
		chartText(img, cx-chartTextWidth(t)/2, bottom+3, t, chartInk)
	}
	return img
}

// loadSample reads the models' results on sample i of the release and its
// picture, off the UI goroutine, then shows the comparison.
func (v *evaluateView) loadSample(i int) {
	if i < 0 || i >= len(v.items) {
		return
	}
	it := v.items[i]
	v.sampleGen++
	gen, relGen := v.sampleGen, v.gen
	v.cmpBox.Objects = []fyne.CanvasObject{widget.NewLabel("Scoring " + it.SampleID + "…")}
	v.cmpBox.Refresh()
	u, rel := v.u, v.rel
	go func() {
		gold, results, err := u.db.SampleScores(u.ctx(), u.user, evalRef(rel), it.SampleID)
		var pic verifyImage
		if err == nil {
			pic = loadVerifyImage(u, store.SampleInfo{ImagePath: it.ImagePath})
		}
		fyne.Do(func() {
			defer v.sampleLoads.Add(1)
			if gen != v.sampleGen || relGen != v.gen {
				return
			}
			if err != nil {
				v.cmp = nil
				v.cmpBox.Objects = []fyne.CanvasObject{widget.NewLabel(store.Message(err))}
			} else {
				v.cmp = newEvalComparison(v, gold, results, pic)
				v.cmpBox.Objects = []fyne.CanvasObject{v.cmp.root}
			}
			v.cmpBox.Refresh()
		})
	}()
}

// evalComparison is one sample with every model's answer to it: the picture with
// the gold box and the models' boxes, the gold answer, and a row per model.
type evalComparison struct {
	gold    score.Gold
	results []store.ModelResult
	raw     bool // the user may read the raw answers

	canvas   *boxcanvas.Canvas
	boxOwner []string // per box on the canvas: "gold" or the model's name
	rows     [][]string
	table    *widget.Table
	detail   *widget.Label // the chosen model's raw answer, or why it is not shown
	readout  *widget.Label
	root     fyne.CanvasObject
	syncing  bool // selection being mirrored between the table and the canvas
	selected int  // the chosen result, -1 for none
}

func newEvalComparison(v *evaluateView, gold score.Gold, results []store.ModelResult, pic verifyImage) *evalComparison {
	c := &evalComparison{gold: gold, results: results, raw: v.u.may(verify.ActionReadPredictions), selected: -1}
	s := gold.Sample
	// Boxes: the gold one first, then each model's, scaled from the 0–1 scale
	// score reads them on to the image's pixels.
	var boxes []annotate.Box
	boxAt := make([]int, len(results)) // result → its box on the canvas, -1 for none
	if s.Box != nil {
		boxes, c.boxOwner = append(boxes, *s.Box), append(c.boxOwner, "gold")
	}
	for i, r := range results {
		boxAt[i] = -1
		if b := r.Result.Box; b != nil {
			boxAt[i] = len(boxes)
			boxes, c.boxOwner = append(boxes, annotate.FromUnit(*b, gold.Width, gold.Height)), append(c.boxOwner, r.Model)
		}
	}
	c.canvas = boxcanvas.New(pic.img, pic.width, pic.height)
	c.canvas.ReadOnly = true
	c.canvas.SetBoxes(boxes)
	c.readout = widget.NewLabel("")
	c.detail = widget.NewLabel("")
	c.detail.Wrapping = fyne.TextWrapWord

	c.rows = make([][]string, len(results))
	header := []string{"Model", "Answer read", "Verdict", "IoU", "Details"}
	if c.raw {
		header = append(header, "Raw answer")
	}
	for i, r := range results {
		c.rows[i] = evalResultRow(r, gold)
		if c.raw {
			c.rows[i] = append(c.rows[i], evalOneLine(r.Response))
		}
	}
	c.table = dashTable(header, c.rows).(*widget.Table)
	c.table.OnSelected = func(id widget.TableCellID) {
		if id.Row == 0 {
			c.table.UnselectAll()
			return
		}
		c.choose(id.Row - 1)
		if !c.syncing {
			c.syncing = true
			c.canvas.Select(boxAt[id.Row-1])
			c.syncing = false
		}
	}
	c.canvas.OnSelect = func(i int) {
		owner := ""
		if i >= 0 {
			owner = c.boxOwner[i]
		}
		switch owner {
		case "":
			c.readout.SetText("")
		case "gold":
			c.readout.SetText("the gold box")
		default:
			c.readout.SetText("the box of " + owner)
		}
		if c.syncing {
			return
		}
		c.syncing = true
		defer func() { c.syncing = false }()
		if j := slices.IndexFunc(results, func(r store.ModelResult) bool { return r.Model == owner }); j >= 0 {
			c.table.Select(widget.TableCellID{Row: j + 1, Col: 0})
		} else { // the gold box, or none
			c.table.UnselectAll()
			c.choose(-1)
		}
	}
	c.choose(-1)

	meta := []string{s.ID, string(s.Kind)}
	if s.Hop > 0 {
		meta = append(meta, plural(s.Hop, "hop"))
	}
	if s.View != "" {
		meta = append(meta, string(s.View))
	}
	if s.Task != "" {
		meta = append(meta, "task "+s.Task)
	}
	if s.Split != "" {
		meta = append(meta, "split "+s.Split)
	}
	question := "Question"
	if s.Kind == annotate.KindStepGraph {
		question = "Task"
	}
	answer := reviewText("Gold answer: "+evalGoldAnswer(s), fyne.TextStyle{Bold: true})
	if s.Kind == annotate.KindStepGraph {
		answer.SetText("Gold steps:\n" + evalGoldAnswer(s))
	}
	head := container.NewVBox(heading(strings.Join(meta, " · ")), reviewText(question+": "+s.Question, fyne.TextStyle{}), answer)
	caption := pic.caption(s.Box)
	if len(boxes) > 0 {
		caption = "Boxes: gold and models' yellow, the chosen one blue · " + caption
	}
	picture := verifyImagePane(c.canvas, c.readout, caption)
	raw := container.NewBorder(reviewCaption("Raw answer"), nil, nil, nil, container.NewVScroll(c.detail))
	top := container.NewHSplit(picture, raw)
	top.Offset = 0.6
	var table fyne.CanvasObject = c.table
	if len(results) == 0 {
		table = widget.NewLabel("No model has answers on this release.")
	}
	body := container.NewVSplit(top, table)
	body.Offset = 0.6
	c.root = container.NewBorder(head, nil, nil, nil, body)
	return c
}

// choose shows result i's raw answer (leads) below the table; -1 chooses none.
func (c *evalComparison) choose(i int) {
	c.selected = i
	switch {
	case len(c.results) == 0:
		c.detail.SetText("")
	case i < 0 || i >= len(c.results):
		if c.raw {
			c.detail.SetText("Choose a model's row to see its box in blue and its raw answer in full.")
		} else {
			c.detail.SetText("Choose a model's row to see its box in blue. Raw answers are shown to leads, who may read predictions.")
		}
	case !c.raw:
		c.detail.SetText(c.results[i].Model + ": raw answers are shown to leads, who may read predictions.")
	case c.results[i].Result.Missing:
		c.detail.SetText(c.results[i].Model + " gave no answer to this sample (scored as an empty one).")
	default:
		c.detail.SetText(c.results[i].Model + ":\n" + c.results[i].Response)
	}
}

// evalOneLine shows a raw answer on one table line.
func evalOneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return s
}

// evalResultRow describes one model's result on a sample: the answer score read,
// its verdict, the IoU of its box, and the details of the sample's kind.
func evalResultRow(r store.ModelResult, gold score.Gold) []string {
	res := r.Result
	answer := res.Answer
	switch {
	case res.Kind == annotate.KindStepGraph && res.Parsed():
		answer = plural(len(res.Steps), "step")
	case !res.Parsed():
		answer = "–"
	}
	verdict := "✗ wrong"
	if res.Correct {
		verdict = "✓ correct"
	}
	iou := "–"
	if res.IoU != nil {
		iou = fmt.Sprintf("%.2f", *res.IoU)
	}
	var details []string
	if res.Missing {
		details = append(details, "no prediction")
	}
	if res.ParseError != "" {
		details = append(details, res.ParseError)
	}
	if res.Box != nil {
		b := annotate.FromUnit(*res.Box, gold.Width, gold.Height).Normalize()
		details = append(details, fmt.Sprintf("box %.0f,%.0f – %.0f,%.0f", b[0], b[1], b[2], b[3]))
	}
	if res.BoxError != "" {
		details = append(details, res.BoxError)
	}
	if res.Hit50 {
		details = append(details, "hit at IoU 0.5")
	}
	if res.Kind == annotate.KindOpen && res.Parsed() {
		if res.Relaxed {
			details = append(details, "relaxed match")
		}
		if res.Number != nil {
			details = append(details, "number "+strconv.FormatFloat(*res.Number, 'f', -1, 64))
		}
		if res.MRA != nil {
			details = append(details, fmt.Sprintf("MRA %.2f", *res.MRA))
		}
	}
	counts := func(what string, c *score.Counts) {
		if c != nil {
			details = append(details, fmt.Sprintf("%s TP %d FP %d FN %d", what, c.TP, c.FP, c.FN))
		}
	}
	counts("steps", res.Content)
	counts("preconditions", res.Precond)
	return []string{r.Model, answer, verdict, iou, strings.Join(details, " · ")}
}

// evalGoldAnswer writes a sample's gold answer: the option with its letter, the
// steps with their preconditions, or the answer text.
func evalGoldAnswer(s annotate.Sample) string {
	switch s.Kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		if s.AnswerIndex >= 0 && s.AnswerIndex < len(s.Options) {
			return fmt.Sprintf("%c. %s", 'A'+s.AnswerIndex, s.Options[s.AnswerIndex])
		}
		return "–"
	case annotate.KindStepGraph:
		var lines []string
		for _, st := range s.Steps {
			l := st.ID + "  " + st.Content
			if len(st.Precondition) > 0 {
				l += "  ← after " + strings.Join(st.Precondition, ", ")
			}
			lines = append(lines, l)
		}
		return strings.Join(lines, "\n")
	}
	ans := s.AnswerText
	if s.Tolerance != nil {
		ans += fmt.Sprintf(" (± %g)", *s.Tolerance)
	}
	return ans
}
