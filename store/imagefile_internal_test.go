package store

import (
	"image"
	"image/color"
	"testing"
)

// encodable hands image/jpeg a fast-path type showing the same colours.
func TestEncodableKeepsColours(t *testing.T) {
	nrgba := func(alpha uint8) *image.NRGBA {
		m := image.NewNRGBA(image.Rect(2, 3, 7, 6)) // an origin away from 0,0
		for y := 3; y < 6; y++ {
			for x := 2; x < 7; x++ {
				m.SetNRGBA(x, y, color.NRGBA{uint8(40 * x), uint8(70 * y), 200, alpha})
			}
		}
		return m
	}
	gray := image.NewGray(image.Rect(0, 0, 3, 3))
	gray.SetGray(1, 1, color.Gray{Y: 99})
	tests := []struct {
		name string
		img  image.Image
	}{
		{"opaque NRGBA", nrgba(255)},
		{"translucent NRGBA", nrgba(128)},
		{"gray", gray},
		{"paletted", image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.RGBA{10, 20, 30, 255}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodable(tt.img)
			switch got.(type) {
			case *image.RGBA, *image.YCbCr, *image.Gray:
			default:
				t.Fatalf("encodable gave %T, not a type image/jpeg encodes fast", got)
			}
			if got.Bounds() != tt.img.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), tt.img.Bounds())
			}
			b := tt.img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					r1, g1, b1, a1 := tt.img.At(x, y).RGBA()
					r2, g2, b2, a2 := got.At(x, y).RGBA()
					// 8-bit premultiplication rounds: allow one step of 257.
					if diff(r1, r2) > 257 || diff(g1, g2) > 257 || diff(b1, b2) > 257 || a1 != a2 {
						t.Fatalf("(%d,%d): %v, want %v", x, y, got.At(x, y), tt.img.At(x, y))
					}
				}
			}
		})
	}
}

func diff(a, b uint32) uint32 { return max(a, b) - min(a, b) }
