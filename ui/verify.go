package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
)

// verifyScreen lists what the signed-in verifier may review now.
func (u *App) verifyScreen() fyne.CanvasObject {
	if u.user.Role == store.RoleAnnotator {
		return container.NewCenter(widget.NewLabel("Reviews are done by verifiers and leads; annotators see their returned samples under Annotate."))
	}
	q, err := u.db.ReviewQueue(u.ctx(), u.user, u.project.ID, 0)
	if err != nil {
		u.showError(err)
	}
	var samples []store.SampleInfo
	for _, it := range q {
		if s, err := u.db.Sample(u.ctx(), it.SampleID); err == nil {
			samples = append(samples, s)
		}
	}
	return container.NewBorder(heading(fmt.Sprintf("You may review %s now", plural(len(samples), "sample"))),
		nil, nil, nil, sampleTable(samples))
}
