package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/verify"
)

// dashboardScreen shows the project's funnel: samples per state.
func (u *App) dashboardScreen() fyne.CanvasObject {
	counts, err := u.db.StatusCounts(u.ctx(), u.project.ID)
	if err != nil {
		u.showError(err)
	}
	rows := container.NewVBox(heading("Samples per state"))
	total := 0
	for _, s := range verify.States {
		total += counts[s]
	}
	for _, s := range verify.States {
		bar := widget.NewProgressBar()
		if total > 0 {
			bar.SetValue(float64(counts[s]) / float64(total))
		}
		bar.TextFormatter = func() string { return fmt.Sprintf("%d", counts[s]) }
		rows.Add(container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(110, 36), widget.NewLabel(string(s))), nil, bar))
	}
	return container.NewPadded(rows)
}
