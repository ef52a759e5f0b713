package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
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
