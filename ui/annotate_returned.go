package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// A returned sample: the reviewers' reasons next to the fields they concern.

// note shows the reasons of the reviews that returned the sample which concern one of
// fields, e.g. "↩ Box on the answer — ver2, round 1"; hidden when there are none.
func (ws *workspace) note(fields ...string) *widget.Label {
	var lines []string
	for _, r := range ws.reviews {
		var labels []string
		for _, f := range fields {
			for _, reason := range verify.ReasonsOn(r.Reasons, f) {
				if l := criterionLabel(ws.cur.Kind, r.Round, reason); !slices.Contains(labels, l) {
					labels = append(labels, l)
				}
			}
		}
		if len(labels) > 0 {
			lines = append(lines, fmt.Sprintf("↩ %s — %s, round %d", strings.Join(labels, "; "), r.VerifierName, r.Round))
		}
	}
	l := widget.NewLabel(strings.Join(lines, "\n"))
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.DangerImportance
	if len(lines) == 0 {
		l.Hide()
	}
	return l
}

func criterionLabel(kind annotate.Kind, round int, id string) string {
	for _, c := range verify.Criteria(kind, round) {
		if c.ID == id {
			return c.Label
		}
	}
	if id == verify.ReasonOther {
		return "Other (see the comment)"
	}
	return id
}

// returnedBanner sums up why the open sample came back: reviewer, round, reasons and
// comment.
func (ws *workspace) returnedBanner() fyne.CanvasObject {
	if len(ws.reviews) == 0 {
		return container.NewVBox()
	}
	var lines []string
	for _, r := range ws.reviews {
		labels := make([]string, len(r.Reasons))
		for i, reason := range r.Reasons {
			labels[i] = criterionLabel(ws.cur.Kind, r.Round, reason)
		}
		line := fmt.Sprintf("Returned by %s in round %d: %s.", r.VerifierName, r.Round, strings.Join(labels, ", "))
		if r.Comment != "" {
			line += " “" + r.Comment + "”"
		}
		lines = append(lines, line)
	}
	l := widget.NewLabel(strings.Join(lines, "\n") + "\nEach reason is also shown next to the field it concerns.")
	l.Wrapping = fyne.TextWrapWord
	bg := canvas.NewRectangle(withAlpha(theme.Color(theme.ColorNameWarning), 0x38))
	bg.CornerRadius = 4
	return container.NewStack(bg, l)
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}
