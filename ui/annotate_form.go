package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// sampleForm is the right-hand editor of one sample kind. Its widgets write every
// change through workspace.edit; show puts a sample into the widgets (after opening,
// undo or redo, and after every edit for the derived parts such as the hop count or
// the graph). show never records an edit and leaves entries whose text is already
// right alone, so typing is not disturbed.
type sampleForm interface {
	object() fyne.CanvasObject
	show(s annotate.Sample)
}

func newSampleForm(ws *workspace, kind annotate.Kind) sampleForm {
	switch kind {
	case annotate.KindHopQA:
		return newHopForm(ws)
	case annotate.KindStepGraph:
		return newStepForm(ws)
	case annotate.KindJudgment:
		return newJudgmentForm(ws)
	case annotate.KindMCQ:
		return newOptionsForm(ws, annotate.KindMCQ)
	case annotate.KindOpen:
		return newOpenForm(ws)
	}
	return unknownForm{widget.NewLabel(fmt.Sprintf("Samples of kind %q cannot be edited here.", kind))}
}

type unknownForm struct{ l *widget.Label }

func (f unknownForm) object() fyne.CanvasObject { return f.l }
func (f unknownForm) show(annotate.Sample)      {}

// kindTitle names a kind for people.
func kindTitle(k annotate.Kind) string {
	switch k {
	case annotate.KindHopQA:
		return "Hop QA"
	case annotate.KindStepGraph:
		return "Step graph"
	case annotate.KindJudgment:
		return "Yes/no judgment"
	case annotate.KindMCQ:
		return "Multiple choice"
	case annotate.KindOpen:
		return "Open answer"
	}
	return string(k)
}

// section is a titled group of form rows with the returned-sample notes of its fields.
// The title is kept short (it truncates); guidance goes in a wrapping caption row.
func section(ws *workspace, title string, fields []string, rows ...fyne.CanvasObject) *fyne.Container {
	h := heading(title)
	h.Truncation = fyne.TextTruncateEllipsis
	c := container.NewVBox(h)
	c.Add(ws.note(fields...))
	for _, r := range rows {
		c.Add(r)
	}
	return c
}

// caption is small wrapping text: give it the full width of a VBox row.
func caption(text string) *widget.Label {
	l := small(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// small is small text on one line, for a Border side or an HBox.
func small(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// ---- hop QA ----

var hopCategories = []struct {
	cat   annotate.Category
	label string
}{
	{annotate.CatAtt, "att"},
	{annotate.CatPos, "pos"},
	{annotate.CatRel, "rel"},
}

type hopForm struct {
	ws         *workspace
	question   *wsEntry
	tags       *tagRow
	view       *segmented
	subjectRow *fyne.Container
	subject    *segmented
	who        *wsEntry
	insert     *formButton
	cats       []*wsCheck
	hop        *widget.Label
	options    *optionRows
	box        *widget.Label
	obj        fyne.CanvasObject
}

func newHopForm(ws *workspace) *hopForm {
	f := &hopForm{ws: ws}
	f.question = newWSEntry(ws, true, "Which object … ?", func(t string) {
		ws.edit("question", func(s *annotate.Sample) {
			s.Question = t
			*s = annotate.CarryTags(*s)
		})
		f.tags.show(ws.cur)
	})
	f.question.SetMinRowsVisible(3)
	f.tags = newTagRow(ws, f.question)
	f.view = newSegmented(ws.formOuter(), []string{"Exo (observer)", "Ego (first person)"}, []string{string(annotate.ViewExo), string(annotate.ViewEgo)}, func(v string) {
		ws.edit("", func(s *annotate.Sample) {
			s.View = annotate.View(v)
			switch {
			case s.View == annotate.ViewExo:
				s.EgoSubject = ""
			case s.EgoSubject == "":
				s.EgoSubject = annotate.EgoReal
			}
		})
	})
	f.subject = newSegmented(ws.formOuter(), []string{"Real person", "Virtual person"}, []string{string(annotate.EgoReal), string(annotate.EgoVirtual)}, func(v string) {
		ws.edit("", func(s *annotate.Sample) { s.EgoSubject = annotate.EgoSubject(v) })
	})
	f.who = newWSEntry(ws, false, "", func(string) { f.show(ws.cur) })
	f.insert = newFormButton(ws.formOuter(), "Insert phrase", theme.ContentAddIcon(), func() {
		q := withSubjectPhrase(ws.cur.Question, ws.cur.EgoSubject, f.who.Text)
		ws.edit("", func(s *annotate.Sample) {
			s.Question = q
			*s = annotate.CarryTags(*s)
		})
		f.show(ws.cur)
	})
	f.subjectRow = container.NewVBox(
		f.subject.box,
		container.NewBorder(nil, nil, nil, f.insert, f.who),
		caption("The phrase opens the question: “From the perspective of <person>,” or “When I'm standing <where> and facing the camera,”. Not for overhead shots or subjects without a front."),
	)
	catRow := container.NewHBox()
	for _, c := range hopCategories {
		chk := newWSCheck(ws, c.label, func(bool) {
			ws.edit("", func(s *annotate.Sample) {
				s.Categories = f.checkedCategories()
				s.Hop = len(s.Categories)
			})
		})
		f.cats = append(f.cats, chk)
		catRow.Add(chk)
	}
	// The hop text sits under the boxes and wraps: its length changes with every
	// tick, and in the row it widened the panel and moved the boxes under the
	// pointer (issue 17).
	f.hop = widget.NewLabel("")
	f.hop.TextStyle.Bold = true
	f.hop.Wrapping = fyne.TextWrapWord
	f.options = newOptionRows(ws, 4, 4)
	f.box = widget.NewLabel("")
	f.box.Wrapping = fyne.TextWrapWord
	f.obj = container.NewVBox(
		section(ws, "Question", []string{"question", "question_tag"}, f.question, f.tags.obj),
		section(ws, "Viewpoint", []string{"view", "ego_subject"}, f.view.box, f.subjectRow),
		section(ws, "Reasoning categories", []string{"categories", "hop"}, catRow, f.hop,
			caption("att: colour, shape, state · pos: location (“on the desk”) · rel: closest, highest (3D depth)")),
		section(ws, "Options", []string{"options", "answer"}, caption("Four options, one object each; mark the correct one (keys 1–4)."), f.options.box),
		section(ws, "Box", []string{"box"}, caption("On the object the correct option names."), f.box),
	)
	return f
}

func (f *hopForm) checkedCategories() []annotate.Category {
	var cats []annotate.Category
	for i, c := range f.cats {
		if c.Checked {
			cats = append(cats, hopCategories[i].cat)
		}
	}
	return cats
}

func (f *hopForm) object() fyne.CanvasObject { return f.obj }

func (f *hopForm) show(s annotate.Sample) {
	f.question.setText(s.Question)
	f.tags.show(s)
	f.view.set(string(s.View))
	f.subject.set(string(s.EgoSubject))
	if s.View == annotate.ViewEgo {
		f.subjectRow.Show()
	} else {
		f.subjectRow.Hide()
	}
	if s.EgoSubject == annotate.EgoVirtual {
		f.who.SetPlaceHolder("where: behind the counter")
	} else {
		f.who.SetPlaceHolder("who: the man in the blue shirt")
	}
	if strings.TrimSpace(f.who.Text) == "" || s.EgoSubject == "" {
		f.insert.Disable()
	} else {
		f.insert.Enable()
	}
	for i, c := range f.cats {
		c.setChecked(slices.Contains(s.Categories, hopCategories[i].cat))
	}
	f.hop.SetText(hopText(s.Categories))
	f.options.show(s)
	f.box.SetText(boxText(s.Box))
}

// hopText describes the hop count of a category set.
func hopText(cats []annotate.Category) string {
	if len(cats) == 0 {
		return "Tick the categories the question uses."
	}
	names := make([]string, len(cats))
	for i, c := range cats {
		names[i] = string(c)
	}
	if h := annotate.HopFor(cats); h > 0 {
		return fmt.Sprintf("%d-hop (%s)", h, strings.Join(names, " + "))
	}
	return "Not an allowed set: att alone is never a question; add pos or rel."
}

func boxText(b *annotate.Box) string {
	if b == nil {
		return "No box yet: drag on the image to draw it. Drawing again replaces it; N clears it."
	}
	return fmt.Sprintf("[%g, %g, %g, %g] · %g×%g px", b[0], b[1], b[2], b[3], b[2]-b[0], b[3]-b[1])
}

// withSubjectPhrase puts the subject phrase for subject and description at the start
// of question, replacing a phrase already there; the old first letter is lowered
// ("Which …" → "From the perspective of the man, which …").
func withSubjectPhrase(question string, subject annotate.EgoSubject, description string) string {
	phrase := annotate.SubjectPhrase(subject, description)
	rest := strings.TrimLeftFunc(question, unicode.IsSpace)
	if _, has := annotate.HasSubjectPhrase(rest); has {
		for i, r := range rest {
			if r != ',' {
				continue
			}
			if _, ok := annotate.HasSubjectPhrase(rest[:i+1]); ok {
				rest = strings.TrimLeftFunc(rest[i+1:], unicode.IsSpace)
				break
			}
		}
	}
	if r, n := utf8.DecodeRuneInString(rest); n > 0 && unicode.IsUpper(r) {
		if r2, _ := utf8.DecodeRuneInString(rest[n:]); unicode.IsLower(r2) {
			rest = string(unicode.ToLower(r)) + rest[n:]
		}
	}
	if rest == "" {
		return phrase + " "
	}
	return phrase + " " + rest
}

// ---- options (hop QA and multiple choice) ----

// optionRows edits the options and the correct one: a round marker and an entry per
// option, and for multiple choice add and remove buttons (min to max options).
type optionRows struct {
	ws       *workspace
	min, max int
	box      *fyne.Container
	rows     *fyne.Container
	add      *formButton
	marks    []*formButton
	entries  []*wsEntry
	removes  []*tapButton // not Tab stops: Tab and Space from a field must not delete its row
}

func newOptionRows(ws *workspace, min, max int) *optionRows {
	o := &optionRows{ws: ws, min: min, max: max, rows: container.NewVBox()}
	o.box = container.NewVBox(o.rows)
	if max > min {
		o.add = newFormButton(ws.formOuter(), "Add option", theme.ContentAddIcon(), func() {
			ws.edit("", func(s *annotate.Sample) {
				if len(s.Options) < max {
					s.Options = append(s.Options, "")
				}
			})
		})
		o.box.Add(container.NewHBox(o.add))
	}
	return o
}

func (o *optionRows) build(n int) {
	o.rows.RemoveAll()
	o.marks, o.entries, o.removes = nil, nil, nil
	for i := range n {
		mark := radioButton(o.ws.formOuter(), func() { o.ws.pickAnswer(i) })
		e := newWSEntry(o.ws, false, fmt.Sprintf("option %c: one object, e.g. “the mug”", 'A'+i), func(t string) {
			o.ws.edit(fmt.Sprintf("options[%d]", i), func(s *annotate.Sample) {
				for len(s.Options) <= i {
					s.Options = append(s.Options, "")
				}
				s.Options[i] = t
			})
		})
		left := container.NewHBox(mark, widget.NewLabelWithStyle(string(rune('A'+i)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		var right fyne.CanvasObject
		if o.max > o.min {
			rm := newTapButton(theme.ContentRemoveIcon(), func() {
				o.ws.edit("", func(s *annotate.Sample) {
					if i < len(s.Options) && len(s.Options) > o.min {
						s.Options = slices.Delete(s.Options, i, i+1)
						switch {
						case s.AnswerIndex == i:
							s.AnswerIndex = -1
						case s.AnswerIndex > i:
							s.AnswerIndex--
						}
					}
				})
			})
			o.removes = append(o.removes, rm)
			right = rm
		}
		o.marks = append(o.marks, mark)
		o.entries = append(o.entries, e)
		o.rows.Add(container.NewBorder(nil, nil, left, right, e))
	}
}

func (o *optionRows) show(s annotate.Sample) {
	n := max(len(s.Options), o.min)
	if n != len(o.entries) {
		o.build(n)
	}
	for i, e := range o.entries {
		t := ""
		if i < len(s.Options) {
			t = s.Options[i]
		}
		e.setText(t)
		setRadio(o.marks[i], s.AnswerIndex == i)
	}
	for _, rm := range o.removes {
		if n <= o.min {
			rm.Disable()
		} else {
			rm.Enable()
		}
	}
	if o.add != nil {
		if n >= o.max {
			o.add.Disable()
		} else {
			o.add.Enable()
		}
	}
}

// optionsForm is the multiple-choice form (2–6 options).
type optionsForm struct {
	question *wsEntry
	options  *optionRows
	obj      fyne.CanvasObject
}

func newOptionsForm(ws *workspace, kind annotate.Kind) *optionsForm {
	f := &optionsForm{options: newOptionRows(ws, 2, 6)}
	f.question = questionEntry(ws)
	f.obj = container.NewVBox(
		section(ws, "Question", []string{"question"}, f.question),
		section(ws, "Options", []string{"options", "answer"}, caption("2 to 6 options; mark the correct one (keys 1–6)."), f.options.box),
	)
	return f
}

func questionEntry(ws *workspace) *wsEntry {
	e := newWSEntry(ws, true, "The question", func(t string) {
		ws.edit("question", func(s *annotate.Sample) { s.Question = t })
	})
	e.SetMinRowsVisible(2)
	return e
}

func (f *optionsForm) object() fyne.CanvasObject { return f.obj }
func (f *optionsForm) show(s annotate.Sample) {
	f.question.setText(s.Question)
	f.options.show(s)
}

// ---- judgment ----

type judgmentForm struct {
	question *wsEntry
	answer   *segmented
	obj      fyne.CanvasObject
}

func newJudgmentForm(ws *workspace) *judgmentForm {
	f := &judgmentForm{question: questionEntry(ws)}
	f.answer = newSegmented(ws.formOuter(), []string{"Yes (1)", "No (2)"}, []string{"yes", "no"}, func(v string) {
		ws.edit("", func(s *annotate.Sample) { s.AnswerText = v })
	})
	f.obj = container.NewVBox(
		section(ws, "Question", []string{"question"}, caption("Answered yes or no."), f.question),
		section(ws, "Answer", []string{"answer"}, f.answer.box),
	)
	return f
}

func (f *judgmentForm) object() fyne.CanvasObject { return f.obj }
func (f *judgmentForm) show(s annotate.Sample) {
	f.question.setText(s.Question)
	f.answer.set(s.AnswerText)
}

// ---- open ----

type openForm struct {
	question  *wsEntry
	answer    *wsEntry
	numeric   *wsCheck
	tolerance *wsEntry
	obj       fyne.CanvasObject
}

func newOpenForm(ws *workspace) *openForm {
	f := &openForm{question: questionEntry(ws)}
	f.answer = newWSEntry(ws, false, "a word or a number", func(t string) {
		ws.edit("answer", func(s *annotate.Sample) { s.AnswerText = t })
	})
	f.numeric = newWSCheck(ws, "Numeric answer with a tolerance", func(on bool) {
		ws.edit("", func(s *annotate.Sample) {
			s.AnswerNumber = on
			s.Tolerance, s.ToleranceText = nil, ""
			if on {
				setTolerance(s, f.tolerance.Text)
			}
		})
	})
	// What is typed is kept, a number or not: lint says what is wrong with it
	// (annotate.ParseTolerance), and Submit waits until it is a number.
	f.tolerance = newWSEntry(ws, false, "tolerance, e.g. 0.5", func(t string) {
		ws.edit("tolerance", func(s *annotate.Sample) { setTolerance(s, t) })
	})
	f.obj = container.NewVBox(
		section(ws, "Question", []string{"question"}, f.question),
		section(ws, "Answer", []string{"answer", "tolerance"}, caption("A word or a number."), f.answer, f.numeric,
			container.NewBorder(nil, nil, widget.NewLabel("±"), nil, f.tolerance)),
	)
	return f
}

// setTolerance sets s's tolerance to the text typed: a number, or the text itself.
func setTolerance(s *annotate.Sample, t string) {
	tol, err := annotate.ParseTolerance(t)
	s.Tolerance, s.ToleranceText = tol, ""
	if err != nil {
		s.Tolerance, s.ToleranceText = nil, strings.TrimSpace(t)
	}
}

func (f *openForm) object() fyne.CanvasObject { return f.obj }
func (f *openForm) show(s annotate.Sample) {
	f.question.setText(s.Question)
	f.answer.setText(s.AnswerText)
	f.numeric.setChecked(s.AnswerNumber || s.Tolerance != nil || s.ToleranceText != "")
	switch {
	case s.Tolerance != nil:
		if v, err := annotate.ParseTolerance(f.tolerance.Text); err != nil || v == nil || *v != *s.Tolerance {
			f.tolerance.setText(strconv.FormatFloat(*s.Tolerance, 'g', -1, 64))
		}
	case s.ToleranceText != "":
		if strings.TrimSpace(f.tolerance.Text) != strings.TrimSpace(s.ToleranceText) {
			f.tolerance.setText(s.ToleranceText)
		}
	default:
		f.tolerance.setText("")
	}
	if f.numeric.Checked {
		f.tolerance.Enable()
	} else {
		f.tolerance.Disable()
	}
}
