package imagefile

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
)

// The sides an import downscales every image to fit: its preview (shown when
// annotating and verifying) and its thumbnail (the image grid).
const (
	PreviewSide = 1600
	ThumbSide   = 256
)

// PreviewPath names the cached downscaled copy of an image by content hash.
func PreviewPath(previewDir, sha string) string {
	return filepath.Join(previewDir, sha[:2], sha+".jpg")
}

// ThumbPath names the cached thumbnail of an image by content hash.
func ThumbPath(previewDir, sha string) string {
	return filepath.Join(previewDir, sha[:2], sha+"_t.jpg")
}

// ReadThumb decodes the cached thumbnail of an image by content hash, or returns
// nil when there is none or it cannot be decoded (previews are a cache: the
// caller makes them again from the file, or does without).
func ReadThumb(previewDir, sha string) image.Image {
	f, err := os.Open(ThumbPath(previewDir, sha))
	if err != nil {
		return nil
	}
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil {
		return nil
	}
	return img
}

// writePreviews writes an image's preview (prev, made by previewOf) and its
// thumbnail, made from prev; asIs, when set, is the image's file, written as the
// preview instead of prev (which may then be smaller: the thumbnail's source).
// opaque says prev is known to be opaque (fitKnown).
// It returns the thumbnail it wrote, as encoded (before JPEG), or nil when the
// previews were there already.
func writePreviews(prev image.Image, asIs []byte, dir, sha string, opaque bool) (image.Image, error) {
	if _, err := os.Stat(ThumbPath(dir, sha)); err == nil {
		return nil, nil // content-addressed: already made
	}
	if err := os.MkdirAll(filepath.Dir(PreviewPath(dir, sha)), 0o755); err != nil {
		return nil, err
	}
	write := func(path string) error { return writeJPEG(path, prev, opaque) }
	if asIs != nil {
		write = func(path string) error { return writeFileAtomic(path, asIs) }
	}
	if err := write(PreviewPath(dir, sha)); err != nil {
		return nil, err
	}
	thumb := thumbOf(prev, opaque)
	if err := writeJPEG(ThumbPath(dir, sha), thumb, opaque); err != nil {
		return nil, err
	}
	return thumb, nil
}

// previewOf is img downscaled to fit PreviewSide, or img itself when it fits;
// opaque as fitKnown's (the preview of an opaque image is opaque).
func previewOf(img image.Image, opaque bool) image.Image {
	if b := img.Bounds(); b.Dx() > PreviewSide || b.Dy() > PreviewSide {
		return fitKnown(img, PreviewSide, opaque)
	}
	return img
}

// thumbOf is the thumbnail of a preview; opaque as fitKnown's.
func thumbOf(prev image.Image, opaque bool) image.Image {
	return fitKnown(prev, ThumbSide, opaque)
}

// previewQuality is the JPEG quality previews and thumbnails are written at.
const previewQuality = 85

// writeJPEG writes img as a JPEG, atomically: encoded by libjpeg-turbo where it is
// built in, by image/jpeg otherwise; opaque as encodeJPEGTurbo's.
func writeJPEG(path string, img image.Image, opaque bool) error {
	return writeAtomic(path, func(w io.Writer) error {
		if data := encodeJPEGTurbo(img, previewQuality, opaque); data != nil {
			_, err := w.Write(data)
			return err
		}
		return jpeg.Encode(w, encodable(img), &jpeg.Options{Quality: previewQuality})
	})
}

// writeFileAtomic writes data, atomically.
func writeFileAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// writeAtomic writes a file through a temporary file and a rename, so that a crash
// never leaves half a preview.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// hasExif reports whether a JPEG file carries an EXIF segment (whose orientation may
// turn the image), reading its marker segments up to the image data. Anything it
// cannot follow counts as EXIF: the caller then re-encodes, which is always right.
func hasExif(data []byte) bool {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return true
	}
	for i := 2; ; {
		for i < len(data) && data[i] == 0xFF && i+1 < len(data) && data[i+1] == 0xFF {
			i++ // fill bytes
		}
		if i+4 > len(data) || data[i] != 0xFF {
			return true
		}
		marker := data[i+1]
		if marker == 0xDA || marker == 0xD9 { // start of scan, end of image: no EXIF before the data
			return false
		}
		n := int(data[i+2])<<8 | int(data[i+3])
		if n < 2 || i+2+n > len(data) {
			return true
		}
		if marker == 0xE1 && bytes.HasPrefix(data[i+4:i+2+n], []byte("Exif\x00")) {
			return true
		}
		i += 2 + n
	}
}

// encodable gives image/jpeg an image it encodes on its fast path (*image.RGBA or
// *image.YCbCr); other types go pixel by pixel through color conversions, which was
// a third of an import's CPU. imaging returns *image.NRGBA: when it is opaque (every
// decoded JPEG) its bytes already are RGBA, otherwise it is premultiplied by drawing.
func encodable(img image.Image) image.Image {
	switch m := img.(type) {
	case *image.RGBA, *image.YCbCr, *image.Gray:
		return img
	case *image.NRGBA:
		if m.Opaque() {
			return &image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
		}
	}
	dst := image.NewRGBA(img.Bounds())
	draw.Draw(dst, dst.Rect, img, img.Bounds().Min, draw.Src)
	return dst
}
