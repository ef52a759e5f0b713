package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/ui/boxcanvas"
	"github.com/benchwright/benchwright/verify"
)

// The Human baseline screen: a person answers the items a lead drew from a
// frozen release, blind — the image, the question and the options, never the
// gold answer or box (store.HumanItems gives nothing else). They choose an
// option, or yes/no, or type the answer, and for a hop question draw the box of
// the answer object. Their answers are scored by package score like a model's
// and appear as the Human row of the Evaluate screen's leaderboard. A lead draws
// the items here too (store.DrawHumanBaseline).

type humanView struct {
	widget.BaseWidget
	u    *App
	root fyne.CanvasObject

	releases []bench.Release
	release  *widget.Select
	status   *widget.Label
	body     *fyne.Container
	items    []bench.HumanItem
	list     *widget.List
	chosen   int

	canvas *boxcanvas.Canvas
	// seqButtons show the images of a sequence item; seqShown counts the images
	// shown by them (for tests).
	seqButtons []*widget.Button
	seqShown   atomic.Int64
	options    *widget.RadioGroup
	text       *widget.Entry

	loads atomic.Int32 // finished loads, for tests
}

func (v *humanView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.root) }

func (u *App) humanScreen() fyne.CanvasObject {
	v := &humanView{u: u, status: widget.NewLabel(""), body: container.NewStack(widget.NewLabel("Loading the releases…")), chosen: -1}
	v.ExtendBaseWidget(v)
	v.status.Wrapping = fyne.TextWrapWord
	v.release = widget.NewSelect(nil, func(string) { v.load() })
	pick := container.NewHBox(widget.NewLabel("Release"), v.release)
	pick.Hide()
	top := container.NewBorder(nil, nil, container.NewHBox(heading("Human baseline"), pick), nil)
	v.root = container.NewBorder(top, v.status, nil, nil, v.body)
	sess, ctx, projectID := u.sess, u.ctx(), u.project.ID
	load(u, "human", func() ([]bench.Release, error) { return sess.Releases(ctx, projectID) }, func(rels []bench.Release, err error) {
		if err != nil || len(rels) == 0 {
			msg := "No release is frozen yet."
			if err != nil {
				msg = bench.Message(err)
			}
			v.body.Objects = []fyne.CanvasObject{widget.NewLabel(msg)}
			v.body.Refresh()
			v.loads.Add(1)
			return
		}
		v.releases = rels
		var refs []string
		for _, r := range rels {
			refs = append(refs, r.Ref())
		}
		v.release.SetOptions(refs)
		pick.Show()
		v.release.SetSelected(refs[0])
	})
	return v
}

// humanLoad is what the screen shows of a release: its baseline, when drawn
// (ok), and the items to answer.
type humanLoad struct {
	baseline bench.HumanBaseline
	ok       bool
	items    []bench.HumanItem
}

// load shows the chosen release's baseline: the items to answer, or the lead's
// draw form when none is drawn. It is read off the UI goroutine.
func (v *humanView) load() {
	i := v.release.SelectedIndex()
	if i < 0 {
		v.loads.Add(1)
		return
	}
	rel := v.releases[i]
	sess, ctx := v.u.sess, v.u.ctx()
	load(v.u, "human", func() (humanLoad, error) {
		b, ok, err := sess.HumanBaselineOf(ctx, evalRef(rel))
		if err != nil || !ok {
			return humanLoad{}, err
		}
		items, err := sess.HumanItems(ctx, evalRef(rel))
		return humanLoad{b, true, items}, err
	}, func(h humanLoad, err error) {
		defer v.loads.Add(1)
		v.showLoaded(rel, h, err)
	})
}

// showLoaded shows what load read of release rel.
func (v *humanView) showLoaded(rel bench.Release, h humanLoad, err error) {
	if err != nil {
		v.status.SetText(bench.Message(err))
		return
	}
	if !h.ok {
		v.body.Objects = []fyne.CanvasObject{v.drawForm(rel)}
		v.body.Refresh()
		v.status.SetText("")
		return
	}
	b := h.baseline
	v.items = h.items
	v.list = widget.NewList(
		func() int { return len(v.items) },
		func() fyne.CanvasObject { return widget.NewLabel("✓ office-000000 · judgment") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			mark := "○ "
			if v.items[i].Answered != "" {
				mark = "✓ "
			}
			o.(*widget.Label).SetText(mark + v.items[i].SampleID + " · " + string(v.items[i].Kind))
		},
	)
	v.list.OnSelected = func(i widget.ListItemID) { v.show(i) }
	detail := container.NewStack(widget.NewLabel("Choose an item. You see the image and the question only; answer as you judge it."))
	split := container.NewHSplit(container.NewBorder(widget.NewLabel(fmt.Sprintf("%s · drawn by %s", annotate.Plural(b.Items, "item"), b.CreatedBy)), nil, nil, nil, v.list), detail)
	split.Offset = 0.25
	v.body.Objects = []fyne.CanvasObject{split}
	v.body.Refresh()
	v.setProgress()
	for i, it := range v.items { // start at the first item not answered
		if it.Answered == "" {
			v.list.Select(i)
			break
		}
	}
}

func (v *humanView) setProgress() {
	n := 0
	for _, it := range v.items {
		if it.Answered != "" {
			n++
		}
	}
	v.status.SetText(fmt.Sprintf("You answered %d of %d items.", n, len(v.items)))
}

// drawForm lets a lead draw the release's baseline; others are told to wait.
func (v *humanView) drawForm(rel bench.Release) fyne.CanvasObject {
	if !v.u.may(verify.ActionDrawHuman) {
		return widget.NewLabel("No human baseline is drawn on " + rel.Ref() + " yet; a lead draws one here.")
	}
	size, seed := widget.NewEntry(), widget.NewEntry()
	size.SetText(strconv.Itoa(min(rel.Samples, 120)))
	seed.SetText("1")
	var draw *widget.Button
	draw = widget.NewButtonWithIcon("Draw", theme.ContentAddIcon(), func() {
		n, err1 := strconv.Atoi(strings.TrimSpace(size.Text))
		s, err2 := strconv.ParseInt(strings.TrimSpace(seed.Text), 10, 64)
		if err1 != nil || err2 != nil {
			v.status.SetText("The size and the seed are whole numbers.")
			return
		}
		draw.Disable()
		v.status.SetText("Drawing the items…")
		sess, ctx := v.u.sess, v.u.ctx()
		act(v.u, "", func() error {
			_, err := sess.DrawHumanBaseline(ctx, evalRef(rel), n, s)
			return err
		}, func(err error) {
			draw.Enable()
			if err != nil {
				v.status.SetText(bench.Message(err))
				return
			}
			v.load()
		})
	})
	note := reviewNote("The items are drawn in proportion to the hop × view cells of the hop questions and the kind × task cells of the others " +
		"(step graphs are not offered). People then answer them here, blind, and their answers appear as the Human row on the Evaluate screen.")
	return container.NewVBox(heading("Draw the human baseline of "+rel.Ref()), note,
		container.NewHBox(widget.NewLabel("Items"), sized(size, "00000"), widget.NewLabel("Seed"), sized(seed, "000000"), draw))
}

// show shows item i to answer.
// The picture is read off the UI goroutine (on a team server it is fetched); the
// item becomes the chosen one, and its answer form appears, when it is shown.
func (v *humanView) show(i int) {
	if i < 0 || i >= len(v.items) {
		return
	}
	it := v.items[i]
	sess, pid, onServer := v.u.sess, v.u.project.ID, v.u.onServer()
	load(v.u, "human.show", func() (verifyImage, error) {
		return loadVerifyImageFrom(sess, pid, onServer, bench.SampleInfo{ImagePath: it.ImagePath}), nil
	}, func(pic verifyImage, _ error) {
		if i < len(v.items) && v.items[i].SampleID == it.SampleID {
			v.showItem(i, it, pic)
		}
	})
}

// showItem shows item i (it) with its picture, to answer.
func (v *humanView) showItem(i int, it bench.HumanItem, pic verifyImage) {
	v.chosen = i
	v.canvas = boxcanvas.New(pic.img, pic.width, pic.height)
	v.canvas.OnChanged = func(boxes []annotate.Box) { // one box: the newest drawn
		if len(boxes) > 1 {
			v.canvas.SetBoxes(boxes[len(boxes)-1:])
		}
	}
	prev, _ := humanParse(it)
	if prev.Box != nil {
		v.canvas.SetBoxes([]annotate.Box{*prev.Box})
	}
	if it.Kind != annotate.KindHopQA {
		v.canvas.ReadOnly = true
	}
	lines := []fyne.CanvasObject{heading(it.SampleID), reviewText(it.Question, fyne.TextStyle{Bold: true})}
	v.options, v.text = nil, nil
	switch it.Kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		var opts []string
		for j, o := range it.Options {
			opts = append(opts, fmt.Sprintf("%c. %s", 'A'+j, o))
		}
		v.options = widget.NewRadioGroup(opts, nil)
		if prev.Option >= 0 && prev.Option < len(opts) {
			v.options.SetSelected(opts[prev.Option])
		}
		lines = append(lines, v.options)
		if it.Kind == annotate.KindHopQA {
			lines = append(lines, reviewNote("Draw the box of the object your answer names on the image (drag; a new box replaces the old)."))
		}
	case annotate.KindJudgment:
		v.options = widget.NewRadioGroup([]string{"yes", "no"}, nil)
		v.options.Horizontal = true
		v.options.SetSelected(prev.Text)
		lines = append(lines, v.options)
	default:
		v.text = widget.NewEntry()
		v.text.SetPlaceHolder("Your answer (a number when the question asks for one)")
		v.text.SetText(prev.Text)
		lines = append(lines, v.text)
	}
	save := widget.NewButtonWithIcon("Save and next", theme.ConfirmIcon(), nil)
	save.OnTapped = func() { v.saveAnswer(save) }
	save.Importance = widget.HighImportance
	lines = append(lines, save)
	side := container.NewVScroll(container.NewVBox(lines...))
	pane, caption := verifyImagePaneCaption(v.canvas, widget.NewLabel(""), pic.caption(nil))
	if seq := v.sequenceBar(it, caption, pic); seq != nil {
		pane = container.NewBorder(nil, seq, nil, nil, pane)
	}
	body := container.NewHSplit(pane, side)
	body.Offset = 0.62
	split := v.body.Objects[0].(*container.Split)
	split.Trailing = body
	split.Refresh()
}

// humanParse reads back what a person answered before, to show it again: the
// option letter or text, and the box, from the stored response.
func humanParse(it bench.HumanItem) (score.HumanAnswer, bool) {
	a := score.HumanAnswer{Option: -1}
	if it.Answered == "" {
		return a, false
	}
	switch it.Kind {
	case annotate.KindHopQA:
		if l, ok := score.ParseHopAnswer(it.Answered); ok && len(l) == 1 {
			a.Option = int(strings.ToUpper(l)[0] - 'A')
		}
		if b, err := score.ParseHopBox(it.Answered); err == nil && score.CheckUnitBox(b) == nil && it.Width > 0 {
			box := annotate.FromUnit(b, it.Width, it.Height)
			a.Box = &box
		}
	case annotate.KindMCQ:
		if len(it.Answered) == 1 {
			a.Option = int(it.Answered[0] - 'A')
		}
	default:
		a.Text = it.Answered
	}
	return a, true
}

// saveAnswer stores the answer to the shown item and moves to the next; save is
// disabled while it is stored, and a refusal keeps the answer shown.
func (v *humanView) saveAnswer(save *widget.Button) {
	i := v.chosen
	if i < 0 {
		return
	}
	it := v.items[i]
	a := score.HumanAnswer{Option: -1}
	if v.options != nil {
		if it.Kind == annotate.KindJudgment {
			a.Text = v.options.Selected
		} else {
			a.Option = slices.Index(v.options.Options, v.options.Selected)
		}
	}
	if v.text != nil {
		a.Text = v.text.Text
	}
	if it.Kind == annotate.KindHopQA {
		if bs := v.canvas.Boxes(); len(bs) > 0 {
			a.Box = &bs[len(bs)-1]
		}
	}
	rel := v.releases[v.release.SelectedIndex()]
	sess, ctx := v.u.sess, v.u.ctx()
	save.Disable()
	load(v.u, "", func() ([]bench.HumanItem, error) {
		if err := sess.AnswerHuman(ctx, evalRef(rel), it.SampleID, a); err != nil {
			return nil, err
		}
		items, err := sess.HumanItems(ctx, evalRef(rel))
		if err != nil {
			return nil, nil // saved; the list keeps its marks until read again
		}
		return items, nil
	}, func(items []bench.HumanItem, err error) {
		save.Enable()
		if err != nil {
			v.status.SetText(bench.Message(err))
			return
		}
		if items != nil && len(items) == len(v.items) {
			v.items = items
		}
		v.list.Refresh()
		v.setProgress()
		if v.chosen == i && i+1 < len(v.items) {
			v.list.Select(i + 1)
		}
	})
}

// sequenceBar is the row of an item of several images: one button per image, by
// its label, that shows it on the canvas (read off the UI goroutine), so a person
// answers seeing the whole sequence in its order as a model does. It is nil for an
// item of one image.
func (v *humanView) sequenceBar(it bench.HumanItem, capt *widget.Label, first verifyImage) fyne.CanvasObject {
	v.seqButtons = nil
	if len(it.More) == 0 {
		return nil
	}
	paths := append([]string{it.ImagePath}, it.More...)
	labels := it.Labels
	if len(labels) != len(paths) {
		labels = annotate.DefaultLabels(len(paths), false)
	}
	shown := 0
	row := container.NewHBox(caption(fmt.Sprintf("%d images, in this order:", len(paths))))
	label := func(i int, pic verifyImage) string {
		return fmt.Sprintf("%s (%d of %d) · %s", labels[i], i+1, len(paths), pic.caption(nil))
	}
	capt.SetText(label(0, first))
	u, canvas, item := v.u, v.canvas, v.chosen
	for i := range paths {
		b := widget.NewButton(labels[i], nil)
		b.OnTapped = func() {
			shown = i
			for j, o := range v.seqButtons {
				o.Importance = map[bool]widget.Importance{true: widget.HighImportance, false: widget.MediumImportance}[j == i]
				o.Refresh()
			}
			sess, pid, onServer := u.sess, u.project.ID, u.onServer()
			inBackground(func() {
				pic := loadVerifyImagePath(sess, pid, onServer, paths[i])
				fyne.Do(func() {
					if v.chosen != item || shown != i || v.canvas != canvas {
						return
					}
					canvas.SetImage(pic.img, max(pic.width, 1), max(pic.height, 1))
					capt.SetText(label(i, pic))
					v.seqShown.Add(1)
				})
			})
		}
		if i == 0 {
			b.Importance = widget.HighImportance
		}
		v.seqButtons = append(v.seqButtons, b)
		row.Add(b)
	}
	return container.NewHScroll(row)
}
