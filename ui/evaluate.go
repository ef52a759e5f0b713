package ui

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
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
	evalTabChart   = "By hop × view"
	evalTabModal   = "By modality"
	evalTabSamples = "Samples"
)

// evalFigures are the leaderboard's columns, in order, where a model has them:
// hop QA's, then the option questions', judgment's, open answers', step graphs'
// LRR-Bench's score of the yes/no samples with a task, and last the share of
// responses an answer was read from.
var evalFigures = []string{"mcq_acc", "acc50iou", "mean_iou", "judgment_acc", "strict_acc", "mra", "content_f1", "precond_f1", "lrr_score", "parsed"}

// Chart size of the hop × view chart, in pixels.
const evalChartW, evalChartH = 720, 260

// evaluateView is the Evaluate screen, a widget over root.
type evaluateView struct {
	widget.BaseWidget
	u    *App
	root fyne.CanvasObject

	releases []bench.Release
	release  *widget.Select
	denom    *widget.Select
	stepMode *widget.Select // score.StepMode
	stepSkip *widget.Select // the labels of evalSkips
	yesNo    *widget.Select // score.YesNoRule
	refresh  *widget.Button
	status   *widget.Label
	tabs     *container.AppTabs

	// Importing predictions (ui/evaluate_import.go), leads only.
	importBtn  *widget.Button // nil for those who may not import
	importNote *widget.Label  // the last import's report, above the model runs
	imp        *evalImport    // the last Import predictions dialog, for tests

	// The loaded release: its model runs, their reports and the release's samples.
	gen     int // bumped by every load; a late answer of an older one is dropped
	rel     bench.Release
	runs    []bench.ModelRun
	reports []*score.Report // the runs with images (and the human baseline): the ranked ones
	// blind are the reports of the blind runs (score.Report.Blind, answered
	// without the images); the leaderboard shows MMStar's MG and ML from them
	// (ui/evaluate_blind.go), the runs with images carry them (Report.MultiModal).
	blind []*score.Report
	items []bench.ReleaseItem
	// outcomes are the models' results per sample, by sample id (nil without models).
	outcomes map[string]bench.SampleOutcome

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

	// By modality: a row per model and modality (score.ByModality).
	modalBox  *fyne.Container
	modalHead []string   // the table's header, for tests
	modalRows [][]string // its rows, for tests

	// Samples: the list shows the items the filter keeps (ui/evaluate_filter.go).
	sampleFilter evalFilterBar
	shown        []int // indexes into items of the samples listed
	sampleList   *widget.List
	cmpBox       *fyne.Container
	cmp          *evalComparison // the sample shown, nil before one is chosen
	sampleGen    int

	loads       atomic.Int32 // finished release loads, for tests
	sampleLoads atomic.Int32 // finished sample loads, for tests
}

// evaluateScreen shows the Evaluate screen on the newest release.
func (u *App) evaluateScreen() fyne.CanvasObject { return u.newEvaluateView() }

func (v *evaluateView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.root) }

func (u *App) newEvaluateView() *evaluateView {
	v := &evaluateView{u: u, status: widget.NewLabel("")}
	v.ExtendBaseWidget(v)
	v.status.Wrapping = fyne.TextWrapWord // on its own line under the release, never cut ("3 mod…", issue 17)
	box := container.NewStack(widget.NewLabel("Loading the releases…"))
	v.root = box
	sess, ctx, projectID := u.sess, u.ctx(), u.project.ID
	load(u, "evaluate.releases", func() ([]bench.Release, error) { return sess.Releases(ctx, projectID) },
		func(rels []bench.Release, err error) {
			box.Objects = []fyne.CanvasObject{v.build(rels, err)}
			box.Refresh()
		})
	return v
}

// build lays out the screen on the project's releases (newest first), once read.
func (v *evaluateView) build(rels []bench.Release, err error) fyne.CanvasObject {
	u := v.u
	if err != nil {
		v.loads.Add(1)
		return widget.NewLabel(bench.Message(err))
	}
	v.releases = rels
	if len(rels) == 0 {
		l := widget.NewLabel("No release is frozen yet. A lead freezes one on the Export screen and then imports each model's " +
			"answers to it here, with Import predictions…; the models' scores then show here.")
		l.Wrapping = fyne.TextWrapWord
		v.loads.Add(1)
		return container.NewBorder(heading("Evaluate models"), nil, nil, nil, l)
	}
	v.release = widget.NewSelect(nil, func(string) { v.load() })
	v.setReleases(rels)
	v.denom = widget.NewSelect([]string{string(score.DenomAll), string(score.DenomParsed)}, func(string) { v.load() })
	v.denom.PlaceHolder = string(score.DenomParsed) + "  "
	v.stepMode = widget.NewSelect([]string{string(score.StepMicro), string(score.StepMacro)}, func(string) { v.load() })
	v.stepMode.PlaceHolder = string(score.StepMacro) + "  "
	v.stepSkip = widget.NewSelect(nil, func(string) { v.load() })
	for _, s := range evalSkips {
		v.stepSkip.Options = append(v.stepSkip.Options, s.label)
	}
	v.stepSkip.PlaceHolder = evalSkips[2].label + "  "
	v.yesNo = widget.NewSelect(nil, func(string) { v.load() })
	for _, r := range score.YesNoRules {
		v.yesNo.Options = append(v.yesNo.Options, string(r))
	}
	v.yesNo.PlaceHolder = string(score.YesNoVLMEvalKit) + "  "
	v.refresh = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), v.reload)
	v.importNote = widget.NewLabel("")
	v.importNote.Wrapping = fyne.TextWrapWord
	v.importNote.Hide()

	v.rankBy = widget.NewSelect(nil, func(string) { v.fillBoard() })
	v.rankBy.PlaceHolder = "judgment_acc  "
	v.exportBtn = widget.NewButtonWithIcon("Export CSV…", theme.DocumentSaveIcon(), v.exportCSV)
	v.boardNote = widget.NewLabel("")
	v.boardNote.Wrapping = fyne.TextWrapWord
	v.boardNote.Importance = widget.LowImportance
	v.boardBox, v.runsBox = container.NewStack(), container.NewStack()
	runs := container.NewBorder(container.NewVBox(heading("Model runs"), v.importNote), nil, nil, nil, v.runsBox)
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
		func() int { return len(v.shown) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("demo-hq-000 · step_graph · wrong by 2 of 3")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(v.shown) {
				o.(*widget.Label).SetText(v.sampleLine(v.items[v.shown[i]]))
			}
		},
	)
	v.sampleList.OnSelected = func(i widget.ListItemID) {
		if i < len(v.shown) {
			v.loadSample(v.shown[i])
		}
	}
	v.cmpBox = container.NewStack(widget.NewLabel("Choose a sample to see each model's answer to it."))
	v.sampleFilter = v.newEvalFilterBar()
	samples := container.NewHSplit(container.NewBorder(container.NewVBox(heading("Samples of the release"), v.sampleFilter.root), nil, nil, nil, v.sampleList), v.cmpBox)
	samples.Offset = 0.24

	v.tabs = container.NewAppTabs(
		container.NewTabItem(evalTabBoard, container.NewPadded(split)),
		container.NewTabItem(evalTabChart, container.NewPadded(chart)),
		container.NewTabItem(evalTabModal, container.NewPadded(v.modalityTab())),
		container.NewTabItem(evalTabSamples, container.NewPadded(samples)),
	)
	tools := container.NewHBox(v.refresh)
	if u.may(verify.ActionCurateHard) { // the curation view, ui/curate.go
		tools.Objects = append([]fyne.CanvasObject{widget.NewButtonWithIcon("Hard and debiased subsets…", theme.ListIcon(), func() { v.openCuration() })}, tools.Objects...)
	}
	if u.may(verify.ActionImportPredictions) { // ui/evaluate_import.go
		v.importBtn = widget.NewButtonWithIcon("Import predictions…", theme.DownloadIcon(), func() { v.openImport() })
		tools.Objects = append([]fyne.CanvasObject{v.importBtn}, tools.Objects...)
	}
	top := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Release"), v.release), tools)
	options := container.NewHBox(widget.NewLabel("Denominator"), v.denom, widget.NewLabel("Step figures"), v.stepMode,
		widget.NewLabel("Step answers not read"), v.stepSkip)
	rule := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Yes/no answers"), v.yesNo), nil,
		container.NewVBox(layout.NewSpacer(), note("vlmevalkit: exactly one of the words yes and no; lrr: LRR-Bench's rule, No when the word No is there, else Yes"), layout.NewSpacer()))
	root := container.NewBorder(container.NewVBox(top, v.status, options, rule), nil, nil, nil, v.tabs)
	v.denom.SetSelected(string(score.DenomAll))
	v.stepMode.SetSelected(string(score.StepMicro))
	v.stepSkip.SetSelected(evalSkips[0].label)
	v.yesNo.SetSelected(string(score.YesNoVLMEvalKit))
	v.release.SetSelected(v.release.Options[0]) // newest first: loads it
	return root
}

// evalSkips are the choices of which step-graph samples the step figures leave
// out (score.Options.StepSkip), in words; the first is the default.
var evalSkips = []struct {
	skip  score.StepSkip
	label string
}{
	{score.SkipNone, "count as all missed"},
	{score.SkipUnparsed, "leave out"},
	{score.SkipUnmatched, "leave out, also unmatched"}, // and those with no step matched
}

// evalSkipLabel is a StepSkip in words.
func evalSkipLabel(s score.StepSkip) string {
	for _, e := range evalSkips {
		if e.skip == s {
			return e.label
		}
	}
	return string(s)
}

// options are the scoring options chosen above the tabs.
func (v *evaluateView) options() score.Options {
	opt := score.Options{Denominator: score.Denominator(v.denom.Selected), StepMode: score.StepMode(v.stepMode.Selected),
		YesNo: score.YesNoRule(v.yesNo.Selected)}
	if i := v.stepSkip.SelectedIndex(); i >= 0 {
		opt.StepSkip = evalSkips[i].skip
	}
	return opt
}

// setReleases offers rels (newest first) in the release picker.
func (v *evaluateView) setReleases(rels []bench.Release) {
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
	sess, ctx, projectID := v.u.sess, v.u.ctx(), v.u.project.ID
	load(v.u, "evaluate.releases", func() ([]bench.Release, error) { return sess.Releases(ctx, projectID) }, v.reloaded)
}

// reloaded offers the releases reload read and scores the chosen one again.
func (v *evaluateView) reloaded(rels []bench.Release, err error) {
	if err != nil || len(rels) == 0 { // releases are never deleted: none means an error
		v.status.SetText(bench.Message(err))
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
func (v *evaluateView) selectedRelease() (bench.Release, bool) {
	i := v.release.SelectedIndex()
	if i < 0 || i >= len(v.releases) {
		return bench.Release{}, false
	}
	return v.releases[i], true
}

// ref names a release to the store unambiguously: by its id.
func evalRef(r bench.Release) string { return strconv.FormatInt(r.ID, 10) }

// load reads the chosen release's model runs, scores them and lists its samples,
// off the UI goroutine (scoring bootstraps every figure), then fills the tabs.
func (v *evaluateView) load() {
	rel, ok := v.selectedRelease()
	if !ok || v.denom.Selected == "" || v.stepMode.Selected == "" || v.stepSkip.Selected == "" || v.yesNo.Selected == "" {
		return
	}
	v.gen++
	gen := v.gen
	v.refresh.Disable()
	v.status.SetText(fmt.Sprintf("Scoring the models on %s…", rel.Ref()))
	sess, ctx := v.u.sess, v.u.ctx()
	opt := v.options()
	inBackground(func() { // the tests run it in place: a run's fyne.Do would race their layout (a fresh-clone run crashed in fyne's table)
		runs, err := sess.Models(ctx, evalRef(rel))
		var reports []*score.Report
		if err == nil && len(runs) > 0 {
			reports, err = sess.Score(ctx, evalRef(rel), nil, opt)
		}
		if err == nil {
			_, err = score.AttachMultiModal(reports)
		}
		if err == nil { // the human baseline's row, once people answered it (ui/human.go)
			var human *score.Report
			var ok bool
			if human, ok, err = sess.HumanReport(ctx, evalRef(rel), opt); ok {
				reports = append(reports, human)
			}
		}
		var items []bench.ReleaseItem
		if err == nil {
			items, err = sess.ReleaseItems(ctx, rel.ID)
		}
		var outcomes map[string]bench.SampleOutcome // for the Samples tab's "wrong only"
		if err == nil && len(runs) > 0 {
			var out []bench.SampleOutcome
			if out, err = sess.ReleaseOutcomes(ctx, evalRef(rel)); err == nil {
				outcomes = make(map[string]bench.SampleOutcome, len(out))
				for _, o := range out {
					outcomes[o.SampleID] = o
				}
			}
		}
		fyne.Do(func() {
			defer v.loads.Add(1)
			if gen != v.gen {
				return
			}
			v.refresh.Enable()
			if err != nil {
				v.status.SetText(bench.Message(err))
				return
			}
			v.rel, v.runs, v.items, v.outcomes = rel, runs, items, outcomes
			v.reports, v.blind = splitBlind(reports) // ui/evaluate_blind.go
			v.fill()
		})
	})
}

// fill lays out everything loaded.
func (v *evaluateView) fill() {
	what, _ := releaseDetails(v.rel)
	v.status.SetText(fmt.Sprintf("%s: %s · %s", v.rel.Ref(), what, annotate.Plural(len(v.runs), "model")))
	v.runsRows = dashRows(v.runs, func(r bench.ModelRun) []string {
		return []string{evalRunName(r), strconv.Itoa(r.Predictions), strconv.Itoa(r.Missing), r.Source, r.ImportedBy, evalTime(r.ImportedAt)}
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
			return slices.ContainsFunc(r.By[score.ByHopView], func(g score.Group) bool { return g.Metric(name) != nil })
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

	v.fillModality()

	v.filterSamples()
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
			"No model has answers on %s yet. %s", v.rel.Ref(), v.u.evalImportHint()))}
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
		v.boardRows = append(v.boardRows, append(row, v.gainCells(s.Model, metric)...))
	}
	v.boardBox.Objects = []fyne.CanvasObject{dashTable(append(append([]string{"Rank", "Model"}, v.cols...), v.gainHeads()...), v.boardRows)}
	v.boardBox.Refresh()
	note := evalNote(v.rel, v.reports[0], slices.Contains(v.cols, "content_f1"), metric, ties) + v.gainNote(metric)
	if slices.Contains(v.cols, "lrr_score") {
		note += " " + evalLRRNote(v.reports)
	}
	v.boardNote.SetText(note)
	v.boardSection.Refresh() // the note's height follows its text
	v.exportBtn.Enable()
}

// evalNote says what the leaderboard's numbers are: the samples, the intervals, the
// denominator (and, with steps, the step options) the reports were computed with,
// and how ranks and ties are read.
func evalNote(rel bench.Release, r0 *score.Report, steps bool, metric string, ties []string) string {
	note := fmt.Sprintf("Percentages on %s (%s)", rel.Ref(), annotate.Plural(r0.N, "sample"))
	if bs := r0.Bootstrap; bs != nil {
		note += fmt.Sprintf(" with the %d %% percentile bootstrap interval (%d draws, seed %d)", bs.Level, bs.Draws, bs.Seed)
	}
	if r0.Denominator == score.DenomParsed {
		note += ". Denominator parsed: mcq_acc and acc50iou divide by the samples whose answer letter was read"
	} else {
		note += ". Denominator all: mcq_acc and acc50iou divide by all their samples"
	}
	if steps { // the step options the reports were computed with
		note += fmt.Sprintf(". Step graphs %s (", r0.StepMode)
		if r0.StepMode == score.StepMacro {
			note += "figures per sample, averaged"
		} else {
			note += "counts pooled over the samples"
		}
		note += "), answers not read: " + evalSkipLabel(r0.StepSkip)
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
	switch dim {
	case score.ByHop:
		return label + "-hop"
	case score.ByHopView:
		hop, view, _ := strings.Cut(label, "/")
		return hop + "-hop " + view
	}
	return label
}

// fillChart draws the chosen figure by hop × view (score's hop_view breakdown,
// the papers' table) for the chosen models, and lists the numbers under the chart.
func (v *evaluateView) fillChart() {
	fig := v.chartFig.Selected
	if len(v.reports) == 0 || fig == "" {
		v.chartBox.Objects = []fyne.CanvasObject{widget.NewLabel("No model has a figure by hop × view on this release.")}
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
	for _, dim := range []string{score.ByHopView} {
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
		charts = append(charts, v.u.groupedBarChart(fig+" by hop × view (%)", shown, series, evalChartW, evalChartH))
	}
	table := dashTable([]string{"Model", "Breakdown", "Group", fig, "n"}, rows)
	v.chartBox.Objects = []fyne.CanvasObject{container.NewBorder(container.NewHBox(charts...), nil, nil, nil, table)}
	v.chartBox.Refresh()
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
	sess, pid, onServer := u.sess, u.project.ID, u.onServer() // read here, not on the goroutine
	inBackground(func() {
		gold, results, err := sess.SampleScores(context.Background(), evalRef(rel), it.SampleID)
		var pic verifyImage
		if err == nil {
			pic = loadVerifyImageFrom(sess, pid, onServer, bench.SampleInfo{ImagePath: it.ImagePath})
		}
		fyne.Do(func() {
			defer v.sampleLoads.Add(1)
			if gen != v.sampleGen || relGen != v.gen {
				return
			}
			if err != nil {
				v.cmp = nil
				v.cmpBox.Objects = []fyne.CanvasObject{widget.NewLabel(bench.Message(err))}
			} else {
				v.cmp = newEvalComparison(v, gold, results, pic)
				v.cmpBox.Objects = []fyne.CanvasObject{v.cmp.root}
			}
			v.cmpBox.Refresh()
		})
	})
}

// evalComparison is one sample with every model's answer to it: the picture with
// the gold box and the models' boxes, the gold answer, and a row per model.
type evalComparison struct {
	gold    score.Gold
	results []bench.ModelResult
	raw     bool // the user may read the raw answers

	canvas   *boxcanvas.Canvas
	boxOwner []string            // per box on the canvas: "gold" or the model's name
	legend   []fyne.CanvasObject // what each box's colour stands for
	rows     [][]string
	table    *widget.Table
	detail   *widget.Label // the chosen model's raw answer, or why it is not shown
	readout  *widget.Label
	root     fyne.CanvasObject
	syncing  bool // selection being mirrored between the table and the canvas
	selected int  // the chosen result, -1 for none
}

func newEvalComparison(v *evaluateView, gold score.Gold, results []bench.ModelResult, pic verifyImage) *evalComparison {
	c := &evalComparison{gold: gold, results: results, raw: v.u.may(verify.ActionReadPredictions), selected: -1}
	s := gold.Sample
	// Boxes: the gold one first, then each model's, scaled from the 0–1 scale
	// score reads them on to the image's pixels.
	// Each drawn in its colour, labelled: the gold box in gold, a model's in the
	// colour of its bars on the charts.
	var boxes []annotate.Box
	var styles []boxcanvas.Style
	var legend []fyne.CanvasObject
	boxAt := make([]int, len(results)) // result → its box on the canvas, -1 for none
	if s.Box != nil {
		boxes, c.boxOwner = append(boxes, *s.Box), append(c.boxOwner, "gold")
		styles = append(styles, boxcanvas.Style{Color: evalGoldColor, Label: "gold"})
		legend = append(legend, evalLegendItem(evalGoldColor, "gold"))
	}
	for i, r := range results {
		boxAt[i] = -1
		col := ChartPalette(i)
		if j := slices.IndexFunc(v.reports, func(rep *score.Report) bool { return rep.Model == r.Model }); j >= 0 {
			col = ChartPalette(j)
		}
		name := bench.RunName(r.Model, r.Blind) // a blind run's answer is marked (blind)
		if b := r.Result.Box; b != nil {
			boxAt[i] = len(boxes)
			boxes, c.boxOwner = append(boxes, annotate.FromUnit(*b, gold.Width, gold.Height)), append(c.boxOwner, name)
			styles = append(styles, boxcanvas.Style{Color: col, Label: name})
			legend = append(legend, evalLegendItem(col, name))
		} else if s.Kind == annotate.KindHopQA {
			legend = append(legend, evalLegendItem(col, name+" (no box)"))
		}
	}
	c.canvas = boxcanvas.New(pic.img, pic.width, pic.height)
	c.canvas.ReadOnly = true
	c.canvas.SetBoxes(boxes)
	c.canvas.SetStyles(styles)
	c.legend = legend
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
		c.rows[i][0] = bench.RunName(r.Model, r.Blind)
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
		if j := slices.IndexFunc(results, func(r bench.ModelResult) bool { return bench.RunName(r.Model, r.Blind) == owner }); j >= 0 {
			c.table.Select(widget.TableCellID{Row: j + 1, Col: 0})
		} else { // the gold box, or none
			c.table.UnselectAll()
			c.choose(-1)
		}
	}
	c.choose(-1)

	meta := []string{s.ID, string(s.Kind)}
	if s.Hop > 0 {
		meta = append(meta, annotate.Plural(s.Hop, "hop"))
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
		caption = "The chosen box is drawn thicker · " + caption
	}
	var picture fyne.CanvasObject = verifyImagePane(c.canvas, c.readout, caption)
	if len(legend) > 0 {
		picture = container.NewBorder(nil, container.NewHScroll(container.NewHBox(legend...)), nil, nil, picture)
	}
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

// evalGoldColor is the gold box's colour in a sample's comparison: apart from
// ChartPalette's, which the models' boxes take.
var evalGoldColor = color.NRGBA{R: 0xff, G: 0xd6, B: 0x00, A: 0xff}

// evalLegendItem is a legend entry: a swatch of a box's outline and its owner.
func evalLegendItem(col color.Color, text string) fyne.CanvasObject {
	sw := canvas.NewRectangle(color.Transparent)
	sw.StrokeColor, sw.StrokeWidth = col, 3
	sw.SetMinSize(fyne.NewSize(18, 12))
	return container.NewHBox(container.NewCenter(sw), widget.NewLabel(text))
}

// choose shows result i's raw answer (leads) below the table; -1 chooses none.
func (c *evalComparison) choose(i int) {
	c.selected = i
	switch {
	case len(c.results) == 0:
		c.detail.SetText("")
	case i < 0 || i >= len(c.results):
		if c.raw {
			c.detail.SetText("Choose a model's row to pick out its box and see its raw answer in full.")
		} else {
			c.detail.SetText("Choose a model's row to pick out its box. Raw answers are shown to leads, who may read predictions.")
		}
	case !c.raw:
		c.detail.SetText(bench.RunName(c.results[i].Model, c.results[i].Blind) + ": raw answers are shown to leads, who may read predictions.")
	case c.results[i].Result.Missing:
		c.detail.SetText(bench.RunName(c.results[i].Model, c.results[i].Blind) + " gave no answer to this sample (scored as an empty one).")
	default:
		c.detail.SetText(bench.RunName(c.results[i].Model, c.results[i].Blind) + ":\n" + c.results[i].Response)
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
func evalResultRow(r bench.ModelResult, gold score.Gold) []string {
	res := r.Result
	answer := res.Answer
	switch {
	case res.Kind == annotate.KindStepGraph && res.Parsed():
		answer = annotate.Plural(len(res.Steps), "step")
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
