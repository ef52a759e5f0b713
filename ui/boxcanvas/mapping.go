package boxcanvas

import (
	"math"

	"fyne.io/fyne/v2"
)

// Zoom limits, in screen units per image pixel.
const (
	MinZoom float32 = 0.01
	MaxZoom float32 = 64
)

// View maps between widget (screen) coordinates and image pixels. It is a plain
// value with no widget state so that the mapping can be tested on its own.
//
// An image point (x, y) is drawn at Offset + (x, y)·Zoom; Offset is therefore
// where the image's top-left corner lies inside the widget. Image coordinates
// are continuous: pixel (i, j) covers [i, i+1) × [j, j+1).
type View struct {
	ImageW, ImageH int           // image size in (full-resolution) pixels
	Zoom           float32       // screen units per image pixel
	Offset         fyne.Position // screen position of image point (0, 0)
}

// ToImage converts a widget position to image pixel coordinates. The result is
// not clamped to the image.
func (v View) ToImage(p fyne.Position) (x, y float64) {
	z := float64(v.zoom())
	return (float64(p.X) - float64(v.Offset.X)) / z, (float64(p.Y) - float64(v.Offset.Y)) / z
}

// ToScreen converts image pixel coordinates to a widget position.
func (v View) ToScreen(x, y float64) fyne.Position {
	z := float64(v.zoom())
	return fyne.NewPos(float32(float64(v.Offset.X)+x*z), float32(float64(v.Offset.Y)+y*z))
}

// ScreenSize is the size the whole image takes on screen.
func (v View) ScreenSize() fyne.Size {
	z := v.zoom()
	return fyne.NewSize(float32(v.ImageW)*z, float32(v.ImageH)*z)
}

// Fit returns the view that shows the whole image as large as fits in a widget
// of the given size, centred. An empty image or widget keeps zoom 1 at offset 0.
func (v View) Fit(size fyne.Size) View {
	if v.ImageW <= 0 || v.ImageH <= 0 || size.Width <= 0 || size.Height <= 0 {
		v.Zoom, v.Offset = 1, fyne.Position{}
		return v
	}
	z := clampZoom(min(size.Width/float32(v.ImageW), size.Height/float32(v.ImageH)))
	v.Zoom = z
	v.Offset = fyne.NewPos((size.Width-float32(v.ImageW)*z)/2, (size.Height-float32(v.ImageH)*z)/2)
	return v
}

// ZoomAt multiplies the zoom by factor (kept within MinZoom–MaxZoom) while the
// image point under the widget position at stays where it is.
func (v View) ZoomAt(at fyne.Position, factor float32) View {
	if factor <= 0 || math.IsNaN(float64(factor)) || math.IsInf(float64(factor), 0) {
		return v
	}
	return v.zoomTo(at, v.zoom()*factor)
}

// Actual returns the view at 100% (one image pixel per screen unit), keeping the
// image point under at fixed.
func (v View) Actual(at fyne.Position) View { return v.zoomTo(at, 1) }

// Pan returns the view moved by d screen units.
func (v View) Pan(d fyne.Delta) View {
	v.Offset = v.Offset.Add(d)
	return v
}

func (v View) zoomTo(at fyne.Position, z float32) View {
	x, y := v.ToImage(at)
	v.Zoom = clampZoom(z)
	zz := float64(v.Zoom)
	v.Offset = fyne.NewPos(float32(float64(at.X)-x*zz), float32(float64(at.Y)-y*zz))
	return v
}

// zoom is Zoom with the zero value (and nonsense) read as 1.
func (v View) zoom() float32 {
	if !(v.Zoom > 0) || math.IsInf(float64(v.Zoom), 0) {
		return 1
	}
	return v.Zoom
}

func clampZoom(z float32) float32 { return max(MinZoom, min(z, MaxZoom)) }

// Follow returns the view of this image (v's ImageW and ImageH) in a widget of size
// size that matches src, another image's view in a widget of size srcSize: the same
// zoom relative to each one's fit, and the same point, in proportions of the image,
// at the centre of each widget. A grid of canvases showing the frames of a sequence
// keeps its cells in step with it, whatever their images' sizes.
func (v View) Follow(src View, srcSize, size fyne.Size) View {
	if src.ImageW <= 0 || src.ImageH <= 0 || v.ImageW <= 0 || v.ImageH <= 0 {
		return v.Fit(size)
	}
	srcFit := src.Fit(srcSize)
	rel := src.zoom() / srcFit.zoom()
	cx, cy := src.ToImage(fyne.NewPos(srcSize.Width/2, srcSize.Height/2))
	px, py := cx/float64(src.ImageW)*float64(v.ImageW), cy/float64(src.ImageH)*float64(v.ImageH)
	centre := fyne.NewPos(size.Width/2, size.Height/2)
	out := v.Fit(size).ZoomAt(centre, rel)
	at := out.ToScreen(px, py)
	return out.Pan(fyne.NewDelta(centre.X-at.X, centre.Y-at.Y))
}
