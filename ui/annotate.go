package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// annotateScreen lists the annotator's queue: own drafts and returned samples.
func (u *App) annotateScreen() fyne.CanvasObject {
	var mine []store.SampleInfo
	for _, st := range []verify.State{verify.StateReturned, verify.StateDraft} {
		s, err := u.db.Samples(u.ctx(), u.project.ID, store.SampleFilter{Status: st, AuthorID: u.user.ID}, 0, 500)
		if err != nil {
			u.showError(err)
		}
		mine = append(mine, s...)
	}
	return container.NewBorder(heading(fmt.Sprintf("Your queue: %s (returned first)", plural(len(mine), "sample"))),
		nil, nil, nil, sampleTable(mine))
}
