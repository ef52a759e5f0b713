// Package imagefile is what Benchwright knows of image files, apart from any
// database: which files an import reads (IsImageName) and what it refuses
// (MaxImageSide, MaxImagePixels, MaxImageBytes); reading one for an import (Read:
// its header checked before anything is decoded, the memory its decoding needs
// reserved from one process-wide DecodeBudget, its bytes hashed and decoded once)
// and its preview and thumbnail (PreviewSide, ThumbSide, PreviewPath, ThumbPath).
// JPEGs are decoded by libjpeg-turbo in the DCT domain at the smallest scale the
// preview allows when built with cgo (not on Windows), by Go's decoders otherwise
// and for every other format.
//
// It is also the one EXIF reader of the code base (issue 28 item 2). The pixels are
// turned upright by github.com/disintegration/imaging's transforms when an image is
// imported (its previews, its stored width and height) and when a release is
// exported, so Orientation reads the tag exactly as imaging does: the first APP1
// segment of the JPEG, which must be EXIF; the first image directory's tag 0x0112
// whatever its declared type, its value read as a 16-bit number in the file's byte
// order. Two readers that differed on a file whose first APP1 is XMP, or whose tag
// is typed LONG, once drew a box on one frame and exported the image in another.
package imagefile

import (
	"encoding/binary"
)

// Orientation returns the EXIF orientation (1–8) of a JPEG read from its first
// bytes (head: its marker segments up to the EXIF, a few kilobytes), or 0 when
// imaging would apply none: not a JPEG, no EXIF in the first APP1 segment, no
// orientation tag, a value outside 1–8, or bytes it cannot follow. 1 is upright;
// 2–8 flip or turn the image, 5–8 by a quarter turn, which swaps its displayed
// width and height.
func Orientation(head []byte) int {
	b := head
	if len(b) < 2 || b[0] != 0xFF || b[1] != 0xD8 {
		return 0
	}
	p := 2
	// The first APP1 marker; every marker before it is skipped by its size.
	for {
		if p+4 > len(b) {
			return 0
		}
		marker, size := binary.BigEndian.Uint16(b[p:]), int(binary.BigEndian.Uint16(b[p+2:]))
		p += 4
		if marker>>8 != 0xFF {
			return 0
		}
		if marker == 0xFFE1 {
			break
		}
		if size < 2 {
			return 0
		}
		p += size - 2
	}
	// "Exif", two bytes, then the TIFF header.
	if p+6 > len(b) || string(b[p:p+4]) != "Exif" {
		return 0
	}
	t := p + 6
	if t+8 > len(b) {
		return 0
	}
	var order binary.ByteOrder
	switch binary.BigEndian.Uint16(b[t:]) {
	case 0x4D4D:
		order = binary.BigEndian
	case 0x4949:
		order = binary.LittleEndian
	default:
		return 0
	}
	off := int64(order.Uint32(b[t+4:]))
	if off < 8 {
		return 0
	}
	ifd := int64(t) + off
	if ifd+2 > int64(len(b)) {
		return 0
	}
	n := int64(order.Uint16(b[ifd:]))
	for i := int64(0); i < n; i++ {
		e := ifd + 2 + 12*i
		if e+12 > int64(len(b)) {
			return 0
		}
		if order.Uint16(b[e:]) != 0x0112 {
			continue
		}
		if v := int(order.Uint16(b[e+8:])); v >= 1 && v <= 8 {
			return v
		}
		return 0
	}
	return 0
}

// Turns reports whether an orientation shows the image a quarter turn from how
// it is stored, so that its displayed width is its stored height.
func Turns(o int) bool { return o >= 5 && o <= 8 }
