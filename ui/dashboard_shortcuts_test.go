package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	scut "github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/store"
)

// shortcutsDemoApp is dashDemoApp with, in the demo project, two tasks of 30
// multiple-choice questions in round 1 — "always-a", whose answer is always A,
// and "clean" — and a re-encoded half-size copy of a demo image shown in the
// test split while the original is in train: a near-duplicate pair.
func shortcutsDemoApp(t *testing.T) (*App, *store.DB) {
	t.Helper()
	u, db := dashDemoApp(t)
	ctx := context.Background()
	lead, err := db.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, lead, demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	ims, err := db.Images(ctx, lead, p.ID, 0, 100)
	if err != nil || len(ims) < 2 {
		t.Fatalf("%d demo images: %v", len(ims), err)
	}
	orig := ims[0]
	img, err := imaging.Open(orig.Path())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "copy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := imaging.Save(imaging.Resize(img, img.Bounds().Dx()/2, 0, imaging.Lanczos), filepath.Join(dir, "copy", "copy.jpg"),
		imaging.JPEGQuality(70)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ImportImages(ctx, lead, p.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	nouns := []string{"mug", "lamp", "book", "pen", "chair", "plant", "clock", "bottle"}
	var recs []annotate.Imported
	for _, task := range []string{"always-a", "clean"} {
		for i := range 30 {
			opts := make([]string, 4)
			for l := range opts {
				opts[l] = "the " + nouns[(i+2*l)%len(nouns)]
			}
			s := annotate.Sample{ID: fmt.Sprintf("%s-%02d", task, i), Kind: annotate.KindMCQ, Task: task, Image: ims[1+i%(len(ims)-1)].RelPath,
				Question: fmt.Sprintf("Which object is nearest the window in shot %d?", i), Options: opts, Split: "train"}
			if task == "clean" {
				s.AnswerIndex = (i / 2) % 4
			}
			switch s.ID {
			case "clean-00":
				s.Image, s.Split = orig.RelPath, "train"
			case "clean-01":
				s.Image, s.Split = "copy/copy.jpg", "test"
			}
			recs = append(recs, annotate.Imported{Sample: s})
		}
	}
	if _, err := db.ImportSamples(ctx, lead, p.ID, recs, bench.ImportSamplesOptions{Author: "lead", ToRound1: true}); err != nil {
		t.Fatal(err)
	}
	return u, db
}

// openShortcuts opens the dashboard as name and its Shortcuts tab, once loaded.
func openShortcuts(t *testing.T, u *App, name string) *dashboardView {
	t.Helper()
	v := openDashboard(t, u, name)
	i := slices.Index(tabNames(v), tabShortcuts)
	if i < 0 {
		t.Fatalf("%s has no Shortcuts tab: %v", name, tabNames(v))
	}
	n := v.scLoads.Load()
	v.tabs.SelectIndex(i)
	waitFor(t, "the shortcut report", func() bool { return v.scLoads.Load() > n })
	return v
}

// TestDashboardShortcutsTab: a lead's Shortcuts tab charts the report (blind
// accuracy, letters, lengths), shows the near-duplicate pair's two thumbnails,
// and lists every check per task; a row opens its samples; the letters' button
// says how many samples change, and balancing them ends the finding with a
// correction revision by the lead with the reason.
func TestDashboardShortcutsTab(t *testing.T) {
	u, db := shortcutsDemoApp(t)
	u.win.Resize(fyne.NewSize(1024, 700))
	v := openShortcuts(t, u, "lead")
	charts, thumbs := 0, 0
	for _, o := range objectsOf(v) {
		switch o.(type) {
		case *chartView:
			charts++
		case *canvas.Image:
			if slices.Contains(slices.Collect(maps.Values(v.sc.thumbs)), o.(*canvas.Image).File) {
				thumbs++
			}
		}
	}
	if charts != 3 || thumbs != 2 {
		t.Errorf("%d charts and %d thumbnails, want 3 and 2", charts, thumbs)
	}
	text := tableText(v)
	for _, w := range []string{"always-a\tanswer-position\t100%\t", "\tyes\t30\t", "clean\tanswer-position\t", "near-duplicate-image\t1 pair\t"} {
		if !strings.Contains(text, w) {
			t.Errorf("the table lacks %q:\n%s", w, text)
		}
	}
	assertGolden(t, "dashboard_shortcuts_findings.png", u.win)

	// A row opens its samples: always-a's answer-position row, the 30 always-A samples.
	var tbl *widget.Table
	for _, o := range objectsOf(v) {
		if x, ok := o.(*widget.Table); ok {
			tbl = x
		}
	}
	row := slices.IndexFunc(v.sc.rep.Results, func(r scut.Result) bool { return r.Task == "always-a" && r.Check == "answer-position" })
	delete(lastSamples, u)
	tbl.Select(widget.TableCellID{Row: row + 1, Col: 0})
	s := samplesOf(t, u)
	if len(s.q.IDs) != 30 || !strings.HasPrefix(s.q.IDs[0], "always-a-") || s.page.Total != 30 {
		t.Fatalf("the row opened %d ids (%v), %d samples", len(s.q.IDs), s.q.IDs[:min(3, len(s.q.IDs))], s.page.Total)
	}
	u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Dashboard" }))
	v = u.content.Objects[0].(*dashboardView)
	waitLoads(t, v, 1)
	n := v.scLoads.Load()
	v.tabs.SelectIndex(slices.Index(tabNames(v), tabShortcuts))
	waitFor(t, "the shortcut report", func() bool { return v.scLoads.Load() > n })

	// The letters' button: a confirmation naming the count, the reason, the fix.
	ctx := context.Background()
	lead, _ := db.Authenticate(ctx, "lead", demo.DemoPassword)
	plan, err := db.RebalanceLetters(ctx, lead, bench.RebalanceInput{ProjectID: u.project.ID, DryRun: true})
	if err != nil || len(plan.Moved) == 0 {
		t.Fatalf("dry run: %d moved, %v", len(plan.Moved), err)
	}
	test.Tap(findButton(t, v.tabs.Selected().Content, "Balance the letters…"))
	top := u.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no confirmation")
	}
	var dialogText strings.Builder
	var reason *widget.Entry
	for _, o := range test.LaidOutObjects(top) {
		switch x := o.(type) {
		case *widget.Label:
			dialogText.WriteString(x.Text + "\n")
		case *widget.Entry:
			reason = x
		}
	}
	if want := fmt.Sprintf("Change %d samples?", len(plan.Moved)); !strings.Contains(dialogText.String(), want) ||
		!strings.Contains(dialogText.String(), "of always-a will have their options reordered") {
		t.Fatalf("the confirmation says\n%s\nwant %q", dialogText.String(), want)
	}
	u.win.Canvas().Unfocus() // no blinking cursor in the picture
	assertGolden(t, "dashboard_shortcuts_confirm.png", u.win)
	n = v.scLoads.Load()
	reason.SetText("A was always the answer")
	test.Tap(findButton(t, top, "Balance"))
	waitFor(t, "the report again", func() bool { return v.scLoads.Load() > n })
	for _, r := range v.sc.rep.Results {
		if r.Check == "answer-position" && r.Finding {
			t.Errorf("%s: still a finding after balancing: %s", r.Task, r.Detail)
		}
	}
	if got, want := labelsOf(v), fmt.Sprintf("Balanced the letters: %d samples reordered", len(plan.Moved)); !strings.Contains(got, want) {
		t.Errorf("after balancing the tab says %q, want %q", got, want)
	}
	if b := findButton(t, v.tabs.Selected().Content, "Balance the letters…"); !b.Disabled() {
		t.Error("the button is enabled with no skewed letters left")
	}
	revs, err := db.SampleRevisions(ctx, lead, plan.Moved[0].SampleID)
	if err != nil || len(revs) != 2 || revs[1].Change != "correction" || revs[1].AuthorName != "lead" || revs[1].Comment != "A was always the answer" {
		t.Errorf("%s's revisions after balancing: %+v %v", plan.Moved[0].SampleID, revs, err)
	}
}

// TestDashboardShortcutsOnlyForLeads: annotators and verifiers get no Shortcuts tab.
func TestDashboardShortcutsOnlyForLeads(t *testing.T) {
	u, _ := dashDemoApp(t)
	for _, name := range []string{"ann1", "ver1"} {
		if name != "ann1" {
			u.showSignIn()
		}
		v := openDashboard(t, u, name)
		if slices.Contains(tabNames(v), tabShortcuts) {
			t.Errorf("%s has the Shortcuts tab", name)
		}
	}
}

// failingShortcuts is a Service whose shortcut report fails.
type failingShortcuts struct{ bench.Service }

func (f failingShortcuts) As(u bench.User) bench.Session { return failingShortcutsAs{f.Service.As(u)} }

// failingShortcutsAs is the Session failingShortcuts.As gives.
type failingShortcutsAs struct{ bench.Session }

func (failingShortcutsAs) Shortcuts(context.Context, int64, bench.ShortcutOptions) (bench.ShortcutReport, error) {
	return bench.ShortcutReport{}, fmt.Errorf("shortcuts: %w", errors.Join(bench.ErrUnavailable, errors.New("the team server did not answer")))
}

// TestDashboardShortcutsSaysWhy: while the report is computed the tab says so;
// when it cannot be made the tab says why in a sentence.
func TestDashboardShortcutsSaysWhy(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "lead")
	var pending []func()
	inBackground = func(f func()) { pending = append(pending, f) }
	defer func() { inBackground = func(f func()) { f() } }()
	withService(u, failingShortcuts{u.db})
	v.tabs.SelectIndex(slices.Index(tabNames(v), tabShortcuts))
	if got := labelsOf(v); !strings.Contains(got, "Computing the shortcut report") || len(pending) == 0 {
		t.Fatalf("while loading the tab says %q (%d pending)", got, len(pending))
	}
	for len(pending) > 0 {
		f := pending[0]
		pending = pending[1:]
		f()
	}
	if got := labelsOf(v); !strings.Contains(got, "The shortcut report could not be made: ") || strings.Contains(got, "shortcuts:") {
		t.Errorf("after a failure the tab says %q", got)
	}
}
