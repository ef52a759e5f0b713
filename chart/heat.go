package chart

import "image/color"

// Cell is one cell of a heat grid: its text and fill; a nil Fill is the palette's
// Empty.
type Cell struct {
	Text string
	Fill color.Color
}

// Heat is a grid of coloured cells with the column labels above and the row labels
// to the left. Cells[r][c] is the cell of row r and column c; a missing one is empty.
type Heat struct {
	Title      string
	Rows, Cols []string
	Cells      [][]Cell
}

// Draw lays the grid out in a w×h box.
func (g Heat) Draw(f *Font, p Palette, w, h float64) Drawing {
	d := Drawing{W: w, H: h, Font: f, Background: p.Background}
	top := header(&d, f, p, g.Title, nil, false)
	if len(g.Rows) == 0 || len(g.Cols) == 0 {
		return d
	}
	lh := lineHeight(textSize)
	asc := f.Ascent(textSize)
	labelW := 0.0
	for _, r := range g.Rows {
		labelW = max(labelW, f.Width(r, textSize))
	}
	labelW = min(labelW, w/3)
	left := pad + labelW + pad
	top += lh
	cw := (w - pad - left) / float64(len(g.Cols))
	ch := (h - pad - top) / float64(len(g.Rows))
	if cw < 4 || ch < 4 {
		return d
	}
	put := func(x, y float64, s string, width float64, c color.NRGBA, a Anchor) {
		t, ok := fit(f, s, textSize, width)
		txt := Text{X: x, Y: y, S: t, Size: textSize, Fill: c, Anchor: a}
		if !ok {
			txt.Full = s
		}
		d.text(txt)
	}
	for c, l := range g.Cols {
		put(left+float64(c)*cw+cw/2, top-lh+asc, l, cw-4, p.Ink, Middle)
	}
	for r, l := range g.Rows {
		y := top + float64(r)*ch
		put(pad+labelW, y+(ch+asc)/2-1, l, labelW, p.Ink, End)
		for c := range g.Cols {
			fill := p.Empty
			var text string
			if r < len(g.Cells) && c < len(g.Cells[r]) {
				if x := g.Cells[r][c].Fill; x != nil {
					fill = color.NRGBAModel.Convert(x).(color.NRGBA)
				}
				text = g.Cells[r][c].Text
			}
			x := left + float64(c)*cw
			d.rect(x+1, y+1, cw-2, ch-2, fill)
			d.Cells = append(d.Cells, CellArea{X: x, Y: y, W: cw, H: ch, Row: r, Col: c})
			put(x+cw/2, y+(ch+asc)/2-1, text, cw-6, inkOn(p, fill), Middle)
			if text != "" {
				d.Hints = append(d.Hints, Hint{X: x, Y: y, W: cw, H: ch, Text: l + ", " + g.Cols[c] + ": " + text})
			}
		}
	}
	return d
}
