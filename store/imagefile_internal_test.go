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

func TestHasExif(t *testing.T) {
	seg := func(marker byte, payload string) []byte {
		n := len(payload) + 2
		return append([]byte{0xFF, marker, byte(n >> 8), byte(n)}, payload...)
	}
	jpegOf := func(parts ...[]byte) []byte {
		out := []byte{0xFF, 0xD8}
		for _, p := range parts {
			out = append(out, p...)
		}
		return append(out, 0xFF, 0xDA, 0, 2)
	}
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"no segments", jpegOf(), false},
		{"JFIF only", jpegOf(seg(0xE0, "JFIF\x00\x01\x02")), false},
		{"XMP in APP1 is not EXIF", jpegOf(seg(0xE1, "http://ns.adobe.com/xap/1.0/\x00<x/>")), false},
		{"EXIF after JFIF", jpegOf(seg(0xE0, "JFIF\x00"), seg(0xE1, "Exif\x00\x00MM")), true},
		{"fill bytes before a marker", append([]byte{0xFF, 0xD8, 0xFF}, jpegOf(seg(0xE1, "Exif\x00\x00II"))[2:]...), true},
		{"EXIF after the scan does not count", append(jpegOf(), seg(0xE1, "Exif\x00\x00")...), false},
		{"not a JPEG", []byte("GIF89a"), true},
		{"segment longer than the file", append([]byte{0xFF, 0xD8}, 0xFF, 0xE0, 0x10, 0x00, 'J'), true},
		{"cut inside the markers", []byte{0xFF, 0xD8, 0xFF}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := hasExif(tc.data); got != tc.want {
				t.Errorf("hasExif = %v, want %v", got, tc.want)
			}
		})
	}
}
