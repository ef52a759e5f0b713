package ui

import (
	"context"
	"fmt"
	"image"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/ui/boxcanvas"
	"github.com/benchwright/benchwright/verify"
)

// openSample is the sample under review: its panes, the verifier's marks and comment.
type openSample struct {
	v      *verifyView
	item   bench.QueueItem
	info   bench.SampleInfo
	claim  verify.Claim
	opened time.Time

	image   verifyImage
	canvas  *boxcanvas.Canvas // read-only: zoom and pan, never edits
	graph   *stepGraph        // step graphs only
	checks  *checklist
	other   *widget.Check
	comment *commentEntry
	summary *widget.Label // what a decision would send
	message *widget.Label // the last refusal

	approveBtn, rejectBtn, correctBtn, skipBtn *widget.Button
	sending                                    bool // a decision or correction is on its way: the buttons wait

	centre  fyne.CanvasObject // the picture over the sample's text (sampleColumn)
	body    sampleParts       // the sample's text: question, options or steps, tags
	caption *widget.Label     // under the picture
	seq     *verifySequence   // a sample of several images: its filmstrip and grid (verify_sequence.go)
	panel   *fyne.Container
}

// newOpenSample shows a queue item as op, read off the UI goroutine (verifyView.open).
func newOpenSample(v *verifyView, it bench.QueueItem, op opened) *openSample {
	info := op.info
	o := &openSample{v: v, item: it, info: info, claim: op.claim, opened: time.Now()}
	o.image = op.image
	o.canvas = boxcanvas.New(o.image.img, o.image.width, o.image.height)
	o.canvas.ReadOnly = true
	if b := info.Content.Box; b != nil && info.Content.BoxImage == 0 {
		o.canvas.SetBoxes([]annotate.Box{*b})
	}
	readout := widget.NewLabel("")
	o.canvas.OnReadout = func(s string) {
		readout.SetText(s)
		v.releaseFocus() // a click on the picture must not swallow the screen's keys
	}
	o.centre, o.caption = verifyImagePaneCaption(o.canvas, readout, o.image.caption(info.Content.Box))
	if info.Content.NumImages() > 1 {
		o.seq = newVerifySequence(o)
		o.caption.SetText(o.seq.caption(o.image))
		o.centre = o.seq.obj
	}
	if info.Kind == annotate.KindStepGraph {
		o.graph = newStepGraph()
		o.graph.SetSteps(info.Content.Steps)
		title := heading("Step graph (arrows lead from a precondition to its step)")
		title.Truncation = fyne.TextTruncateEllipsis // never wider than the column
		steps := container.NewBorder(title, nil, nil, nil, container.NewScroll(o.graph))
		split := container.NewVSplit(o.centre, steps)
		split.Offset = 0.55
		o.centre = split
	}

	// The sample's text goes under the picture, where a landscape image leaves room,
	// so that what is judged stays in view whatever the checklist's length (issue 27).
	o.body = sampleBodyParts(info.Kind, info.Content)
	o.centre = newSampleColumn(o.centre, container.NewPadded(container.NewVBox(o.body.objects...)))

	o.checks = newChecklist(verify.Criteria(info.Kind, it.Round), o.update)
	// Short enough for the panel at 1024 px; the comment's placeholder says the rest.
	o.other = widget.NewCheck(verify.OtherLabel, func(bool) {
		v.releaseFocus()
		o.update()
	})
	o.comment = newCommentEntry()
	o.comment.SetMinRowsVisible(2)
	o.comment.SetPlaceHolder("Comment for the author (needed for Other problem)")
	o.comment.OnChanged = func(string) { o.update() }
	o.summary = widget.NewLabel("")
	o.summary.Wrapping = fyne.TextWrapWord
	o.message = widget.NewLabel("")
	o.message.Wrapping = fyne.TextWrapWord
	o.message.Importance = widget.DangerImportance
	o.message.Hide()

	o.approveBtn = widget.NewButtonWithIcon("Approve (y)", theme.ConfirmIcon(), v.approve)
	o.approveBtn.Importance = widget.SuccessImportance
	o.rejectBtn = widget.NewButtonWithIcon("Reject (x)", theme.CancelIcon(), v.reject)
	o.rejectBtn.Importance = widget.DangerImportance
	o.correctBtn = widget.NewButtonWithIcon("Correct…", theme.DocumentCreateIcon(), v.openCorrection)
	o.skipBtn = widget.NewButtonWithIcon("Skip", theme.MediaSkipNextIcon(), v.skip)

	// Beside the picture: what the sample is on top, then the checklist with the
	// earlier reviews and the history below it, which scrolls when the window is
	// short, and Other problem, the comment and the decision, always in view. What a
	// decision would send and a refusal share one slot of fixed height, so a long
	// refusal never pushes the buttons off the window (issue 17).
	checks := container.NewVBox(heading(fmt.Sprintf("Round %d checklist", it.Round)), o.checks.object())
	checks.Objects = append(checks.Objects, o.earlierReviews(op.reviews, op.reviewsErr)...)
	if h := o.history(op.events); h != nil {
		checks.Add(h)
	}
	actions := container.NewVBox(widget.NewSeparator(), o.other, o.comment, fixedHeight(container.NewVBox(o.summary, o.message), 3),
		container.NewGridWithColumns(2, o.approveBtn, o.rejectBtn, o.correctBtn, o.skipBtn))
	o.panel = container.NewBorder(container.NewVBox(o.header()...), actions, nil, nil, container.NewVScroll(checks))
	o.update()
	return o
}

// commentEntry is the verifier's comment: Esc leaves it, as it leaves a field in
// Annotate, so that the screen's keys (x, y, j, k, digits) work again.
type commentEntry struct{ typingEntry }

func newCommentEntry() *commentEntry {
	e := &commentEntry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.ExtendBaseWidget(e)
	return e
}

func (e *commentEntry) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil {
			c.Unfocus()
		}
		return
	}
	e.typingEntry.TypedKey(ev)
}

// verdict is the open sample's checklist, Other problem and comment as decision d.
func (o *openSample) verdict(d verify.Decision) verify.Verdict {
	v := verify.Verdict{Decision: d, Judgements: o.checks.judgements(), Comment: o.comment.Text}
	if o.other.Checked {
		v.Reasons = []string{verify.ReasonOther}
	}
	return v
}

// update writes what a decision would send, and clears an old refusal. Which
// decisions are possible is verify.CheckVerdict's to say.
func (o *openSample) update() {
	defer o.relayout()
	o.message.Hide()
	o.summary.Show()
	open := len(o.checks.unmarked())
	rej, rejErr := verify.CheckVerdict(o.info.Kind, o.item.Round, o.verdict(verify.DecisionReject))
	if rejErr == nil {
		// People read the criteria's labels, not their ids.
		o.summary.SetText("Reject returns it to the author with: " + reasonLabels(rej.Reasons) + ".")
		return
	}
	if _, err := verify.CheckVerdict(o.info.Kind, o.item.Round, o.verdict(verify.DecisionApprove)); err == nil {
		o.summary.SetText("Every criterion is marked Yes: ready to approve.")
		return
	}
	if o.other.Checked { // what the reject still lacks, in verify's words (the comment)
		o.summary.SetText(refusalText(rejErr))
		return
	}
	o.summary.SetText(fmt.Sprintf("%d of %d criteria marked. Approve needs all Yes; reject needs a No or Other problem.",
		len(o.checks.marks)-open, len(o.checks.marks)))
}

// setSending disables the decision's buttons while a decision or a correction is
// on its way (no second one meanwhile, by button or key), and enables them after.
func (o *openSample) setSending(on bool) {
	o.sending = on
	for _, b := range []*widget.Button{o.approveBtn, o.rejectBtn, o.correctBtn, o.skipBtn} {
		if on {
			b.Disable()
		} else {
			b.Enable()
		}
	}
}

// refuse shows why a decision was not sent.
func (o *openSample) refuse(msg string) {
	o.message.SetText(msg)
	o.message.Show()
	o.summary.Hide()
	o.relayout()
}

// relayout fits the panel to texts that changed length.
func (o *openSample) relayout() {
	if o.panel != nil {
		o.panel.Refresh()
	}
}

// header says what the open sample is: its id and round, kind, revision, author and
// how long the seat is held; in round 3 that the round is blind.
func (o *openSample) header() []fyne.CanvasObject {
	u, info := o.v.u, o.info
	title := widget.NewLabelWithStyle(fmt.Sprintf("%s · round %d", info.ID, o.item.Round), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	left := o.claim.Expires.Sub(u.now()).Round(time.Minute)
	meta := reviewNote(fmt.Sprintf("%s · revision %d · by %s · claimed for you for %s", kindTitle(info.Kind), info.Revision, info.AuthorName, minutesText(left)))
	out := []fyne.CanvasObject{tightVBox(title, meta)}
	if o.item.Round == 3 {
		blind := widget.NewLabelWithStyle("Blind round: other votes are hidden until the round closes.", fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		blind.Wrapping = fyne.TextWrapWord
		blind.Importance = widget.WarningImportance
		out = append(out, blind)
	}
	return append(out, widget.NewSeparator())
}

// sampleBody shows a sample's content read-only: its question or task (the tagged
// phrases in their colours), its options with the answer marked, its steps or its
// answer, and its tags. The verifier screen and the sample manager show it alike.
func sampleBody(kind annotate.Kind, s annotate.Sample) []fyne.CanvasObject {
	return sampleBodyParts(kind, s).objects
}

// sampleParts is sampleBody with its question and its lines (options, steps or the
// answer) at hand, for the verifier's layout and its tests.
type sampleParts struct {
	objects  []fyne.CanvasObject
	question fyne.CanvasObject // the question's or task's text
	lines    []*widget.Label   // the options (the answer marked), the steps, or the answer
}

func sampleBodyParts(kind annotate.Kind, s annotate.Sample) sampleParts {
	var p sampleParts
	question := "Question"
	if kind == annotate.KindStepGraph {
		question = "Task"
	}
	if kind == annotate.KindHopQA && s.QuestionTag != "" {
		// The tagged phrases, in their categories' colours: the verifier checks
		// that each carries its category.
		tagged := widget.NewRichText(tagSegments(s)...)
		tagged.Wrapping = fyne.TextWrapWord
		p.question = tagged
		p.objects = append(p.objects, tightVBox(reviewCaption("Question (tagged phrases: ATT, POS, REL)"), tagged))
	} else {
		q := reviewText(s.Question, fyne.TextStyle{})
		p.question = q
		p.objects = append(p.objects, tightVBox(reviewCaption(question), q))
	}
	var head *widget.Label
	switch kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		head = reviewCaption("Options (✓ the labelled answer)")
		for i, opt := range s.Options {
			text := fmt.Sprintf("     %c.  %s", 'A'+i, opt)
			style := fyne.TextStyle{}
			if i == s.AnswerIndex {
				text, style = fmt.Sprintf("✓  %c.  %s", 'A'+i, opt), fyne.TextStyle{Bold: true}
			}
			p.lines = append(p.lines, reviewText(text, style))
		}
	case annotate.KindStepGraph:
		head = reviewCaption("Steps (the last one carries out the task)")
		for _, st := range s.Steps {
			text := st.ID + "  " + st.Content
			if len(st.Precondition) > 0 {
				text += "  ← after " + strings.Join(st.Precondition, ", ")
			}
			p.lines = append(p.lines, reviewText(text, fyne.TextStyle{}))
		}
	default:
		ans := s.AnswerText
		if s.Tolerance != nil {
			ans += fmt.Sprintf(" (± %g)", *s.Tolerance)
		}
		head = reviewCaption("Answer")
		p.lines = append(p.lines, reviewText("✓  "+ans, fyne.TextStyle{Bold: true}))
	}
	lines := []fyne.CanvasObject{head}
	for _, l := range p.lines {
		lines = append(lines, l)
	}
	p.objects = append(p.objects, tightVBox(lines...))
	if tags := sampleTagLine(s); tags != "" {
		p.objects = append(p.objects, reviewNote("Tags: "+tags))
	}
	return p
}

// earlierReviews lists the reviews of the sample's revisions that the verifier may
// see (the store hides the open round-3 votes of others), or why they cannot be read.
func (o *openSample) earlierReviews(reviews []bench.ReviewRecord, err error) []fyne.CanvasObject {
	if err != nil {
		return []fyne.CanvasObject{reviewText(bench.Message(err), fyne.TextStyle{Italic: true})}
	}
	if len(reviews) == 0 {
		return nil
	}
	lines := []fyne.CanvasObject{reviewCaption("Earlier reviews")}
	for _, r := range reviews {
		lines = append(lines, reviewText(reviewLine(o.info.Kind, r), fyne.TextStyle{}))
	}
	return []fyne.CanvasObject{tightVBox(lines...)}
}

// history is the sample's timeline, folded away (nil when there is none).
func (o *openSample) history(events []bench.Event) fyne.CanvasObject {
	if len(events) == 0 {
		return nil
	}
	hist := widget.NewLabel(historyText(events))
	hist.Wrapping = fyne.TextWrapWord
	hist.Importance = widget.LowImportance
	return widget.NewAccordion(widget.NewAccordionItem(fmt.Sprintf("History · %s", annotate.Plural(len(events), "event")), hist))
}

// historyText is a sample's timeline, one event a line, in local time.
func historyText(events []bench.Event) string {
	var lines []string
	for _, e := range events {
		at := e.At
		if t, err := time.Parse(time.RFC3339Nano, e.At); err == nil {
			at = t.Local().Format("2006-01-02 15:04")
		}
		lines = append(lines, strings.TrimSpace(fmt.Sprintf("%s  %s  %s", at, e.Actor, eventWords(e)))) // history_words.go
	}
	return strings.Join(lines, "\n")
}

// reviewLine is one review in words; its reasons are the criteria's labels.
func reviewLine(kind annotate.Kind, r bench.ReviewRecord) string {
	who := r.VerifierName
	if r.Group != "" {
		who += " (group " + r.Group + ")"
	}
	decision := map[verify.Decision]string{verify.DecisionApprove: "approved", verify.DecisionReject: "rejected"}[r.Decision]
	if decision == "" {
		decision = string(r.Decision)
	}
	line := fmt.Sprintf("Revision %d, round %d · %s · %s", r.Revision, r.Round, who, decision)
	if len(r.Reasons) > 0 {
		line += ": " + reasonLabels(r.Reasons)
	}
	if r.Comment != "" {
		line += " — “" + r.Comment + "”"
	}
	return line
}

// tagLine is the sample's hop, categories, view and subject, or its task, split and
// tags for the other kinds.
func sampleTagLine(s annotate.Sample) string {
	var parts []string
	if s.Kind == annotate.KindHopQA {
		cats := make([]string, len(s.Categories))
		for i, c := range s.Categories {
			cats[i] = string(c)
		}
		parts = append(parts, fmt.Sprintf("%d-hop", s.Hop), "categories "+strings.Join(cats, " + "))
		if s.View != "" {
			parts = append(parts, string(s.View)+" view")
		}
		if s.EgoSubject != "" {
			parts = append(parts, string(s.EgoSubject)+" subject")
		}
	}
	if s.Scene != "" {
		parts = append(parts, "scene "+s.Scene)
	}
	if s.Task != "" {
		parts = append(parts, "task "+s.Task)
	}
	if s.Split != "" {
		parts = append(parts, "split "+s.Split)
	}
	if s.Parent != "" {
		parts = append(parts, "derived from "+s.Parent)
	}
	parts = append(parts, s.Tags...)
	return strings.Join(parts, " · ")
}

// verifyImage is a sample's picture as the canvases show it.
type verifyImage struct {
	img           image.Image // the cached preview, or the file itself; nil when unreadable
	width, height int         // full-resolution size: box coordinates are in these pixels
	path          string
	warning       string // a missing or changed file, in words
}

// loadVerifyImage reads the sample's cached preview (the original file when the
// preview is missing).
//
//bw:background
func loadVerifyImage(u *App, info bench.SampleInfo) verifyImage {
	return loadVerifyImageFrom(u.sess, u.project.ID, u.onServer(), info)
}

// loadVerifyImageFrom is loadVerifyImage with what it reads of the app passed in,
// for goroutines. On a team server the image files are the server's: their
// state is the server's to check (its audit does), and only the preview is read.
//
//bw:background
func loadVerifyImageFrom(sess bench.Session, projectID int64, onServer bool, info bench.SampleInfo) verifyImage {
	return loadVerifyImagePath(sess, projectID, onServer, info.ImagePath)
}

// loadVerifyImagePath is loadVerifyImageFrom for the image at project path rel.
// It calls the store: run it off the UI goroutine (in a load's run).
//
//bw:background
func loadVerifyImagePath(sess bench.Session, projectID int64, onServer bool, rel string) verifyImage {
	ctx := context.Background()
	if rel == "" {
		return verifyImage{warning: "This sample names no image."}
	}
	im, err := sess.ImageByPath(ctx, projectID, rel)
	if err != nil {
		return verifyImage{path: rel, warning: bench.Message(err)}
	}
	si := verifyImage{width: im.Width, height: im.Height, path: im.RelPath}
	if err := imageFileProblem(im, onServer); err != nil {
		si.warning = bench.Message(err)
	}
	p, perr := sess.ImageFile(ctx, im.SHA256, bench.ImagePreview)
	if perr == nil {
		if si.img, perr = imaging.Open(p); perr == nil {
			return si
		}
	}
	if onServer {
		si.img, si.warning = nil, "The preview cannot be read: "+bench.Message(perr)
		return si
	}
	if si.img, err = imaging.Open(im.Path(), imaging.AutoOrientation(true)); err != nil {
		si.img, si.warning = nil, "Neither the preview nor the image file can be read: "+err.Error()
	}
	return si
}

// imageFileProblem says what is wrong with an image's file on this machine: nothing
// to say on a team server's workstation, where the files are the server's.
func imageFileProblem(im bench.Image, onServer bool) error {
	if onServer {
		return nil
	}
	return im.CheckFile()
}

// caption describes the picture under the canvas: path, size, the box and any warning.
func (si verifyImage) caption(box *annotate.Box) string {
	parts := []string{si.path}
	if si.width > 0 {
		parts = append(parts, fmt.Sprintf("%d×%d px", si.width, si.height))
	}
	if box != nil {
		b := box.Normalize()
		parts = append(parts, fmt.Sprintf("box %.0f,%.0f – %.0f,%.0f", b[0], b[1], b[2], b[3]))
	}
	if si.warning != "" {
		parts = append(parts, "⚠ "+si.warning)
	}
	return strings.Join(parts, " · ")
}

// imagePane is a canvas with zoom, fit and 100% buttons above it, the pixel readout
// beside them and a caption below.
func verifyImagePane(c *boxcanvas.Canvas, readout *widget.Label, text string) fyne.CanvasObject {
	pane, _ := verifyImagePaneCaption(c, readout, text)
	return pane
}

// verifyImagePaneCaption is verifyImagePane that also gives its caption, which a
// sequence changes with the image shown.
func verifyImagePaneCaption(c *boxcanvas.Canvas, readout *widget.Label, text string) (fyne.CanvasObject, *widget.Label) {
	bar := container.NewHBox(
		widget.NewButtonWithIcon("", theme.ZoomOutIcon(), c.ZoomOut),
		widget.NewButtonWithIcon("", theme.ZoomInIcon(), c.ZoomIn),
		widget.NewButtonWithIcon("Fit", theme.ZoomFitIcon(), c.FitToWindow),
		zoomButton(c),
	)
	readout.Importance = widget.LowImportance
	cap := reviewNote(text)
	cap.Wrapping = fyne.TextWrapOff
	cap.Truncation = fyne.TextTruncateEllipsis
	return container.NewBorder(container.NewBorder(nil, nil, bar, nil, readout), cap, nil, nil, c), cap
}

// sampleColumn shows the picture over the sample's text. The text gets the height
// it needs, up to textShare of the column, and scrolls beyond it; the picture gets
// the rest. A landscape image in a column leaves room below it, which the text uses.
type sampleColumn struct{}

// textShare is the most of the column's height that the sample's text takes.
const textShare = 0.6

func newSampleColumn(picture, text fyne.CanvasObject) *fyne.Container {
	return container.New(sampleColumn{}, picture, container.NewVScroll(text))
}

func (sampleColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	picture, scroll := objs[0], objs[1].(*container.Scroll)
	// Wrapped labels know their height once they have their width.
	scroll.Content.Resize(fyne.NewSize(size.Width, scroll.Content.MinSize().Height))
	h := min(scroll.Content.MinSize().Height, size.Height*textShare)
	pad := theme.Padding()
	picture.Move(fyne.NewPos(0, 0))
	picture.Resize(fyne.NewSize(size.Width, max(size.Height-h-pad, 0)))
	scroll.Move(fyne.NewPos(0, size.Height-h))
	scroll.Resize(fyne.NewSize(size.Width, h))
}

func (sampleColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	p, s := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(max(p.Width, s.Width), p.Height+s.Height+theme.Padding())
}

// tightVBox stacks labels as consecutive lines, without the gap of a VBox.
func tightVBox(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(layout.NewCustomPaddedVBoxLayout(-2*theme.Padding()), objs...)
}

func reviewCaption(text string) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Importance = widget.LowImportance
	return l
}

func reviewNote(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.LowImportance
	return l
}

func reviewText(text string, style fyne.TextStyle) *widget.Label {
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, style)
	l.Wrapping = fyne.TextWrapWord
	return l
}
