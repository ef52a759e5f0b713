package chart

import "testing"

// A heat grid records where each cell lies, so that a screen can tell which cell a
// click is on.
func TestHeatCellAt(t *testing.T) {
	g := Heat{Title: "accepted / target", Rows: []string{"1-hop", "2-hop", "3-hop"}, Cols: []string{"ego", "exo"},
		Cells: [][]Cell{{{Text: "1/2"}, {Text: "2/2"}}, {{Text: "0/2"}}}}
	d := g.Draw(GoFont(), Paper, 400, 190)
	if len(d.Cells) != 6 {
		t.Fatalf("%d cell areas, want 6 (3 rows × 2 columns, empty ones too)", len(d.Cells))
	}
	for _, a := range d.Cells {
		if r, c, ok := d.CellAt(a.X+a.W/2, a.Y+a.H/2); !ok || r != a.Row || c != a.Col {
			t.Errorf("the middle of cell (%d, %d) is (%d, %d, %v)", a.Row, a.Col, r, c, ok)
		}
	}
	tests := []struct {
		name     string
		x, y     float64
		row, col int
		ok       bool
	}{
		{"title", 200, 5, 0, 0, false},
		{"row label", 10, 100, 0, 0, false},
		{"last cell's corner", d.Cells[5].X + d.Cells[5].W - 1, d.Cells[5].Y + d.Cells[5].H - 1, 2, 1, true},
		{"first cell's corner", d.Cells[0].X, d.Cells[0].Y, 0, 0, true},
	}
	for _, tt := range tests {
		r, c, ok := d.CellAt(tt.x, tt.y)
		if ok != tt.ok || (ok && (r != tt.row || c != tt.col)) {
			t.Errorf("%s: (%d, %d, %v), want (%d, %d, %v)", tt.name, r, c, ok, tt.row, tt.col, tt.ok)
		}
	}
}
