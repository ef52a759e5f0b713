package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// A new sample's kind is chosen every time: Create waits for the choice, even after
// a sample of some kind was just made.
func TestAnnotateNewSampleAsksItsKind(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	newSampleOn(t, ws, "0001-office-1/img_001.jpg", annotate.KindMCQ)
	ws.allImages.SetChecked(true)
	for i, it := range ws.items {
		if it.kind == qImage && it.image.RelPath == "0002-kitchen-1/img_002.jpg" {
			ws.queue.Select(i)
		}
	}
	if ws.newSampleChoice == nil {
		t.Fatal("the image offers no new sample")
	}
	if ws.newSampleChoice.Selected != "" || !ws.newSampleButton.Disabled() {
		t.Fatalf("kind %q chosen before the annotator chose (Create enabled: %v)", ws.newSampleChoice.Selected, !ws.newSampleButton.Disabled())
	}
	ws.newSampleChoice.SetSelected(kindTitle(annotate.KindJudgment))
	if ws.newSampleButton.Disabled() {
		t.Fatal("Create stays disabled once a kind is chosen")
	}
	test.Tap(ws.newSampleButton)
	if ws.sample == nil || ws.sample.Kind != annotate.KindJudgment {
		t.Fatalf("created %+v", ws.sample)
	}
}

func TestAnnotateDeleteDraftAndUndo(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	ctx := context.Background()
	newSampleOn(t, ws, "0001-office-1/img_001.jpg", annotate.KindJudgment)
	ws.form.(*judgmentForm).question.SetText("Is the lamp left of the desk?")
	id := ws.sample.ID
	if !ws.deleteBtn.Visible() {
		t.Fatal("a new draft offers no Delete")
	}
	test.Tap(ws.deleteBtn)
	if _, err := u.db.As(bench.Owner()).Sample(ctx, id); !errors.Is(err, bench.ErrNotFound) {
		t.Fatalf("after Delete: %v", err)
	}
	for _, it := range ws.items {
		if it.kind == qSample && it.sample.ID == id {
			t.Fatal("the deleted draft is still in the queue")
		}
	}
	if ws.undoBtn == nil || !ws.undoBtn.Visible() {
		t.Fatal("no Undo after Delete")
	}
	test.Tap(ws.undoBtn)
	back, err := u.db.As(bench.Owner()).Sample(ctx, id)
	if err != nil || back.Content.Question != "Is the lamp left of the desk?" {
		t.Fatalf("after Undo: %q, %v", back.Content.Question, err)
	}
	if ws.sample == nil || ws.sample.ID != id {
		t.Fatal("the restored draft is not open")
	}
	// A submitted sample has no Delete.
	ws.openSample("demo-hq-006") // ann2's, returned: not ann1's
	if ws.deleteBtn.Visible() {
		t.Fatal("Delete offered on a sample that is not a new draft")
	}
}

// A returned sample cannot go back unchanged; a change lifts the block.
func TestAnnotateReturnedUnchangedIsNotResubmitted(t *testing.T) {
	u, ws := openAnnotate(t, "ann2")
	if ws.sample == nil || ws.sample.Status != verify.StateReturned {
		t.Fatalf("open: %+v", ws.sample)
	}
	ws.submit()
	if s, _ := u.db.As(bench.Owner()).Sample(context.Background(), ws.sample.ID); s.Status != verify.StateReturned {
		t.Fatalf("resubmitted unchanged: %s", s.Status)
	}
	if !strings.Contains(u.status.Text, "Nothing changed since it was returned") || !ws.submitBtn.Disabled() {
		t.Fatalf("status %q, submit enabled %v", u.status.Text, !ws.submitBtn.Disabled())
	}
	f := ws.form.(*hopForm)
	f.options.entries[0].SetText("the frying pan")
	if ws.submitBlocker() != "" {
		t.Fatalf("after a change: %q", ws.submitBlocker())
	}
}

// The annotator's submitted samples stay in the queue with their state and open
// read-only.
func TestAnnotateSubmittedSection(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	header, n := "", 0
	var first int
	for i, it := range ws.items {
		if it.kind == qHeader && strings.HasPrefix(it.title, "Submitted") {
			header = it.title
		}
		if it.kind == qSample && it.submitted {
			if n == 0 {
				first = i
			}
			n++
			if it.sample.Status == verify.StateDraft || it.sample.Status == verify.StateReturned {
				t.Errorf("%s is %s and listed as submitted", it.sample.ID, it.sample.Status)
			}
			if !strings.Contains(it.title, stateTitle(it.sample.Status)) {
				t.Errorf("%q does not say its state", it.title)
			}
		}
	}
	if header == "" || n == 0 {
		t.Fatalf("no Submitted section: %q, %d", header, n)
	}
	ws.queue.Select(first)
	if ws.sample != nil {
		t.Fatal("a submitted sample opened in the editor")
	}
	found := false
	for _, o := range test.LaidOutObjects(ws.right) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "read-only") {
			found = true
		}
	}
	if !found {
		t.Fatal("the submitted sample is not shown read-only")
	}
}
