package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// balanceGrid selects the dashboard's Balance tab and returns its heat grid.
func balanceGrid(t *testing.T, v *dashboardView) *chartView {
	t.Helper()
	v.tabs.SelectIndex(slices.IndexFunc(v.tabs.Items, func(it *container.TabItem) bool { return it.Text == tabBalance }))
	for _, o := range objectsOf(v) {
		if c, ok := o.(*chartView); ok {
			return c
		}
	}
	t.Fatal("no heat grid on the Balance tab")
	return nil
}

// cellCentre is the middle of the grid's cell (row, col), as laid out on screen.
func cellCentre(t *testing.T, c *chartView, row, col int) fyne.Position {
	t.Helper()
	d := c.drawing(c.palette(), c.Size())
	for _, a := range d.Cells {
		if a.Row == row && a.Col == col {
			return fyne.NewPos(float32(a.X+a.W/2), float32(a.Y+a.H/2))
		}
	}
	t.Fatalf("no cell (%d, %d)", row, col)
	return fyne.Position{}
}

// A tap on a cell of the balance grid opens the sample manager filtered to that
// cell's hop and view, as the table's rows do (issue 17).
func TestBalanceGridCellOpensItsSamples(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "lead")
	grid := balanceGrid(t, v)
	for _, tc := range []struct {
		row, col int
		hop      int
		view     annotate.View
	}{{0, 1, 1, annotate.ViewExo}, {1, 0, 2, annotate.ViewEgo}} {
		delete(lastSamples, u)
		test.TapAt(grid, cellCentre(t, grid, tc.row, tc.col))
		s := samplesOf(t, u)
		if s.q.Hop != tc.hop || s.q.View != tc.view || !slices.Equal(s.q.Kinds, []annotate.Kind{annotate.KindHopQA}) {
			t.Fatalf("cell (%d, %d) opened the query %+v", tc.row, tc.col, s.q)
		}
		for _, r := range s.page.Rows {
			if r.Kind != annotate.KindHopQA || r.Content.Hop != tc.hop || r.Content.View != tc.view || !slices.Contains(append(slices.Clone(acceptedStates), inReviewStates...), r.Status) {
				t.Errorf("%d-hop %s: %s is %s %d-hop %s, %s", tc.hop, tc.view, r.ID, r.Kind, r.Content.Hop, r.Content.View, r.Status)
			}
		}
		if tc.row == 0 && s.page.Total == 0 {
			t.Errorf("the demo's 1-hop exo cell opened no samples")
		}
		u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Dashboard" }))
		v = u.content.Objects[0].(*dashboardView)
		waitLoads(t, v, 1)
		grid = balanceGrid(t, v)
	}
}

// Without the sample manager (an annotator) the grid's cells stay plain.
func TestBalanceGridCellsStayPlainForAnnotators(t *testing.T) {
	u, _ := dashDemoApp(t)
	v := openDashboard(t, u, "ann1")
	grid := balanceGrid(t, v)
	delete(lastSamples, u)
	test.TapAt(grid, cellCentre(t, grid, 0, 1))
	if lastSamples[u] != nil || grid.onCell != nil || u.may(verify.ActionSearchSamples) {
		t.Fatal("an annotator's tap on the grid opened the sample manager")
	}
}
