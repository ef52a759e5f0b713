package imagefile

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	_ "image/jpeg" // registers JPEG for DecodeConfig and the fallback decoder
	"io"
	"strings"

	"github.com/disintegration/imaging"
)

// decoded is an image decoded for its preview.
type decoded struct {
	img image.Image // upright; at full resolution, or reduced but still at least PreviewSide on its longer side
	// width and height are the image's, upright, at full resolution (what is stored).
	width, height int
	// asStored: img is the file's pixels as stored (full resolution, not turned, not
	// converted from CMYK), so the file itself may serve as its preview.
	asStored bool
}

// decodeForPreview decodes an image file's bytes (whose header DecodeConfig read as
// cfg, format) upright, as github.com/disintegration/imaging does with
// AutoOrientation. A JPEG is decoded by libjpeg-turbo where it is built in (cgo),
// at the smallest DCT scale that still gives the preview its side; any JPEG it does
// not decode cleanly (a warning, an error, CMYK) and every other format go through
// Go's decoders, whose errors are the reasons given for a bad file.
func decodeForPreview(data []byte, cfg image.Config, format string) (decoded, error) {
	if format == "jpeg" {
		denom := dctScale(cfg.Width, cfg.Height)
		if img := decodeJPEGScaled(data, cfg, denom); img != nil {
			o := Orientation(data)
			w, h := cfg.Width, cfg.Height
			if Turns(o) {
				w, h = h, w
			}
			return decoded{img: orient(img, o), width: w, height: h, asStored: denom == 1 && o < 2}, nil
		}
	}
	return decodeGo(data, format)
}

// decodeGo decodes an image file's bytes with Go's decoders through imaging,
// upright, at full resolution.
func decodeGo(data []byte, format string) (decoded, error) {
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
		d.asStored = true
	}
	return d, nil
}

// dctScale is the denominator (1, 2 or 4) of the smallest scale a JPEG of w×h is
// decoded at so that its longer side still is at least PreviewSide: a 12-MP
// 4000×3000 photo at 1/2 (2000×1500), a 6000×4000 one at 1/2 too (1/4 would give
// 1500, short of 1600), one of 1600 to 3199 px at full size. Not 1/8, which
// libjpeg-turbo decodes from each block's average alone: downscaled from there, a
// preview differed from Go's full-size path by 6.9 levels on average on the test's
// picture (0.7 at 1/4), and it would serve only sides of 12,800 px and more.
func dctScale(w, h int) int {
	long := max(w, h)
	for _, d := range []int{4, 2} {
		if (long+d-1)/d >= PreviewSide {
			return d
		}
	}
	return 1
}

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
