package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// A heat grid's cells link to their samples like the rows of the table beside it
// (samples_links.go): a tap on a cell opens the sample manager filtered to it.

var (
	_ fyne.Tappable      = (*chartView)(nil)
	_ desktop.Cursorable = (*chartView)(nil)
)

// linkCells makes a tap on a cell of heat grid c open the samples query gives for
// its row and column. Without the sample manager (not a lead) the grid stays as it was.
func (u *App) linkCells(c *chartView, query func(row, col int) bench.SampleQuery) {
	if !u.may(verify.ActionSearchSamples) {
		return
	}
	c.onCell = func(row, col int) { u.openSamples(query(row, col)) }
}

// Tapped opens the samples of the cell under the pointer, when the cells link.
func (c *chartView) Tapped(e *fyne.PointEvent) {
	if c.onCell == nil {
		return
	}
	size := c.Size()
	if size.IsZero() {
		size = c.min
	}
	d := c.drawing(c.palette(), size) // laid out as on screen
	if row, col, ok := d.CellAt(float64(e.Position.X), float64(e.Position.Y)); ok {
		c.onCell(row, col)
	}
}

// Cursor is a pointing hand over a chart whose cells link.
func (c *chartView) Cursor() desktop.Cursor {
	if c.onCell != nil {
		return desktop.PointerCursor
	}
	return desktop.DefaultCursor
}

// heatCellQuery is the search behind the balance grid's cell of hop and view: the
// hop questions there, accepted and in review (the cell counts the accepted against
// the target; the ones in review are what is coming).
func heatCellQuery(hop int, view string) bench.SampleQuery {
	return balanceQuery(bench.BalanceCell{Kind: string(annotate.KindHopQA), Hop: hop, View: view}, "")
}
