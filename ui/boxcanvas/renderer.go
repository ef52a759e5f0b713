package boxcanvas

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// Box outlines, in screen units: a box, a selected box with its own colour.
const (
	strokeWidth         float32 = 2
	selectedStrokeWidth float32 = 4
	labelPad            float32 = 2 // around a label's text
	haloWidth           float32 = 2 // the halo shows this much on each side of a styled box's outline
)

// renderer draws the picture, one outline (and label) per box and the handles of
// the selected box, all placed from the canvas View.
type renderer struct {
	c       *Canvas
	image   *canvas.Image
	crop    image.Rectangle // part of c.img shown by image
	shown   image.Image     // c.img the crop was taken from
	rects   []*canvas.Rectangle
	halos   []*canvas.Rectangle // per box: the contrasting halo under a styled box's outline
	tags    []*canvas.Rectangle // per box: its label's background
	texts   []*canvas.Text      // per box: its label
	handles [8]*canvas.Rectangle
	objects []fyne.CanvasObject
}

func (r *renderer) Destroy() {}

func (r *renderer) MinSize() fyne.Size { return fyne.NewSquareSize(32) }

func (r *renderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *renderer) Layout(size fyne.Size) {
	c := r.c
	c.size = size
	if c.fitted {
		c.setView(c.view.Fit(size))
	}
	r.place()
}

func (r *renderer) Refresh() {
	c := r.c
	if c.fitted {
		c.setView(c.view.Fit(c.size))
	}
	r.place() // refreshes the image itself only when its crop changes
	for _, o := range r.objects[1:] {
		o.Refresh()
	}
}

// place positions every object; objects are rebuilt when the box count changes.
func (r *renderer) place() {
	c := r.c
	r.placeImage()
	for len(r.rects) < len(c.boxes) {
		rect := canvas.NewRectangle(nil)
		rect.StrokeWidth = strokeWidth
		r.rects = append(r.rects, rect)
		r.halos = append(r.halos, canvas.NewRectangle(nil))
		r.tags = append(r.tags, canvas.NewRectangle(nil))
		text := canvas.NewText("", color.Black)
		text.TextSize = theme.CaptionTextSize()
		r.texts = append(r.texts, text)
	}
	r.rects, r.halos, r.tags, r.texts = r.rects[:len(c.boxes)], r.halos[:len(c.boxes)], r.tags[:len(c.boxes)], r.texts[:len(c.boxes)]
	bounds := fyne.NewSize(c.size.Width, c.size.Height)
	var handleColor color.Color = selectedColor
	var placed []labelRect // the labels placed so far, which later ones keep clear of
	for i, b := range c.boxes {
		rect, halo, tag, text := r.rects[i], r.halos[i], r.tags[i], r.texts[i]
		st := c.style(i)
		rect.StrokeColor, rect.StrokeWidth = boxColor, strokeWidth
		switch {
		case st.Color != nil && i == c.selected:
			rect.StrokeColor, rect.StrokeWidth = st.Color, selectedStrokeWidth
			handleColor = st.Color
		case st.Color != nil:
			rect.StrokeColor = st.Color
		case i == c.selected:
			rect.StrokeColor = selectedColor
		}
		b = b.Normalize()
		tl, br := c.view.ToScreen(b[0], b[1]), c.view.ToScreen(b[2], b[3])
		// Clip to the widget so that a zoomed-in box does not paint over its neighbours.
		tl = fyne.NewPos(max(tl.X, 0), max(tl.Y, 0))
		br = fyne.NewPos(min(br.X, bounds.Width), min(br.Y, bounds.Height))
		if br.X < tl.X || br.Y < tl.Y {
			rect.Hide()
			halo.Hide()
			tag.Hide()
			text.Hide()
			continue
		}
		rect.Show()
		rect.Move(tl)
		rect.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
		r.placeHalo(halo, rect, st.Color != nil)
		placed = r.placeLabel(st, rect.StrokeColor, tl, bounds, tag, text, placed)
	}
	var hp [8]fyne.Position
	if c.selected >= 0 && c.selected < len(c.boxes) {
		hp = handlePositions(c.view, c.boxes[c.selected])
	}
	for i, h := range r.handles {
		p := hp[i]
		if c.selected < 0 || p.X < 0 || p.Y < 0 || p.X > bounds.Width || p.Y > bounds.Height {
			h.Hide()
			continue
		}
		h.StrokeColor = handleColor
		h.Show()
		h.Move(p.SubtractXY(handleSize/2, handleSize/2))
	}
	r.objects = r.objects[:0]
	r.objects = append(r.objects, r.image)
	for _, halo := range r.halos { // under every outline: a halo never covers another box's colour
		r.objects = append(r.objects, halo)
	}
	for i, rect := range r.rects { // the selected box last, over boxes it coincides with
		if i != c.selected {
			r.objects = append(r.objects, rect)
		}
	}
	if c.selected >= 0 && c.selected < len(r.rects) {
		r.objects = append(r.objects, r.rects[c.selected])
	}
	for i := range r.tags {
		r.objects = append(r.objects, r.tags[i], r.texts[i])
	}
	for _, h := range r.handles {
		r.objects = append(r.objects, h)
	}
}

// labelRect is where a label's tag was placed.
type labelRect struct{ pos, end fyne.Position }

func (a labelRect) overlaps(b labelRect) bool {
	return a.pos.X < b.end.X && b.pos.X < a.end.X && a.pos.Y < b.end.Y && b.pos.Y < a.end.Y
}

// placeLabel writes a box's label on a tag of the box's colour just above its
// top-left corner tl (inside the box when there is no room above), kept inside
// the widget and moved right of (or, at the widget's edge, below) the labels
// placed before it that it would cover — boxes that coincide show each label;
// it returns placed with this one's. A box without a label has no tag.
func (r *renderer) placeLabel(st Style, col color.Color, tl fyne.Position, bounds fyne.Size, tag *canvas.Rectangle, text *canvas.Text, placed []labelRect) []labelRect {
	if st.Label == "" {
		tag.Hide()
		text.Hide()
		return placed
	}
	text.Text = st.Label
	text.Color = labelInk(col)
	ts := text.MinSize()
	size := fyne.NewSize(ts.Width+2*labelPad, ts.Height)
	pos := fyne.NewPos(tl.X, tl.Y-size.Height)
	if pos.Y < 0 {
		pos.Y = tl.Y
	}
	pos.X = max(0, min(pos.X, bounds.Width-size.Width))
	for moved := true; moved; {
		moved = false
		for _, p := range placed {
			if !(labelRect{pos, pos.Add(size)}).overlaps(p) {
				continue
			}
			if p.end.X+1+size.Width <= bounds.Width {
				pos.X = p.end.X + 1
			} else {
				pos = fyne.NewPos(max(0, min(tl.X, bounds.Width-size.Width)), p.end.Y+1)
			}
			moved = true
		}
	}
	tag.FillColor = col
	tag.Move(pos)
	tag.Resize(size)
	text.Move(pos.AddXY(labelPad, 0))
	text.Resize(ts)
	tag.Show()
	text.Show()
	return append(placed, labelRect{pos, pos.Add(size)})
}

// placeHalo draws a styled box's outline two-tone: under the colour, a wider dark
// outline (light under a very dark colour), so that a yellow box reads on a yellow
// object and any colour on any picture. Boxes without a style (the annotator's own)
// have none.
func (r *renderer) placeHalo(halo, rect *canvas.Rectangle, styled bool) {
	if !styled {
		halo.Hide()
		return
	}
	ink := color.NRGBA{A: 0xb4}
	if r, g, b, _ := rect.StrokeColor.RGBA(); 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) < 0.2*0xffff {
		ink = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xb4}
	}
	halo.FillColor, halo.StrokeColor = nil, ink
	halo.StrokeWidth = rect.StrokeWidth + 2*haloWidth
	halo.Move(rect.Position())
	halo.Resize(rect.Size())
	halo.Show()
}

// labelInk is black on a light colour and white on a dark one.
func labelInk(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	if 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) > 0.6*0xffff {
		return color.Black
	}
	return color.White
}

// placeImage shows the part of the picture inside the widget, so that a
// zoomed-in image neither paints outside the widget nor is scaled whole.
func (r *renderer) placeImage() {
	c := r.c
	if c.img == nil || c.fullW <= 0 || c.fullH <= 0 || c.size.IsZero() {
		r.image.Hide()
		return
	}
	pb := c.img.Bounds()
	sx := float64(pb.Dx()) / float64(c.fullW) // preview pixels per full pixel
	sy := float64(pb.Dy()) / float64(c.fullH)
	x0, y0 := c.view.ToImage(fyne.Position{})
	x1, y1 := c.view.ToImage(fyne.NewPos(c.size.Width, c.size.Height))
	crop := image.Rect(
		int(math.Floor(x0*sx)), int(math.Floor(y0*sy)),
		int(math.Ceil(x1*sx)), int(math.Ceil(y1*sy)),
	).Add(pb.Min).Intersect(pb)
	if crop.Empty() {
		r.image.Hide()
		return
	}
	sub, ok := c.img.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		crop = pb
	}
	if crop != r.crop || c.img != r.shown {
		r.crop, r.shown = crop, c.img
		if ok && crop != pb {
			r.image.Image = sub.SubImage(crop)
		} else {
			r.image.Image = c.img
		}
		r.image.Refresh()
	}
	// Per-pixel blocks once a preview pixel covers several screen units.
	if float64(c.view.zoom())/sx >= 3 {
		r.image.ScaleMode = canvas.ImageScalePixels
	} else {
		r.image.ScaleMode = canvas.ImageScaleSmooth
	}
	lo := crop.Min.Sub(pb.Min)
	hi := crop.Max.Sub(pb.Min)
	tl := c.view.ToScreen(float64(lo.X)/sx, float64(lo.Y)/sy)
	br := c.view.ToScreen(float64(hi.X)/sx, float64(hi.Y)/sy)
	r.image.Show()
	r.image.Move(tl)
	r.image.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
}
