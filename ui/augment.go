package ui

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// augmentScreens is the Augment entry of the navigation bar for those who may
// derive samples (annotators and leads), none for the others.
func (u *App) augmentScreens() []screen {
	if !u.may(verify.ActionAugment) {
		return nil
	}
	return []screen{{"Augment", u.augmentScreen}}
}

// augmentView is the Augment screen: the candidates derived from the project's
// accepted step graphs (store.AugmentCandidates) on the left; on the right the
// parent's graph and the derived one side by side, why a candidate cannot be taken
// as it is, and Accept, Edit and Discard. The rules (what is derived, what may be
// accepted, where an accepted candidate goes) are the store's and augment's.
type augmentView struct {
	u     *App
	root  fyne.CanvasObject
	show  *widget.Select
	list  *widget.List
	cands []bench.Candidate
	sel   int // index in cands of the shown candidate, -1 when none

	parentTitle, derivedTitle *widget.Label
	parentGraph, derivedGraph *stepGraph
	parentSeq, derivedSeq     *widget.Label // a shuffled sequence's images in order, and its answer
	note                      *widget.Label
	accept, edit, discard     *widget.Button
	status                    *widget.Label

	loads atomic.Int64 // finished loads, for tests
}

const showAll = "All transforms"

// augmentViews is the Augment view each window shows last (for tests). Touched on
// the UI goroutine only.
var augmentViews = map[*App]*augmentView{}

func (u *App) augmentScreen() fyne.CanvasObject {
	v := newAugmentView(u)
	augmentViews[u] = v
	v.reload("")
	return v.root
}

func newAugmentView(u *App) *augmentView {
	v := &augmentView{u: u, sel: -1}
	opts := []string{showAll}
	for _, t := range augment.Transforms {
		opts = append(opts, string(t))
	}
	v.show = widget.NewSelect(opts, nil)
	v.show.SetSelected(showAll)
	v.show.OnChanged = func(string) { v.reload("") }
	v.list = widget.NewList(func() int { return len(v.cands) },
		func() fyne.CanvasObject {
			q := widget.NewLabelWithStyle("question", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			q.Truncation = fyne.TextTruncateEllipsis
			return container.NewVBox(q, small("from"))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := v.cands[i]
			box := o.(*fyne.Container)
			box.Objects[0].(*widget.Label).SetText(c.Sample.Question)
			box.Objects[1].(*widget.Label).SetText(candidateLine(c))
		})
	v.list.OnSelected = func(i widget.ListItemID) { v.select_(i) }

	v.parentTitle, v.derivedTitle = heading(""), heading("")
	v.parentTitle.Truncation, v.derivedTitle.Truncation = fyne.TextTruncateEllipsis, fyne.TextTruncateEllipsis
	v.parentGraph, v.derivedGraph = newStepGraph(), newStepGraph()
	v.parentSeq, v.derivedSeq = widget.NewLabel(""), widget.NewLabel("")
	v.parentSeq.Wrapping, v.derivedSeq.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	graphs := container.NewHSplit(
		container.NewBorder(v.parentTitle, nil, nil, nil, container.NewScroll(container.NewVBox(v.parentSeq, v.parentGraph))),
		container.NewBorder(v.derivedTitle, nil, nil, nil, container.NewScroll(container.NewVBox(v.derivedSeq, v.derivedGraph))))
	graphs.Offset = 0.42
	v.note = caption("")
	v.accept = widget.NewButtonWithIcon("Accept", theme.ConfirmIcon(), func() { v.take(false) })
	v.accept.Importance = widget.HighImportance
	v.edit = widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { v.take(true) })
	v.discard = widget.NewButtonWithIcon("Discard", theme.DeleteIcon(), v.discardCandidate)
	v.status = caption("")
	right := container.NewBorder(nil, container.NewVBox(v.note, container.NewHBox(v.accept, v.edit, v.discard), v.status), nil, nil, graphs)

	left := container.NewBorder(container.NewVBox(heading("Candidates from accepted samples"), v.show), nil, nil, nil, v.list)
	split := container.NewHSplit(left, right)
	split.Offset = 0.3
	v.root = split
	v.showCandidate()
	return v
}

// candidateLine says where a candidate comes from and whether it can be taken as it is.
func candidateLine(c bench.Candidate) string {
	s := fmt.Sprintf("%s of %s r%d, from %s", c.Transform, c.Parent, c.ParentRevision, c.Anchor)
	switch {
	case c.Edit != "":
		s += " · needs editing"
	case c.Duplicate != "":
		s += " · duplicate"
	case annotate.HasErrors(c.Findings):
		s += " · lint errors"
	}
	return s
}

// reload lists the candidates again off the UI goroutine (load: a newer reload
// drops an older one's answer), then shows the first.
func (v *augmentView) reload(msg string) {
	var f bench.CandidateFilter
	if t := augment.Transform(v.show.Selected); t.Valid() {
		f.Transform = t
	}
	if msg == "" && len(v.cands) == 0 {
		v.status.SetText("Loading the candidates…") // the list would look empty meanwhile
	}
	sess, project, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "augment", func() ([]bench.Candidate, error) {
		return sess.AugmentCandidates(ctx, project, f)
	}, func(cs []bench.Candidate, err error) {
		defer v.loads.Add(1)
		if err != nil {
			v.cands = nil
			v.status.SetText(bench.Message(err))
		} else {
			v.cands = cs
			v.status.SetText(msg)
		}
		v.list.UnselectAll()
		v.list.Refresh()
		v.sel = -1
		if len(v.cands) > 0 {
			v.list.Select(0)
		}
		v.showCandidate()
		if err == nil && msg == "" {
			v.status.SetText(annotate.Plural(len(v.cands), "candidate"))
		}
	})
}

func (v *augmentView) select_(i int) {
	if i < 0 || i >= len(v.cands) {
		return
	}
	v.sel = i
	v.showCandidate()
}

// showCandidate draws the selected candidate beside its parent.
func (v *augmentView) showCandidate() {
	if v.sel < 0 || v.sel >= len(v.cands) {
		v.parentTitle.SetText("Parent")
		v.derivedTitle.SetText("Derived")
		v.parentGraph.SetSteps(nil)
		v.derivedGraph.SetSteps(nil)
		v.parentSeq.SetText("")
		v.derivedSeq.SetText("")
		v.note.SetText("No candidate selected. Candidates come from accepted step graphs (subgraphs of their steps, and expansions of \"Pick up B\" with a \"Remove A\" step) and from yes/no questions about image sequences (the images in another order, the answer flipped).")
		v.accept.Disable()
		v.edit.Disable()
		v.discard.Disable()
		return
	}
	c := v.cands[v.sel]
	v.parentTitle.SetText(fmt.Sprintf("Parent %s (revision %d): %s", c.Parent, c.ParentRevision, c.ParentSample.Question))
	v.derivedTitle.SetText(fmt.Sprintf("Derived by %s from %s: %s", c.Transform, c.Anchor, c.Sample.Question))
	v.parentGraph.SetSteps(c.ParentSample.Steps)
	v.derivedGraph.SetSteps(c.Sample.Steps)
	v.parentSeq.SetText(sequenceText(c.ParentSample))
	v.derivedSeq.SetText(sequenceText(c.Sample))
	var notes []string
	if c.Edit != "" {
		notes = append(notes, "Needs editing before it can be accepted: "+c.Edit+". Edit takes it to the editor as your draft.")
	}
	if c.Duplicate != "" {
		notes = append(notes, "The same question as "+c.Duplicate+" on the same images: it cannot be accepted.")
	}
	for _, f := range c.Findings {
		if f.Severity == annotate.SeverityError {
			notes = append(notes, "Guideline check: "+f.Text())
		}
	}
	if len(notes) == 0 {
		notes = append(notes, "Accept makes it your sample (a draft, or straight to round 1 if the project's settings say so); Edit opens it in the editor as your draft.")
	}
	v.note.SetText(strings.Join(notes, "\n"))
	v.discard.Enable()
	if c.Acceptable() {
		v.accept.Enable()
	} else {
		v.accept.Disable()
	}
	if c.Duplicate == "" {
		v.edit.Enable()
	} else {
		v.edit.Disable()
	}
}

// take accepts the shown candidate, or with toEdit makes it a draft and opens it in
// the editor.
func (v *augmentView) take(toEdit bool) {
	if v.sel < 0 || v.sel >= len(v.cands) {
		return
	}
	ref := v.cands[v.sel].CandidateRef
	v.disableActions() // no second take while this one runs; reload enables them again
	sess, project, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "", func() (bench.SampleInfo, error) {
		return sess.AcceptCandidate(ctx, project, ref, toEdit)
	}, func(si bench.SampleInfo, err error) {
		if err != nil {
			v.u.showError(err)
			v.reload(bench.Message(err))
			return
		}
		if toEdit {
			v.u.openInEditor(si.ID)
			return
		}
		where := "your draft"
		if si.Status != verify.StateDraft {
			where = "in " + string(si.Status)
		}
		v.u.refreshStatus()
		v.reload(fmt.Sprintf("Accepted as %s (%s).", si.ID, where))
	})
}

func (v *augmentView) disableActions() {
	v.accept.Disable()
	v.edit.Disable()
	v.discard.Disable()
}

// discardCandidate records that the shown candidate is not wanted.
func (v *augmentView) discardCandidate() {
	if v.sel < 0 || v.sel >= len(v.cands) {
		return
	}
	ref := v.cands[v.sel].CandidateRef
	v.disableActions()
	sess, project, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	act(v.u, "", func() error {
		return sess.DiscardCandidate(ctx, project, ref)
	}, func(err error) {
		if err != nil {
			v.u.showError(err)
			v.reload(bench.Message(err))
			return
		}
		v.reload(fmt.Sprintf("Discarded %s %s of %s.", ref.Transform, ref.Anchor, ref.Parent))
	})
}

// openInEditor shows the Annotate screen with sample id open.
func (u *App) openInEditor(id string) {
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Annotate" })
	if i < 0 {
		return
	}
	u.nav.Select(i)
	if ws := lastWorkspace[u]; ws != nil {
		ws.openSample(id)
	}
}

// sequenceText lists a sample of several images as the candidate shows it: each
// image with its label, in order, then the answer; "" for a step graph or a sample
// of one image, whose steps say what it is.
func sequenceText(s annotate.Sample) string {
	if s.NumImages() < 2 || s.Kind == annotate.KindStepGraph {
		return ""
	}
	labels := s.Labels()
	var b strings.Builder
	for i, p := range s.AllImages() {
		fmt.Fprintf(&b, "%s  %s\n", labels[i], p)
	}
	fmt.Fprintf(&b, "Answer: %s", s.AnswerText)
	return b.String()
}
