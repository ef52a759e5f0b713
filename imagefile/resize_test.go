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

// resample's C path (where libjpeg-turbo is built in) gives resampleGo's bytes,
// every one of them, so previews and thumbnails do not depend on the build.
func TestResampleCIsResampleGo(t *testing.T) {
	if !turboJPEG {
		t.Skip("built without cgo's libjpeg-turbo: resample is resampleGo")
	}
	noisy := func(w, h, n int) ([]byte, int) {
		stride := w*n + 3 // rows apart by more than their pixels, as a sub-image's are
		pix := make([]byte, stride*h)
		for i := range pix {
			pix[i] = uint8(i*2654435761>>13) ^ uint8(i/stride*7)
		}
		if n == 4 {
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					pix[y*stride+x*4+3] = 255
				}
			}
		}
		return pix, stride
	}
	tests := []struct{ srcW, srcH, dstW, dstH, n int }{
		{2000, 1500, 1600, 1200, 4}, // a 12-MP photo's preview from its 1/2 decode
		{1600, 1200, 256, 192, 4},   // its thumbnail
		{320, 240, 256, 192, 4},
		{480, 360, 256, 192, 4},
		{360, 480, 192, 256, 4},
		{257, 3, 256, 2, 4},
		{3000, 2, 256, 1, 4},
		{640, 480, 256, 192, 1},
		{1625, 150, 1600, 147, 1},
	}
	for _, generic := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("generic C %v, %dx%d to %dx%d, %d bytes a pixel", generic, tt.srcW, tt.srcH, tt.dstW, tt.dstH, tt.n), func(t *testing.T) {
				resampleGeneric(generic)
				defer resampleGeneric(false)
				pix, stride := noisy(tt.srcW, tt.srcH, tt.n)
				hw, vw := linearWeights(tt.dstW, tt.srcW), linearWeights(tt.dstH, tt.srcH)
				want := resampleGo(pix, stride, tt.n, tt.srcW, tt.srcH, tt.dstW, tt.dstH, hw, vw)
				got := resampleC(pix, stride, tt.n, tt.srcW, tt.srcH, tt.dstW, tt.dstH, hw, vw)
				if got == nil {
					t.Fatal("resampleC declined")
				}
				if len(got) != len(want) {
					t.Fatalf("%d bytes, want %d", len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("byte %d (pixel %d, channel %d): %d, resampleGo gives %d", i, i/tt.n, i%tt.n, got[i], want[i])
					}
				}
			})
		}
	}
}

// BenchmarkFit resizes as an import does: a 12-MP photo's 1/2 decode to its
// preview and the preview to its thumbnail, and a small photo to its thumbnail.
func BenchmarkFit(b *testing.B) {
	for _, c := range []struct {
		w, h, side int
	}{{2000, 1500, PreviewSide}, {1600, 1200, ThumbSide}, {480, 360, ThumbSide}} {
		img := photo(c.w, c.h, false)
		n := image.NewNRGBA(img.Bounds())
		copy(n.Pix, img.(*image.RGBA).Pix)
		b.Run(fmt.Sprintf("%dx%d to %d", c.w, c.h, c.side), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				fit(n, c.side)
			}
		})
	}
}
