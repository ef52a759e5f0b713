package imagefile

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"testing"
)

// Previews and thumbnails encoded by libjpeg-turbo look as image/jpeg's at the
// same quality and are about as large; images it is not given (translucent) are
// left to image/jpeg.
func TestTurboEncodeLooksLikeImageJPEG(t *testing.T) {
	if !turboJPEG {
		t.Skip("built without libjpeg-turbo")
	}
	rgba := photo(700, 500, false).(*image.RGBA)
	nrgba := &image.NRGBA{Pix: bytes.Clone(rgba.Pix), Stride: rgba.Stride, Rect: rgba.Rect}
	tests := []struct {
		img image.Image
	}{
		{rgba},
		{nrgba},
		{nrgba.SubImage(image.Rect(31, 17, 531, 417))},
		{photo(256, 192, true)},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%T %v", tt.img, tt.img.Bounds()), func(t *testing.T) {
			data := encodeJPEGTurbo(tt.img, previewQuality, false)
			if data == nil {
				t.Fatal("not encoded")
			}
			var ref bytes.Buffer
			if err := jpeg.Encode(&ref, encodable(tt.img), &jpeg.Options{Quality: previewQuality}); err != nil {
				t.Fatal(err)
			}
			got, err := jpeg.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			want, err := jpeg.Decode(bytes.NewReader(ref.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if d := meanAbsDiff(t, got, want); d > 1.5 {
				t.Errorf("differs from image/jpeg's by %.2f levels on average", d)
			}
			if d := meanAbsDiff(t, got, tt.img); d > 3 {
				t.Errorf("differs from the image by %.2f levels on average", d)
			}
			if r := float64(len(data)) / float64(ref.Len()); r < 0.75 || r > 1.33 {
				t.Errorf("%d bytes, image/jpeg writes %d", len(data), ref.Len())
			}
		})
	}
	translucent := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	translucent.SetNRGBA(1, 1, color.NRGBA{10, 20, 30, 100})
	if encodeJPEGTurbo(translucent, previewQuality, false) != nil {
		t.Error("a translucent image was encoded, its alpha dropped")
	}
}
