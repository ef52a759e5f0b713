package chart

import (
	"image"
	"math"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/math/f64"
	"golang.org/x/image/math/fixed"
)

// Image rasterises the drawing into pw×ph pixels, scaling its logical pixels by
// pw/W and ph/H: the screen's scale, or 3 for a print.
func (d *Drawing) Image(pw, ph int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, max(pw, 1), max(ph, 1)))
	xdraw.Draw(img, img.Bounds(), image.NewUniform(d.Background), image.Point{}, xdraw.Src)
	if d.W <= 0 || d.H <= 0 {
		return img
	}
	sx, sy := float64(pw)/d.W, float64(ph)/d.H
	for _, r := range d.Rects {
		px := image.Rect(int(math.Round(r.X*sx)), int(math.Round(r.Y*sy)), int(math.Round((r.X+r.W)*sx)), int(math.Round((r.Y+r.H)*sy)))
		if px.Dx() == 0 && r.W > 0 { // a hairline stays visible
			px.Max.X++
		}
		if px.Dy() == 0 && r.H > 0 {
			px.Max.Y++
		}
		xdraw.Draw(img, px.Intersect(img.Bounds()), image.NewUniform(r.Fill), image.Point{}, xdraw.Over)
	}
	if d.Font == nil {
		return img
	}
	s := math.Min(sx, sy)
	for _, t := range d.Texts {
		d.Font.draw(img, t, sx, sy, s)
	}
	return img
}

// draw writes t onto img, its point scaled by sx, sy and its size by s.
func (f *Font) draw(img *image.RGBA, t Text, sx, sy, s float64) {
	if t.S == "" {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	face := f.face(t.Size * s)
	w := float64(font.MeasureString(face, t.S)) / 64
	shift := map[Anchor]float64{Start: 0, Middle: w / 2, End: w}[t.Anchor]
	x, y := t.X*sx, t.Y*sy
	src := image.NewUniform(t.Fill)
	if t.Angle == 0 {
		dr := font.Drawer{Dst: img, Src: src, Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(math.Round((x - shift) * 64)), Y: fixed.Int26_6(math.Round(y * 64))}}
		dr.DrawString(t.S)
		return
	}
	// Rotated: write the text upright on a transparent strip, then turn the strip
	// around the text's point onto the image.
	m := face.Metrics()
	asc, desc := float64(m.Ascent)/64, float64(m.Descent)/64
	strip := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(w))+2, int(math.Ceil(asc+desc))+2))
	dr := font.Drawer{Dst: strip, Src: src, Face: face, Dot: fixed.Point26_6{X: 64, Y: fixed.Int26_6(math.Round((asc + 1) * 64))}}
	dr.DrawString(t.S)
	a := t.Angle * math.Pi / 180
	cos, sin := math.Cos(a), math.Sin(a)
	ox, oy := 1+shift, asc+1 // the text's point on the strip
	m2 := f64.Aff3{
		cos, -sin, x - cos*ox + sin*oy,
		sin, cos, y - sin*ox - cos*oy,
	}
	xdraw.CatmullRom.Transform(img, m2, strip, strip.Bounds(), xdraw.Over, nil)
}
