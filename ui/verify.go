package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// verifyScreen is the verifier's screen: the queue of what the signed-in verifier
// may take now, the opened sample's image, and its checklist and decision.
// Only those who review have it (app.go).
func (u *App) verifyScreen() fyne.CanvasObject { return newVerifyView(u) }

// queueRoundNames label the queue filters: all rounds, then rounds 1-3.
var queueRoundNames = [4]string{"All", "Round 1", "Round 2", "Round 3"}

// verifyView is the verifier's screen. It is a widget so that tests reach it as the
// content of the Verify screen. Its fields are touched on the UI goroutine only;
// the store is called off it (load, act).
//
// Opening a queue item claims its seat (store.ClaimReview), so that two verifiers
// never review the same slot. The decision (approve, reject) or a correction goes to
// the store, which checks every rule again; its refusals are shown in words. Keys,
// when no text entry has the focus: y approve, x reject, j/k next/previous item,
// 1-9 mark criterion n (unset → yes → no); Esc leaves the comment.
type verifyView struct {
	widget.BaseWidget
	u    *App
	root fyne.CanvasObject

	all     []bench.QueueItem // what the user may take now, every round
	more    [4]bool           // a round (0: any) has more items than one page shows
	items   []bench.QueueItem // all, narrowed to the round filter
	round   int               // the filter: 0 all rounds, else 1-3
	filters [4]*widget.Button
	list    *widget.List
	empty   *widget.Label // shown instead of the list when items is empty
	syncing bool          // the list selection is being set by code

	centre  *fyne.Container // image (and step graph) of the open sample
	right   *fyne.Container // the sample, checklist and decision
	cur     *openSample     // nil when nothing is open
	opening int             // the newest open: an older one's answer is dropped
	editor  *correctionEditor
}

func newVerifyView(u *App) *verifyView {
	v := &verifyView{u: u}
	v.ExtendBaseWidget(v)
	for i := range v.filters {
		v.filters[i] = widget.NewButton(queueRoundNames[i], func() { v.setRound(i) })
	}
	v.list = widget.NewList(
		func() int { return len(v.items) },
		func() fyne.CanvasObject {
			id := widget.NewLabelWithStyle("demo-hq-000-sample", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
			id.Truncation = fyne.TextTruncateEllipsis
			info := widget.NewLabel("step_graph · round 1 · rev 1")
			info.Importance = widget.LowImportance
			info.Truncation = fyne.TextTruncateEllipsis
			return tightVBox(id, info)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i >= len(v.items) {
				return
			}
			it := v.items[i]
			c := o.(*fyne.Container)
			c.Objects[0].(*widget.Label).SetText(it.SampleID)
			c.Objects[1].(*widget.Label).SetText(fmt.Sprintf("%s · round %d · rev %d", kindTitle(annotate.Kind(it.Kind)), it.Round, it.Revision))
		},
	)
	v.list.OnSelected = func(i widget.ListItemID) {
		if v.syncing || i >= len(v.items) {
			return
		}
		v.releaseFocus()
		v.open(v.items[i])
	}
	v.empty = widget.NewLabel("")
	v.empty.Wrapping = fyne.TextWrapWord
	v.empty.Importance = widget.LowImportance

	keys := widget.NewLabel("j / k  next / previous\ny approve · x reject\n1–9  criterion: Yes, again No,\n        again unmarked\n[ / ]  image of a sequence · g grid\nEsc  out of the comment")
	keys.Importance = widget.LowImportance
	filters := container.NewGridWithColumns(2)
	for _, b := range v.filters {
		filters.Add(b)
	}
	queue := container.NewBorder(container.NewVBox(heading("Your review queue"), filters),
		keys, nil, nil, container.NewStack(v.list, container.NewVBox(v.empty)))

	v.centre = container.NewStack()
	v.right = container.NewStack()
	work := container.NewHSplit(v.centre, v.right)
	work.Offset = 0.52
	split := container.NewHSplit(queue, work)
	split.Offset = 0.19
	v.root = split

	v.showIdle()
	v.empty.SetText("Loading your queue…") // until the first answer (a team server may take a while)
	v.reload()
	u.onOthersChanged = func() { v.reload() } // someone else's review or submit changes the queue
	u.win.Canvas().SetOnTypedRune(v.typedRune)
	v.releaseFocus() // the navigation list took it when it was clicked to open this screen
	return v
}

// CreateRenderer is part of fyne.Widget.
func (v *verifyView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.root) }

// reload asks the store for the queue again off the UI goroutine and shows it
// through the filter; then, if set, runs on the UI goroutine once it is shown.
// Each round's queue is read one page at a time: at 100k samples the whole queue
// takes seconds, a page milliseconds, and nobody scrolls past a few hundred items.
func (v *verifyView) reload(then ...func()) {
	type queue struct {
		all  []bench.QueueItem
		more [4]bool
	}
	sess, pid, ctx := v.u.sess, v.u.project.ID, v.u.ctx()
	load(v.u, "verify.queue", func() (queue, error) {
		var q queue
		for r := 1; r <= 3; r++ {
			items, err := sess.ReviewQueueLimit(ctx, pid, r, reviewPage)
			if err != nil {
				return q, err
			}
			q.all = append(q.all, items...)
			if len(items) == reviewPage {
				q.more[r], q.more[0] = true, true
			}
		}
		return q, nil
	}, func(q queue, err error) {
		if err != nil {
			v.u.setStatus("%s", bench.Message(err)) // the queue shown stays
			if len(v.items) == 0 {
				v.empty.SetText("Your queue cannot be read now: " + bench.Message(err))
			}
		} else {
			v.all, v.more = q.all, q.more
			v.applyFilter()
		}
		for _, f := range then {
			f()
		}
	})
}

// reviewPage is how many items of each round the review queue shows.
const reviewPage = 200

func (v *verifyView) setRound(r int) {
	v.round = r
	v.applyFilter()
}

// applyFilter narrows the queue to the round filter, writes the counts on the filter
// buttons and selects the open sample in the list when it is there.
func (v *verifyView) applyFilter() {
	var counts [4]int
	v.items = v.items[:0]
	for _, it := range v.all {
		counts[0]++
		if it.Round >= 1 && it.Round <= 3 {
			counts[it.Round]++
		}
		if v.round == 0 || it.Round == v.round {
			v.items = append(v.items, it)
		}
	}
	for i, b := range v.filters {
		more := ""
		if v.more[i] {
			more = "+"
		}
		b.SetText(fmt.Sprintf("%s · %d%s", queueRoundNames[i], counts[i], more))
		b.Importance = widget.MediumImportance
		if i == v.round {
			b.Importance = widget.HighImportance
		}
		b.Refresh()
	}
	switch {
	case len(v.items) > 0:
		v.empty.SetText("")
	case v.round == 0:
		v.empty.SetText("Nothing to review now. Samples appear here when they enter a round you may verify.")
	default:
		v.empty.SetText(fmt.Sprintf("Nothing for you in round %d now.", v.round))
	}
	v.syncing = true
	v.list.UnselectAll()
	if i := v.indexOf(v.curID()); i >= 0 {
		v.list.Select(i)
	}
	v.syncing = false
	v.list.Refresh()
}

func (v *verifyView) curID() string {
	if v.cur == nil {
		return ""
	}
	return v.cur.item.SampleID
}

func (v *verifyView) indexOf(id string) int {
	return slices.IndexFunc(v.items, func(it bench.QueueItem) bool { return it.SampleID == id })
}

// selectItem opens the i-th item of the filtered queue through the list.
func (v *verifyView) selectItem(i int) {
	if i < 0 || i >= len(v.items) {
		return
	}
	v.syncing = true
	v.list.UnselectAll()
	v.syncing = false
	v.list.Select(i)
}

// step opens the next (d = 1) or previous (d = -1) item of the queue.
func (v *verifyView) step(d int) {
	if len(v.items) == 0 {
		return
	}
	i := v.indexOf(v.curID())
	switch {
	case i < 0 && d > 0:
		i = 0
	case i < 0:
		i = len(v.items) - 1
	default:
		i = min(max(i+d, 0), len(v.items)-1)
	}
	if v.items[i].SampleID != v.curID() {
		v.selectItem(i)
	}
}

// opened is what opening a queue item reads from the store, off the UI goroutine.
type opened struct {
	claim      verify.Claim
	info       bench.SampleInfo
	reviews    []bench.ReviewRecord
	reviewsErr error
	events     []bench.Event
	image      verifyImage
}

// open claims item and shows it; a refusal is shown in words and the queue reloads.
// The claim, the sample, its reviews, history and picture are read off the UI
// goroutine, the open sample's seat given up first. When another item is opened
// before the answer comes, the answer is dropped and its seat given up again.
func (v *verifyView) open(it bench.QueueItem) {
	prev := v.curID()
	v.cur = nil
	v.showNotice("Opening "+it.SampleID+"…", "Claiming its seat and reading it.")
	v.opening++
	gen := v.opening
	sess, pid, onServer, ctx := v.u.sess, v.u.project.ID, v.u.onServer(), v.u.ctx()
	type result struct {
		o       opened
		claimed bool  // the seat is ours, whatever failed after
		release error // giving up the previous seat failed
	}
	load(v.u, "", func() (result, error) {
		var r result
		if prev != "" {
			r.release = sess.ReleaseClaim(ctx, prev)
		}
		cl, err := sess.ClaimReview(ctx, it.SampleID, it.Round)
		if err != nil {
			return r, err
		}
		r.claimed, r.o.claim = true, cl
		if r.o.info, err = sess.Sample(ctx, it.SampleID); err != nil {
			return r, err
		}
		r.o.reviews, r.o.reviewsErr = sess.Reviews(ctx, it.SampleID)
		r.o.events, _ = sess.History(ctx, it.SampleID) // no history shows none
		r.o.image = loadVerifyImageFrom(sess, pid, onServer, r.o.info)
		return r, nil
	}, func(r result, err error) {
		if r.release != nil {
			v.u.setStatus("%s", bench.Message(r.release))
		}
		if gen != v.opening { // another item was opened meanwhile
			if r.claimed {
				v.releaseSeat(it.SampleID)
			}
			return
		}
		switch {
		case err != nil && !r.claimed:
			v.showNotice(fmt.Sprintf("%s is not yours to review now", it.SampleID), bench.Message(err))
			v.u.setStatus("Could not claim %s: %s", it.SampleID, bench.Message(err))
			v.reload()
			return
		case err != nil:
			v.showNotice("Could not open "+it.SampleID, bench.Message(err))
			v.releaseSeat(it.SampleID)
			v.reload()
			return
		}
		v.cur = newOpenSample(v, it, r.o)
		v.centre.Objects = []fyne.CanvasObject{v.cur.centre}
		v.right.Objects = []fyne.CanvasObject{v.cur.panel}
		v.centre.Refresh()
		v.right.Refresh()
	})
}

// closeSample forgets the open sample, giving up its seat when it was left without
// a decision (after one the store has already freed it), and shows the idle panes.
func (v *verifyView) closeSample() {
	if v.cur != nil {
		v.releaseSeat(v.cur.info.ID)
	}
	v.opening++ // an open under way is no longer wanted
	v.cur = nil
	v.showIdle()
}

// releaseSeat gives up the user's seat on sample id off the UI goroutine.
func (v *verifyView) releaseSeat(id string) {
	sess, ctx := v.u.sess, v.u.ctx()
	act(v.u, "", func() error { return sess.ReleaseClaim(ctx, id) }, func(err error) {
		if err != nil {
			v.u.setStatus("%s", bench.Message(err))
		}
	})
}

func (v *verifyView) showIdle() {
	hint := widget.NewLabelWithStyle("Choose a sample from the queue, or press j.", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	v.centre.Objects = []fyne.CanvasObject{container.NewCenter(hint)}
	v.right.Objects = nil
	v.centre.Refresh()
	v.right.Refresh()
}

// showNotice replaces the open sample by a message, e.g. a refused claim.
func (v *verifyView) showNotice(title, text string) {
	v.cur = nil
	body := widget.NewLabel(text)
	body.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(heading(title), body)
	v.centre.Objects = []fyne.CanvasObject{container.NewPadded(box)}
	v.right.Objects = nil
	v.centre.Refresh()
	v.right.Refresh()
}

// approve records an approval.
func (v *verifyView) approve() { v.decide(verify.DecisionApprove) }

// reject records a rejection.
func (v *verifyView) reject() { v.decide(verify.DecisionReject) }

// decide sends the open sample's checklist as decision d. What a valid verdict is
// is verify.CheckVerdict's to say, the same function the store applies, so the
// screen refuses exactly what bwctl would and stores the same rows.
func (v *verifyView) decide(d verify.Decision) {
	o := v.cur
	if o == nil {
		return
	}
	verdict := o.verdict(d)
	if _, err := verify.CheckVerdict(o.info.Kind, o.item.Round, verdict); err != nil {
		o.refuse(refusalText(err))
		return
	}
	v.submit(verdict)
}

// submit sends the decision on the open sample off the UI goroutine; on success
// the outcome goes to the status bar and the next item of the queue opens. Its
// buttons (and keys) wait while it is sent; a refusal keeps the checklist and the
// comment as they were.
func (v *verifyView) submit(verdict verify.Verdict) {
	o := v.cur
	if o.sending {
		return
	}
	in := bench.ReviewInput{SampleID: o.info.ID, Round: o.item.Round, BasedOn: o.info.Revision, Verdict: verdict,
		Seconds: time.Since(o.opened).Seconds()}
	o.setSending(true)
	sess, ctx := v.u.sess, v.u.ctx()
	load(v.u, "", func() (verify.Outcome, error) {
		return sess.SubmitReview(ctx, in)
	}, func(out verify.Outcome, err error) {
		o.setSending(false)
		if v.cur != o {
			return // left meanwhile (another screen, sign-out)
		}
		if err != nil {
			o.refuse(refusalText(err))
			v.reload() // the seat or the revision may have changed meanwhile
			return
		}
		v.advance()
		v.u.setStatus("%s", outcomeText(o.info.ID, o.item.Round, out))
	})
}

// refusalText is a refused decision in words: verify names criteria by their labels
// for screens (its Error text names their ids, for command lines).
func refusalText(err error) string {
	if s, ok := verify.Sentence(err); ok {
		return s
	}
	return bench.Message(err)
}

// reasonLabels are reason codes as people read them.
func reasonLabels(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = verify.ReasonLabel(id)
	}
	return strings.Join(out, ", ")
}

// outcomeText says in words what a recorded decision did. A round-3 approval that does
// not close the round says nothing of the other votes (the round is blind).
func outcomeText(id string, round int, out verify.Outcome) string {
	switch out.Result {
	case verify.ResultAdvanced:
		return fmt.Sprintf("Approved %s in round %d: it moves on to round %d.", id, round, round+1)
	case verify.ResultWaiting:
		return fmt.Sprintf("Approved %s in round 3: your vote is recorded; the round closes when the panel is complete.", id)
	case verify.ResultAccepted:
		if round < 3 { // the final round of a 2-round project
			return fmt.Sprintf("Approved %s in round %d, the project's last round: the sample is accepted.", id, round)
		}
		return fmt.Sprintf("Approved %s in round 3: the panel approved unanimously and the sample is accepted.", id)
	case verify.ResultReturned:
		return fmt.Sprintf("Rejected %s in round %d: returned to its author with the reasons %s.", id, round, reasonLabels(out.Reasons))
	case verify.ResultLate:
		return fmt.Sprintf("Recorded your round-3 vote on %s for agreement; another panel member had already returned it.", id)
	}
	return fmt.Sprintf("Recorded your decision on %s (now %s).", id, out.State)
}

// skip moves on without a decision.
func (v *verifyView) skip() {
	o := v.cur
	if o == nil {
		return
	}
	v.advance()
	v.u.setStatus("Skipped %s; your seat on it is free for the other verifiers again.", o.info.ID)
}

// advance reloads the queue after the open sample was decided, corrected or skipped,
// and opens the item that followed it (wrapping to the start), if any.
func (v *verifyView) advance() {
	var order []string // the other items, starting after the current one
	if n := len(v.items); n > 0 {
		start := v.indexOf(v.curID()) + 1 // 0 when the open sample is not in the list
		for k := range n {
			if it := v.items[(start+k)%n]; it.SampleID != v.curID() {
				order = append(order, it.SampleID)
			}
		}
	}
	v.closeSample()
	v.reload(func() {
		for _, id := range order {
			if j := v.indexOf(id); j >= 0 {
				v.selectItem(j)
				return
			}
		}
		if len(v.items) == 0 {
			v.showNotice("Queue done", "Nothing left for you to review in this view. Samples appear in the queue when they enter a round you may verify.")
		}
	})
}

// typedRune handles the screen's keys; the canvas sends it runes only when no widget
// has the focus.
func (v *verifyView) typedRune(r rune) {
	if !v.active() {
		return
	}
	switch {
	case r == 'y' || r == 'Y':
		v.approve()
	case r == 'x' || r == 'X':
		v.reject()
	case r == 'j':
		v.step(1)
	case r == 'k':
		v.step(-1)
	case r >= '1' && r <= '9' && v.cur != nil:
		v.cur.checks.cycle(int(r - '1'))
	case (r == '[' || r == ']') && v.cur != nil && v.cur.seq != nil:
		v.cur.seq.step(map[rune]int{'[': -1, ']': 1}[r])
	case (r == 'g' || r == 'G') && v.cur != nil && v.cur.seq != nil:
		v.cur.seq.toggleGrid()
	}
}

// active reports whether the screen is shown and takes keys: it is in the window, no
// dialog is open and no text entry has the focus.
func (v *verifyView) active() bool {
	c := v.u.win.Canvas()
	if len(c.Overlays().List()) > 0 {
		return false
	}
	if isTextEntry(c.Focused()) {
		return false
	}
	return objectInTree(c.Content(), v)
}

// releaseFocus takes the focus from a list, check or canvas that grabbed it on a
// click, so that the screen's keys keep working; a text entry keeps it.
func (v *verifyView) releaseFocus() {
	c := v.u.win.Canvas()
	if c == nil || c.Focused() == nil {
		return
	}
	if !isTextEntry(c.Focused()) {
		c.Unfocus()
	}
}

// inTree reports whether target is o or inside o's containers, splits and scrolls.
func objectInTree(o, target fyne.CanvasObject) bool {
	switch x := o.(type) {
	case nil:
		return false
	case *fyne.Container:
		for _, c := range x.Objects {
			if objectInTree(c, target) {
				return true
			}
		}
	case *container.Split:
		return objectInTree(x.Leading, target) || objectInTree(x.Trailing, target)
	case *container.Scroll:
		return objectInTree(x.Content, target)
	}
	return o == target
}

func minutesText(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute"
	}
	return annotate.Plural(int(d/time.Minute), "minute")
}
