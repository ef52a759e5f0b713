package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/verify"
)

// samplesOf waits for the app's Samples screen and its newest search.
func samplesOf(t *testing.T, u *App) *samplesView {
	t.Helper()
	waitFor(t, "the Samples screen", func() bool { return lastSamples[u] != nil })
	v := lastSamples[u]
	waitFor(t, "the search", func() bool {
		done := false
		fyne.DoAndWait(func() { done = v.busy == 0 })
		return done
	})
	return v
}

func openSamplesScreen(t *testing.T, name string) (*App, *samplesView) {
	t.Helper()
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, name, demo.DemoPassword)
	delete(lastSamples, u)
	u.openSamples(bench.SampleQuery{Desc: true})
	return u, samplesOf(t, u)
}

func pageIDs(v *samplesView) []string {
	var out []string
	for _, r := range v.page.Rows {
		out = append(out, r.ID)
	}
	return out
}

// dialogButton taps the button named text of the window's top dialog.
func dialogButton(t *testing.T, u *App, text string) {
	t.Helper()
	overlay := u.win.Canvas().Overlays().Top()
	if overlay == nil {
		t.Fatalf("no dialog open to tap %q", text)
	}
	test.Tap(findButton(t, overlay, text))
}

func TestSamplesScreenSearchFilterSortSelect(t *testing.T) {
	u, v := openSamplesScreen(t, "lead")
	all := v.page.Total
	counts, _ := u.db.As(bench.Owner()).StatusCounts(context.Background(), u.project.ID)
	n := 0
	for _, c := range counts {
		n += c
	}
	if all != n || len(v.page.Rows) != n || !strings.Contains(v.count.Text, fmt.Sprintf("of %d", n)) {
		t.Fatalf("every sample: %d rows, total %d, %q; want %d", len(v.page.Rows), all, v.count.Text, n)
	}

	// Typing searches the words.
	test.Type(v.search, "step")
	v = samplesOf(t, u)
	for _, r := range v.page.Rows {
		text := strings.ToLower(r.ID + " " + r.Content.Question + " " + strings.Join(r.Content.Options, " "))
		for _, st := range r.Content.Steps {
			text += " " + strings.ToLower(st.Content)
		}
		if !strings.Contains(text, "step") {
			t.Errorf("%s does not contain %q", r.ID, "step")
		}
	}
	v.search.SetText("")

	// A state filter, then the header sorts by id, a second tap reverses it.
	v.state.SetSelected(stateTitle(verify.StateAccepted))
	v = samplesOf(t, u)
	if v.page.Total != counts[verify.StateAccepted] {
		t.Fatalf("accepted: %d, want %d", v.page.Total, counts[verify.StateAccepted])
	}
	v.state.SetSelectedIndex(0)
	v.sortByColumn(bench.SortID)
	v = samplesOf(t, u)
	ids := pageIDs(v)
	if !slices.IsSorted(ids) {
		t.Fatalf("by id: %v", ids)
	}
	v.sortByColumn(bench.SortID)
	v = samplesOf(t, u)
	desc := pageIDs(v)
	slices.Reverse(desc)
	if !slices.Equal(desc, ids) {
		t.Fatalf("by id, descending: %v", pageIDs(v))
	}

	// Selecting by the check column, then the actions say what they did.
	v.table.Select(widget.TableCellID{Row: 0, Col: 0})
	v.table.Select(widget.TableCellID{Row: 1, Col: 0})
	if len(v.order) != 2 || v.actions[0].Disabled() {
		t.Fatalf("selection %v", v.order)
	}
	out := filepath.Join(t.TempDir(), "sel.csv")
	v.exportTo(out, bench.FormatCSV)
	b, err := os.ReadFile(out)
	if err != nil || strings.Count(string(b), "\n") != 3 || !strings.HasPrefix(string(b), "id,kind,state") {
		t.Fatalf("export: %v\n%s", err, b)
	}
}

func TestSamplesScreenOnlyForLeads(t *testing.T) {
	for _, name := range []string{"ann1", "ver1"} {
		u, _ := demoApp(t)
		u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
		signInAs(t, u, name, demo.DemoPassword)
		for _, s := range u.screens {
			if s.title == "Samples" {
				t.Fatalf("%s sees the Samples screen", name)
			}
		}
	}
}

// TestAuditFindingToSampleWithdrawAndAuditAgain is the lead's way from an audit
// error to its sample: the audit finds an image changed on disk, a tap on the finding
// opens the sample manager on the accepted samples of that image, the lead opens one,
// sees its history, withdraws them, and the audit runs clean.
func TestAuditFindingToSampleWithdrawAndAuditAgain(t *testing.T) {
	u, ev := openExport(t, "lead", nil)
	ctx := context.Background()
	// An accepted sample's image is changed on disk.
	page, err := u.db.As(u.user).SearchSamples(ctx, u.project.ID, bench.SampleQuery{States: []verify.State{verify.StateAccepted}, Sort: bench.SortID})
	if err != nil || len(page.Rows) == 0 {
		t.Fatalf("accepted samples: %v", err)
	}
	im, err := u.db.As(bench.Owner()).ImageByPath(ctx, u.project.ID, page.Rows[0].ImagePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(im.Path(), append([]byte("changed"), make([]byte, 100)...), 0o644); err != nil {
		t.Fatal(err)
	}

	test.Tap(ev.auditBtn)
	waitFor(t, "the audit", func() bool { return ev.lastAudit != nil })
	i := slices.IndexFunc(ev.findings, func(f bench.AuditFinding) bool { return f.Severity == bench.SeverityError })
	if i < 0 || ev.lastAudit.Errors() == 0 || !ev.openErrors.Visible() {
		t.Fatalf("the audit found no error: %+v", ev.findings)
	}

	// The finding opens its samples.
	delete(lastSamples, u)
	ev.findingList.Select(i)
	v := samplesOf(t, u)
	if v.page.Total == 0 || v.q.ImageID != im.ID {
		t.Fatalf("the finding opened %d samples (query %+v)", v.page.Total, v.q)
	}
	for _, r := range v.page.Rows {
		if r.ImagePath != im.RelPath || r.Status != verify.StateAccepted {
			t.Fatalf("%s on %s is %s", r.ID, r.ImagePath, r.Status)
		}
	}
	if !v.scopeBar.Visible() {
		t.Fatal("the list does not say it shows only the samples on one image")
	}

	// The lead opens the first: read-only, with its history.
	first := v.page.Rows[0].ID
	v.table.Select(widget.TableCellID{Row: 0, Col: 1})
	if v.open == nil || v.open.info.ID != first {
		t.Fatal("tapping the row did not open the sample")
	}
	if len(v.open.revisions) == 0 || len(v.open.reviews) == 0 || !strings.Contains(v.open.historyLabel.Text, "created the sample") {
		t.Fatalf("history: %v %v %q", v.open.revisions, v.open.reviews, v.open.historyLabel.Text)
	}
	if v.open.edit.Visible() || v.open.withdraw.Disabled() || !v.open.reopen.Disabled() {
		t.Fatal("an accepted sample of someone else: Withdraw only")
	}
	test.Tap(v.open.withdraw)
	dialogButton(t, u, "Withdraw")
	if s, _ := u.db.As(bench.Owner()).Sample(ctx, first); s.Status != verify.StateWithdrawn {
		t.Fatalf("after Withdraw: %s", s.Status)
	}
	if !v.open.reopen.Visible() || v.open.reopen.Disabled() {
		t.Fatal("the withdrawn sample offers no Reopen")
	}

	// Back to the list: the rest of that image's samples, withdrawn together.
	test.Tap(findButton(t, v.root, "Back to the list"))
	v = samplesOf(t, u)
	if slices.Contains(pageIDs(v), first) {
		t.Fatalf("the withdrawn sample is still listed as accepted: %v", pageIDs(v))
	}
	if len(v.page.Rows) > 0 {
		test.Tap(findButton(t, v.root, "Select page"))
		test.Tap(findButton(t, v.root, "Withdraw…"))
		dialogButton(t, u, "Withdraw")
		v = samplesOf(t, u)
		if v.page.Total != 0 || !strings.Contains(v.message.Text, "Withdrew") {
			t.Fatalf("after withdrawing the selection: %d left, %q", v.page.Total, v.message.Text)
		}
	}

	// The audit again: clean.
	ev = u.newExportView()
	u.content.Objects = []fyne.CanvasObject{ev.root}
	u.content.Refresh()
	test.Tap(ev.auditBtn)
	waitFor(t, "the second audit", func() bool { return ev.lastAudit != nil })
	if ev.lastAudit.Errors() != 0 || ev.openErrors.Visible() {
		t.Fatalf("the audit after withdrawing: %s", ev.auditSummary.Text)
	}
}

// A hint in the status bar belongs to the screen that wrote it: another screen
// shows the counts again.
func TestSwitchingScreensClearsAnOldHint(t *testing.T) {
	u, _ := openSamplesScreen(t, "lead")
	u.setStatus("Withdrew demo-yn-001.")
	for i, s := range u.screens {
		if s.title == "Dashboard" {
			u.nav.Select(i)
		}
	}
	if strings.Contains(u.status.Text, "Withdrew") || !strings.HasPrefix(u.status.Text, "lead (lead)") {
		t.Fatalf("status after switching screens: %q", u.status.Text)
	}
}

// A dashboard row names samples: the author's round-1 rejections, a category set's
// rejected samples, a balance cell's accepted ones.
func TestDashboardRowsOpenTheirSamples(t *testing.T) {
	u, _ := openSamplesScreen(t, "lead")
	ctx := context.Background()
	rows := func(q bench.SampleQuery) []bench.SampleRow {
		delete(lastSamples, u)
		u.openSamples(q)
		return samplesOf(t, u).page.Rows
	}
	// ann2's round-1 rejections (column "Rejected r1"): demo-hq-006 was returned in round 1.
	got := rows(u.annotatorQuery("ann2", 5))
	if len(got) == 0 {
		t.Fatal("ann2's round-1 rejections: none")
	}
	for _, r := range got {
		rs, _ := u.db.As(u.user).Reviews(ctx, r.ID)
		if r.AuthorName != "ann2" || !slices.ContainsFunc(rs, func(x bench.ReviewRecord) bool {
			return x.Round == 1 && x.Decision == verify.DecisionReject
		}) {
			t.Errorf("%s by %s has no round-1 rejection", r.ID, r.AuthorName)
		}
	}
	// The error rate's row hop_qa · pos.
	for _, r := range rows(errorRowQuery(bench.ErrorRow{Kind: "hop_qa", Set: "pos"})) {
		if r.Kind != "hop_qa" || r.Categories != "pos" || len(r.Reasons) == 0 {
			t.Errorf("error row hop_qa·pos: %s %s %s %v", r.ID, r.Kind, r.Categories, r.Reasons)
		}
	}
	// A balance cell's accepted samples.
	for _, r := range rows(balanceQuery(bench.BalanceCell{Kind: "hop_qa", Hop: 1, View: "exo"}, "Accepted")) {
		if r.Status != verify.StateAccepted || r.Content.Hop != 1 || r.Content.View != "exo" {
			t.Errorf("balance 1-hop exo accepted: %s %s", r.ID, r.Status)
		}
	}
}

// A double click on an image in the gallery opens its samples (a lead), or the
// Annotate screen with the choice of a new sample's kind on it.
func TestGalleryDoubleClickOpensSamplesOrANewSample(t *testing.T) {
	for _, tc := range []struct {
		user, image string
		samples     bool
	}{{"lead", "0001-office-1/img_001.jpg", true}, {"ann1", "0001-office-1/img_001.jpg", false}} {
		u, _ := demoApp(t)
		u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
		signInAs(t, u, tc.user, demo.DemoPassword)
		u.nav.Select(0) // Images
		var cell *tapImage
		for _, o := range test.LaidOutObjects(u.content) {
			if c, ok := o.(*tapImage); ok && cell == nil {
				for _, x := range test.LaidOutObjects(c) {
					if l, ok := x.(*widget.Label); ok && l.Text == tc.image {
						cell = c
					}
				}
			}
		}
		if cell == nil {
			t.Fatalf("%s: no gallery cell for %s", tc.user, tc.image)
		}
		delete(lastSamples, u)
		test.DoubleTap(cell)
		if tc.samples {
			v := samplesOf(t, u)
			if v.page.Total == 0 || v.q.ImageID == 0 {
				t.Fatalf("lead: %d samples on the image", v.page.Total)
			}
			for _, r := range v.page.Rows {
				if r.ImagePath != tc.image {
					t.Errorf("%s is on %s", r.ID, r.ImagePath)
				}
			}
			continue
		}
		ws := lastWorkspace[u]
		if ws == nil || ws.image.RelPath != tc.image || ws.newSampleChoice == nil || ws.newSampleChoice.Selected != "" {
			t.Fatalf("ann1: the Annotate screen does not offer a new sample on %s", tc.image)
		}
	}
}

// The freeze form's empty fields say they are empty: their hints cannot be taken for values.
func TestFreezeFormHintsAreNotValues(t *testing.T) {
	_, v := openExport(t, "lead", nil)
	for _, e := range []*widget.Entry{v.name, v.version} {
		if e.Text != "" || !strings.HasPrefix(e.PlaceHolder, "required, e.g. ") {
			t.Errorf("field %q with hint %q", e.Text, e.PlaceHolder)
		}
	}
}

// quickCounts is a session whose quick counts of words stop at two samples, as a
// store's do at a thirty-second of a big project, and which counts its calls.
type quickCounts struct {
	bench.Session
	quick, exact int
}

func (s *quickCounts) SearchSamples(ctx context.Context, projectID int64, q bench.SampleQuery) (bench.SamplePage, error) {
	quick := q.QuickTotal && q.Text != ""
	q.QuickTotal = false
	page, err := s.Session.SearchSamples(ctx, projectID, q)
	if quick {
		s.quick++
		if err == nil && page.Total > 2 {
			page.Total, page.TotalAtLeast = 2, true
		}
	} else {
		s.exact++
	}
	return page, err
}

// TestSamplesScreenCountsABroadSearchAfter: the screen asks for words with a quick
// count, shows the page with the lower bound at once (and the next page open),
// then the exact count when it comes; a newer search drops an older count.
func TestSamplesScreenCountsABroadSearchAfter(t *testing.T) {
	u, v := openSamplesScreen(t, "lead")
	all := v.page.Total
	s := &quickCounts{Session: u.sess}
	u.sess = s
	var pending []func()
	inBackground = func(f func()) { pending = append(pending, f) }
	t.Cleanup(func() { inBackground = func(f func()) { f() } })
	next := func() {
		t.Helper()
		if len(pending) == 0 {
			t.Fatal("nothing runs in the background")
		}
		f := pending[0]
		pending = pending[1:]
		f()
	}
	v.search.SetText("d") // "demo", in every sample's id
	next()                // the search
	if s.quick != 1 || v.page.Total != 2 || !v.page.TotalAtLeast || v.count.Text != fmt.Sprintf("1–%d of 2+", len(v.page.Rows)) || v.next.Disabled() {
		t.Fatalf("the quick page: %d quick calls, total %d (at least %v), %q, next disabled %v", s.quick, v.page.Total, v.page.TotalAtLeast, v.count.Text, v.next.Disabled())
	}
	next() // the exact count
	if s.exact != 1 || v.page.TotalAtLeast || v.page.Total <= 2 || v.page.Total > all || v.count.Text != fmt.Sprintf("1–%d of %d", len(v.page.Rows), v.page.Total) ||
		v.next.Disabled() != (len(v.page.Rows) == v.page.Total) {
		t.Fatalf("after the exact count: %d exact calls, total %d (at least %v) of %d, %q", s.exact, v.page.Total, v.page.TotalAtLeast, all, v.count.Text)
	}

	// A newer search before the count comes: the older count is not shown.
	v.search.SetText("de")
	next()
	v.search.SetText("dem")
	if len(pending) != 2 {
		t.Fatalf("%d calls waiting; want the older count and the newer search", len(pending))
	}
	older := pending[0]
	pending = pending[1:]
	next() // the newer search, before the older count comes
	older()
	if !v.page.TotalAtLeast || v.page.Total != 2 {
		t.Fatalf("the older search's count shown for the newer: %q", v.count.Text)
	}
	next()
	if v.search.Text != "dem" || s.quick != 3 || s.exact != 3 || v.page.TotalAtLeast || v.count.Text != fmt.Sprintf("1–%d of %d", len(v.page.Rows), v.page.Total) {
		t.Fatalf("after a newer search: %q, total %d (at least %v)", v.count.Text, v.page.Total, v.page.TotalAtLeast)
	}
	exact, err := s.Session.SearchSamples(context.Background(), u.project.ID, bench.SampleQuery{Text: "dem"})
	if err != nil || v.page.Total != exact.Total {
		t.Fatalf("the count shown is %d, the search finds %d (%v)", v.page.Total, exact.Total, err)
	}
}
