package boxcanvas

import (
	"image"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// renderer draws the picture, one outline per box and the handles of the
// selected box, all placed from the canvas View.
type renderer struct {
	c       *Canvas
	image   *canvas.Image
	crop    image.Rectangle // part of c.img shown by image
	shown   image.Image     // c.img the crop was taken from
	rects   []*canvas.Rectangle
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
		rect.StrokeWidth = 2
		r.rects = append(r.rects, rect)
	}
	r.rects = r.rects[:len(c.boxes)]
	bounds := fyne.NewSize(c.size.Width, c.size.Height)
	for i, b := range c.boxes {
		rect := r.rects[i]
		rect.StrokeColor = boxColor
		if i == c.selected {
			rect.StrokeColor = selectedColor
		}
		b = b.Normalize()
		tl, br := c.view.ToScreen(b[0], b[1]), c.view.ToScreen(b[2], b[3])
		// Clip to the widget so that a zoomed-in box does not paint over its neighbours.
		tl = fyne.NewPos(max(tl.X, 0), max(tl.Y, 0))
		br = fyne.NewPos(min(br.X, bounds.Width), min(br.Y, bounds.Height))
		if br.X < tl.X || br.Y < tl.Y {
			rect.Hide()
			continue
		}
		rect.Show()
		rect.Move(tl)
		rect.Resize(fyne.NewSize(br.X-tl.X, br.Y-tl.Y))
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
		h.Show()
		h.Move(p.SubtractXY(handleSize/2, handleSize/2))
	}
	r.objects = r.objects[:0]
	r.objects = append(r.objects, r.image)
	for _, rect := range r.rects {
		r.objects = append(r.objects, rect)
	}
	for _, h := range r.handles {
		r.objects = append(r.objects, h)
	}
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
