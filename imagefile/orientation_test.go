package imagefile_test

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/release"
)

// baseJPEG is an 8×4 JPEG whose pixels differ enough that each of the eight
// orientations gives another picture.
func baseJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 4))
	for y := 0; y < 4; y++ {
		for x := 0; x < 8; x++ {
			img.Set(x, y, color.RGBA{uint8(x * 32), uint8(y * 64), uint8(255 - x*16 - y*32), 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// segment is a JPEG marker segment.
func segment(marker byte, payload []byte) []byte {
	s := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(s[2:], uint16(len(payload)+2))
	return append(s, payload...)
}

// exif is an APP1 EXIF payload with one directory entry: tag, type and the four
// value bytes as the byte order writes a value of that type.
func exif(order binary.ByteOrder, tag, typ uint16, value uint32) []byte {
	t := make([]byte, 8+2+12+4)
	if order == binary.BigEndian {
		copy(t, "MM")
	} else {
		copy(t, "II")
	}
	order.PutUint16(t[2:], 42)
	order.PutUint32(t[4:], 8)
	order.PutUint16(t[8:], 1)
	order.PutUint16(t[10:], tag)
	order.PutUint16(t[12:], typ)
	order.PutUint32(t[14:], 1)
	if typ == 3 { // SHORT: the value in the first two bytes of the field
		order.PutUint16(t[18:], uint16(value))
	} else {
		order.PutUint32(t[18:], value)
	}
	return append([]byte("Exif\x00\x00"), t...)
}

// withSegments puts segments right after the JPEG's SOI marker.
func withSegments(jpg []byte, segs ...[]byte) []byte {
	out := append([]byte{}, jpg[:2]...)
	for _, s := range segs {
		out = append(out, s...)
	}
	return append(out, jpg[2:]...)
}

// appliedByImaging is the orientation imaging applies when it decodes data (what
// an import stores and shows): the one of the eight transforms of the stored
// pixels that gives its upright decode; 1 for none.
func appliedByImaging(t *testing.T, data []byte) int {
	t.Helper()
	raw, err := imaging.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	up, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	if err != nil {
		t.Fatal(err)
	}
	transforms := map[int]func(image.Image) *image.NRGBA{
		1: imaging.Clone, 2: imaging.FlipH, 3: imaging.Rotate180, 4: imaging.FlipV,
		5: imaging.Transpose, 6: imaging.Rotate270, 7: imaging.Transverse, 8: imaging.Rotate90,
	}
	found := 0
	for o, f := range transforms {
		if got := f(raw); got.Bounds() == up.Bounds() && bytes.Equal(got.Pix, imaging.Clone(up).Pix) {
			if found != 0 {
				t.Fatalf("orientations %d and %d give the same picture", found, o)
			}
			found = o
		}
	}
	if found == 0 {
		t.Fatal("imaging's upright decode is none of the eight orientations")
	}
	return found
}

// Orientation reads a JPEG's EXIF orientation as imaging applies it; the size
// annotate.ImageSize gives (lint) and the image release.Upright exports are the
// ones the import stores, for the files on which two readers once disagreed.
func TestOrientationIsImagings(t *testing.T) {
	base := baseJPEG(t)
	le, be := binary.LittleEndian, binary.BigEndian
	xmp := segment(0xE1, []byte("http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta/>"))
	jfif := segment(0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))
	for _, tc := range []struct {
		name string
		data []byte
		want int
	}{
		{"no EXIF", base, 0},
		{"little-endian SHORT 6", withSegments(base, segment(0xE1, exif(le, 0x0112, 3, 6))), 6},
		{"big-endian SHORT 3", withSegments(base, segment(0xE1, exif(be, 0x0112, 3, 3))), 3},
		{"big-endian SHORT 8 after JFIF", withSegments(base, jfif, segment(0xE1, exif(be, 0x0112, 3, 8))), 8},
		{"SHORT 2", withSegments(base, segment(0xE1, exif(le, 0x0112, 3, 2))), 2},
		{"SHORT 5", withSegments(base, segment(0xE1, exif(be, 0x0112, 3, 5))), 5},
		{"SHORT 7", withSegments(base, segment(0xE1, exif(le, 0x0112, 3, 7))), 7},
		{"little-endian LONG 6: read as 6", withSegments(base, segment(0xE1, exif(le, 0x0112, 4, 6))), 6},
		{"big-endian LONG 6: read as 0", withSegments(base, segment(0xE1, exif(be, 0x0112, 4, 6))), 0},
		{"XMP before the EXIF: not read", withSegments(base, xmp, segment(0xE1, exif(le, 0x0112, 3, 6))), 0},
		{"no orientation tag", withSegments(base, segment(0xE1, exif(le, 0x010F, 3, 6))), 0},
		{"orientation 9", withSegments(base, segment(0xE1, exif(le, 0x0112, 3, 9))), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := imagefile.Orientation(tc.data)
			if got != tc.want {
				t.Errorf("Orientation = %d, want %d", got, tc.want)
			}
			applied := appliedByImaging(t, tc.data)
			if max(got, 1) != applied {
				t.Errorf("Orientation says %d, imaging applies %d", got, applied)
			}
			up, err := imaging.Decode(bytes.NewReader(tc.data), imaging.AutoOrientation(true))
			if err != nil {
				t.Fatal(err)
			}
			w, h, err := annotate.ImageSize(bytes.NewReader(tc.data))
			if err != nil || w != up.Bounds().Dx() || h != up.Bounds().Dy() {
				t.Errorf("ImageSize %d×%d (%v), imported as %d×%d", w, h, err, up.Bounds().Dx(), up.Bounds().Dy())
			}
			out, _, err := release.Upright(tc.data)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(out))
			if err != nil || cfg.Width != w || cfg.Height != h {
				t.Errorf("exported %d×%d (%v), imported as %d×%d", cfg.Width, cfg.Height, err, w, h)
			}
		})
	}
	// Bytes it cannot follow: nothing, never a panic.
	for _, b := range [][]byte{nil, {0xFF}, {0xFF, 0xD8}, {0xFF, 0xD8, 0xFF, 0xE1, 0x00}, {0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x08, 'E', 'x', 'i', 'f', 0, 0, 'I', 'I'}} {
		if o := imagefile.Orientation(b); o != 0 {
			t.Errorf("Orientation(% x) = %d", b, o)
		}
	}
}
