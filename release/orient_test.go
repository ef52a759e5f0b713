package release

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
)

// exifJPEG is a w×h JPEG whose left half is black and right half white, with an
// EXIF orientation tag.
func exifJPEG(t *testing.T, w, h int, orientation uint16) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			if x >= w/2 {
				img.SetGray(x, y, color.Gray{255})
			}
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	jpg := b.Bytes()
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00\x2a")
	for _, v := range []any{uint32(8), uint16(1), uint16(0x0112), uint16(3), uint32(1), orientation, uint16(0), uint32(0)} {
		binary.Write(&tiff, binary.BigEndian, v)
	}
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	out := append(append(append([]byte{}, jpg[:2]...), append(seg, payload...)...), jpg[2:]...)
	return out
}

func TestUpright(t *testing.T) {
	tests := []struct {
		orientation uint16
		changed     bool
		w, h        int  // stored size after Upright
		whiteTop    bool // orientation 6 turns the white right half to the bottom
	}{
		{0, false, 40, 20, false},
		{1, false, 40, 20, false},
		{3, true, 40, 20, false},
		{6, true, 20, 40, false},
		{8, true, 20, 40, true},
	}
	for _, tt := range tests {
		in := exifJPEG(t, 40, 20, tt.orientation)
		if tt.orientation == 0 {
			var b bytes.Buffer
			jpeg.Encode(&b, image.NewGray(image.Rect(0, 0, 40, 20)), nil)
			in = b.Bytes()
		}
		dw, dh, err := annotate.ImageSize(bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		out, changed, err := Upright(in)
		if err != nil || changed != tt.changed {
			t.Fatalf("orientation %d: changed %v, %v; want %v", tt.orientation, changed, err, tt.changed)
		}
		if !changed && !bytes.Equal(out, in) {
			t.Errorf("orientation %d: bytes changed", tt.orientation)
		}
		img, _, err := image.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != tt.w || b.Dy() != tt.h || b.Dx() != dw || b.Dy() != dh {
			t.Errorf("orientation %d: stored %v, want %d×%d = the displayed %d×%d", tt.orientation, b, tt.w, tt.h, dw, dh)
		}
		if changed && imagefile.Orientation(out) > 1 {
			t.Errorf("orientation %d: the result still carries EXIF orientation %d", tt.orientation, imagefile.Orientation(out))
		}
		if tt.orientation == 6 || tt.orientation == 8 {
			top, _, _, _ := img.At(10, 5).RGBA()
			if (top > 0x8000) != tt.whiteTop {
				t.Errorf("orientation %d: top pixel brightness %d, want white %v", tt.orientation, top>>8, tt.whiteTop)
			}
		}
		again, _, _ := Upright(in)
		if !bytes.Equal(again, out) {
			t.Errorf("orientation %d: not deterministic", tt.orientation)
		}
	}
}
