package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// sampleTable lists samples as id · kind · state · author · image · question.
func sampleTable(samples []store.SampleInfo) *widget.Table {
	cols := []string{"Sample", "Kind", "State", "Author", "Image", "Question"}
	widths := []float32{130, 90, 90, 80, 220, 520}
	t := widget.NewTable(
		func() (int, int) { return len(samples) + 1, len(cols) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row == 0 {
				l.TextStyle.Bold = true
				l.SetText(cols[id.Col])
				return
			}
			l.TextStyle.Bold = false
			s := samples[id.Row-1]
			l.SetText([]string{s.ID, string(s.Kind), string(s.Status), s.AuthorName, s.ImagePath, s.Content.Question}[id.Col])
		},
	)
	for i, w := range widths {
		t.SetColumnWidth(i, w)
	}
	return t
}

func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

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

// exportScreen lists the accepted samples a release would take.
func (u *App) exportScreen() fyne.CanvasObject {
	acc, err := u.db.Samples(u.ctx(), u.project.ID, store.SampleFilter{Status: verify.StateAccepted}, 0, 1000)
	if err != nil {
		u.showError(err)
	}
	return container.NewBorder(heading(fmt.Sprintf("%s accepted — the candidates of the next release", plural(len(acc), "sample"))),
		nil, nil, nil, sampleTable(acc))
}
