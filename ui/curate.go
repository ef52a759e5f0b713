package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// The curation view: a lead proposes a hard subset of a release (the samples at
// least k of the chosen models fail, balanced over categories to a target —
// store.ProposeHardSubset, package score's rule), goes through the candidates
// with each one's image, question and gold, keeps or drops each with a reason,
// and freezes the kept ones into a new release. It is reached from the Evaluate
// screen and goes back to it.

// curateView is the curation view over one release.
type curateView struct {
	u    *App
	rel  bench.Release
	root fyne.CanvasObject

	subsets  []bench.HardSubset
	subset   *widget.Select
	summary  *widget.Label
	list     *widget.List
	cands    []bench.HardCandidate
	items    map[string]bench.ReleaseItem // the release's samples by id
	detail   *fyne.Container
	chosen   int
	decision *widget.RadioGroup
	reason   *widget.Entry
	save     *widget.Button
	name     *widget.Entry
	version  *widget.Entry
	freeze   *widget.Button
	status   *widget.Label
	// A debiased subset's margin (points), folds and seed.
	margin, folds, dseed *widget.Entry

	loads atomic.Int32 // finished loads, for tests
}

// openCuration shows the curation view on the chosen release in place of the
// Evaluate screen, and returns it (nil without a release).
func (v *evaluateView) openCuration() *curateView {
	rel, ok := v.selectedRelease()
	if !ok {
		return nil
	}
	var models []string
	for _, r := range v.runs {
		models = append(models, r.Model)
	}
	c := newCurateView(v.u, rel, models, v.items, func() {
		v.u.content.Objects = []fyne.CanvasObject{v}
		v.u.content.Refresh()
		v.reload() // a frozen subset is a new release
	})
	v.u.content.Objects = []fyne.CanvasObject{c.root}
	v.u.content.Refresh()
	return c
}

func newCurateView(u *App, rel bench.Release, models []string, items []bench.ReleaseItem, back func()) *curateView {
	c := &curateView{u: u, rel: rel, chosen: -1, items: map[string]bench.ReleaseItem{}}
	for _, it := range items {
		c.items[it.SampleID] = it
	}
	c.status = widget.NewLabel("")
	c.status.Wrapping = fyne.TextWrapWord
	c.summary = widget.NewLabel("")
	c.summary.Wrapping = fyne.TextWrapWord
	c.subset = widget.NewSelect(nil, func(string) { c.loadCandidates() })
	c.subset.PlaceHolder = "No subset proposed yet"

	// Proposing: k of the chosen models, a target and a seed.
	modelsCheck := widget.NewCheckGroup(models, nil)
	modelsCheck.Horizontal = true
	modelsCheck.Selected = slices.Clone(models)
	k := widget.NewEntry()
	k.SetText(strconv.Itoa(max(1, (len(models)+1)/2)))
	target := widget.NewEntry()
	target.SetText("0")
	seed := widget.NewEntry()
	seed.SetText("1")
	strict := widget.NewCheck("a hop answer whose box misses counts as failed", nil)
	var propose *widget.Button
	propose = widget.NewButtonWithIcon("Propose", theme.ContentAddIcon(), func() {
		kv, err1 := strconv.Atoi(strings.TrimSpace(k.Text))
		tv, err2 := strconv.Atoi(strings.TrimSpace(target.Text))
		sv, err3 := strconv.ParseInt(strings.TrimSpace(seed.Text), 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			c.status.SetText("k, the target and the seed are whole numbers.")
			return
		}
		in := bench.HardSubsetInput{Models: slices.Clone(modelsCheck.Selected), K: kv, Target: tv, Seed: sv, Strict: strict.Checked}
		sess, ctx := u.sess, u.ctx()
		propose.Disable()
		c.status.SetText("Proposing…")
		load(u, "", func() (bench.HardSubset, error) { return sess.ProposeHardSubset(ctx, evalRef(rel), in) }, func(h bench.HardSubset, err error) {
			propose.Enable()
			if err != nil {
				c.status.SetText(bench.Message(err))
				return
			}
			c.status.SetText(fmt.Sprintf("Proposed hard subset %d: %d candidates of %d.", h.ID, h.Candidates, h.Pool))
			c.loadSubsets(h.ID)
		})
	})
	// Debiasing: the samples a text-only model answers without the images, by
	// task, until each task's blind accuracy is within the margin of chance
	// (shortcut.Prune; the defaults of bwctl debias propose). It needs no model run.
	c.margin, c.folds, c.dseed = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	margin, folds, dseed := c.margin, c.folds, c.dseed
	margin.SetText("10")
	folds.SetText("5")
	dseed.SetText("1")
	var debias *widget.Button
	debias = widget.NewButtonWithIcon("Propose debiased", theme.ContentAddIcon(), func() {
		mv, err1 := strconv.ParseFloat(strings.TrimSpace(margin.Text), 64)
		fv, err2 := strconv.Atoi(strings.TrimSpace(folds.Text))
		sv, err3 := strconv.ParseInt(strings.TrimSpace(dseed.Text), 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			c.status.SetText("The margin is a number of points; the folds and the seed are whole numbers.")
			return
		}
		in := bench.DebiasInput{Margin: mv / 100, Folds: fv, Seed: sv}
		sess, ctx := u.sess, u.ctx()
		debias.Disable()
		c.status.SetText("Proposing a debiased subset…")
		load(u, "", func() (bench.HardSubset, error) { return sess.ProposeDebiasedSubset(ctx, evalRef(rel), in) }, func(h bench.HardSubset, err error) {
			debias.Enable()
			if err != nil {
				c.status.SetText(bench.Message(err))
				return
			}
			c.status.SetText(fmt.Sprintf("Proposed debiased subset %d: %d of %d samples proposed for removal.", h.ID, h.Candidates, h.Pool))
			c.loadSubsets(h.ID)
		})
	})
	proposeForm := container.NewVBox(
		container.NewHBox(widget.NewLabel("Models"), modelsCheck),
		container.NewHBox(widget.NewLabel("failed by at least k ="), sized(k, "000"), widget.NewLabel("target"), sized(target, "0000"),
			widget.NewLabel("seed"), sized(seed, "000000"), strict, propose),
		container.NewHBox(widget.NewLabel("Without the text-only shortcuts: margin"), sized(margin, "00.0"), widget.NewLabel("points,"),
			sized(folds, "00"), widget.NewLabel("folds, seed"), sized(dseed, "000000"), debias),
	)
	if len(models) == 0 {
		propose.Disable()
	}

	c.list = widget.NewList(
		func() int { return len(c.cands) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("office-000000 · hop_qa/att+pos+rel · keep")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			cd := c.cands[i]
			d := cd.Decision
			if d == "" {
				d = "undecided"
			}
			o.(*widget.Label).SetText(cd.SampleID + " · " + cd.Category + " · " + d)
		},
	)
	c.list.OnSelected = func(i widget.ListItemID) { c.show(i) }
	c.detail = container.NewStack(widget.NewLabel("Choose a candidate to see it and decide."))

	c.decision = widget.NewRadioGroup([]string{bench.DecisionKeep, bench.DecisionDrop}, nil)
	c.decision.Horizontal = true
	c.reason = widget.NewEntry()
	c.reason.SetPlaceHolder("Why (needed to drop): e.g. the gold box is ambiguous")
	c.save = widget.NewButtonWithIcon("Save and next", theme.ConfirmIcon(), c.saveDecision)
	c.save.Importance = widget.HighImportance
	decide := container.NewBorder(nil, nil, c.decision, c.save, c.reason)

	c.name, c.version = widget.NewEntry(), widget.NewEntry()
	c.name.SetText(rel.Name + "-hard")
	c.version.SetText(rel.Version)
	c.freeze = widget.NewButtonWithIcon("Freeze kept samples", theme.DocumentSaveIcon(), c.freezeKept)
	freezeBar := container.NewHBox(widget.NewLabel("New release"), sized(c.name, "office-bench-hard-xx"), widget.NewLabel("@"),
		sized(c.version, "1.0.0"), c.freeze)

	split := container.NewHSplit(c.list, container.NewBorder(nil, decide, nil, nil, c.detail))
	split.Offset = 0.3
	head := container.NewVBox(
		container.NewBorder(nil, nil, container.NewHBox(widget.NewButtonWithIcon("Evaluate", theme.NavigateBackIcon(), back),
			heading("Hard and debiased subsets of "+rel.Ref())), nil),
		proposeForm, widget.NewSeparator(),
		container.NewBorder(nil, nil, widget.NewLabel("Candidate list"), nil, c.subset), c.summary)
	c.root = container.NewBorder(head, container.NewVBox(freezeBar, c.status), nil, nil, split)
	c.loadSubsets(0)
	return c
}

// sized keeps an entry as wide as sample text.
func sized(e *widget.Entry, sample string) fyne.CanvasObject {
	w := fyne.MeasureText(sample, theme.TextSize(), fyne.TextStyle{}).Width + 4*theme.Padding()
	return container.NewGridWrap(fyne.NewSize(w, e.MinSize().Height), e)
}

// subsetLabel names a candidate list in the picker.
func subsetLabel(h bench.HardSubset) string {
	s := fmt.Sprintf("#%d: k %d of %d, target %d, seed %d", h.ID, h.K, h.N, h.Target, h.Seed)
	if h.Kind == bench.SubsetDebiased {
		s = fmt.Sprintf("#%d: debiased, margin %.3g points, %d-fold, seed %d", h.ID, 100*h.Margin, h.Folds, h.Seed)
	}
	if h.Frozen != "" {
		s += " · frozen as " + h.Frozen
	}
	return s
}

// loadSubsets lists the release's candidate lists and chooses id (0: the newest).
func (c *curateView) loadSubsets(id int64) {
	sess, ctx, rel := c.u.sess, c.u.ctx(), c.rel
	load(c.u, "curate.subsets", func() ([]bench.HardSubset, error) { return sess.HardSubsets(ctx, evalRef(rel)) },
		func(hs []bench.HardSubset, err error) { c.showSubsets(hs, err, id) })
}

// showSubsets shows the candidate lists loadSubsets read and chooses id.
func (c *curateView) showSubsets(hs []bench.HardSubset, err error, id int64) {
	if err != nil {
		c.status.SetText(bench.Message(err))
		c.loads.Add(1)
		return
	}
	c.subsets = hs
	var opts []string
	pick := ""
	for _, h := range hs {
		opts = append(opts, subsetLabel(h))
		if h.ID == id || (id == 0 && pick == "") {
			pick = subsetLabel(h)
		}
	}
	c.subset.Options = opts
	c.subset.ClearSelected()
	if pick != "" {
		c.subset.SetSelected(pick) // loads the candidates
		return
	}
	c.cands = nil
	c.list.Refresh()
	c.summary.SetText("Propose a list above: the samples at least k of the chosen models fail, balanced over the categories, or the samples a text-only model answers without the images.")
	c.freeze.Disable()
	c.loads.Add(1)
}

// current is the chosen candidate list.
func (c *curateView) current() (bench.HardSubset, bool) {
	i := c.subset.SelectedIndex()
	if i < 0 || i >= len(c.subsets) {
		return bench.HardSubset{}, false
	}
	return c.subsets[i], true
}

// loadCandidates reads the chosen list's candidates.
func (c *curateView) loadCandidates() {
	h, ok := c.current()
	if !ok {
		c.loads.Add(1)
		return
	}
	type read struct {
		h     bench.HardSubset
		cands []bench.HardCandidate
	}
	sess, ctx, at := c.u.sess, c.u.ctx(), c.subset.SelectedIndex()
	load(c.u, "curate.candidates", func() (read, error) {
		h, cands, err := sess.HardCandidates(ctx, h.ID)
		return read{h, cands}, err
	}, func(r read, err error) {
		defer c.loads.Add(1)
		c.showCandidates(at, r.h, r.cands, err)
	})
}

// showCandidates shows the candidates of list at (its index in the picker).
func (c *curateView) showCandidates(at int, h bench.HardSubset, cands []bench.HardCandidate, err error) {
	if err != nil {
		c.status.SetText(bench.Message(err))
		return
	}
	c.subsets[at] = h
	c.cands = cands
	c.list.UnselectAll()
	c.list.Refresh()
	c.chosen = -1
	c.detail.Objects = []fyne.CanvasObject{widget.NewLabel("Choose a candidate to see it and decide.")}
	c.detail.Refresh()
	c.fillSummary(h)
}

func (c *curateView) fillSummary(h bench.HardSubset) {
	c.summary.SetText(fmt.Sprintf("%d candidates drawn from the %d samples at least %d of %d models fail (%s); %d kept, %d dropped, %d undecided.",
		h.Candidates, h.Pool, h.K, h.N, strings.Join(h.Models, ", "), h.Kept, h.Dropped, h.Undecided()))
	if h.Kind == bench.SubsetDebiased {
		text := fmt.Sprintf("%d of the %d samples a text-only model answers are proposed for removal (drop: leave out; keep: keep in); %d kept, %d dropped, %d undecided.",
			h.Candidates, h.Pool, h.Kept, h.Dropped, h.Undecided())
		if h.Detail != "" {
			text += " " + upperFirst(h.Detail) + "."
		}
		for _, t := range h.Tasks {
			if t.Changed() {
				text += "\n" + t.String()
			}
		}
		c.summary.SetText(text)
	}
	if h.Frozen != "" {
		c.summary.SetText(c.summary.Text + " Frozen as " + h.Frozen + ".")
		c.freeze.Disable()
		c.save.Disable()
		return
	}
	c.save.Enable()
	c.freeze.Enable()
}

// show shows candidate i: its image with the gold box, question, options and
// gold answer, which models failed it, and its decision.
// The picture is read off the UI goroutine (on a team server it is fetched); the
// candidate becomes the chosen one when it is shown.
func (c *curateView) show(i int) {
	if i < 0 || i >= len(c.cands) {
		return
	}
	cd := c.cands[i]
	it := c.items[cd.SampleID]
	sess, pid, onServer := c.u.sess, c.u.project.ID, c.u.onServer()
	load(c.u, "curate.show", func() (verifyImage, error) {
		return loadVerifyImageFrom(sess, pid, onServer, bench.SampleInfo{ImagePath: it.ImagePath}), nil
	}, func(pic verifyImage, _ error) {
		if i < len(c.cands) && c.cands[i].SampleID == cd.SampleID {
			c.showCandidate(i, cd, it, pic)
		}
	})
}

// showCandidate shows candidate i (cd, its item it) with its picture.
func (c *curateView) showCandidate(i int, cd bench.HardCandidate, it bench.ReleaseItem, pic verifyImage) {
	c.chosen = i
	s := it.Content
	cv := boxcanvas.New(pic.img, pic.width, pic.height)
	cv.ReadOnly = true
	if s.Box != nil {
		cv.SetBoxes([]annotate.Box{*s.Box})
	}
	lines := []fyne.CanvasObject{
		heading(cd.SampleID + " · " + cd.Category),
		reviewText("Question: "+s.Question, fyne.TextStyle{}),
	}
	for j, o := range s.Options {
		lines = append(lines, reviewText(fmt.Sprintf("%c. %s", 'A'+j, o), fyne.TextStyle{}))
	}
	lines = append(lines,
		reviewText("Gold answer: "+evalGoldAnswer(s), fyne.TextStyle{Bold: true}),
		reviewText("Failed by: "+strings.Join(cd.FailedBy, ", "), fyne.TextStyle{}))
	if len(cd.Shortcuts) > 0 {
		lines[len(lines)-1] = reviewText(fmt.Sprintf("Shortcuts: %s; bias score %.2f (round %d)", strings.Join(cd.Shortcuts, ", "), cd.Bias, cd.Round), fyne.TextStyle{})
	}
	if cd.Decision != "" {
		lines = append(lines, reviewNote(fmt.Sprintf("Decided %s by %s: %s", cd.Decision, cd.DecidedBy, cd.Reason)))
	}
	side := container.NewVScroll(container.NewVBox(lines...))
	body := container.NewHSplit(verifyImagePane(cv, widget.NewLabel(""), pic.caption(s.Box)), side)
	body.Offset = 0.62
	c.detail.Objects = []fyne.CanvasObject{body}
	c.detail.Refresh()
	c.decision.SetSelected(cd.Decision)
	c.reason.SetText(cd.Reason)
}

// saveDecision stores the decision on the chosen candidate and moves to the next.
func (c *curateView) saveDecision() {
	h, ok := c.current()
	if !ok || c.chosen < 0 {
		c.status.SetText("Choose a candidate first.")
		return
	}
	if c.decision.Selected == "" {
		c.status.SetText("Choose keep or drop.")
		return
	}
	i, at := c.chosen, c.subset.SelectedIndex()
	d := bench.HardDecision{SampleID: c.cands[i].SampleID, Decision: c.decision.Selected, Reason: c.reason.Text}
	type saved struct {
		h     bench.HardSubset
		cands []bench.HardCandidate // nil when they could not be read again
	}
	sess, ctx := c.u.sess, c.u.ctx()
	c.save.Disable()
	load(c.u, "", func() (saved, error) {
		h, err := sess.DecideHardCandidates(ctx, h.ID, []bench.HardDecision{d})
		if err != nil {
			return saved{}, err
		}
		_, cands, err := sess.HardCandidates(ctx, h.ID)
		if err != nil {
			cands = nil
		}
		return saved{h, cands}, nil
	}, func(r saved, err error) {
		c.save.Enable()
		if err != nil {
			c.status.SetText(bench.Message(err)) // the decision and reason typed stay
			return
		}
		if c.subset.SelectedIndex() != at {
			return // another list was chosen meanwhile
		}
		c.status.SetText(fmt.Sprintf("%s: %s.", d.SampleID, d.Decision))
		if r.cands != nil {
			c.cands = r.cands
		}
		c.subsets[at] = r.h
		c.fillSummary(r.h)
		c.list.Refresh()
		if c.chosen != i {
			return
		}
		if i+1 < len(c.cands) {
			c.list.Select(i + 1)
		} else {
			c.show(i)
		}
	})
}

// freezeKept freezes the kept candidates into the named release.
func (c *curateView) freezeKept() {
	h, ok := c.current()
	if !ok {
		return
	}
	sess, ctx := c.u.sess, c.u.ctx()
	name, version := strings.TrimSpace(c.name.Text), strings.TrimSpace(c.version.Text)
	c.freeze.Disable()
	c.status.SetText("Freezing…")
	load(c.u, "", func() (bench.Release, error) { return sess.FreezeHardSubset(ctx, h.ID, name, version) }, func(rel bench.Release, err error) {
		c.freeze.Enable()
		if err != nil {
			c.status.SetText(bench.Message(err)) // the name and version typed stay
			return
		}
		c.status.SetText(fmt.Sprintf("Froze %s with %s. Its exports' MANIFEST.json records the parent, the models, k, n, the seed and every decision.",
			rel.Ref(), annotate.Plural(rel.Samples, "sample")))
		c.loadSubsets(h.ID)
	})
}

// upperFirst starts a sentence fragment with a capital letter.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
