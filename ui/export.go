package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// exportScreen lists the accepted samples a release would take.
func (u *App) exportScreen() fyne.CanvasObject {
	acc, err := u.db.Samples(u.ctx(), u.project.ID, store.SampleFilter{Status: verify.StateAccepted}, 0, 1000)
	if err != nil {
		u.showError(err)
	}
	return container.NewBorder(heading(fmt.Sprintf("%s accepted — the candidates of the next release", plural(len(acc), "sample"))),
		nil, nil, nil, sampleTable(acc))
}
