package imagefile

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	_ "image/jpeg" // registers JPEG for DecodeConfig and the fallback decoder
	"io"
	"strings"
	"sync"

	"github.com/disintegration/imaging"
)

// decoded is an image decoded for its preview.
type decoded struct {
	// img is the image upright: at full resolution, or reduced but still at least
	// PreviewSide on its longer side; or, when fileIsPreview, at least ThumbSide.
	img image.Image
	// width and height are the image's, upright, at full resolution (what is stored).
	width, height int
	// fileIsPreview: the file itself serves as the preview (a JPEG of at most
	// PreviewSide a side, without EXIF, shown as stored: not CMYK), and img is only
	// the thumbnail's source.
	fileIsPreview bool
	// opaque: img is known to be opaque (decoded by libjpeg-turbo: gray, or RGBA
	// whose alpha it set to 255), so its pixels need not be checked (fitKnown).
	opaque bool
	// pooled is img's pixels when they came from pixPool: Read gives them back
	// once the preview and the thumbnail are written.
	pooled []byte
}

// pixOf is the pixels of an image decodeJPEGScaled returned.
func pixOf(img image.Image) []byte {
	switch m := img.(type) {
	case *image.NRGBA:
		return m.Pix
	case *image.Gray:
		return m.Pix
	}
	return nil
}

// pixPool holds pixel buffers of decoded images that are done with (putPix), for
// the next decode (getPix): an import decodes thousands of images, and fresh
// buffers are zeroed pages the kernel maps, one by one, each time.
var pixPool sync.Pool

// getPix is n bytes of pixels, from pixPool when it holds a buffer large enough;
// their values are left as they were.
func getPix(n int) []byte {
	if b, ok := pixPool.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]byte, n)
}

// putPix gives a decoded image's pixels back to pixPool, once nothing refers to
// them.
func putPix(pix []byte) {
	if cap(pix) > 0 {
		pixPool.Put(&pix)
	}
}

// decodeForPreview decodes an image file's bytes (whose header DecodeConfig read as
// cfg, format) upright, as github.com/disintegration/imaging does with
// AutoOrientation. A JPEG is decoded by libjpeg-turbo where it is built in (cgo),
// at the smallest DCT scale that still gives the preview its side (the thumbnail
// its side, when the file is its own preview); any JPEG it does not decode cleanly
// (a warning, an error, CMYK) and every other format go through Go's decoders,
// whose errors are the reasons given for a bad file.
func decodeForPreview(data []byte, cfg image.Config, format string) (decoded, error) {
	if format == "jpeg" {
		self := selfPreview(cfg, format, data)
		eighths := previewScale(cfg.Width, cfg.Height)
		if self {
			eighths = thumbScale(cfg.Width, cfg.Height)
		}
		if img := decodeJPEGScaled(data, cfg, eighths); img != nil {
			o := Orientation(data)
			w, h := cfg.Width, cfg.Height
			if Turns(o) {
				w, h = h, w
			}
			d := decoded{img: orient(img, o), width: w, height: h, fileIsPreview: self, opaque: true}
			if d.img == img {
				d.pooled = pixOf(img)
			} else {
				putPix(pixOf(img)) // orient made a copy
			}
			return d, nil
		}
	}
	return decodeGo(data, cfg, format)
}

// selfPreview reports whether an image file serves as its own preview: a JPEG
// already small enough and without EXIF (so shown as stored; copying its bytes
// saves an encode, a fifth of an import's CPU), not CMYK (which a viewer may show
// otherwise than Go's decoder).
func selfPreview(cfg image.Config, format string, data []byte) bool {
	if _, ok := jpegOutput(cfg.ColorModel); !ok || format != "jpeg" {
		return false
	}
	return cfg.Width <= PreviewSide && cfg.Height <= PreviewSide && !hasExif(data)
}

// decodeGo decodes an image file's bytes with Go's decoders through imaging,
// upright, at full resolution.
func decodeGo(data []byte, cfg image.Config, format string) (decoded, error) {
	img, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "EOF") ||
			strings.Contains(err.Error(), "not enough pixel data") { // image/png's word for a cut-off file
			return decoded{}, bad("truncated %s: the file ends before the image data does", format)
		}
		return decoded{}, bad("corrupt %s data (%v)", format, err)
	}
	b := img.Bounds()
	d := decoded{img: img, width: b.Dx(), height: b.Dy()}
	switch img.(type) {
	case *image.YCbCr, *image.Gray: // as the decoder returned it: not turned, not CMYK
		d.fileIsPreview = selfPreview(cfg, format, data)
	}
	return d, nil
}

// previewScale is the scale, in eighths, of the smallest of 1/4, 1/2 and 1 a JPEG
// of w×h is decoded at so that its longer side still is at least PreviewSide: a
// 12-MP 4000×3000 photo at 1/2 (2000×1500), a 6000×4000 one at 1/2 too (1/4 would
// give 1500, short of 1600), one of 1600 to 3199 px at full size.
//
// Not 1/8, nor the scales between (3/8, 5/8, ...): downscaled from a decode
// whose size is close to the preview's, the result differs from Go's full-size
// path by several levels on average on the test's picture (6.9 at 1/8 for a
// preview, 4.1 at 3/8 for a thumbnail; 0.7 to 1.2 at 1/4 and 1/2).
func previewScale(w, h int) int { return pow2Scale(w, h, PreviewSide) }

// thumbScale is the same for a JPEG that is its own preview, decoded only for its
// thumbnail: 640×480 at 1/2, 1280×960 at 1/4, 480×360 at full size.
func thumbScale(w, h int) int { return pow2Scale(w, h, ThumbSide) }

// pow2Scale is the smallest of 1/4, 1/2 and 1, in eighths, that keeps the longer
// side of w×h at least side.
func pow2Scale(w, h, side int) int {
	long := max(w, h)
	for _, m := range []int{2, 4} {
		if scaled(long, m) >= side {
			return m
		}
	}
	return 8
}

// scaled is a side of n pixels decoded at m/8, as libjpeg-turbo rounds it.
func scaled(n, m int) int { return (n*m + 7) / 8 }

// orient turns img as EXIF orientation o says, as imaging's AutoOrientation does.
func orient(img image.Image, o int) image.Image {
	switch o {
	case 2:
		return imaging.FlipH(img)
	case 3:
		return imaging.Rotate180(img)
	case 4:
		return imaging.FlipV(img)
	case 5:
		return imaging.Transpose(img)
	case 6:
		return imaging.Rotate270(img)
	case 7:
		return imaging.Transverse(img)
	case 8:
		return imaging.Rotate90(img)
	}
	return img
}

// jpegOutput says how the libjpeg-turbo path returns a JPEG of colour model m:
// gray as *image.Gray, YCbCr and RGB as opaque *image.NRGBA; ok is false for the
// others (CMYK, YCCK), which Go's decoder reads.
func jpegOutput(m color.Model) (gray, ok bool) {
	switch m {
	case color.GrayModel:
		return true, true
	case color.YCbCrModel, color.RGBAModel:
		return false, true
	}
	return false, false
}
