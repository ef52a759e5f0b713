package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// lintPanel lists the guideline findings of the sample being edited, updated on every
// change: rule id, field, message and hint. Errors block Submit; each warning has an
// Acknowledge toggle (acknowledgements are by rule id, as the store records them), and
// a redundant-edge error has its one-click fix.
type lintPanel struct {
	ws       *workspace
	summary  *widget.Label
	rows     *fyne.Container
	scroll   *container.Scroll
	obj      fyne.CanvasObject
	findings []annotate.Finding
	shown    string           // what the rows show (findings and acknowledgements), to skip rebuilding them
	acks     []*widget.Button // per finding, nil for errors
	fixes    []*widget.Button // per finding, nil unless it has a fix
}

func newLintPanel(ws *workspace) *lintPanel {
	p := &lintPanel{ws: ws, summary: widget.NewLabel(""), rows: container.NewVBox()}
	p.summary.TextStyle.Bold = true
	p.scroll = container.NewVScroll(p.rows)
	p.obj = container.NewBorder(p.summary, nil, nil, nil, p.scroll)
	return p
}

// clear empties the panel while no sample is open.
func (p *lintPanel) clear() {
	p.findings, p.acks, p.fixes, p.shown = nil, nil, nil, ""
	p.rows.RemoveAll()
	p.summary.SetText("Guideline check: open or create a sample")
	p.summary.Importance = widget.MediumImportance
	p.summary.Refresh()
}

func (p *lintPanel) show(fs []annotate.Finding, acked map[string]bool) {
	key := fmt.Sprint(fs, acked)
	if key == p.shown { // most keystrokes change no finding
		return
	}
	p.shown = key
	p.findings, p.acks, p.fixes = fs, make([]*widget.Button, len(fs)), make([]*widget.Button, len(fs))
	var rows []fyne.CanvasObject // set at once: Add would lay the panel out per row
	errs, warns := 0, 0
	for _, f := range fs {
		if f.Severity == annotate.SeverityError {
			errs++
		} else {
			warns++
		}
	}
	switch {
	case len(fs) == 0:
		p.summary.SetText("Guideline check: no findings")
		p.summary.Importance = widget.SuccessImportance
	default:
		p.summary.SetText(fmt.Sprintf("Guideline check: %s, %s", plural(errs, "error"), plural(warns, "warning")))
		p.summary.Importance = widget.DangerImportance
		if errs == 0 {
			p.summary.Importance = widget.WarningImportance
		}
	}
	p.summary.Refresh()
	redundant := annotate.RedundantEdges(p.ws.cur.Steps)
	for i, f := range fs {
		// Plain labels and buttons without icons: the panel is rebuilt as the user
		// types, and every themed icon costs an SVG decode.
		head := widget.NewLabel("")
		head.TextStyle.Bold = true
		sev := "ERROR"
		head.Importance = widget.DangerImportance
		if f.Severity != annotate.SeverityError {
			sev = "WARNING"
			head.Importance = widget.WarningImportance
		}
		head.Text = fmt.Sprintf("%s  %s", sev, f.Place()) // people read "option C", not the record's path
		msg := widget.NewLabel(f.Message)
		msg.Wrapping = fyne.TextWrapWord
		parts := []fyne.CanvasObject{head, msg}
		if f.Hint != "" {
			h := caption("Fix: " + f.Hint)
			h.TextStyle.Italic = true
			parts = append(parts, h)
		}
		var buttons []fyne.CanvasObject
		if f.Severity == annotate.SeverityWarning {
			rule := f.Rule
			b := widget.NewButton("Acknowledge", func() { p.ws.toggleAck(rule) })
			if acked[rule] {
				b.Text = "Acknowledged — undo"
				b.Importance = widget.LowImportance
			}
			p.acks[i] = b
			buttons = append(buttons, b)
		}
		if f.Rule == annotate.RuleStepTransitive {
			for _, e := range redundant {
				if strings.HasPrefix(f.Message, "redundant edge "+e.String()+":") {
					b := widget.NewButton("Remove "+e.String(), func() { p.ws.removeEdge(e) })
					p.fixes[i] = b
					buttons = append(buttons, b)
				}
			}
		}
		if len(buttons) > 0 {
			parts = append(parts, container.NewHBox(buttons...))
		}
		rows = append(rows, container.NewVBox(parts...), widget.NewSeparator())
	}
	p.rows.Objects = rows
	p.rows.Refresh()
	p.rows.Layout.Layout(p.rows.Objects, p.rows.Size()) // again, now that the messages know their width and wrap
}
