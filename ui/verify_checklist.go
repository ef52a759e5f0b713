package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// object lays the checklist out: per criterion its number and label with the Yes
// and No buttons beside them, and one line of guidance below.
func (c *checklist) object() fyne.CanvasObject {
	rows := container.NewVBox()
	for i, cr := range c.criteria {
		label := widget.NewLabelWithStyle(fmt.Sprintf("%d. %s", i+1, cr.Label), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		label.Wrapping = fyne.TextWrapWord
		help := widget.NewLabel(cr.Help)
		help.Wrapping = fyne.TextWrapWord
		help.SizeName = theme.SizeNameCaptionText
		rows.Add(tightVBox(container.NewBorder(nil, nil, nil, container.NewHBox(c.yes[i], c.no[i]), label), help))
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
