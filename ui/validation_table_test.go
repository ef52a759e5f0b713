package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The estimates table of a batch with three strata shows its header and all four
// rows (three strata and the batch) with no vertical scroll and no empty space below
// them, at 1024 and 1400 px (issue 17).
func TestValidationEstimatesTableFitsItsRows(t *testing.T) {
	for _, width := range []float32{1024, 1400} {
		u, db := demoApp(t)
		u.win.Resize(fyne.NewSize(width, 700))
		v := openValidation(t, u, "lead")
		path := generatedFile(t, db, map[string]int{"T1": 12, "T2": 16, "T3": 16})
		loads := v.loads.Load()
		v.importFile(path, "gen1", "")
		waitValidation(t, v, loads+3)
		v.perStrat.SetText("10")
		loads = v.loads.Load()
		test.Tap(v.draw)
		waitValidation(t, v, loads+3)
		if len(v.rows) != 4 {
			t.Fatalf("%d estimate rows, want 3 strata and the batch", len(v.rows))
		}
		var table *widget.Table
		for _, o := range test.LaidOutObjects(v.detail) {
			if tb, ok := o.(*widget.Table); ok {
				if r, _ := tb.Length(); r == len(v.rows)+1 {
					table = tb
				}
			}
		}
		if table == nil {
			t.Fatal("no estimates table")
		}
		var body *container.Scroll // the table's own scroll of its cells
		for _, o := range test.LaidOutObjects(table) {
			if s, ok := o.(*container.Scroll); ok && body == nil {
				body = s
			}
		}
		if body == nil {
			t.Fatal("the table has no scroll of its cells")
		}
		need, have := body.Content.MinSize().Height, body.Size().Height
		if need > have+0.5 {
			t.Errorf("at %.0f px the table's rows need %.0f px and it has %.0f: it scrolls and cuts its last row", width, need, have)
		}
		if have > need+theme.Padding() {
			t.Errorf("at %.0f px the table is %.0f px tall for %.0f px of rows", width, have, need)
		}
	}
}
