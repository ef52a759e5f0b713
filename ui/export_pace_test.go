package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	"github.com/benchwright/benchwright/synth"
)

// freezeDemo freezes the demo project's accepted samples as demo-bench@1.
func freezeDemo(t *testing.T) func(db *store.DB) {
	return func(db *store.DB) {
		ctx := context.Background()
		lead, _ := db.Authenticate(ctx, "lead", demo.DemoPassword)
		p, _ := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
		if _, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "demo-bench", Version: "1"}); err != nil {
			t.Fatal(err)
		}
	}
}

// An export reports every record; the screen shows the first report, the last and
// at most one per progressEvery between them (issue 27 item 13: drawing every
// report made the app's export ~15× slower than bwctl's).
func TestExportProgressIsPaced(t *testing.T) {
	_, v := openExport(t, "lead", freezeDemo(t))
	for _, tc := range []struct {
		every time.Duration
		want  func(updates, records int) bool
		says  string
	}{
		{time.Hour, func(n, _ int) bool { return n == 2 }, "the first and the last"},
		{0, func(n, records int) bool { return n == records+2 }, "every report (0 to records+1, the manifest last)"},
	} {
		progressEvery = tc.every
		run := v.startExport(context.Background(), v.releases[0], "native", t.TempDir())
		waitFor(t, "the export", func() bool { return run.done })
		progressEvery = 100 * time.Millisecond
		records := run.result.Manifest.Counts.Samples
		if run.err != nil || records < 2 {
			t.Fatalf("export: %v, %d samples", run.err, records)
		}
		if !tc.want(run.updates, records) || run.bar.Value != 1 {
			t.Errorf("every %v: %d updates shown for %d records, bar at %.2f; want %s", tc.every, run.updates, records, run.bar.Value, tc.says)
		}
		if want := fmt.Sprintf("%d of %d samples", records, records); run.label.Text != want {
			t.Errorf("the last update reads %q, want %q", run.label.Text, want)
		}
	}
}

// "every format" writes the release in each format into a folder of its own, in
// one run; the closing dialog offers to open the folder holding them.
func TestExportEveryFormat(t *testing.T) {
	u, v := openExport(t, "lead", freezeDemo(t))
	var opened []string
	openFolder = func(_ fyne.App, dir string) error { opened = append(opened, dir); return nil }
	t.Cleanup(func() {
		openFolder = func(a fyne.App, dir string) error { return nil }
	})
	var formats []string
	for _, f := range release.Formats() {
		formats = append(formats, f.Name())
	}
	parent := t.TempDir()
	run := v.startExports(context.Background(), v.releases[0], formats, parent)
	waitFor(t, "the exports", func() bool { return run.done })
	if len(run.outcomes) != len(formats) {
		t.Fatalf("%d outcomes for %d formats", len(run.outcomes), len(formats))
	}
	for _, o := range run.outcomes {
		if o.err != nil || o.dir != exportDir(parent, v.releases[0], o.format) {
			t.Errorf("%s: %v into %q", o.format, o.err, o.dir)
			continue
		}
		if d, err := release.VerifyRelease(context.Background(), o.dir); err != nil || !d.OK() {
			t.Errorf("verify %s: %+v %v", o.dir, d, err)
		}
		if !strings.Contains(run.summary, "as "+o.format+" to") {
			t.Errorf("the summary does not name %s: %q", o.format, run.summary)
		}
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != len(formats) {
		t.Errorf("%d folders in %s, want one per format (%d)", len(entries), parent, len(formats))
	}
	// The closing dialog's Open folder opens the folder holding every format's.
	top := u.win.Canvas().Overlays().Top()
	var open *widget.Button
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Open folder" {
			open = b
		}
	}
	if open == nil {
		t.Fatal("no Open folder button after the export")
	}
	test.Tap(open)
	if !slices.Equal(opened, []string{parent}) {
		t.Errorf("opened %q, want %q", opened, parent)
	}
}

// BenchmarkExportScreen exports a synthetic release of about 1,500 samples in the
// native format from the Export screen (its progress dialog, every report handed to
// the UI goroutine as in the app) and, in the same run, with store.Export and no
// progress, as bwctl export does: the floor. Issue 27 item 13: the app within 1.2×
// of bwctl (app-vs-bwctl).
func BenchmarkExportScreen(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	db, res := generated(b, synth.Options{Samples: 6000, Images: 600, Large: -1, Seed: 4}) // ui/bench_test.go
	lead, err := db.Authenticate(ctx, "lead", "bench-pw")
	if err != nil {
		b.Fatal(err)
	}
	if err := synth.WithdrawAuditErrors(ctx, db, lead, res.Project.ID); err != nil {
		b.Fatal(err)
	}
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: res.Project.ID, Name: "bench", Version: "1",
		Split: &annotate.SplitSpec{TestRatio: 0.2, Seed: 1}})
	if err != nil {
		b.Fatal(err)
	}
	u := New(test.NewTempApp(b), db, "")
	u.win.Resize(fyne.NewSize(1280, 800))
	asSignedIn(u, lead)
	u.openProject(res.Project)
	v := u.newExportView()
	var app, floor time.Duration
	viaScreen := func(i int) {
		start := time.Now()
		run := v.startExport(ctx, rel, "native", filepath.Join(dir, "app", fmt.Sprint(i)))
		for !run.done {
			time.Sleep(time.Millisecond)
		}
		app += time.Since(start)
		if run.err != nil {
			b.Fatal(run.err)
		}
	}
	direct := func(i int) {
		start := time.Now()
		if _, err := db.Export(ctx, lead, bench.ExportInput{Release: rel.Ref(), ProjectID: res.Project.ID, Format: "native",
			OutDir: filepath.Join(dir, "floor", fmt.Sprint(i))}, nil); err != nil {
			b.Fatal(err)
		}
		floor += time.Since(start)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Each goes first in turn, so that neither gains from the other's reads.
		if i%2 == 0 {
			viaScreen(i)
			direct(i)
		} else {
			direct(i)
			viaScreen(i)
		}
	}
	b.ReportMetric(float64(rel.Samples), "samples")
	b.ReportMetric(float64(app.Milliseconds())/float64(b.N), "app-ms")
	b.ReportMetric(float64(floor.Milliseconds())/float64(b.N), "bwctl-ms")
	b.ReportMetric(float64(app)/float64(floor), "app-vs-bwctl")
}
