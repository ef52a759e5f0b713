package ui

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// stepForm edits a step/precondition graph: the task question, the scene, the ordered
// steps (content and the steps each needs first), and shows the graph with a one-click
// removal of every redundant (transitive) edge.
//
// Steps are numbered by position: adding, removing or moving a step renames the steps
// step1…stepN in list order and rewrites the preconditions to match, so that the
// stored record always reads like the paper's examples.
type stepForm struct {
	ws       *workspace
	question *wsEntry
	scene    *wsEntry
	steps    *fyne.Container
	cards    []*stepCard
	ids      []string // the step ids the cards were built for
	add      *formButton
	graph    *stepGraph
	fixes    *fyne.Container
	fixBtns  []*formButton
	obj      fyne.CanvasObject
}

type stepCard struct {
	content  *wsEntry
	needs    map[string]*wsCheck
	up, down *formButton
	remove   *formButton
}

func newStepForm(ws *workspace) *stepForm {
	f := &stepForm{ws: ws, steps: container.NewVBox(), graph: newStepGraph(), fixes: container.NewVBox()}
	f.question = newWSEntry(ws, false, "the task, e.g. “Pick up the laptop”", func(t string) {
		ws.edit("question", func(s *annotate.Sample) { s.Question = t })
	})
	f.scene = newWSEntry(ws, false, "NNNN-<scenetype>-<k>, e.g. 0001-office-1", func(t string) {
		ws.edit("scene", func(s *annotate.Sample) { s.Scene = t })
	})
	f.add = newFormButton(ws.formOuter(), "Add step", theme.ContentAddIcon(), func() {
		ws.edit("", func(s *annotate.Sample) { s.Steps = addStep(s.Steps) })
	})
	graph := container.NewHScroll(f.graph)
	f.obj = container.NewVBox(
		section(ws, "Task question", []string{"question"}, f.question),
		section(ws, "Scene", []string{"scene"}, f.scene),
		section(ws, "Steps", []string{"steps"},
			caption("One action on one object per step; the last step carries out the task. Tick what each step needs done first: direct preconditions only."),
			f.steps, container.NewHBox(f.add)),
		section(ws, "Graph", nil, graph, f.fixes),
	)
	return f
}

func (f *stepForm) object() fyne.CanvasObject { return f.obj }

func (f *stepForm) show(s annotate.Sample) {
	f.question.setText(s.Question)
	f.scene.setText(s.Scene)
	ids := make([]string, len(s.Steps))
	for i, st := range s.Steps {
		ids[i] = st.ID
	}
	if !slices.Equal(ids, f.ids) {
		f.build(s.Steps)
		f.ids = ids
	}
	for i, st := range s.Steps {
		c := f.cards[i]
		c.content.setText(st.Content)
		for id, chk := range c.needs {
			chk.setChecked(slices.Contains(st.Precondition, id))
		}
		setEnabled(c.up, i > 0)
		setEnabled(c.down, i < len(s.Steps)-1)
	}
	setEnabled(f.add, len(s.Steps) < 10)
	f.graph.SetSteps(s.Steps)
	f.fixes.RemoveAll()
	f.fixBtns = nil
	for _, e := range annotate.RedundantEdges(s.Steps) {
		b := newFormButton(f.ws.formOuter(), "Remove "+e.String(), theme.ContentRemoveIcon(), func() { f.ws.removeEdge(e) })
		f.fixBtns = append(f.fixBtns, b)
		f.fixes.Add(container.NewHBox(b, small("already implied by a longer path")))
	}
}

func setEnabled(w fyne.Disableable, on bool) {
	if on && w.Disabled() {
		w.Enable()
	} else if !on && !w.Disabled() {
		w.Disable()
	}
}

func (f *stepForm) build(steps []annotate.Step) {
	f.steps.RemoveAll()
	f.cards = nil
	ws := f.ws
	for i, st := range steps {
		c := &stepCard{needs: map[string]*wsCheck{}}
		id := st.ID
		// The text takes the card's whole width and wraps: one line beside the id
		// and the buttons left ~200 px and hid long steps (issue 17).
		c.content = newWSEntry(ws, true, "one action on one object", func(t string) {
			ws.edit("content:"+id, func(s *annotate.Sample) {
				if i < len(s.Steps) {
					s.Steps[i].Content = t
				}
			})
		})
		c.up = newFormButton(ws.formOuter(), "", theme.MoveUpIcon(), func() {
			ws.edit("", func(s *annotate.Sample) { s.Steps = moveStep(s.Steps, i, -1) })
		})
		c.down = newFormButton(ws.formOuter(), "", theme.MoveDownIcon(), func() {
			ws.edit("", func(s *annotate.Sample) { s.Steps = moveStep(s.Steps, i, 1) })
		})
		c.remove = newFormButton(ws.formOuter(), "", theme.DeleteIcon(), func() {
			ws.edit("", func(s *annotate.Sample) { s.Steps = removeStep(s.Steps, i) })
		})
		c.content.oneLine = true
		c.content.SetMinRowsVisible(2)
		for _, b := range []*formButton{c.up, c.down, c.remove} {
			b.Importance = widget.LowImportance
		}
		needs := container.NewGridWrap(fyne.NewSize(86, 34))
		for _, other := range steps {
			if other.ID == id || other.ID == "" {
				continue
			}
			pre := other.ID
			chk := newWSCheck(ws, pre, func(on bool) {
				ws.edit("", func(s *annotate.Sample) {
					if i >= len(s.Steps) {
						return
					}
					p := slices.DeleteFunc(slices.Clone(s.Steps[i].Precondition), func(x string) bool { return x == pre })
					if on {
						p = append(p, pre)
					}
					s.Steps[i].Precondition = p
				})
			})
			c.needs[pre] = chk
			needs.Add(chk)
		}
		title := widget.NewLabelWithStyle(id, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		buttons := container.NewHBox(c.up, c.down, c.remove)
		card := container.NewVBox(container.NewBorder(nil, nil, title, nil, c.content))
		if len(needs.Objects) > 0 {
			card.Add(container.NewBorder(nil, nil, small("needs"), buttons, needs))
		} else {
			card.Add(container.NewBorder(nil, nil, nil, buttons))
		}
		f.cards = append(f.cards, c)
		f.steps.Add(card)
		if i < len(steps)-1 {
			f.steps.Add(widget.NewSeparator())
		}
	}
}

// renumberSteps names the steps step1…stepN in list order and rewrites preconditions
// that name a step; a precondition naming no step is kept as it is (lint reports it).
func renumberSteps(steps []annotate.Step) []annotate.Step {
	rename := map[string]string{}
	for i, s := range steps {
		if _, dup := rename[s.ID]; s.ID != "" && !dup {
			rename[s.ID] = fmt.Sprintf("step%d", i+1)
		}
	}
	out := cloneSteps(steps)
	for i := range out {
		out[i].ID = fmt.Sprintf("step%d", i+1)
		for k, p := range out[i].Precondition {
			if n, ok := rename[p]; ok {
				out[i].Precondition[k] = n
			}
		}
	}
	return out
}

// addStep appends an empty step.
func addStep(steps []annotate.Step) []annotate.Step {
	out := append(cloneSteps(steps), annotate.Step{Precondition: []string{}})
	return renumberSteps(out)
}

// moveStep moves step i by delta places (−1 up, +1 down).
func moveStep(steps []annotate.Step, i, delta int) []annotate.Step {
	j := i + delta
	if i < 0 || i >= len(steps) || j < 0 || j >= len(steps) {
		return steps
	}
	out := cloneSteps(steps)
	out[i], out[j] = out[j], out[i]
	return renumberSteps(out)
}

// removeStep deletes step i and every precondition that names it.
func removeStep(steps []annotate.Step, i int) []annotate.Step {
	if i < 0 || i >= len(steps) {
		return steps
	}
	gone := steps[i].ID
	out := slices.Delete(cloneSteps(steps), i, i+1)
	for k := range out {
		out[k].Precondition = slices.DeleteFunc(out[k].Precondition, func(p string) bool { return p == gone && gone != "" })
	}
	return renumberSteps(out)
}
