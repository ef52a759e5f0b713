package ui

import (
	"image/color"
	"math"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// Step graph geometry, in Fyne units.
const (
	sgBoxW    float32 = 150 // width of a step box when there is room
	sgMinBoxW float32 = 90  // narrowest step box, before the graph needs scrolling
	sgBoxH    float32 = 42  // height of a step box
	sgGapX    float32 = 34  // horizontal gap between columns (room for arrows)
	sgGapY    float32 = 14  // vertical gap between boxes of a column
	sgPad     float32 = 8   // margin around the drawing
	sgArrow   float32 = 8   // arrowhead length
	sgDash    float32 = 5   // dash and gap length of a redundant edge
	sgStroke  float32 = 1.5 // edge width
)

var (
	sgRedundant = color.NRGBA{R: 0xd3, G: 0x2f, B: 0x2f, A: 0xff} // redundant (transitive) edges
	sgBackward  = color.NRGBA{R: 0xef, G: 0x6c, B: 0x00, A: 0xff} // edges on a cycle (same or earlier column)
)

// stepGraph draws a step/precondition graph left to right: steps are boxes placed in
// columns by dependency depth (annotate.Layers), preconditions are arrows from the
// step that must be done first, redundant (transitive) edges are dashed and red, and
// edges that do not go rightwards (only possible on a cycle) are orange. It only
// displays: it never changes the steps, and it tolerates any step list (cycles,
// unknown or self references, missing or repeated ids are drawn as far as they can
// be and otherwise ignored). Boxes narrow (down to sgMinBoxW) to fit the width given.
type stepGraph struct {
	widget.BaseWidget
	steps []annotate.Step
}

func newStepGraph() *stepGraph {
	g := &stepGraph{}
	g.ExtendBaseWidget(g)
	return g
}

// SetSteps shows steps (copied) and redraws when they changed.
func (g *stepGraph) SetSteps(steps []annotate.Step) {
	if g.steps != nil && slices.EqualFunc(g.steps, steps, func(a, b annotate.Step) bool {
		return a.ID == b.ID && a.Content == b.Content && slices.Equal(a.Precondition, b.Precondition)
	}) {
		return
	}
	g.steps = make([]annotate.Step, len(steps))
	for i, s := range steps {
		s.Precondition = slices.Clone(s.Precondition)
		g.steps[i] = s
	}
	g.Refresh()
}

func (g *stepGraph) CreateRenderer() fyne.WidgetRenderer {
	r := &stepGraphRenderer{g: g}
	r.build()
	return r
}

// sgNode is one drawn step.
type sgNode struct {
	id, content string
	col         int
	pos         fyne.Position // top-left of its box
}

// sgLayout places the steps of a graph; it is pure so that tests can check it.
type sgLayout struct {
	boxW  float32
	nodes map[string]*sgNode
	order []string // node ids in step order
	edges []sgEdge
	size  fyne.Size
}

type sgEdge struct {
	from, to  string
	redundant bool
	backward  bool            // to is not in a later column than from
	points    []fyne.Position // the polyline drawn, ending at the arrow tip
}

// layoutStepGraph places steps with boxes boxW wide.
func layoutStepGraph(steps []annotate.Step, boxW float32) sgLayout {
	l := sgLayout{nodes: map[string]*sgNode{}, boxW: boxW}
	layers := annotate.Layers(steps)
	content := map[string]string{}
	first := map[string]int{} // id -> index of its first step
	for i, s := range steps {
		if _, seen := first[s.ID]; !seen {
			first[s.ID], content[s.ID] = i, s.Content
		}
	}
	rows := 0
	for c, ids := range layers {
		for r, id := range ids {
			l.nodes[id] = &sgNode{id: id, content: content[id], col: c, pos: fyne.NewPos(
				sgPad+float32(c)*(boxW+sgGapX), sgPad+float32(r)*(sgBoxH+sgGapY))}
		}
		rows = max(rows, len(ids))
	}
	for _, s := range steps {
		if _, ok := l.nodes[s.ID]; ok && !slices.Contains(l.order, s.ID) {
			l.order = append(l.order, s.ID)
		}
	}
	redundant := map[annotate.Edge]bool{}
	for _, e := range annotate.RedundantEdges(steps) {
		redundant[e] = true
	}
	seen := map[annotate.Edge]bool{}
	for i, s := range steps {
		to, ok := l.nodes[s.ID]
		if !ok || first[s.ID] != i { // no id, or a repeated id (not drawn)
			continue
		}
		for _, p := range s.Precondition {
			from, ok := l.nodes[p]
			e := annotate.Edge{From: p, To: s.ID}
			if !ok || p == s.ID || seen[e] {
				continue
			}
			seen[e] = true
			l.edges = append(l.edges, sgEdge{from: p, to: s.ID, redundant: redundant[e], backward: to.col <= from.col})
		}
	}
	if len(layers) == 0 {
		return l
	}
	l.size = fyne.NewSize(2*sgPad+float32(len(layers))*boxW+float32(len(layers)-1)*sgGapX,
		2*sgPad+float32(rows)*sgBoxH+float32(max(rows-1, 0))*sgGapY)
	for i := range l.edges {
		e := &l.edges[i]
		e.points = l.route(l.nodes[e.from], l.nodes[e.to])
		for _, p := range e.points {
			l.size = l.size.Max(fyne.NewSize(p.X+sgPad, p.Y+sgPad))
		}
	}
	return l
}

// route is the path of the edge a → b. An edge to the next column is straight, from
// box outline to box outline. An edge that skips columns (a redundant edge often
// does) bows below both boxes, so that it never hides behind the path of edges that
// implies it. An edge within one column (on a cycle) runs beside the boxes.
func (l *sgLayout) route(a, b *sgNode) []fyne.Position {
	half := fyne.NewSize(l.boxW/2, sgBoxH/2)
	ca, cb := a.pos.AddXY(half.Width, half.Height), b.pos.AddXY(half.Width, half.Height)
	switch span := b.col - a.col; {
	case span == 0:
		off := l.boxW / 4
		if a.pos.Y > b.pos.Y {
			off = -off
		}
		return []fyne.Position{clipToBox(ca, cb, half).AddXY(off, 0), clipToBox(cb, ca, half).AddXY(off, 0)}
	case span == 1 || span < 0:
		return []fyne.Position{clipToBox(ca, cb, half), clipToBox(cb, ca, half)}
	default:
		start := a.pos.AddXY(half.Width*1.5, sgBoxH)
		end := b.pos.AddXY(half.Width*0.5, sgBoxH)
		ctrl := fyne.NewPos((start.X+end.X)/2, max(start.Y, end.Y)+sgGapY+10*float32(span))
		const n = 16
		pts := make([]fyne.Position, 0, n+1)
		for i := 0; i <= n; i++ { // quadratic Bézier
			t := float32(i) / n
			u := 1 - t
			pts = append(pts, fyne.NewPos(u*u*start.X+2*u*t*ctrl.X+t*t*end.X, u*u*start.Y+2*u*t*ctrl.Y+t*t*end.Y))
		}
		return pts
	}
}

type stepGraphRenderer struct {
	g       *stepGraph
	width   float32 // the width laid out for
	layout  sgLayout
	empty   *canvas.Text
	objects []fyne.CanvasObject
}

func (r *stepGraphRenderer) Destroy() {}

func (r *stepGraphRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Layout redraws with boxes as wide as the width allows (sgMinBoxW to sgBoxW).
func (r *stepGraphRenderer) Layout(size fyne.Size) {
	if size.Width != r.width {
		r.width = size.Width
		r.build()
	}
}

// boxWidth is the box width that fits cols columns into width.
func boxWidth(width float32, cols int) float32 {
	if cols == 0 || width <= 0 {
		return sgBoxW
	}
	w := (width - 2*sgPad - float32(cols-1)*sgGapX) / float32(cols)
	return max(sgMinBoxW, min(sgBoxW, w))
}

func (r *stepGraphRenderer) MinSize() fyne.Size {
	if len(r.layout.nodes) == 0 {
		return r.empty.MinSize().AddWidthHeight(2*sgPad, 2*sgPad)
	}
	return layoutStepGraph(r.g.steps, sgMinBoxW).size
}

func (r *stepGraphRenderer) Refresh() {
	r.build()
	canvas.Refresh(r.g)
}

// build recreates every drawing object from the steps; graphs are small (≤ 10 steps).
func (r *stepGraphRenderer) build() {
	r.layout = layoutStepGraph(r.g.steps, boxWidth(r.width, len(annotate.Layers(r.g.steps))))
	r.objects = nil // a new slice: the canvas may still hold the previous list
	fg := theme.Color(theme.ColorNameForeground)
	if len(r.layout.nodes) == 0 {
		r.empty = canvas.NewText("No steps yet", theme.Color(theme.ColorNamePlaceHolder))
		r.empty.Move(fyne.NewPos(sgPad, sgPad))
		r.objects = append(r.objects, r.empty)
		return
	}
	for _, e := range r.layout.edges {
		col := fg
		switch {
		case e.redundant:
			col = sgRedundant
		case e.backward:
			col = sgBackward
		}
		r.objects = append(r.objects, arrow(e.points, col, e.redundant)...)
	}
	for _, id := range r.layout.order {
		n := r.layout.nodes[id]
		box := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
		box.StrokeColor = theme.Color(theme.ColorNamePrimary)
		box.StrokeWidth = 1.5
		box.CornerRadius = 4
		box.Move(n.pos)
		box.Resize(fyne.NewSize(r.layout.boxW, sgBoxH))
		title := canvas.NewText(n.id, fg)
		title.TextStyle.Bold = true
		title.TextSize = theme.CaptionTextSize()
		title.Move(n.pos.AddXY(6, 3))
		body := canvas.NewText(fitText(n.content, theme.CaptionTextSize(), r.layout.boxW-12), fg)
		body.TextSize = theme.CaptionTextSize()
		body.Move(n.pos.AddXY(6, 3+sgBoxH/2-2))
		r.objects = append(r.objects, box, title, body)
	}
}

// arrow draws an edge's polyline, dashed when asked, with an arrowhead at its end.
func arrow(pts []fyne.Position, col color.Color, dashed bool) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	line := func(p, q fyne.Position) {
		l := canvas.NewLine(col)
		l.StrokeWidth = sgStroke
		l.Position1, l.Position2 = p, q
		out = append(out, l)
	}
	if len(pts) < 2 {
		return nil
	}
	phase := float32(0) // distance along the path, for dashes that run on across segments
	var ux, uy float32
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		dx, dy := b.X-a.X, b.Y-a.Y
		length := float32(math.Hypot(float64(dx), float64(dy)))
		if length < 0.01 {
			continue
		}
		ux, uy = dx/length, dy/length
		if !dashed {
			line(a, b)
			continue
		}
		for t := float32(0); t < length; {
			inDash := math.Mod(float64(phase), float64(2*sgDash)) < float64(sgDash)
			step := sgDash - float32(math.Mod(float64(phase), float64(sgDash)))
			e := min(t+step, length)
			if inDash {
				line(a.AddXY(ux*t, uy*t), a.AddXY(ux*e, uy*e))
			}
			phase += e - t
			t = e
		}
	}
	if ux == 0 && uy == 0 {
		return nil
	}
	// Arrowhead: two strokes back from the tip at ±28°.
	end := pts[len(pts)-1]
	const s, c = 0.47, 0.88
	for _, sign := range []float32{1, -1} {
		bx := -(ux*c - sign*uy*s)
		by := -(uy*c + sign*ux*s)
		line(end, end.AddXY(bx*sgArrow, by*sgArrow))
	}
	return out
}

// clipToBox returns where the segment from the centre c of a box (half size half)
// towards p leaves the box.
func clipToBox(c, p fyne.Position, half fyne.Size) fyne.Position {
	dx, dy := p.X-c.X, p.Y-c.Y
	if dx == 0 && dy == 0 {
		return c
	}
	t := float32(math.Inf(1))
	if dx != 0 {
		t = min(t, half.Width/float32(math.Abs(float64(dx))))
	}
	if dy != 0 {
		t = min(t, half.Height/float32(math.Abs(float64(dy))))
	}
	return c.AddXY(dx*t, dy*t)
}

// fitText shortens s with an ellipsis until it fits width at text size size.
func fitText(s string, size, width float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 {
		r = r[:len(r)-1]
		t := string(r) + "…"
		if fyne.MeasureText(t, size, fyne.TextStyle{}).Width <= width {
			return t
		}
	}
	return "…"
}
