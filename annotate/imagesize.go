package annotate

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	_ "image/gif"
	_ "image/jpeg" // register decoders for ImageSize
	_ "image/png"
	"io"

	_ "golang.org/x/image/webp"
)

// ImageSize reads an image header (JPEG, PNG or WebP) and returns the size of the
// image as displayed, the frame boxes are drawn on (spec §5): for a JPEG whose EXIF
// orientation is 5–8 (rotated a quarter turn) width and height are swapped. EXIF in
// PNG and WebP files is not read.
func ImageSize(r io.Reader) (w, h int, err error) {
	var head bytes.Buffer // the bytes DecodeConfig reads hold the JPEG APP1 segment
	cfg, format, err := image.DecodeConfig(io.TeeReader(r, &head))
	if err != nil {
		return 0, 0, fmt.Errorf("read image header: %w", err)
	}
	if format == "jpeg" && jpegOrientation(head.Bytes()) >= 5 {
		return cfg.Height, cfg.Width, nil
	}
	return cfg.Width, cfg.Height, nil
}

// jpegOrientation returns the EXIF orientation tag (1–8) of a JPEG's header bytes,
// 0 if there is none or it cannot be read.
func jpegOrientation(b []byte) int {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return 0
	}
	for p := 2; p+4 <= len(b) && b[p] == 0xFF; {
		marker, n := b[p+1], int(binary.BigEndian.Uint16(b[p+2:]))
		if marker == 0xDA || (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
			return 0 // start of scan or frame: no EXIF before it
		}
		seg := b[p+4 : min(len(b), p+2+n)]
		if marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
			return tiffOrientation(seg[6:])
		}
		p += 2 + n
	}
	return 0
}

// tiffOrientation reads tag 0x0112 from IFD0 of a TIFF structure.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 0
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 0
	}
	for i, n := 0, int(bo.Uint16(t[ifd:])); i < n; i++ {
		e := ifd + 2 + 12*i
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 0
		}
	}
	return 0
}

// JPEGOrientation returns the EXIF orientation (1–8) of a JPEG, read from its first
// bytes (the header segments), or 0 when it has none or is not a JPEG. 1 is upright;
// 5–8 turn the image a quarter, so its displayed width and height are swapped.
func JPEGOrientation(head []byte) int { return jpegOrientation(head) }
