package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// openVerify signs in as name (signing out whoever was signed in) and shows the
// Verify screen of the demo project.
func openVerify(t *testing.T, u *App, name string) *verifyView {
	t.Helper()
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	if u.user.ID != 0 {
		u.showSignIn()
	}
	signInAs(t, u, name, "demo")
	if u.user.Name != name || u.project.Name != "demo" {
		t.Fatalf("signed in as %q on %q", u.user.Name, u.project.Name)
	}
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Verify" })
	u.nav.Select(i)
	v, ok := u.content.Objects[0].(*verifyView)
	if !ok {
		t.Fatalf("the Verify screen of %s is a %T", name, u.content.Objects[0])
	}
	return v
}

// openItem selects sample id in the queue list, as a click does.
func openItem(t *testing.T, v *verifyView, id string) *openSample {
	t.Helper()
	i := v.indexOf(id)
	if i < 0 {
		t.Fatalf("%s is not in %s's queue %v", id, v.u.user.Name, queueIDs(v.items))
	}
	v.list.Select(i)
	if v.cur == nil || v.cur.info.ID != id {
		t.Fatalf("selecting %s did not open it (status %q)", id, v.u.status.Text)
	}
	return v.cur
}

func queueIDs(items []bench.QueueItem) []string {
	var ids []string
	for _, it := range items {
		ids = append(ids, it.SampleID)
	}
	return ids
}

// tapMark clicks Yes or No on the criterion with id.
func tapMark(t *testing.T, o *openSample, id string, m criterionMark) {
	t.Helper()
	i := slices.IndexFunc(o.checks.criteria, func(c verify.Criterion) bool { return c.ID == id })
	if i < 0 {
		t.Fatalf("round %d of %s has no criterion %q", o.item.Round, o.info.Kind, id)
	}
	b := o.checks.yes[i]
	if m == markNo {
		b = o.checks.no[i]
	}
	test.Tap(b)
}

// tapAllYes clicks Yes on every criterion not marked Yes yet.
func tapAllYes(o *openSample) {
	for i, b := range o.checks.yes {
		if o.checks.marks[i] != markYes {
			test.Tap(b)
		}
	}
}

func press(u *App, keys string) { test.TypeOnCanvas(u.win.Canvas(), keys) }

func status(t *testing.T, db *store.DB, id string) verify.State {
	t.Helper()
	s, err := db.Sample(context.Background(), bench.Owner(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Status
}

func TestVerifierApprovesAndRoundTwoGoesToAnotherGroup(t *testing.T) {
	u, db := demoApp(t)
	v := openVerify(t, u, "ver1")
	if got := queueIDs(v.items); !slices.Equal(got, []string{"demo-hq-004", "demo-hq-007", "demo-sg-002"}) {
		t.Fatalf("ver1's queue %v, want the three round-1 samples", got)
	}
	o := openItem(t, v, "demo-hq-004")

	// Opening claimed the only round-1 seat: ver2 may not take it now.
	ver2, err := db.Authenticate(context.Background(), "ver2", "demo")
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := db.ReviewQueue(context.Background(), ver2, u.project.ID, 1); slices.Contains(queueIDs(q), "demo-hq-004") {
		t.Error("an opened sample is still offered to another verifier")
	}

	// y with the checklist not complete is refused, in words.
	tapMark(t, o, "objects_exist", markYes)
	press(u, "y")
	if !o.message.Visible() || !strings.Contains(o.message.Text, "not judged: Box on the answer") ||
		strings.Contains(o.message.Text, "box_on_answer") {
		t.Errorf("approve with unmarked criteria: message %q", o.message.Text)
	}
	if s := status(t, db, "demo-hq-004"); s != verify.StateRound1 {
		t.Fatalf("refused approval moved the sample to %s", s)
	}
	// Keys go to a text entry that has the focus, not to the screen.
	tapAllYes(o)
	u.win.Canvas().Focus(o.comment)
	press(u, "y")
	if s := status(t, db, "demo-hq-004"); s != verify.StateRound1 {
		t.Fatalf("y typed into the comment approved the sample (%s)", s)
	}
	u.win.Canvas().Unfocus()
	if !strings.Contains(o.summary.Text, "ready to approve") {
		t.Errorf("summary %q", o.summary.Text)
	}
	press(u, "y")
	if s := status(t, db, "demo-hq-004"); s != verify.StateRound2 {
		t.Fatalf("after y the sample is in %s, want round2 (message %q)", s, o.message.Text)
	}
	if !strings.Contains(u.status.Text, "Approved demo-hq-004 in round 1: it moves on to round 2") {
		t.Errorf("status bar %q", u.status.Text)
	}
	if v.cur == nil || v.cur.info.ID != "demo-hq-007" {
		t.Errorf("after the decision %v is open, want the next item demo-hq-007", v.cur)
	}
	revs, err := db.Reviews(context.Background(), u.user, "demo-hq-004")
	if err != nil || len(revs) != 1 {
		t.Fatalf("reviews %v, %v", revs, err)
	}
	if r := revs[0]; r.VerifierName != "ver1" || r.Decision != verify.DecisionApprove || len(r.Judgements) != 4 || r.Seconds <= 0 {
		t.Errorf("stored review %+v", r)
	}

	// Round 2 goes to a verifier of another group than round 1's.
	test.Tap(v.filters[2])
	if slices.Contains(queueIDs(v.items), "demo-hq-004") {
		t.Error("ver1 is offered round 2 of a sample they approved in round 1")
	}
	for _, tc := range []struct {
		name  string
		offer bool
	}{{"ver2", false}, {"ver3", true}, {"ver6", true}} {
		w := openVerify(t, u, tc.name)
		test.Tap(w.filters[2])
		if got := slices.Contains(queueIDs(w.items), "demo-hq-004"); got != tc.offer {
			t.Errorf("%s offered round 2 of demo-hq-004: %v, want %v", tc.name, got, tc.offer)
		}
		for _, it := range w.items {
			if it.Round != 2 {
				t.Errorf("round-2 filter shows %s of round %d", it.SampleID, it.Round)
			}
		}
	}
}

func TestRejectNeedsAReason(t *testing.T) {
	tests := []struct {
		name    string
		no, yes []string // criteria to mark
		other   bool
		comment string
		refusal string   // the message, when refused
		reasons []string // the stored reasons, when returned
	}{
		{name: "nothing failed", yes: []string{"objects_exist"}, refusal: "A rejection needs a reason"},
		{name: "other without a comment", other: true, refusal: "Other problem needs a comment"},
		{name: "failed criterion", no: []string{"box_on_answer"}, reasons: []string{"box_on_answer"}},
		{name: "two failed, one passed", yes: []string{"objects_exist"}, no: []string{"answer_correct", "box_on_answer"},
			reasons: []string{"answer_correct", "box_on_answer"}},
		{name: "other with a comment", other: true, comment: "The folder is hidden behind the printer.", reasons: []string{verify.ReasonOther}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, db := demoApp(t)
			v := openVerify(t, u, "ver1")
			o := openItem(t, v, "demo-hq-007")
			for _, id := range tc.yes {
				tapMark(t, o, id, markYes)
			}
			for _, id := range tc.no {
				tapMark(t, o, id, markNo)
			}
			if tc.other {
				test.Tap(o.other)
			}
			test.Type(o.comment, tc.comment)
			u.win.Canvas().Unfocus()
			var labels []string // the criteria's labels, never their ids
			for _, r := range tc.reasons {
				labels = append(labels, verify.ReasonLabel(r))
			}
			if len(tc.reasons) > 0 && (!strings.Contains(o.summary.Text, strings.Join(labels, ", ")) || strings.Contains(o.summary.Text, "_")) {
				t.Errorf("the reasons are not shown by their labels before sending: %q", o.summary.Text)
			}
			press(u, "x")
			revs, err := db.Reviews(context.Background(), u.user, "demo-hq-007")
			if err != nil {
				t.Fatal(err)
			}
			if tc.refusal != "" {
				if !o.message.Visible() || !strings.Contains(o.message.Text, tc.refusal) {
					t.Errorf("message %q, want %q", o.message.Text, tc.refusal)
				}
				if s := status(t, db, "demo-hq-007"); s != verify.StateRound1 || len(revs) != 0 {
					t.Errorf("a refused reject left the sample %s with %d reviews", s, len(revs))
				}
				return
			}
			if s := status(t, db, "demo-hq-007"); s != verify.StateReturned {
				t.Fatalf("after x the sample is %s (message %q)", s, o.message.Text)
			}
			if len(revs) != 1 || revs[0].Decision != verify.DecisionReject || !slices.Equal(revs[0].Reasons, tc.reasons) ||
				revs[0].Comment != tc.comment {
				t.Fatalf("stored reviews %+v, want one reject with %v", revs, tc.reasons)
			}
			if !strings.Contains(u.status.Text, "returned to its author with the reasons "+reasonLabels(tc.reasons)) {
				t.Errorf("status bar %q", u.status.Text)
			}
		})
	}
}

func TestCorrectionMakesANewRevision(t *testing.T) {
	u, db := demoApp(t)
	u.win.Resize(fyne.NewSize(1280, 800))
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, "demo-hq-004")
	before := o.info.Content
	test.Tap(o.correctBtn)
	e := v.editor
	if e == nil {
		t.Fatal("Correct opened no editor")
	}
	test.Tap(e.save)
	if !strings.Contains(e.message.Text, "Nothing is changed") {
		t.Errorf("saving an unchanged copy: %q", e.message.Text)
	}
	e.question.SetText("")
	test.Type(e.question, "Which object is nearest to the camera?")
	// A box drawn on the editor's canvas replaces the sample's box.
	abs := fyne.CurrentApp().Driver().AbsolutePositionForObject(e.canvas)
	test.Drag(u.win.Canvas(), abs.AddXY(30, 30), 60, 40)
	if n := len(e.canvas.Boxes()); n != 1 {
		t.Errorf("the editor holds %d boxes, want 1", n)
	}
	test.Tap(e.save)
	if !strings.Contains(e.message.Text, "comment") {
		t.Errorf("saving without a comment: %q", e.message.Text)
	}
	if o.info.Content.Question != before.Question {
		t.Fatal("the editor changed the reviewed sample, not a copy")
	}
	test.Type(e.comment, "Nearest reads better; box tightened.")
	test.Tap(e.save)

	s, err := db.Sample(context.Background(), bench.Owner(), "demo-hq-004")
	if err != nil {
		t.Fatal(err)
	}
	if s.Revision != 2 || s.Status != verify.StateRound1 || s.Content.Question != "Which object is nearest to the camera?" {
		t.Fatalf("after the correction: revision %d, %s, %q (editor message %q)", s.Revision, s.Status, s.Content.Question, e.message.Text)
	}
	if s.Content.Box == nil || *s.Content.Box == *before.Box || s.Content.Options[0] != before.Options[0] {
		t.Errorf("corrected content %+v", s.Content)
	}
	events, _ := db.History(context.Background(), u.user, "demo-hq-004")
	if !slices.ContainsFunc(events, func(e bench.Event) bool {
		return e.Action == "revision.correction" && e.Actor == "ver1" && e.Detail == "revision 2"
	}) {
		t.Errorf("no revision 2 by ver1 in the history %v", events)
	}
	if len(u.win.Canvas().Overlays().List()) != 0 || v.editor != nil {
		t.Error("the editor stays open after saving")
	}
	if !strings.Contains(u.status.Text, "Corrected demo-hq-004: revision 2 is yours and goes to round 1") {
		t.Errorf("status bar %q", u.status.Text)
	}
	if v.indexOf("demo-hq-004") >= 0 {
		t.Error("the corrector is offered the revision they wrote")
	}
}

func TestClaimRefusalIsShownAndQueueRefreshes(t *testing.T) {
	u, db := demoApp(t)
	v := openVerify(t, u, "ver2")
	// ver1 takes the round-1 seat after ver2's queue was loaded.
	ver1, err := db.Authenticate(context.Background(), "ver1", "demo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimReview(context.Background(), ver1, "demo-hq-004", 1); err != nil {
		t.Fatal(err)
	}
	i := v.indexOf("demo-hq-004")
	if i < 0 {
		t.Fatal("demo-hq-004 is not in ver2's queue")
	}
	v.list.Select(i)
	if v.cur != nil {
		t.Fatalf("%s opened although its seat is taken", v.cur.info.ID)
	}
	if !strings.Contains(u.status.Text, "all the verifiers it needs") {
		t.Errorf("the refusal is not shown in words: %q", u.status.Text)
	}
	if v.indexOf("demo-hq-004") >= 0 {
		t.Error("the queue was not refreshed after the refusal")
	}
}

func TestQueueKeysAndBlindRound(t *testing.T) {
	u, _ := demoApp(t)
	v := openVerify(t, u, "ver2")
	ids := queueIDs(v.items)
	for _, tc := range []struct {
		keys string
		want string
	}{{"j", ids[0]}, {"j", ids[1]}, {"jjjjjj", ids[len(ids)-1]}, {"k", ids[len(ids)-2]}} {
		press(u, tc.keys)
		if v.cur == nil || v.cur.info.ID != tc.want {
			t.Fatalf("after %q open %v, want %s", tc.keys, v.cur, tc.want)
		}
	}
	// Round 3 is blind: ver5's vote on demo-hq-002 is not shown to ver2.
	test.Tap(v.filters[3])
	o := openItem(t, v, "demo-hq-002")
	var texts []string
	for _, obj := range test.LaidOutObjects(o.panel) {
		if l, ok := obj.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "Blind round: other votes are hidden until the round closes") {
		t.Error("no blind-round note on a round-3 sample")
	}
	if !strings.Contains(all, "ver1 (group A) · approve") || strings.Contains(all, "ver5") {
		t.Errorf("earlier reviews shown to a round-3 verifier:\n%s", all)
	}
}

func TestVerifyGolden(t *testing.T) {
	for _, tc := range []struct {
		golden, id string
		kind       annotate.Kind
	}{
		{"verify_hop_qa.png", "demo-hq-004", annotate.KindHopQA},
		{"verify_step_graph.png", "demo-sg-002", annotate.KindStepGraph},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			u, db := demoApp(t)
			db.Now = func() time.Time { return time.Date(2030, 1, 2, 10, 0, 0, 0, time.UTC) }
			u.win.Resize(fyne.NewSize(1280, 800))
			v := openVerify(t, u, "ver1")
			o := openItem(t, v, tc.id)
			if o.info.Kind != tc.kind {
				t.Fatalf("%s is %s", tc.id, o.info.Kind)
			}
			test.Tap(o.checks.yes[0])
			test.Tap(o.checks.no[1])
			assertGolden(t, tc.golden, u.win)
		})
	}
}

// BenchmarkOpenSample measures opening a queue item on the UI goroutine: the claim,
// the sample, its preview decoded, its reviews and history, and the panes built.
func BenchmarkOpenSample(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "demo.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := demo.Seed(ctx, db, assets.Demo(), filepath.Join(dir, "images")); err != nil {
		b.Fatal(err)
	}
	u := New(test.NewTempApp(b), db, "")
	u.win.Resize(fyne.NewSize(1280, 800))
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	ver1, err := db.Authenticate(ctx, "ver1", "demo")
	if err != nil {
		b.Fatal(err)
	}
	u.signedIn(ver1)
	v := newVerifyView(u)
	u.content.Objects = []fyne.CanvasObject{v}
	it := v.items[v.indexOf("demo-sg-002")]
	b.ResetTimer()
	for range b.N {
		v.open(it)
		if v.cur == nil {
			b.Fatalf("open refused: %s", u.status.Text)
		}
	}
}

// A digit marks its criterion Yes, the same digit again No, a third time clears
// it — the keyboard gives No as well as Yes, and the help says so.
func TestVerifyDigitKeysMarkYesThenNo(t *testing.T) {
	u, _ := demoApp(t)
	v := openVerify(t, u, "ver1")
	o := openItem(t, v, "demo-hq-007")
	for _, want := range []criterionMark{markYes, markNo, unmarked} {
		press(u, "2")
		if got := o.checks.marks[1]; got != want {
			t.Fatalf("after pressing 2: mark %d, want %d", got, want)
		}
	}
	if !strings.Contains(labelTexts(v.root), "again No") {
		t.Error("the key help does not say how to mark No")
	}
}
