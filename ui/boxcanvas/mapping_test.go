package boxcanvas

import (
	"fmt"
	"math"
	"testing"

	"fyne.io/fyne/v2"
)

var (
	testZooms = []float32{0.1, 0.25, 1, 3.7, 16}
	testSizes = [][2]int{{801, 599}, {1, 1}, {333, 7}, {4031, 3023}}
)

func TestViewRoundTrip(t *testing.T) {
	for _, sz := range testSizes {
		for _, z := range testZooms {
			v := View{ImageW: sz[0], ImageH: sz[1], Zoom: z, Offset: fyne.NewPos(-13.25, 41.5)}
			t.Run(fmt.Sprintf("%dx%d@%g", sz[0], sz[1], z), func(t *testing.T) {
				// image → screen → image, over the whole image including its far edge.
				for _, fx := range []float64{0, 0.5, 0.37, 0.999, 1} {
					for _, fy := range []float64{0, 0.5, 0.61, 1} {
						x, y := fx*float64(v.ImageW), fy*float64(v.ImageH)
						gx, gy := v.ToImage(v.ToScreen(x, y))
						if math.Abs(gx-x) > 1e-3 || math.Abs(gy-y) > 1e-3 {
							t.Errorf("image (%g,%g) → screen → (%g,%g)", x, y, gx, gy)
						}
					}
				}
				// screen → image → screen, error measured in image pixels.
				for _, p := range []fyne.Position{{}, {X: 17.5, Y: 3}, {X: 399, Y: 299}, {X: -40, Y: 1234.75}} {
					x, y := v.ToImage(p)
					q := v.ToScreen(x, y)
					ex := math.Abs(float64(q.X-p.X)) / float64(z)
					ey := math.Abs(float64(q.Y-p.Y)) / float64(z)
					if ex > 1e-3 || ey > 1e-3 {
						t.Errorf("screen %v → image (%g,%g) → screen %v: off by (%g,%g) image px", p, x, y, q, ex, ey)
					}
				}
			})
		}
	}
}

func TestViewMapping(t *testing.T) {
	v := View{ImageW: 800, ImageH: 600, Zoom: 0.5, Offset: fyne.NewPos(10, 20)}
	if p := v.ToScreen(100, 40); p != fyne.NewPos(60, 40) {
		t.Errorf("ToScreen(100,40) = %v, want (60,40)", p)
	}
	if x, y := v.ToImage(fyne.NewPos(60, 40)); x != 100 || y != 40 {
		t.Errorf("ToImage(60,40) = (%g,%g), want (100,40)", x, y)
	}
	if s := v.ScreenSize(); s != fyne.NewSize(400, 300) {
		t.Errorf("ScreenSize = %v, want 400×300", s)
	}
	if x, y := (View{ImageW: 5, ImageH: 5}).ToImage(fyne.NewPos(3, 4)); x != 3 || y != 4 {
		t.Errorf("zero Zoom should act as 1, got (%g,%g)", x, y)
	}
}

func TestViewFit(t *testing.T) {
	for _, tc := range []struct {
		w, h       int
		size       fyne.Size
		zoom       float32
		offX, offY float32
	}{
		{800, 600, fyne.NewSize(400, 400), 0.5, 0, 50},
		{800, 600, fyne.NewSize(1000, 300), 0.5, 300, 0},
		{101, 51, fyne.NewSize(101, 51), 1, 0, 0},
		{3, 1, fyne.NewSize(300, 300), MaxZoom, 150 - 1.5*MaxZoom, 150 - 0.5*MaxZoom},
		{800, 600, fyne.Size{}, 1, 0, 0},
	} {
		v := View{ImageW: tc.w, ImageH: tc.h}.Fit(tc.size)
		if math.Abs(float64(v.Zoom-tc.zoom)) > 1e-6 || math.Abs(float64(v.Offset.X-tc.offX)) > 1e-4 || math.Abs(float64(v.Offset.Y-tc.offY)) > 1e-4 {
			t.Errorf("%dx%d fit in %v = zoom %g offset %v, want %g (%g,%g)", tc.w, tc.h, tc.size, v.Zoom, v.Offset, tc.zoom, tc.offX, tc.offY)
			continue
		}
		if tc.size.IsZero() {
			continue
		}
		// Centred and inside: the image's screen rectangle has equal margins.
		tl, br := v.ToScreen(0, 0), v.ToScreen(float64(tc.w), float64(tc.h))
		if math.Abs(float64(tl.X-(tc.size.Width-br.X))) > 1e-3 || math.Abs(float64(tl.Y-(tc.size.Height-br.Y))) > 1e-3 {
			t.Errorf("%dx%d fit in %v not centred: %v–%v", tc.w, tc.h, tc.size, tl, br)
		}
	}
}

func TestViewZoomAtKeepsPointFixed(t *testing.T) {
	for _, z := range testZooms {
		for _, f := range []float32{1.25, 0.8, 2, 0.1, 10} {
			v := View{ImageW: 801, ImageH: 599, Zoom: z, Offset: fyne.NewPos(7, -3)}
			at := fyne.NewPos(123.5, 77)
			x, y := v.ToImage(at)
			w := v.ZoomAt(at, f)
			want := clampZoom(z * f)
			if math.Abs(float64(w.Zoom-want)) > 1e-6*float64(want) {
				t.Errorf("zoom %g×%g = %g, want %g", z, f, w.Zoom, want)
			}
			gx, gy := w.ToImage(at)
			if math.Abs(gx-x) > 1e-3 || math.Abs(gy-y) > 1e-3 {
				t.Errorf("zoom %g×%g moved the point under the cursor: (%g,%g) → (%g,%g)", z, f, x, y, gx, gy)
			}
		}
	}
	v := View{ImageW: 10, ImageH: 10, Zoom: 3.7}
	if w := v.ZoomAt(fyne.Position{}, -1); w != v {
		t.Errorf("negative factor changed the view: %+v", w)
	}
	if w := v.ZoomAt(fyne.Position{}, 1e9); w.Zoom != MaxZoom {
		t.Errorf("zoom not capped: %g", w.Zoom)
	}
}

func TestViewActual(t *testing.T) {
	v := View{ImageW: 800, ImageH: 600}.Fit(fyne.NewSize(400, 300))
	at := fyne.NewPos(200, 150)
	x, y := v.ToImage(at)
	a := v.Actual(at)
	if a.Zoom != 1 {
		t.Fatalf("Actual zoom = %g", a.Zoom)
	}
	if gx, gy := a.ToImage(at); gx != x || gy != y {
		t.Errorf("Actual moved the centre point: (%g,%g) → (%g,%g)", x, y, gx, gy)
	}
}

func ExampleView() {
	// An 800×600 image fitted into a 400×400 widget.
	v := View{ImageW: 800, ImageH: 600}.Fit(fyne.NewSize(400, 400))
	fmt.Println("zoom", v.Zoom, "offset", v.Offset.X, v.Offset.Y)

	x, y := v.ToImage(fyne.NewPos(200, 200))
	fmt.Println("widget centre is image pixel", x, y)

	p := v.ToScreen(800, 600)
	fmt.Println("image corner is at", p.X, p.Y)

	// Doubling the zoom at the centre keeps image pixel (400, 300) there.
	v = v.ZoomAt(fyne.NewPos(200, 200), 2)
	x, y = v.ToImage(fyne.NewPos(200, 200))
	fmt.Println("zoom", v.Zoom, "offset", v.Offset.X, v.Offset.Y, "centre", x, y)
	// Output:
	// zoom 0.5 offset 0 50
	// widget centre is image pixel 400 300
	// image corner is at 400 350
	// zoom 1 offset -200 -100 centre 400 300
}

// Follow puts the same point of the image, in proportions, at the centre of the
// other widget, at the same zoom relative to each one's fit; a fitted source gives
// a fitted follower, and following oneself changes nothing.
func TestViewFollow(t *testing.T) {
	srcSize := fyne.NewSize(400, 300)
	fitted := View{ImageW: 800, ImageH: 600}.Fit(srcSize)
	zoomed := fitted.ZoomAt(fyne.NewPos(100, 80), 3).Pan(fyne.NewDelta(-37, 12))
	for _, tc := range []struct {
		name      string
		src       View
		dst       View
		size      fyne.Size
		wantRel   float32 // dst zoom / dst fit zoom
		sameAsSrc bool
	}{
		{"fitted → fitted", fitted, View{ImageW: 1600, ImageH: 1200}, fyne.NewSize(200, 150), 1, false},
		{"zoomed, same size", zoomed, View{ImageW: 800, ImageH: 600}, srcSize, 3, true},
		{"zoomed, other image and cell", zoomed, View{ImageW: 320, ImageH: 240}, fyne.NewSize(180, 120), 3, false},
		{"zoomed, portrait image", zoomed, View{ImageW: 300, ImageH: 900}, fyne.NewSize(250, 250), 3, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.dst.Follow(tc.src, srcSize, tc.size)
			if got.ImageW != tc.dst.ImageW || got.ImageH != tc.dst.ImageH {
				t.Fatalf("image size changed to %d×%d", got.ImageW, got.ImageH)
			}
			rel := got.Zoom / tc.dst.Fit(tc.size).Zoom
			if math.Abs(float64(rel-tc.wantRel)) > 1e-3 {
				t.Errorf("relative zoom %g, want %g", rel, tc.wantRel)
			}
			sx, sy := tc.src.ToImage(fyne.NewPos(srcSize.Width/2, srcSize.Height/2))
			gx, gy := got.ToImage(fyne.NewPos(tc.size.Width/2, tc.size.Height/2))
			fx, fy := sx/float64(tc.src.ImageW), sy/float64(tc.src.ImageH)
			hx, hy := gx/float64(got.ImageW), gy/float64(got.ImageH)
			if math.Abs(fx-hx) > 1e-4 || math.Abs(fy-hy) > 1e-4 {
				t.Errorf("centre at (%.4f,%.4f) of the image, want (%.4f,%.4f)", hx, hy, fx, fy)
			}
			if tc.sameAsSrc && (math.Abs(float64(got.Offset.X-tc.src.Offset.X)) > 1e-3 || math.Abs(float64(got.Offset.Y-tc.src.Offset.Y)) > 1e-3) {
				t.Errorf("following itself moved the view: %v, want %v", got.Offset, tc.src.Offset)
			}
		})
	}
}
