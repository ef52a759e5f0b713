package ui

import (
	"fmt"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/score"
)

// The Evaluate screen's By modality tab: every figure of the leaderboard for the
// samples that show one image, several images or frames of a video
// (score.ByModality), a row per model and modality.

// modalityTab is the tab's content, filled by fillModality.
func (v *evaluateView) modalityTab() fyne.CanvasObject {
	v.modalBox = container.NewStack()
	return container.NewBorder(note("Each figure for the samples that show one image (image), several (images) or frames of one video (video)."),
		nil, nil, nil, v.modalBox)
}

// fillModality lays out the loaded reports' modality breakdown.
func (v *evaluateView) fillModality() {
	v.modalHead, v.modalRows = nil, nil
	var figs []string
	for _, name := range evalFigures {
		if slices.ContainsFunc(v.reports, func(r *score.Report) bool {
			return slices.ContainsFunc(r.By[score.ByModality], func(g score.Group) bool { return g.Metric(name) != nil })
		}) {
			figs = append(figs, name)
		}
	}
	if len(v.reports) == 0 {
		v.modalBox.Objects = []fyne.CanvasObject{widget.NewLabel("No model has answers on this release yet.")}
		v.modalBox.Refresh()
		return
	}
	v.modalHead = append([]string{"Model", "Modality", "Samples"}, figs...)
	for _, r := range v.reports {
		for _, g := range r.By[score.ByModality] {
			row := []string{r.Model, g.Label, strconv.Itoa(g.N)}
			for _, f := range figs {
				row = append(row, evalCell(g.Metric(f)))
			}
			v.modalRows = append(v.modalRows, row)
		}
	}
	v.modalBox.Objects = []fyne.CanvasObject{dashTable(v.modalHead, v.modalRows)}
	v.modalBox.Refresh()
}

// evalLRRNote says what the LRR score column is, with its maximum.
func evalLRRNote(reports []*score.Report) string {
	most := 0.0
	for _, r := range reports {
		if m := r.Overall.LRRScoreMax; m != nil {
			most = max(most, *m)
		}
	}
	return fmt.Sprintf("lrr_score is LRR-Bench's score in points, not a percentage: per task of the yes/no samples with a task, "+
		"its weight × 2(p − 50) when its accuracy p is 50 %% or more, else 0, summed; at most %s here (the task weights are the project's settings).",
		strconv.FormatFloat(most, 'f', -1, 64))
}
