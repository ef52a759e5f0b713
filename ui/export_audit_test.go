package ui

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	_ "github.com/mattn/go-sqlite3"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// setSplits writes each accepted sample's own split into its current revision, as an
// import of an official file with splits would have.
func setSplits(t *testing.T, db *store.DB, splits map[string]string) {
	t.Helper()
	raw, err := sql.Open("sqlite3", db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// A test's shortcut past the store: revisions are otherwise never rewritten.
	if _, err := raw.Exec(`DROP TRIGGER revisions_immutable_update`); err != nil {
		t.Fatal(err)
	}
	for id, split := range splits {
		if _, err := raw.Exec(`UPDATE revisions SET content = json_set(content, '$.split', ?) WHERE id = (SELECT current_rev FROM samples WHERE id = ?)`, split, id); err != nil {
			t.Fatal(err)
		}
	}
}

// The audit shows its progress (images re-hashed of all) in a dialog with a Cancel,
// and audits what the freeze form describes: with the split box unticked the release
// carries no split, so samples' own overlapping splits are no finding; ticked, the
// new image-disjoint split is audited; a cancelled audit says so (issue 17).
func TestExportAuditProgressCancelAndSplit(t *testing.T) {
	u, v := openExport(t, "lead", func(db *store.DB) {
		ctx := context.Background()
		var byImage = map[string][]string{}
		for _, id := range []string{"demo-hq-001", "demo-sg-001", "demo-yn-001"} {
			si, err := db.Sample(ctx, bench.Owner(), id)
			if err != nil {
				t.Fatal(err)
			}
			byImage[si.ImagePath] = append(byImage[si.ImagePath], id)
		}
		for _, ids := range byImage {
			if len(ids) > 1 {
				setSplits(t, db, map[string]string{ids[0]: "train", ids[1]: "test"})
				return
			}
		}
		t.Fatal("no two accepted demo samples share an image")
	})
	overlap := func() bool {
		for _, f := range v.findings {
			if f.Check == bench.CheckSplit {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		name        string
		ticked      bool
		wantOverlap bool
	}{
		{"split unticked", false, false},
		{"split ticked", true, false},
	} {
		if v.split.Checked != tc.ticked {
			test.Tap(v.split)
			v.ratio.SetText("0.5") // one of the two images in test
		}
		test.Tap(v.auditBtn)
		waitFor(t, "the audit", func() bool { return v.lastAudit != nil })
		run := v.auditRun
		if run == nil || !run.done || run.bar.Value != 1 || run.label.Text != "Re-hashing images: 2 of 2" {
			t.Fatalf("%s: the audit's progress: %+v", tc.name, run)
		}
		if overlap() != tc.wantOverlap || !strings.Contains(v.auditSummary.Text, "0 errors") {
			t.Errorf("%s: %q, findings %+v", tc.name, v.auditSummary.Text, v.findings)
		}
	}

	// The progress dialog, as it looks half-way.
	run := v.auditRun
	run.bar.SetValue(0)
	auditProgress(run)(1, 2)
	if run.label.Text != "Re-hashing images: 1 of 2" {
		t.Errorf("half-way: %q", run.label.Text)
	}
	run.dlg.Show()
	assertGolden(t, "export_audit_progress.png", u.win)
	run.dlg.Hide()

	// Cancel stops it; the summary says nothing was checked.
	// (The audit runs through inBackground, in place in the tests: held back here
	// until Cancel is pressed, as a long re-hash would be.)
	var pending func()
	inBackground = func(f func()) { pending = f }
	test.Tap(v.auditBtn)
	inBackground = func(f func()) { f() }
	v.auditRun.cancel()
	pending()
	waitFor(t, "the cancelled audit", func() bool { return v.lastAudit != nil })
	if !strings.Contains(v.auditSummary.Text, "Audit cancelled") || len(v.findings) != 0 || v.auditBtn.Disabled() {
		t.Errorf("after Cancel: %q, %d findings", v.auditSummary.Text, len(v.findings))
	}
}
