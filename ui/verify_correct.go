package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// correctionEditor edits a copy of the sample under review: its question, options and
// answer (or answer text, or step texts and preconditions) and its box, with a
// required comment. Saving makes a new revision attributed to the verifier
// (store.Correct); the reviewed revision is never changed.
type correctionEditor struct {
	v    *verifyView
	o    *openSample
	base annotate.Sample // the reviewed content, copied

	question   *typingEntry
	options    []*widget.Entry
	answer     *segmented // the correct option's letter (buttons, so that Tab scrolls them into view)
	answerText *widget.Entry
	stepText   []*widget.Entry
	stepAfter  []*widget.Entry
	graph      *stepGraph
	canvas     *boxcanvas.Canvas // nil when the sample has no box to edit
	// shown is the image of a sequence the canvas shows (0 for one image): the box
	// is edited there, and one drawn there moves the box to it.
	shown   int
	comment *typingEntry
	message *widget.Label
	save    *widget.Button
	dlg     *dialog.CustomDialog
}

// openCorrection shows the correction editor on the open sample.
func (v *verifyView) openCorrection() {
	if v.cur == nil {
		return
	}
	v.editor = newCorrectionEditor(v, v.cur)
	v.editor.dlg.Show()
	v.u.win.Canvas().Focus(v.editor.question)
}

func newCorrectionEditor(v *verifyView, o *openSample) *correctionEditor {
	s := cloneSample(o.info.Content)
	e := &correctionEditor{v: v, o: o, base: cloneSample(s)}
	var formScroll *container.Scroll // built below; the fields follow it (typingentry_scroll.go)
	outer := func() *container.Scroll { return formScroll }
	e.question = newTypingEntry()
	e.question.followForm(e.question, outer)
	e.question.Wrapping = fyne.TextWrapWord
	e.question.SetMinRowsVisible(2)
	e.question.SetText(s.Question)
	form := container.NewVBox(reviewCaption("Question"), e.question)

	switch s.Kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		letters := make([]string, len(s.Options))
		form.Add(reviewCaption("Options"))
		for i, opt := range s.Options {
			letters[i] = string(rune('A' + i))
			en := newLineEntry(outer)
			en.SetText(opt)
			e.options = append(e.options, &en.Entry)
			form.Add(container.NewBorder(nil, nil, widget.NewLabel(letters[i]+"."), nil, en))
		}
		e.answer = newSegmented(outer, letters, letters, func(string) {})
		if s.AnswerIndex >= 0 && s.AnswerIndex < len(letters) {
			e.answer.set(letters[s.AnswerIndex])
		}
		form.Add(container.NewBorder(nil, nil, reviewCaption("Correct option"), nil, container.NewHBox(e.answer.box)))
	case annotate.KindStepGraph:
		form.Add(reviewCaption("Steps (text, and the steps that must be done first)"))
		for _, st := range s.Steps {
			text, after := newLineEntry(outer), newLineEntry(outer)
			text.SetText(st.Content)
			after.SetText(strings.Join(st.Precondition, ", "))
			after.SetPlaceHolder("after: step1, step2")
			text.OnChanged = func(string) { e.redrawGraph() }
			after.OnChanged = func(string) { e.redrawGraph() }
			e.stepText, e.stepAfter = append(e.stepText, &text.Entry), append(e.stepAfter, &after.Entry)
			form.Add(container.NewBorder(nil, nil, widget.NewLabelWithStyle(st.ID, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil,
				container.NewGridWithColumns(2, text, after)))
		}
	default:
		answer := newLineEntry(outer)
		e.answerText = &answer.Entry
		e.answerText.SetText(s.AnswerText)
		form.Add(reviewCaption("Answer"))
		form.Add(answer)
	}

	e.comment = newTypingEntry()
	e.comment.followForm(e.comment, outer)
	e.comment.Wrapping = fyne.TextWrapWord
	e.comment.SetMinRowsVisible(3)
	e.comment.SetPlaceHolder("Required: what you corrected and why")
	e.message = widget.NewLabel("")
	e.message.Wrapping = fyne.TextWrapWord
	e.message.Importance = widget.DangerImportance
	form.Add(reviewCaption("Comment"))
	form.Add(e.comment)
	form.Add(e.message)

	var picture fyne.CanvasObject
	if o.seq != nil {
		e.shown = o.seq.shown
	}
	if s.Kind == annotate.KindHopQA || s.Box != nil {
		e.canvas = boxcanvas.New(o.image.img, o.image.width, o.image.height)
		if s.Box != nil && s.BoxImage == e.shown {
			e.canvas.SetBoxes([]annotate.Box{*s.Box})
			e.canvas.Select(0)
		}
		e.canvas.OnChanged = func(boxes []annotate.Box) {
			if len(boxes) > 1 { // a sample has one box: a newly drawn one replaces it
				e.canvas.SetBoxes(boxes[len(boxes)-1:])
				e.canvas.Select(0)
			}
		}
		readout := widget.NewLabel("")
		e.canvas.OnReadout = readout.SetText
		hint := reviewNote("Drag on the picture to draw a new box; drag the box or its handles to move or resize it; arrows nudge it.")
		if labels := s.Labels(); s.Box != nil && s.BoxImage != e.shown && s.BoxImage < len(labels) && e.shown < len(labels) {
			hint.SetText(fmt.Sprintf("The box is on image %s, not on %s shown here: show %s to edit it, or draw a box here to move it to %s.",
				labels[s.BoxImage], labels[e.shown], labels[s.BoxImage], labels[e.shown]))
		}
		picture = container.NewBorder(nil, hint, nil, nil, verifyImagePane(e.canvas, readout, o.image.caption(nil)))
	} else {
		ro := boxcanvas.New(o.image.img, o.image.width, o.image.height)
		ro.ReadOnly = true
		picture = verifyImagePane(ro, widget.NewLabel(""), o.image.caption(nil))
	}
	if s.Kind == annotate.KindStepGraph {
		e.graph = newStepGraph()
		e.graph.SetSteps(s.Steps)
		split := container.NewVSplit(picture, container.NewBorder(reviewCaption("Step graph of the edited steps"), nil, nil, nil, container.NewScroll(e.graph)))
		split.Offset = 0.5
		picture = split
	}

	e.save = widget.NewButton("Save correction", e.saveCorrection)
	e.save.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", e.close)
	formScroll = container.NewVScroll(container.NewPadded(form))
	body := container.NewHSplit(picture, formScroll)
	body.Offset = 0.55
	title := fmt.Sprintf("Correct %s (a new revision by you; round %d's decision is not recorded)", o.info.ID, o.item.Round)
	e.dlg = dialog.NewCustomWithoutButtons(title, body, v.u.win)
	e.dlg.SetButtons([]fyne.CanvasObject{cancel, e.save})
	size := v.u.win.Canvas().Size()
	e.dlg.Resize(fyne.NewSize(size.Width*0.94, size.Height*0.92))
	return e
}

// content is the edited copy of the sample.
func (e *correctionEditor) content() annotate.Sample {
	s := cloneSample(e.base)
	s.Question = strings.TrimSpace(e.question.Text)
	for i, en := range e.options {
		s.Options[i] = strings.TrimSpace(en.Text)
	}
	if e.answer != nil {
		s.AnswerIndex = slices.Index(e.answer.values, e.answer.selected)
	}
	if e.answerText != nil {
		s.AnswerText = strings.TrimSpace(e.answerText.Text)
	}
	for i := range e.stepText {
		s.Steps[i].Content = strings.TrimSpace(e.stepText[i].Text)
		s.Steps[i].Precondition = splitIDs(e.stepAfter[i].Text)
	}
	if e.canvas != nil {
		if boxes := e.canvas.Boxes(); len(boxes) > 0 {
			b := boxes[len(boxes)-1]
			s.Box, s.BoxImage = &b, e.shown
		} else if s.BoxImage == e.shown {
			s.Box = nil // removed from the image it was on; a box on another image stays
		}
	}
	return s
}

func (e *correctionEditor) redrawGraph() {
	if e.graph != nil {
		e.graph.SetSteps(e.content().Steps)
	}
}

// saveCorrection sends the edited copy; a refusal (lint errors, a lost seat) stays in
// the editor so nothing typed is lost.
func (e *correctionEditor) saveCorrection() {
	s := e.content()
	comment := strings.TrimSpace(e.comment.Text)
	switch {
	case sameContent(s, e.base):
		e.message.SetText("Nothing is changed yet. Edit the copy, or cancel and approve or reject the sample.")
		return
	case comment == "":
		e.message.SetText("Say in the comment what you corrected and why; the author and the next verifiers read it.")
		return
	}
	o, u := e.o, e.v.u
	in := bench.CorrectionInput{SampleID: o.info.ID, Round: o.item.Round, BasedOn: o.info.Revision, Content: s, Comment: comment}
	// Sent off the UI goroutine; Save and the decision's buttons wait meanwhile, and a
	// refusal leaves everything typed in the editor.
	e.save.Disable()
	o.setSending(true)
	e.message.SetText("Saving the correction…")
	sess, ctx := u.sess, u.ctx()
	load(u, "", func() (bench.SampleInfo, error) {
		return sess.Correct(ctx, in)
	}, func(info bench.SampleInfo, err error) {
		e.save.Enable()
		o.setSending(false)
		if err != nil {
			e.message.SetText(bench.Message(err))
			return
		}
		e.message.SetText("")
		e.close()
		if e.v.cur == o {
			e.v.advance()
		}
		where := string(info.Status)
		if r := info.Status.Round(); r > 0 {
			where = fmt.Sprintf("round %d", r)
		}
		u.setStatus("Corrected %s: revision %d is yours and goes to %s; others verify it.", info.ID, info.Revision, where)
	})
}

func (e *correctionEditor) close() {
	e.dlg.Hide()
	if e.v.editor == e {
		e.v.editor = nil
	}
}

// splitIDs reads "step1, step2" (commas or spaces) as step ids.
func splitIDs(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
}

// sameContent compares two samples as their native records.
func sameContent(a, b annotate.Sample) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}
