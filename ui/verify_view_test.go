package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// pathTo is the chain of objects from root down to target, through containers and
// widgets' renderers (nil when target is not under root).
func pathTo(root, target fyne.CanvasObject) []fyne.CanvasObject {
	if root == nil {
		return nil
	}
	if root == target {
		return []fyne.CanvasObject{root}
	}
	var kids []fyne.CanvasObject
	switch x := root.(type) {
	case *fyne.Container:
		kids = x.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(x).Objects()
	}
	for _, k := range kids {
		if p := pathTo(k, target); p != nil {
			return append([]fyne.CanvasObject{root}, p...)
		}
	}
	return nil
}

type rect struct{ x1, y1, x2, y2 float32 }

func rectOf(o fyne.CanvasObject) rect {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return rect{p.X, p.Y, p.X + o.Size().Width, p.Y + o.Size().Height}
}

func (r rect) within(o rect) bool {
	const slack = 0.5
	return r.x1 >= o.x1-slack && r.y1 >= o.y1-slack && r.x2 <= o.x2+slack && r.y2 <= o.y2+slack
}

// shownWhole says why obj is not shown whole in the window above the status bar: it
// or a parent is hidden, it has no size, it sticks out of the window or is scrolled
// out of a scroll's view ("" when it is shown whole).
func shownWhole(u *App, obj fyne.CanvasObject) string {
	path := pathTo(u.win.Content(), obj)
	if path == nil {
		return "not in the window"
	}
	r := rectOf(obj)
	if obj.Size().Width < 1 || obj.Size().Height < 1 {
		return fmt.Sprintf("of size %v", obj.Size())
	}
	win := rect{0, 0, u.win.Canvas().Size().Width, rectOf(u.status).y1}
	if !r.within(win) {
		return fmt.Sprintf("at %v, out of the window %v", r, win)
	}
	for _, p := range path {
		if !p.Visible() {
			return fmt.Sprintf("inside a hidden %T", p)
		}
		if s, ok := p.(*container.Scroll); ok && s != obj && !r.within(rectOf(s)) {
			return fmt.Sprintf("at %v, scrolled out of view %v", r, rectOf(s))
		}
	}
	return ""
}

// insideScroll reports whether obj is in a scroll, so that it can be brought into view.
func insideScroll(u *App, obj fyne.CanvasObject) bool {
	for _, p := range pathTo(u.win.Content(), obj) {
		if _, ok := p.(*container.Scroll); ok {
			return true
		}
	}
	return false
}

// A verifier judges what they see: the image with its box, the question and every
// option — the one marked correct among them — stay in view beside the checklist at
// 1024×700 and 1400×900, in round 1 and in round 2's longer checklist; the checklist
// scrolls instead, and the decision buttons stay on the screen (issue 27, item 8).
func TestVerifySampleStaysInViewWhileJudging(t *testing.T) {
	for _, tc := range []struct {
		w, h    float32
		who, id string // id "": a sequence of three images (submittedSequence)
	}{
		{1024, 700, "ver1", "demo-hq-004"}, // hop-QA round 1: 4 criteria
		{1024, 700, "ver3", "demo-hq-003"}, // hop-QA round 2: 6 criteria
		{1400, 900, "ver3", "demo-hq-003"},
		{1024, 700, "ver3", "demo-mc-001"}, // MCQ round 2
		{1024, 700, "ver1", "demo-sg-002"}, // step graph: the task and steps
		{1024, 700, "ver1", ""},            // a sequence: its filmstrip under the picture
	} {
		t.Run(fmt.Sprintf("%s/%.0fx%.0f", tc.id, tc.w, tc.h), func(t *testing.T) {
			u, db := demoApp(t)
			db.Now = func() time.Time { return time.Date(2030, 1, 2, 10, 0, 0, 0, time.UTC) }
			if tc.id == "" {
				si, _, _ := submittedSequence(t, db)
				tc.id = si.ID
			}
			u.win.Resize(fyne.NewSize(tc.w, tc.h))
			v := openVerify(t, u, tc.who)
			o := openItem(t, v, tc.id)
			if o.body.question == nil || len(o.body.lines) == 0 {
				t.Fatal("the sample shows no question or no options")
			}
			check := func(what string, obj fyne.CanvasObject) {
				t.Helper()
				if why := shownWhole(u, obj); why != "" {
					t.Errorf("%s is %s", what, why)
				}
				if m := obj.MinSize().Width; m > obj.Size().Width+0.5 {
					t.Errorf("%s needs %.0f px and has %.0f: it is drawn past its room", what, m, obj.Size().Width)
				}
			}
			check("the question", o.body.question)
			for _, l := range o.body.lines {
				check(fmt.Sprintf("%q", l.Text), l)
			}
			check("the picture", o.canvas)
			if h := o.canvas.Size().Height; h < 100 { // a step graph's picture shares its room with the graph

				t.Errorf("the picture is %.0f px high", h)
			}
			for _, b := range []fyne.CanvasObject{o.approveBtn, o.rejectBtn, o.correctBtn, o.skipBtn, o.other, o.comment} {
				check(fmt.Sprintf("%T", b), b)
			}
			check("criterion 1's Yes", o.checks.yes[0])
			for i := range o.checks.criteria {
				if !insideScroll(u, o.checks.no[i]) && shownWhole(u, o.checks.no[i]) != "" {
					t.Errorf("criterion %d's No is neither shown nor in a scroll", i+1)
				}
			}
			// Nothing of the panel sticks out of the window's right edge.
			if r := rectOf(o.panel); r.x2 > tc.w+0.5 {
				t.Errorf("the panel reaches x %.0f in a window %.0f wide", r.x2, tc.w)
			}
		})
	}
}

// Esc leaves the comment, as it leaves a field in Annotate, and the screen's keys
// work again: x then rejects with what was typed (issue 27, item 9).
func TestVerifyEscLeavesTheComment(t *testing.T) {
	u, db := demoApp(t)
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, "demo-hq-007")
	tapMark(t, o, "box_on_answer", markNo)
	c := u.win.Canvas()
	c.Focus(o.comment)
	test.Type(o.comment, "The box is on the cup, not the ball.")
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) // the driver gives keys to the focused widget
	if f := c.Focused(); f != nil {
		t.Fatalf("after Esc %T has the focus", f)
	}
	press(u, "x")
	if s := status(t, db, "demo-hq-007"); s != verify.StateReturned {
		t.Fatalf("x after Esc left the sample %s (comment %q, message %q)", s, o.comment.Text, o.message.Text)
	}
	revs, err := db.Reviews(context.Background(), u.user, "demo-hq-007")
	if err != nil || len(revs) != 1 || revs[0].Comment != "The box is on the cup, not the ball." {
		t.Fatalf("stored reviews %+v, %v", revs, err)
	}
}

// internalIDs are the names code uses that people should never read: criterion
// ids, the reason code "other" (quoted, as a command line gives it) and kind ids.
func internalIDs() []string {
	ids := []string{`"other"`, "spec §"}
	for _, k := range annotate.Kinds {
		ids = append(ids, string(k))
		for r := 1; r <= 3; r++ {
			for _, c := range verify.Criteria(k, r) {
				if !slices.Contains(ids, c.ID) {
					ids = append(ids, c.ID)
				}
			}
		}
	}
	return ids
}

func assertNoIDs(t *testing.T, where, text string) {
	t.Helper()
	for _, id := range internalIDs() {
		if strings.Contains(text, id) {
			t.Errorf("%s shows the internal name %s: %q", where, id, text)
		}
	}
}

// A verifier reads sentences: the queue, the sample, a refusal and the outcome of a
// decision name criteria, reasons and kinds as people do, never by the ids code
// and command lines use (issue 27, item 10).
func TestVerifierReadsNoInternalIDs(t *testing.T) {
	u, db := demoApp(t)
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, "demo-hq-004")
	assertNoIDs(t, "the screen", labelTexts(v.root))

	press(u, "y") // nothing marked
	if !strings.Contains(o.message.Text, "not judged: Objects exist, Box on the answer") {
		t.Errorf("refusal %q", o.message.Text)
	}
	assertNoIDs(t, "the refused approval", o.message.Text)

	test.Tap(o.other)
	press(u, "x")
	if !strings.Contains(o.message.Text, "Other problem needs a comment") {
		t.Errorf("refusal %q", o.message.Text)
	}
	assertNoIDs(t, "the refused rejection", o.message.Text)
	assertNoIDs(t, "the summary", o.summary.Text)

	test.Tap(o.other)
	tapMark(t, o, "box_on_answer", markNo)
	assertNoIDs(t, "the summary", o.summary.Text)
	press(u, "x")
	if s := status(t, db, "demo-hq-004"); s != verify.StateReturned {
		t.Fatalf("x left the sample %s", s)
	}
	if !strings.Contains(u.status.Text, "with the reasons Box on the answer") {
		t.Errorf("status bar %q", u.status.Text)
	}
	assertNoIDs(t, "the status bar", u.status.Text)
}
