package ui

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/store"
)

// waitFor polls cond until it holds or a deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// openExport signs name in on the demo project (times fixed, for goldens) and shows
// the Export screen, returning its view.
func openExport(t *testing.T, name string, before func(db *store.DB)) (*App, *exportView) {
	t.Helper()
	u, db := demoApp(t)
	db.Now = func() time.Time { return time.Date(2026, 4, 1, 9, 30, 0, 0, time.UTC) }
	if before != nil {
		before(db)
	}
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, name, demo.DemoPassword)
	for i, s := range u.screens {
		if s.title == "Export" {
			u.nav.Select(i)
		}
	}
	v := u.newExportView()
	u.content.Objects = []fyne.CanvasObject{v.root}
	u.content.Refresh()
	return u, v
}

func TestExportScreenAuditFreezeExport(t *testing.T) {
	u, v := openExport(t, "lead", nil)

	test.Tap(v.auditBtn)
	waitFor(t, "the audit", func() bool { return v.lastAudit != nil })
	if got := v.auditSummary.Text; !strings.Contains(got, "3 accepted samples, 2 images: 0 errors, 6 warnings") || !strings.Contains(got, "Nothing blocks a freeze") {
		t.Errorf("audit summary %q", got)
	}
	if len(v.findings) != 6 || v.findings[0].Check != bench.CheckBalance {
		t.Errorf("findings %+v", v.findings)
	}

	// A bad ratio is caught in the form.
	test.Type(v.name, "demo-bench")
	test.Type(v.version, "1")
	test.Tap(v.split)
	if v.ratio.Disabled() {
		t.Fatal("the ratio stays disabled with the split ticked")
	}
	v.ratio.SetText("1.5")
	test.Tap(v.freezeBtn)
	if !strings.Contains(v.freezeMsg.Text, `"1.5" is not a number between 0 and 1`) || len(v.releases) != 0 {
		t.Fatalf("bad ratio: %q", v.freezeMsg.Text)
	}
	v.ratio.SetText("0.5")
	v.kinds.SetSelected([]string{string(annotate.KindHopQA), string(annotate.KindJudgment)})
	test.Tap(v.freezeBtn)
	confirmFreeze(t, u, v, "Shortcuts: none found")
	waitFor(t, "the freeze", func() bool { return !v.freezing })
	if len(v.releases) != 1 || !strings.Contains(v.freezeMsg.Text, "Froze demo-bench@1 · 2 samples · train 1, test 1 · hop_qa+judgment · frozen by lead 2026-04-01 09:30 · test ratio 0.5, seed 1.") {
		t.Fatalf("after freezing: %q, %d releases", v.freezeMsg.Text, len(v.releases))
	}
	assertGolden(t, "export_lead.png", u.win)

	// The row's Export… button asks for a format and a folder.
	var exportBtn *widget.Button
	for _, o := range test.LaidOutObjects(v.releaseList) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Export…" && b.Visible() {
			exportBtn = b
		}
	}
	if exportBtn == nil {
		t.Fatal("no Export… button on the release")
	}
	test.Tap(exportBtn)
	overlay := u.win.Canvas().Overlays().Top()
	var format *widget.Select
	for _, o := range test.LaidOutObjects(overlay) {
		if s, ok := o.(*widget.Select); ok {
			format = s
		}
	}
	if overlay == nil || format == nil || format.Selected != "native" || len(format.Options) != len(release.Formats())+1 || format.Options[len(format.Options)-1] != everyFormat {
		t.Fatalf("export dialog: %v", format)
	}
	format.SetSelected("vlmevalkit")
	assertGolden(t, "export_dialog.png", u.win)
	u.win.Canvas().Overlays().Remove(overlay)

	// Export with the progress dialog; the result verifies against its manifest.
	parent := t.TempDir()
	run := v.startExport(context.Background(), v.releases[0], "coco", parent)
	waitFor(t, "the export", func() bool { return run.done })
	out := exportDir(parent, v.releases[0], "coco")
	if run.err != nil || run.result.Dir != out {
		t.Fatalf("export: %v, into %q", run.err, run.result.Dir)
	}
	if d, err := release.VerifyRelease(context.Background(), out); err != nil || !d.OK() {
		t.Errorf("verify %s: %+v %v", out, d, err)
	}
	if !strings.Contains(run.summary, "Exported demo-bench@1 as coco") || !strings.Contains(run.summary, "1 sample, 3 files") ||
		!strings.Contains(run.summary, "Left out, as coco cannot hold them: 1 judgment") || run.bar.Value != 1 {
		t.Errorf("summary %q, bar %.2f", run.summary, run.bar.Value)
	}

	// A cancelled export says so and leaves nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run = v.startExport(ctx, v.releases[0], "native", parent)
	waitFor(t, "the cancelled export", func() bool { return run.done })
	if !errors.Is(run.err, context.Canceled) || !strings.Contains(run.summary, "cancelled; nothing was written") {
		t.Errorf("cancelled export: %v, %q", run.err, run.summary)
	}
	if _, err := os.Stat(exportDir(parent, v.releases[0], "native")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a cancelled export left its folder: %v", err)
	}
}

// A verifier sees the releases read-only (annotators have no Export screen: verify.Offered).
func TestExportScreenReadOnlyForVerifiers(t *testing.T) {
	u, v := openExport(t, "ver1", func(db *store.DB) {
		ctx := context.Background()
		lead, _ := db.Authenticate(ctx, "lead", demo.DemoPassword)
		p, _ := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
		if _, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "demo-bench", Version: "1"}); err != nil {
			t.Fatal(err)
		}
	})
	if v.auditBtn != nil || v.freezeBtn != nil {
		t.Error("a verifier sees the audit or the freeze form")
	}
	if len(v.releases) != 1 {
		t.Fatalf("%d releases listed", len(v.releases))
	}
	assertGolden(t, "export_verifier.png", u.win)
	// The store refuses what the screen hides.
	if _, err := u.db.As(u.user).Freeze(context.Background(), bench.FreezeInput{ProjectID: u.project.ID, Name: "x", Version: "1"}); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("verifier freeze: %v", err)
	}
}

// confirmFreeze waits for a freeze's confirmation, checks that it says want, and
// taps its Freeze.
func confirmFreeze(t *testing.T, u *App, v *exportView, want string) {
	t.Helper()
	waitFor(t, "the freeze's confirmation", func() bool { return v.freezeDialog != nil || !v.freezing })
	if v.freezeDialog == nil {
		t.Fatalf("no confirmation before the freeze: %q", v.freezeMsg.Text)
	}
	top := u.win.Canvas().Overlays().Top()
	var said []string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			said = append(said, l.Text)
		}
	}
	if !strings.Contains(strings.Join(said, "\n"), want) {
		t.Errorf("the freeze's confirmation says %q, want %q in it", said, want)
	}
	test.Tap(findButton(t, top, "Freeze"))
}
