package ui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// lintPanel lists the guideline findings of the sample being edited, updated on every
// change: rule id, field, message and hint. Errors block Submit, warnings do not; each
// warning has an Acknowledge toggle (acknowledgements are by rule id, as the store
// records them; see below), and a redundant-edge error has its one-click fix.
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
		p.summary.SetText(fmt.Sprintf("Guideline check: %s, %s", annotate.Plural(errs, "error"), annotate.Plural(warns, "warning")))
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

// ---- warnings and Submit ----
//
// Warnings do not block Submit (spec §2: "Errors block submission; warnings do
// not"). The store records with each revision the warnings its author
// acknowledged and refuses a submit that leaves one out, so submitting
// acknowledges every warning still open, and the line above Submit says so
// beforehand, naming them. Acknowledging a warning in the panel marks it as seen;
// the acknowledgements of a sample are remembered for the session, across leaving
// it and coming back (the workspace is rebuilt on every visit), and a sample that
// comes back from review starts with those its last submit recorded.

// sessionAcks holds, per main window, the acknowledged warning rules of each
// sample by user, project and sample id. Touched on the UI goroutine only.
var sessionAcks = map[*App]map[string]map[string]bool{}

// acksFor returns the acknowledgement set of sample si, the one kept for the
// session; editing it (toggleAck) keeps the change.
// revs (or why they could not be read: revsErr) are si's revisions, read with it.
func (ws *workspace) acksFor(si bench.SampleInfo, revs []bench.RevisionInfo, revsErr error) map[string]bool {
	u := ws.u
	byKey := sessionAcks[u]
	if byKey == nil {
		byKey = map[string]map[string]bool{}
		sessionAcks[u] = byKey
	}
	key := fmt.Sprintf("%s\x00%d\x00%s", u.user.Name, u.project.ID, si.ID)
	if acks, ok := byKey[key]; ok {
		return acks
	}
	acks := map[string]bool{}
	if si.Revision > 0 { // submitted before: start from what that submit acknowledged
		if revsErr == nil {
			for i := len(revs) - 1; i >= 0; i-- {
				if revs[i].Change == "submit" || revs[i].Change == "revise" {
					for _, r := range revs[i].Acknowledged {
						acks[r] = true
					}
					break
				}
			}
		}
	}
	byKey[key] = acks
	return acks
}

// openWarnings are the current warnings not acknowledged yet, one per rule, in
// people's words.
func (ws *workspace) openWarnings() []string {
	var rules, words []string
	for _, f := range ws.findings {
		if f.Severity == annotate.SeverityWarning && !ws.acks[f.Rule] && !slices.Contains(rules, f.Rule) {
			rules = append(rules, f.Rule)
			words = append(words, strings.TrimSuffix(f.Text(), "."))
		}
	}
	return words
}

// submitAcks is every warning rule of the current findings: a submit acknowledges
// them all, those acknowledged in the panel and those still open.
func (ws *workspace) submitAcks() []string {
	var out []string
	for _, f := range ws.findings {
		if f.Severity == annotate.SeverityWarning && !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	return out
}

// readyText is the line above an enabled Submit: ready, and which warnings a
// submit would acknowledge.
func (ws *workspace) readyText() (string, widget.Importance) {
	const ready = "Ready: Ctrl+Enter submits this sample to round 1 and opens the next image without a sample."
	open := ws.openWarnings()
	if len(open) == 0 {
		return ready, widget.SuccessImportance
	}
	return fmt.Sprintf("%s Submitting acknowledges %s: %s.", ready, annotate.Plural(len(open), "warning"), strings.Join(open, "; ")), widget.WarningImportance
}
