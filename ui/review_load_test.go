package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// heldLoads keeps the loads a screen starts until the test runs them, as a slow
// team server would: what the screen shows meanwhile can be checked.
type heldLoads struct{ pending []func() }

func holdReviewLoads(t *testing.T) *heldLoads {
	h := &heldLoads{}
	inBackground = func(f func()) { h.pending = append(h.pending, f) }
	t.Cleanup(func() { inBackground = func(f func()) { f() } })
	return h
}

// run runs the held loads in the order they were started, and those they start.
func (h *heldLoads) run() {
	for len(h.pending) > 0 {
		f := h.pending[0]
		h.pending = h.pending[1:]
		f()
	}
}

// runAt runs only the i-th held load.
func (h *heldLoads) runAt(i int) {
	f := h.pending[i]
	h.pending = slices.Delete(h.pending, i, i+1)
	f()
}

// TestAugmentButtonsWaitForTheirWrite: while a discard is on its way, Accept, Edit
// and Discard wait (a second tap sends nothing); when it is done the list comes
// again with them enabled.
func TestAugmentButtonsWaitForTheirWrite(t *testing.T) {
	u, db := demoApp(t)
	acceptedDemoGraph(t, db)
	v := openAugment(t, u, "lead")
	before := keys(v)
	h := holdReviewLoads(t)
	test.Tap(v.discard)
	if !v.accept.Disabled() || !v.edit.Disabled() || !v.discard.Disabled() {
		t.Errorf("while the discard runs: accept disabled %v, edit %v, discard %v", v.accept.Disabled(), v.edit.Disabled(), v.discard.Disabled())
	}
	test.Tap(v.discard)
	test.Tap(v.accept)
	if len(h.pending) != 1 {
		t.Fatalf("%d writes sent, want the one discard", len(h.pending))
	}
	h.run()
	if got := keys(v); !slices.Equal(got, before[1:]) {
		t.Fatalf("after the discard %v, want %v", got, before[1:])
	}
	if v.discard.Disabled() || !strings.HasPrefix(v.status.Text, "Discarded ") {
		t.Errorf("after the discard: discard disabled %v, status %q", v.discard.Disabled(), v.status.Text)
	}
}

// TestVerifyDecisionWaitsAndARefusalKeepsTheWork: while an approval is on its
// way the decision's buttons and keys wait; when the store refuses it (a lead
// withdrew the sample meanwhile) the refusal is shown in words and the checklist
// and the comment stay as the verifier left them.
func TestVerifyDecisionWaitsAndARefusalKeepsTheWork(t *testing.T) {
	u, db := demoApp(t)
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, "demo-hq-004")
	tapAllYes(o)
	test.Type(o.comment, "Clear picture.")
	u.win.Canvas().Unfocus()
	marks := slices.Clone(o.checks.marks)

	h := holdReviewLoads(t)
	test.Tap(o.approveBtn)
	for _, b := range []struct {
		name     string
		disabled bool
	}{{"approve", o.approveBtn.Disabled()}, {"reject", o.rejectBtn.Disabled()}, {"correct", o.correctBtn.Disabled()}, {"skip", o.skipBtn.Disabled()}} {
		if !b.disabled {
			t.Errorf("%s is enabled while the approval is sent", b.name)
		}
	}
	press(u, "y")
	test.Tap(o.approveBtn)
	if len(h.pending) != 1 {
		t.Fatalf("%d decisions sent, want one", len(h.pending))
	}

	ctx := context.Background()
	lead, err := db.Authenticate(ctx, "lead", "demo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WithdrawSamples(ctx, lead, []string{"demo-hq-004"}, "duplicate"); err != nil {
		t.Fatal(err)
	}
	h.run()
	if v.cur != o || !o.message.Visible() || o.message.Text == "" {
		t.Fatalf("the refusal is not shown on the open sample (open %v, message %q)", v.cur == o, o.message.Text)
	}
	if o.comment.Text != "Clear picture." || !slices.Equal(o.checks.marks, marks) {
		t.Errorf("after the refusal: comment %q, marks %v; want them kept (%v)", o.comment.Text, o.checks.marks, marks)
	}
	if o.approveBtn.Disabled() || o.rejectBtn.Disabled() {
		t.Error("the decision's buttons stay disabled after the refusal")
	}
	if s := status(t, db, "demo-hq-004"); s != verify.StateWithdrawn {
		t.Errorf("demo-hq-004 is %s", s)
	}
}

// TestVerifyOpeningAnotherItemDropsTheFirst: when a second item is opened before
// the first one's claim came back, the first is dropped and its seat given up, so
// that it is offered to the other verifiers again.
func TestVerifyOpeningAnotherItemDropsTheFirst(t *testing.T) {
	u, db := demoApp(t)
	v := openVerify(t, u, "ver1")
	h := holdReviewLoads(t)
	v.list.Select(v.indexOf("demo-hq-004"))
	v.list.Select(v.indexOf("demo-hq-007"))
	if v.cur != nil || len(h.pending) != 2 {
		t.Fatalf("before the answers: open %v, %d loads", v.cur != nil, len(h.pending))
	}
	h.runAt(1) // the second answers first
	h.run()
	if v.cur == nil || v.cur.info.ID != "demo-hq-007" {
		t.Fatalf("open: %v, want demo-hq-007 (status %q)", v.cur, u.status.Text)
	}
	ver2, err := db.Authenticate(context.Background(), "ver2", "demo")
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.ReviewQueue(context.Background(), ver2, u.project.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ids := queueIDs(q); !slices.Contains(ids, "demo-hq-004") || slices.Contains(ids, "demo-hq-007") {
		t.Errorf("ver2's round-1 queue %v: want demo-hq-004 free again and demo-hq-007 held", ids)
	}
}

// TestSamplesActionsWaitForTheirWrite: while a withdrawal of the selection runs,
// the selection's actions wait; after it they act again.
func TestSamplesActionsWaitForTheirWrite(t *testing.T) {
	u, v := openSamplesScreen(t, "lead")
	i := slices.IndexFunc(v.page.Rows, func(r bench.SampleRow) bool { return r.Status == verify.StateRound1 })
	if i < 0 {
		t.Fatal("no sample in round 1 on the first page")
	}
	id := v.page.Rows[i].ID
	v.toggle(id)
	h := holdReviewLoads(t)
	v.withdraw("no longer needed")
	for _, b := range v.actions {
		if b.Visible() && !b.Disabled() {
			t.Errorf("%q is enabled while the withdrawal runs", b.Text)
		}
	}
	if len(h.pending) != 1 {
		t.Fatalf("%d loads, want the withdrawal", len(h.pending))
	}
	h.run()
	if !strings.Contains(v.message.Text, "Withdrew") {
		t.Errorf("message %q", v.message.Text)
	}
	si, err := u.db.As(bench.Owner()).Sample(context.Background(), id)
	if err != nil || si.Status != verify.StateWithdrawn {
		t.Errorf("%s is %s (%v)", id, si.Status, err)
	}
}
