package imagefile

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/disintegration/imaging"
)

// fit gives imaging.Fit's image: the same size and, pixel by pixel, the same
// colours within one level of rounding.
func TestFitIsImagingFit(t *testing.T) {
	nrgba := func(w, h int, alpha uint8) image.Image {
		m := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				m.SetNRGBA(x, y, color.NRGBA{uint8(x * 7), uint8(y * 13), uint8((x * y) ^ 0x5a), alpha})
			}
		}
		return m
	}
	sub := nrgba(700, 500, 255).(*image.NRGBA).SubImage(image.Rect(33, 21, 633, 471)) // an origin away from 0,0
	tests := []struct {
		img  image.Image
		side int
	}{
		{nrgba(2000, 1500, 255), PreviewSide},
		{nrgba(1500, 2000, 255), PreviewSide},
		{nrgba(1625, 150, 255), PreviewSide},
		{nrgba(480, 360, 255), ThumbSide},
		{nrgba(320, 240, 255), ThumbSide},
		{nrgba(257, 3, 255), ThumbSide},
		{nrgba(3000, 2, 255), ThumbSide}, // 0 px high at imaging's arithmetic
		{sub, ThumbSide},
		{photo(640, 480, true), ThumbSide},
		{photo(3400, 700, true), PreviewSide},
		{nrgba(480, 360, 128), ThumbSide}, // translucent: imaging's
		{nrgba(200, 100, 255), ThumbSide}, // fits: imaging's copy
		{image.NewYCbCr(image.Rect(0, 0, 400, 300), image.YCbCrSubsampleRatio420), ThumbSide},
	}
	for _, tt := range tests {
		b := tt.img.Bounds()
		t.Run(fmt.Sprintf("%T %dx%d to %d", tt.img, b.Dx(), b.Dy(), tt.side), func(t *testing.T) {
			want := imaging.Fit(tt.img, tt.side, tt.side, imaging.Linear)
			got := fit(tt.img, tt.side)
			if got.Bounds() != want.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
			}
			wb := want.Bounds()
			for y := wb.Min.Y; y < wb.Max.Y; y++ {
				for x := wb.Min.X; x < wb.Max.X; x++ {
					r1, g1, b1, a1 := got.At(x, y).RGBA()
					r2, g2, b2, a2 := want.At(x, y).RGBA()
					if diff(r1>>8, r2>>8) > 1 || diff(g1>>8, g2>>8) > 1 || diff(b1>>8, b2>>8) > 1 || diff(a1>>8, a2>>8) > 1 {
						t.Fatalf("(%d,%d): %v, imaging gives %v", x, y, got.At(x, y), want.At(x, y))
					}
				}
			}
		})
	}
}
