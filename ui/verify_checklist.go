package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/verify"
)

// criterionMark is a verifier's answer to one criterion.
type criterionMark int8

const (
	unmarked criterionMark = iota
	markYes
	markNo
)

// checklist is a round's criteria, each answered Yes or No by an explicit click (or
// its number key); nothing is pre-marked. Its buttons never take the keyboard focus,
// so the screen's keys keep working while it is used.
type checklist struct {
	criteria []verify.Criterion
	marks    []criterionMark
	yes, no  []*widget.Button
	onChange func()
}

func newChecklist(criteria []verify.Criterion, onChange func()) *checklist {
	c := &checklist{criteria: criteria, marks: make([]criterionMark, len(criteria)), onChange: onChange}
	for i := range criteria {
		c.yes = append(c.yes, widget.NewButtonWithIcon("Yes", theme.ConfirmIcon(), func() { c.toggle(i, markYes) }))
		c.no = append(c.no, widget.NewButtonWithIcon("No", theme.CancelIcon(), func() { c.toggle(i, markNo) }))
	}
	c.restyle()
	return c
}

// object lays the checklist out compactly, one criterion a row: its number and
// label over one line of guidance (cut with an ellipsis when long), the Yes and No
// buttons beside them. A round's six criteria take about 300 px, so that they all
// show beside the sample at 1400×900 (issue 17).
func (c *checklist) object() fyne.CanvasObject {
	rows := container.New(layout.NewCustomPaddedVBoxLayout(0))
	for i, cr := range c.criteria {
		label := widget.NewLabelWithStyle(fmt.Sprintf("%d. %s", i+1, cr.Label), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		label.Truncation = fyne.TextTruncateEllipsis
		help := widget.NewLabel(cr.Help)
		help.Truncation = fyne.TextTruncateEllipsis
		help.SizeName = theme.SizeNameCaptionText
		help.Importance = widget.LowImportance
		text := container.New(layout.NewCustomPaddedVBoxLayout(-3*theme.Padding()), label, help)
		rows.Add(container.NewBorder(nil, nil, nil, container.NewCenter(container.NewHBox(c.yes[i], c.no[i])), text))
	}
	return rows
}

// toggle sets criterion i to m, or clears it when it is m already.
func (c *checklist) toggle(i int, m criterionMark) {
	if c.marks[i] == m {
		m = unmarked
	}
	c.set(i, m)
}

// cycle steps criterion i through unmarked → yes → no → unmarked (the number keys).
func (c *checklist) cycle(i int) {
	if i < 0 || i >= len(c.marks) {
		return
	}
	c.set(i, (c.marks[i]+1)%3)
}

func (c *checklist) set(i int, m criterionMark) {
	c.marks[i] = m
	c.restyle()
	if c.onChange != nil {
		c.onChange()
	}
}

func (c *checklist) restyle() {
	for i, m := range c.marks {
		c.yes[i].Importance, c.no[i].Importance = widget.MediumImportance, widget.MediumImportance
		switch m {
		case markYes:
			c.yes[i].Importance, c.no[i].Importance = widget.SuccessImportance, widget.LowImportance
		case markNo:
			c.yes[i].Importance, c.no[i].Importance = widget.LowImportance, widget.DangerImportance
		}
		c.yes[i].Refresh()
		c.no[i].Refresh()
	}
}

// judgements are the marked criteria: id → passed. Unmarked ones are left out.
func (c *checklist) judgements() map[string]bool {
	j := map[string]bool{}
	for i, m := range c.marks {
		if m != unmarked {
			j[c.criteria[i].ID] = m == markYes
		}
	}
	return j
}

// unmarked and failed name the criteria not marked yet and those marked No.
func (c *checklist) unmarked() []string { return c.labels(unmarked) }
func (c *checklist) failed() []string   { return c.labels(markNo) }

func (c *checklist) labels(m criterionMark) []string {
	var out []string
	for i, x := range c.marks {
		if x == m {
			out = append(out, c.criteria[i].Label)
		}
	}
	return out
}

// fixedHeight shows o in a box as tall as lines lines of text, whatever o's own
// height; what does not fit scrolls.
func fixedHeight(o fyne.CanvasObject, lines int) fyne.CanvasObject {
	line := fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height
	space := canvas.NewRectangle(color.Transparent)
	space.SetMinSize(fyne.NewSize(0, float32(lines)*line+2*theme.InnerPadding()))
	return container.NewStack(space, container.NewVScroll(o))
}
