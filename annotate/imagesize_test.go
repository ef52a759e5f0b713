package annotate

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"
	"testing"
)

// jpegWithOrientation encodes a w×h JPEG carrying an EXIF orientation tag (0 = no EXIF).
func jpegWithOrientation(t *testing.T, w, h, orientation int, order binary.AppendByteOrder) []byte {
	t.Helper()
	var img bytes.Buffer
	if err := jpeg.Encode(&img, image.NewGray(image.Rect(0, 0, w, h)), nil); err != nil {
		t.Fatal(err)
	}
	if orientation == 0 {
		return img.Bytes()
	}
	tiff := []byte("II*\x00")
	if order == binary.BigEndian {
		tiff = []byte("MM\x00*")
	}
	tiff = order.AppendUint32(tiff, 8)      // IFD0 offset
	tiff = order.AppendUint16(tiff, 2)      // two entries
	tiff = order.AppendUint16(tiff, 0x010F) // Make, ignored
	tiff = order.AppendUint16(tiff, 2)      //   ASCII
	tiff = order.AppendUint32(tiff, 4)      //   count
	tiff = append(tiff, 'A', 'C', 'M', 0)   //   value
	tiff = order.AppendUint16(tiff, 0x0112) // Orientation
	tiff = order.AppendUint16(tiff, 3)      //   SHORT
	tiff = order.AppendUint32(tiff, 1)      //   count
	tiff = order.AppendUint16(tiff, uint16(orientation))
	tiff = append(tiff, 0, 0, 0, 0, 0, 0) // padding, next IFD
	payload := append([]byte("Exif\x00\x00"), tiff...)
	app1 := binary.BigEndian.AppendUint16([]byte{0xFF, 0xE1}, uint16(2+len(payload)))
	app1 = append(app1, payload...)
	b := img.Bytes()
	return append(append(append([]byte{}, b[:2]...), app1...), b[2:]...)
}

// webpLossless is the header of a w×h lossless WebP: enough for DecodeConfig.
func webpLossless(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14
	chunk := binary.LittleEndian.AppendUint32([]byte{0x2F}, bits)
	chunk = append(chunk, 0) // pad to an even length
	b := []byte("RIFF")
	b = binary.LittleEndian.AppendUint32(b, uint32(4+8+len(chunk)))
	b = append(b, "WEBPVP8L"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(chunk)))
	return append(b, chunk...)
}

func TestImageSize(t *testing.T) {
	var pngBytes bytes.Buffer
	if err := png.Encode(&pngBytes, image.NewGray(image.Rect(0, 0, 31, 17))); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		w, h int
	}{
		{"png", pngBytes.Bytes(), 31, 17},
		{"jpeg without exif", jpegWithOrientation(t, 30, 20, 0, nil), 30, 20},
		{"jpeg orientation 1", jpegWithOrientation(t, 30, 20, 1, binary.LittleEndian), 30, 20},
		{"jpeg orientation 3", jpegWithOrientation(t, 30, 20, 3, binary.BigEndian), 30, 20},
		{"jpeg orientation 6", jpegWithOrientation(t, 30, 20, 6, binary.LittleEndian), 20, 30},
		{"jpeg orientation 8 big-endian", jpegWithOrientation(t, 30, 20, 8, binary.BigEndian), 20, 30},
		{"webp", webpLossless(33, 21), 33, 21},
	}
	for _, tt := range tests {
		w, h, err := ImageSize(bytes.NewReader(tt.data))
		if err != nil || w != tt.w || h != tt.h {
			t.Errorf("%s: ImageSize = %d×%d, %v; want %d×%d", tt.name, w, h, err, tt.w, tt.h)
		}
	}
	if _, _, err := ImageSize(bytes.NewReader([]byte("not an image"))); err == nil {
		t.Error("ImageSize of garbage: no error")
	}
}
