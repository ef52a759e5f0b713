package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// dashColumnWidths are the widths dashTable gives its columns: each its widest text,
// at most 420.
func dashColumnWidths(header []string, rows [][]string) []float32 {
	bold, plain := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), widget.NewLabel("")
	out := make([]float32, len(header))
	for c, h := range header {
		bold.SetText(h)
		w := bold.MinSize().Width
		for _, r := range rows {
			plain.SetText(r[c])
			w = max(w, plain.MinSize().Width)
		}
		out[c] = min(w+theme.Padding(), 420)
	}
	return out
}

// fittedTable is dashTable as tall as its rows (the header and up to maxRows rows;
// more scroll) and as wide as the space it is given: a short table shows every row
// with no scroll bar and no room left below it (issue 17).
func fittedTable(header []string, rows [][]string, maxRows int) fyne.CanvasObject {
	pad := theme.Padding()
	width := -pad
	for _, w := range dashColumnWidths(header, rows) {
		width += w + pad
	}
	n := float32(min(len(rows), maxRows) + 1)
	row := widget.NewLabel("").MinSize().Height // the height of the cells' template
	return container.New(&tableFit{width: width, height: n*row + (n-1)*pad}, dashTable(header, rows))
}

// tableFit gives a table the height of its rows; its width is the table's own (its
// columns) when there is room, or the room there is (the table scrolls sideways).
type tableFit struct{ width, height float32 }

func (l *tableFit) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(min(l.width, 320), l.height)
}

func (l *tableFit) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(fyne.NewSize(min(size.Width, l.width), size.Height))
	}
}
