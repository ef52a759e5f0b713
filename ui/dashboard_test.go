package ui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/chart"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// dashDemoApp is demoApp with the demo seeded on 2025-03-01 (UTC), so that the
// dashboard's days are the same on every run.
func dashDemoApp(t *testing.T) (*App, *store.DB) {
	t.Helper()
	db, _ := openSeededDemo(t, fixedSeedClock, "demo.db")
	a := test.NewTempApp(t)
	u := New(a, db, "")
	u.win.Resize(fyne.NewSize(1000, 640))
	u.win.Show()
	return u, db
}

// openDashboard signs name in, opens the demo project and shows the dashboard once
// it has loaded.
func openDashboard(t *testing.T, u *App, name string) *dashboardView {
	t.Helper()
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, name, demo.DemoPassword)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Dashboard" })
	if i < 0 {
		t.Fatalf("%s has no Dashboard screen", name)
	}
	u.nav.Select(i)
	v, ok := u.content.Objects[0].(*dashboardView)
	if !ok {
		t.Fatalf("the Dashboard screen is a %T", u.content.Objects[0])
	}
	waitLoads(t, v, 1)
	return v
}

func waitLoads(t *testing.T, v *dashboardView, n int32) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for v.loads.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard did not load (%d of %d loads)", v.loads.Load(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func tabNames(v *dashboardView) []string {
	var out []string
	for _, it := range v.tabs.Items {
		out = append(out, it.Text)
	}
	return out
}

// objectsOf lists the objects of the selected tab, laid out.
func objectsOf(v *dashboardView) []fyne.CanvasObject {
	return test.LaidOutObjects(v.tabs.Selected().Content)
}

func labelsOf(v *dashboardView) string {
	var b strings.Builder
	for _, o := range objectsOf(v) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

func TestDashboardLead(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "lead")
	want := []string{tabFunnel, tabActivity, tabBalance, tabAnnotators, tabVerifiers, tabErrors, tabAgreement, tabShortcuts}
	if got := tabNames(v); !slices.Equal(got, want) {
		t.Fatalf("tabs %v, want %v", got, want)
	}
	// The demo: 12 samples, 6 in rounds 1-3, 3 accepted, 1 returned.
	if got := v.status.Text; got != "12 samples: 1 draft, 6 in review, 3 accepted, 1 returned, 1 withdrawn" {
		t.Errorf("status %q", got)
	}
	for i, name := range want {
		v.tabs.SelectIndex(i)
		if name == tabShortcuts {
			waitFor(t, "the shortcut report", func() bool { return v.scLoads.Load() > 0 })
		}
		images := 0
		exports := 0
		for _, o := range objectsOf(v) {
			switch x := o.(type) {
			case *chartView:
				images++
			case *widget.Button:
				if x.Text == "Export CSV…" {
					exports++
				}
			}
		}
		wantImages := map[string]int{tabFunnel: 1, tabActivity: 1, tabBalance: 1, tabAnnotators: 1, tabErrors: 1, tabAgreement: 1}[name]
		wantExports := map[string]int{tabFunnel: 1, tabActivity: 1, tabBalance: 1, tabAnnotators: 3, tabVerifiers: 1, tabErrors: 1, tabAgreement: 3, tabShortcuts: 1}[name]
		if images != wantImages || exports != wantExports {
			t.Errorf("%s: %d charts and %d exports, want %d and %d", name, images, exports, wantImages, wantExports)
		}
		assertGolden(t, "dashboard_"+strings.ToLower(name)+".png", u.win)
	}
	// The demo's judgements are all approvals but a lone rejection: every alpha is
	// undefined, and says why instead of NaN.
	v.tabs.SelectIndex(6)
	text := tableText(v)
	if strings.Contains(text, "NaN") || !strings.Contains(text, `undefined: all 17 pairable values are "approve"`) {
		t.Errorf("agreement tab:\n%s", text)
	}
	// Its chart: a row per round's decision alpha, with the reason where undefined
	// (issue 27 item 15), and the thresholds named.
	for _, o := range objectsOf(v) {
		if c, ok := o.(*chartView); ok {
			var texts []string
			for _, x := range c.drawing(chart.Paper, c.min).Texts {
				texts = append(texts, x.S)
			}
			all := strings.Join(texts, "|")
			for _, want := range []string{"Decision alpha with its 95% interval", "Round 1", "All rounds", "undefined: all", "reliable", "tentative"} {
				if !strings.Contains(all, want) {
					t.Errorf("the alpha chart does not write %q: %s", want, all)
				}
			}
		}
	}
}

// tableText is every cell of every table in the selected tab, one table per
// paragraph, rows on lines, cells tab-separated.
func tableText(v *dashboardView) string {
	var b strings.Builder
	for _, o := range objectsOf(v) {
		tbl, ok := o.(*widget.Table)
		if !ok {
			continue
		}
		rows, cols := tbl.Length()
		for r := range rows {
			for c := range cols {
				l := widget.NewLabel("")
				tbl.UpdateCell(widget.TableCellID{Row: r, Col: c}, l)
				b.WriteString(l.Text + "\t")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// An annotator gets Funnel, Balance, their own row and Errors; the store withholds
// the rest, and the Annotators tab says it is their own work.
func TestDashboardAnnotator(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "ann1")
	want := []string{tabFunnel, tabActivity, tabBalance, tabAnnotators, tabErrors}
	if got := tabNames(v); !slices.Equal(got, want) {
		t.Fatalf("tabs %v, want %v", got, want)
	}
	if !v.data.Own || v.agr != nil || len(v.data.Verifiers) != 0 {
		t.Errorf("an annotator's data: own %v, agreement %v, %d verifier rows", v.data.Own, v.agr != nil, len(v.data.Verifiers))
	}
	v.tabs.SelectIndex(3)
	text := tableText(v)
	if !strings.Contains(labelsOf(v), "Your work") || !strings.Contains(text, "ann1\t") || strings.Contains(text, "ann2\t") {
		t.Errorf("ann1's Annotators tab:\nlabels %s\ntables:\n%s", labelsOf(v), text)
	}
	assertGolden(t, "dashboard_annotator.png", u.win)
}

// Refresh reloads: a rejection made meanwhile shows in the status line, the funnel
// table and the charts.
func TestDashboardRefresh(t *testing.T) {
	u, db := dashDemoApp(t)
	v := openDashboard(t, u, "lead")
	before := tableText(v)
	img := v.tabs.Selected().Content
	ctx := context.Background()
	ver1, err := db.Authenticate(ctx, "ver1", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	si, err := db.Sample(ctx, bench.Owner(), "demo-hq-004")
	if err != nil {
		t.Fatal(err)
	}
	reject := verify.Verdict{Decision: verify.DecisionReject, Judgements: map[string]bool{"objects_exist": false}}
	if _, err := db.SubmitReview(ctx, ver1, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: reject}); err != nil {
		t.Fatal(err)
	}
	if v.status.Text != "12 samples: 1 draft, 6 in review, 3 accepted, 1 returned, 1 withdrawn" {
		t.Errorf("the dashboard changed before Refresh: %q", v.status.Text)
	}
	test.Tap(v.refresh)
	waitLoads(t, v, 2)
	if got := v.status.Text; got != "12 samples: 1 draft, 5 in review, 3 accepted, 2 returned, 1 withdrawn" {
		t.Errorf("after Refresh: status %q", got)
	}
	after := tableText(v)
	if after == before || !strings.Contains(after, "hop_qa\t1\t1\t1\t1\t1\t2\t0\t7\t") {
		t.Errorf("funnel table after Refresh:\n%s\nbefore:\n%s", after, before)
	}
	if v.tabs.Selected().Content == img {
		t.Error("the Funnel tab was not rebuilt")
	}
}

// Export CSV… asks where to save.
func TestDashboardExportAsksForAFile(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "lead")
	if u.win.Canvas().Overlays().Top() != nil {
		t.Fatal("an overlay is open before the export")
	}
	for _, o := range objectsOf(v) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Export CSV…" {
			test.Tap(b)
			break
		}
	}
	if u.win.Canvas().Overlays().Top() == nil {
		t.Fatal("Export CSV… opened no file dialog")
	}
}

// The dashboard shows at once and says it is loading while its aggregates and
// the agreement load in the background, whatever the project's size (issue 27
// item 15: a project under 20,000 samples loaded on the UI goroutine, the
// window frozen and saying nothing for up to a second); the result is the same.
func TestDashboardSaysItIsLoading(t *testing.T) {
	u, _ := dashDemoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "lead", demo.DemoPassword) // signing in loads in place
	var pending []func()
	inBackground = func(f func()) { pending = append(pending, f) }
	defer func() { inBackground = func(f func()) { f() } }()
	u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Dashboard" }))
	v, ok := u.content.Objects[0].(*dashboardView)
	if !ok {
		t.Fatalf("the Dashboard screen is a %T", u.content.Objects[0])
	}
	if v.status.Text != "Loading…" || !v.refresh.Disabled() || !strings.Contains(labelsOf(v), "Loading…") || len(pending) == 0 {
		t.Fatalf("while loading: status %q, Refresh disabled %v, tab %q", v.status.Text, v.refresh.Disabled(), labelsOf(v))
	}
	for len(pending) > 0 {
		f := pending[0]
		pending = pending[1:]
		f()
	}
	waitLoads(t, v, 1)
	if got := v.status.Text; got != "12 samples: 1 draft, 6 in review, 3 accepted, 1 returned, 1 withdrawn" {
		t.Errorf("status %q", got)
	}
	if v.agr == nil || len(v.agr.Rows) == 0 || len(v.data.Verifiers) != 6 || v.refresh.Disabled() {
		t.Errorf("loaded agreement %v, %d verifier rows, Refresh disabled %v", v.agr != nil, len(v.data.Verifiers), v.refresh.Disabled())
	}
	assertGolden(t, "dashboard_funnel.png", u.win)
}
