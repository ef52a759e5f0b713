package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// Editing the open sample: every change goes through edit, which records it for undo,
// shows it, lints it and schedules the autosave.

// quietly runs f (which sets widgets) without recording edits.
func (ws *workspace) quietly(f func()) {
	was := ws.loading
	ws.loading = true
	defer func() { ws.loading = was }()
	f()
}

// edit changes the open sample: f modifies a copy, and a real change is recorded for
// undo (typing in the field key merges into one step), shown, linted and autosaved.
func (ws *workspace) edit(key string, f func(s *annotate.Sample)) {
	if ws.sample == nil || ws.loading {
		return
	}
	before := cloneSample(ws.cur)
	f(&ws.cur)
	if sameSample(before, ws.cur) {
		return
	}
	ws.history.record(before, key, ws.now())
	ws.changed()
}

// changed shows, lints and schedules the saving of cur.
func (ws *workspace) changed() {
	ws.quietly(func() { ws.form.show(ws.cur) })
	if ws.formScroll != nil { // rows were added or removed: lay the form out again
		if m := ws.form.object().MinSize(); m != ws.formMin {
			ws.formMin = m
			ws.formScroll.Base.Refresh() // re-lays out the content without redrawing every widget
		}
	}
	ws.refreshStrip()
	ws.relint()
	ws.scheduleSave()
}

func (ws *workspace) undo() {
	if ws.sample == nil {
		return
	}
	if s, ok := ws.history.undo(ws.cur); ok {
		ws.cur = s
		ws.syncCanvas()
		ws.showBoxFields()
		ws.changed()
	}
}

func (ws *workspace) redo() {
	if ws.sample == nil {
		return
	}
	if s, ok := ws.history.redo(ws.cur); ok {
		ws.cur = s
		ws.syncCanvas()
		ws.showBoxFields()
		ws.changed()
	}
}

// syncCanvas shows cur's box on the canvas.
func (ws *workspace) syncCanvas() {
	paths := ws.cur.AllImages()
	ws.seq.shown = max(0, min(ws.seq.shown, len(paths)-1))
	if len(paths) > 1 { // undo may have changed the image at the place shown
		if im, ok := ws.seq.images[paths[ws.seq.shown]]; ok && (!ws.hasImage || ws.image.RelPath != im.RelPath) {
			ws.loadImage(im)
		}
	}
	var boxes []annotate.Box
	if ws.cur.Box != nil && ws.cur.BoxImage == ws.seq.shown {
		boxes = []annotate.Box{*ws.cur.Box}
	}
	ws.canvas.SetBoxes(boxes)
	if len(boxes) > 0 {
		ws.canvas.Select(0)
	}
}

// boxesChanged takes the canvas's boxes as the sample's one box: a newly drawn box
// (the canvas appends it) replaces the old one; deleting it leaves none.
func (ws *workspace) boxesChanged(boxes []annotate.Box) {
	if ws.sample == nil || ws.loading {
		return
	}
	var box *annotate.Box
	if n := len(boxes); n > 0 {
		b := boxes[n-1]
		box = &b
		if n > 1 {
			ws.canvas.SetBoxes(boxes[n-1:])
			ws.canvas.Select(0)
		}
	}
	shown := ws.seq.shown
	ws.edit("", func(s *annotate.Sample) {
		s.Box, s.BoxImage = box, 0
		if box != nil {
			s.BoxImage = shown // the box is on the image shown
		}
	})
}

// newBox clears the box, ready for a new one to be drawn (N or R).
func (ws *workspace) newBox() {
	if ws.sample == nil {
		return
	}
	had := ws.cur.Box != nil
	ws.edit("", func(s *annotate.Sample) { s.Box, s.BoxImage = nil, 0 })
	ws.canvas.SetBoxes(nil)
	if had {
		ws.u.setStatus("Box cleared (Ctrl+Z brings it back). Drag on the image to draw the new one.")
	} else {
		ws.u.setStatus("Drag on the image to draw the box.")
	}
	ws.host.takeFocus()
}

// pickAnswer marks option i (0-based) correct; for a judgment 0 is yes and 1 is no.
// Picking the marked option again clears the mark.
func (ws *workspace) pickAnswer(i int) {
	if ws.sample == nil {
		return
	}
	switch ws.cur.Kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		if i < 0 || i >= max(len(ws.cur.Options), 2) {
			return
		}
		ws.edit("", func(s *annotate.Sample) {
			if s.AnswerIndex == i {
				s.AnswerIndex = -1
			} else {
				s.AnswerIndex = i
			}
		})
		if ws.cur.AnswerIndex == i {
			ws.u.setStatus("Option %c marked correct (Ctrl+Z undoes).", 'A'+i)
		} else {
			ws.u.setStatus("No option marked correct (Ctrl+Z undoes).")
		}
	case annotate.KindJudgment:
		if i == 0 || i == 1 {
			ws.edit("", func(s *annotate.Sample) { s.AnswerText = []string{"yes", "no"}[i] })
			ws.u.setStatus("Answer: %s (Ctrl+Z undoes).", ws.cur.AnswerText)
		}
	}
}

// removeEdge drops a redundant precondition edge.
func (ws *workspace) removeEdge(e annotate.Edge) {
	ws.edit("", func(s *annotate.Sample) { s.Steps = annotate.RemovePrecondition(s.Steps, e.From, e.To) })
}

// ---- guideline check ----

func (ws *workspace) lintEnv() annotate.LintEnv {
	im, ok := ws.image, ws.hasImage
	return annotate.LintEnv{HandWritten: true, ImageSize: func(path string) (int, int, bool) {
		if ok && path == im.RelPath {
			return im.Width, im.Height, true
		}
		return 0, 0, false
	}, ImageLimits: ws.u.project.Settings.ImageLimits} // the project's, as the store lints
}

// relint checks cur and updates the lint panel and the Submit button.
func (ws *workspace) relint() {
	if ws.sample == nil {
		return
	}
	// Lint what saving stores: stray spaces are removed then (annotate.TidyText),
	// so a space just typed at the end of the question is not a finding.
	ws.findings = annotate.Lint(annotate.TidyText(ws.cur), ws.lintEnv())
	ws.lint.show(ws.findings, ws.acks)
	ws.updateGate()
}

func (ws *workspace) toggleAck(rule string) {
	ws.acks[rule] = !ws.acks[rule]
	ws.relint()
}

// submitBlocker says why Submit is refused now, or "".
func (ws *workspace) submitBlocker() string {
	if ws.sample == nil {
		return "Open a sample to submit it."
	}
	errs := 0 // warnings do not block (spec §2): submitting acknowledges them (annotate_lint.go)
	for _, f := range ws.findings {
		if f.Severity == annotate.SeverityError {
			errs++
		}
	}
	switch {
	case ws.conflict:
		return "Resolve the save conflict first."
	case errs > 0:
		return fmt.Sprintf("Submit is blocked: fix %s (see the guideline check).", annotate.Plural(errs, "error"))
	}
	if err := ws.resubmitProblem(); err != nil {
		msg := err.Error()
		return strings.ToUpper(msg[:1]) + msg[1:] + "."
	}
	return ""
}

func (ws *workspace) updateGate() {
	why := ws.submitBlocker()
	if why == "" {
		ws.submitBtn.Enable()
		ws.submitWhy.Text, ws.submitWhy.Importance = ws.readyText()
	} else {
		ws.submitBtn.Disable()
		ws.submitWhy.SetText(why)
		ws.submitWhy.Importance = widget.DangerImportance
	}
	if ws.submitting { // a submit is under way: not twice
		ws.submitBtn.Disable()
	}
	ws.submitWhy.Refresh()
}
