package boxcanvas

import (
	"image/color"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

// A styled box's outline is two-tone: under its colour, a wider outline of the same
// box in the contrasting shade (dark under yellow, light under navy), drawn beneath
// every outline; a box without a style has no halo.
func TestStyledBoxesHaveAHalo(t *testing.T) {
	yellow := color.NRGBA{R: 0xff, G: 0xd6, A: 0xff}
	navy := color.NRGBA{R: 0x1a, G: 0x23, B: 0x7e, A: 0xff}
	f := newFixture(t)
	f.c.SetBoxes([]annotate.Box{{100, 100, 300, 300}, {150, 150, 350, 350}, {500, 50, 700, 150}})
	f.c.SetStyles([]Style{{Color: yellow, Label: "gold"}, {Color: navy, Label: "model"}})
	f.c.Select(1)
	r := test.TempWidgetRenderer(t, f.c).(*renderer)
	dark := func(c color.Color) bool { r, g, b, _ := c.RGBA(); return r+g+b < 0x8000 }
	tests := []struct {
		name   string
		i      int
		halo   bool
		darkOn bool // a dark halo (under a light colour)
	}{
		{"yellow", 0, true, true},
		{"navy, selected", 1, true, false},
		{"plain", 2, false, false},
	}
	for _, tt := range tests {
		rect, halo := r.rects[tt.i], r.halos[tt.i]
		if halo.Visible() != tt.halo {
			t.Errorf("%s: halo shown %v, want %v", tt.name, halo.Visible(), tt.halo)
			continue
		}
		if !tt.halo {
			continue
		}
		if halo.Position() != rect.Position() || halo.Size() != rect.Size() || halo.FillColor != nil {
			t.Errorf("%s: halo at %v %v (fill %v), the outline at %v %v", tt.name, halo.Position(), halo.Size(), halo.FillColor, rect.Position(), rect.Size())
		}
		if got, want := halo.StrokeWidth, rect.StrokeWidth+2*haloWidth; got != want {
			t.Errorf("%s: halo %g wide, want %g (the outline %g)", tt.name, got, want, rect.StrokeWidth)
		}
		if dark(halo.StrokeColor) != tt.darkOn {
			t.Errorf("%s: halo %v under %v", tt.name, halo.StrokeColor, rect.StrokeColor)
		}
	}
	// Every halo lies under every outline.
	objs := r.Objects()
	lastHalo, firstRect := -1, len(objs)
	for i, o := range objs {
		for j := range r.rects {
			if o == fyne.CanvasObject(r.halos[j]) {
				lastHalo = max(lastHalo, i)
			}
			if o == fyne.CanvasObject(r.rects[j]) {
				firstRect = min(firstRect, i)
			}
		}
	}
	if lastHalo < 0 || lastHalo > firstRect || !slices.Contains(objs, fyne.CanvasObject(r.halos[0])) {
		t.Errorf("halos up to object %d, outlines from %d", lastHalo, firstRect)
	}
}
