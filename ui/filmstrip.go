package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// A sample of several images (issue 26) is shown as a filmstrip: one cell per image,
// in order, with its label; the cell of the image the canvas shows is highlighted and
// the one holding the box is marked. Annotators pick, drag to reorder (or use the
// keys the Annotate screen gives), add and remove; verifiers see the same strip read-
// only, so they judge the order the annotator saw. The grid view (seqGrid) shows up to
// 16 images at once, its cells' zoom and pan kept in step through boxcanvas.View.

const (
	filmThumbW float32 = 92
	filmThumbH float32 = 56
)

var (
	filmShownColor = color.NRGBA{R: 0x00, G: 0xa0, B: 0xff, A: 0xff}
	filmCellColor  = color.NRGBA{R: 0x30, G: 0x30, B: 0x33, A: 0xff}
)

// filmFrame is what a cell shows of one image.
type filmFrame struct {
	path, label string
	thumb       string // the thumbnail's file, "" while unknown
	hasBox      bool
}

// filmstrip is the row of cells. Its callbacks run on the UI goroutine.
type filmstrip struct {
	readOnly bool
	onPick   func(i int)
	onMove   func(from, to int)

	frames []filmFrame
	shown  int
	cells  []*filmCell
	row    *fyne.Container
	scroll *container.Scroll
}

func newFilmstrip(readOnly bool) *filmstrip {
	f := &filmstrip{readOnly: readOnly, row: container.NewHBox()}
	f.scroll = container.NewHScroll(f.row)
	f.scroll.SetMinSize(fyne.NewSize(filmThumbW*2, filmThumbH+theme.TextSize()+4*theme.Padding()))
	return f
}

// set shows frames with the image shown highlighted; cells are reused.
func (f *filmstrip) set(frames []filmFrame, shown int) {
	f.frames, f.shown = frames, shown
	for len(f.cells) < len(frames) {
		c := newFilmCell(f, len(f.cells))
		f.cells = append(f.cells, c)
	}
	objs := make([]fyne.CanvasObject, len(frames))
	for i, fr := range frames {
		f.cells[i].show(fr, i == shown)
		objs[i] = f.cells[i]
	}
	if !slices.Equal(f.row.Objects, objs) {
		f.row.Objects = objs
		// Each cell refreshed itself; a Refresh of the row or the scroll would read
		// every thumbnail again: the row only takes its new width and lays out.
		m, sz := f.row.MinSize(), f.scroll.Size()
		f.row.Resize(fyne.NewSize(max(m.Width, sz.Width), max(m.Height, sz.Height)))
		layoutOnly(f.row)
	}
	if shown >= 0 && shown < len(frames) {
		f.scrollTo(shown)
	}
}

// scrollTo brings cell i into view.
func (f *filmstrip) scrollTo(i int) {
	w := f.scroll.Size().Width
	if w <= 0 {
		return
	}
	pitch := filmThumbW + theme.Padding()*3
	left, right := float32(i)*pitch, float32(i+1)*pitch
	off := f.scroll.Offset
	switch {
	case left < off.X:
		off.X = left
	case right > off.X+w:
		off.X = right - w
	default:
		return
	}
	f.scroll.ScrollToOffset(off)
}

// pitch is the distance between the left edges of two neighbouring cells.
func (f *filmstrip) pitch() float32 {
	if len(f.cells) > 1 {
		if d := f.cells[1].Position().X - f.cells[0].Position().X; d > 0 {
			return d
		}
	}
	if len(f.cells) > 0 && f.cells[0].Size().Width > 0 {
		return f.cells[0].Size().Width + theme.Padding()
	}
	return filmThumbW + theme.Padding()*3
}

// filmCell is one image of the strip: tap to show it, drag sideways to move it.
type filmCell struct {
	widget.BaseWidget
	strip *filmstrip
	index int

	bg    *canvas.Rectangle
	img   *canvas.Image
	label *widget.Label
	name  *widget.Label

	dragX    float32
	dragging bool
}

var (
	_ fyne.Tappable  = (*filmCell)(nil)
	_ fyne.Draggable = (*filmCell)(nil)
)

func newFilmCell(f *filmstrip, i int) *filmCell {
	c := &filmCell{strip: f, index: i}
	c.bg = canvas.NewRectangle(filmCellColor)
	c.bg.StrokeWidth = 3
	c.bg.CornerRadius = 4
	c.img = canvas.NewImageFromResource(nil)
	c.img.FillMode = canvas.ImageFillContain
	c.img.SetMinSize(fyne.NewSize(filmThumbW, filmThumbH))
	c.label = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	c.name = small("")
	c.name.Truncation = fyne.TextTruncateEllipsis
	c.ExtendBaseWidget(c)
	return c
}

func (c *filmCell) CreateRenderer() fyne.WidgetRenderer {
	text := container.New(&tightLines{}, container.NewBorder(nil, nil, c.label, nil, c.name))
	return widget.NewSimpleRenderer(container.NewStack(c.bg, container.NewPadded(container.NewBorder(nil, text, nil, nil, c.img))))
}

// MinSize keeps every cell the width of a thumbnail, whatever its name.
func (c *filmCell) MinSize() fyne.Size {
	m := c.BaseWidget.MinSize()
	return fyne.NewSize(filmThumbW+2*theme.Padding(), m.Height)
}

func (c *filmCell) show(fr filmFrame, shown bool) {
	text := fr.label
	if fr.hasBox {
		text += " ▣" // the box is drawn on this image
	}
	c.label.SetText(text)
	c.name.SetText(path.Base(fr.path))
	if c.img.File != fr.thumb {
		c.img.File = fr.thumb
		c.img.Refresh()
	}
	c.bg.StrokeColor = color.Transparent
	if shown {
		c.bg.StrokeColor = filmShownColor
	}
	c.bg.Refresh()
}

func (c *filmCell) Tapped(*fyne.PointEvent) {
	if c.strip.onPick != nil {
		c.strip.onPick(c.index)
	}
}

// Dragged follows a sideways drag; DragEnd moves the image by the number of cells
// dragged over. fyne's test.Drag sends the whole distance in one event.
func (c *filmCell) Dragged(ev *fyne.DragEvent) {
	if c.strip.readOnly {
		return
	}
	c.dragging = true
	c.dragX += ev.Dragged.DX
	c.Move(c.Position().AddXY(ev.Dragged.DX, 0)) // the cell follows the pointer
}

func (c *filmCell) DragEnd() {
	if !c.dragging {
		return
	}
	dx := c.dragX
	c.dragging, c.dragX = false, 0
	slots := int(math.Round(float64(dx / c.strip.pitch())))
	to := max(0, min(len(c.strip.frames)-1, c.index+slots))
	layoutOnly(c.strip.row) // puts the cell back in its place
	if to != c.index && c.strip.onMove != nil {
		c.strip.onMove(c.index, to)
	}
}

// tightLines stacks two labels without the gap of a VBox.
type tightLines struct{}

func (*tightLines) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height - 2*theme.Padding()
	}
	return s
}

func (*tightLines) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y-theme.Padding()))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - 2*theme.Padding()
	}
}

// ---- grid ----

// gridSide is the columns (and rows) of a grid of n images: 2×2 up to 4×4.
func gridSide(n int) int {
	switch {
	case n <= 4:
		return 2
	case n <= 9:
		return 3
	}
	return 4
}

// gridPage is the first image of the page of the grid that holds image shown, and
// the number of images on it: 16 a page.
func gridPage(n, shown int) (first, count int) {
	const per = 16
	first = max(0, shown) / per * per
	return first, min(per, n-first)
}

// seqGrid shows several images of a sequence at once in read-only canvases whose
// zoom and pan follow each other (boxcanvas.View.Follow).
type seqGrid struct {
	cells     []*boxcanvas.Canvas
	labels    []*widget.Label
	first     int // the sequence index of cell 0
	obj       fyne.CanvasObject
	following bool

	onOpen func(i int) // a cell's "show alone" button: sequence index i
}

// gridCell is one image of a grid: its picture (nil while loading), full size and box.
type gridCell struct {
	img           image.Image
	width, height int
	box           *annotate.Box
	label, path   string
}

func newSeqGrid(cells []gridCell, first, total int, onOpen func(i int)) *seqGrid {
	g := &seqGrid{first: first, onOpen: onOpen}
	grid := container.NewGridWithColumns(gridSide(len(cells)))
	for k, c := range cells {
		cv := boxcanvas.New(c.img, max(c.width, 1), max(c.height, 1))
		cv.ReadOnly = true
		if c.box != nil {
			cv.SetBoxes([]annotate.Box{*c.box})
		}
		cv.OnView = func(v boxcanvas.View) { g.follow(k) }
		g.cells = append(g.cells, cv)
		l := widget.NewLabelWithStyle(c.label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		g.labels = append(g.labels, l)
		open := widget.NewButtonWithIcon("", theme.ViewFullScreenIcon(), func() {
			if g.onOpen != nil {
				g.onOpen(first + k)
			}
		})
		open.Importance = widget.LowImportance
		head := container.NewBorder(nil, nil, nil, open, l)
		back := canvas.NewRectangle(filmCellColor)
		grid.Add(container.NewBorder(head, nil, nil, nil, container.NewStack(back, cv)))
	}
	head := caption(fmt.Sprintf("Grid: images %d–%d of %d · zoom and pan move every cell together", first+1, first+len(cells), total))
	g.obj = container.NewBorder(head, nil, nil, nil, grid)
	return g
}

// setImage gives cell k its picture once loaded.
func (g *seqGrid) setImage(k int, img image.Image, w, h int, box *annotate.Box) {
	if k < 0 || k >= len(g.cells) {
		return
	}
	cv := g.cells[k]
	cv.SetImage(img, max(w, 1), max(h, 1))
	if box != nil {
		cv.SetBoxes([]annotate.Box{*box})
	}
}

// follow puts every other cell's view in step with cell k's.
func (g *seqGrid) follow(k int) {
	if g.following {
		return
	}
	g.following = true
	defer func() { g.following = false }()
	src := g.cells[k]
	for j, cv := range g.cells {
		if j == k {
			continue
		}
		if src.Fitted() {
			cv.FitToWindow()
			continue
		}
		cv.SetView(cv.View().Follow(src.View(), src.ViewSize(), cv.ViewSize()))
	}
}

// zoomIn, zoomOut and fit act on the first cell; the others follow.
func (g *seqGrid) zoomIn() {
	if len(g.cells) > 0 {
		g.cells[0].ZoomIn()
	}
}

func (g *seqGrid) zoomOut() {
	if len(g.cells) > 0 {
		g.cells[0].ZoomOut()
	}
}

func (g *seqGrid) fit() {
	if len(g.cells) > 0 {
		g.cells[0].FitToWindow()
	}
}
