package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// At 1400×900 a hop-QA round's criteria all show beside the sample without
// scrolling, and a refusal, however long, leaves Approve, Reject, Correct… and Skip
// on the screen above the status bar (issue 17).
func TestVerifyChecklistAndButtonsFitAt1400x900(t *testing.T) {
	u, db := demoApp(t)
	db.Now = func() time.Time { return time.Date(2030, 1, 2, 10, 0, 0, 0, time.UTC) }
	u.win.Resize(fyne.NewSize(1400, 900))
	v := openVerify(t, u, "ver3")
	o := openItem(t, v, "demo-hq-003")
	if o.item.Round != 2 || len(o.checks.criteria) < 6 {
		t.Fatalf("round %d with %d criteria", o.item.Round, len(o.checks.criteria))
	}
	d := fyne.CurrentApp().Driver()
	statusTop := d.AbsolutePositionForObject(u.status).Y
	// above reports whether obj shows wholly between the panel's top and y.
	onScreenAbove := func(what string, obj fyne.CanvasObject, y float32) {
		t.Helper()
		p, top := d.AbsolutePositionForObject(obj), d.AbsolutePositionForObject(o.panel).Y
		if !obj.Visible() || p.Y < top || p.Y+obj.Size().Height > y || obj.Size().Height == 0 {
			t.Errorf("%s at y %.0f–%.0f, out of %.0f–%.0f", what, p.Y, p.Y+obj.Size().Height, top, y)
		}
	}
	onScreen := func(what string, obj fyne.CanvasObject) { t.Helper(); onScreenAbove(what, obj, statusTop) }
	// The criteria show above Other problem, not hidden behind it in a scroll.
	footerTop := d.AbsolutePositionForObject(o.other).Y
	for i := range o.checks.criteria {
		onScreenAbove(o.checks.criteria[i].Label+" Yes", o.checks.yes[i], footerTop)
		onScreenAbove(o.checks.criteria[i].Label+" No", o.checks.no[i], footerTop)
	}
	buttons := func() {
		t.Helper()
		for _, b := range []fyne.CanvasObject{o.approveBtn, o.rejectBtn, o.correctBtn, o.skipBtn} {
			onScreen("the decision buttons", b)
		}
	}
	buttons()

	press(u, "y") // approve with nothing marked: refused in words
	if !o.message.Visible() || o.message.Text == "" {
		t.Fatal("approving an unmarked checklist was not refused")
	}
	buttons()
	o.refuse(strings.Repeat("A refusal that runs on for several lines of the panel. ", 12))
	buttons()
	test.Tap(o.checks.no[1])
	assertGolden(t, "verify_hop_qa_1400.png", u.win)
}
