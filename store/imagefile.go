package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	_ "image/png" // registers PNG for DecodeConfig
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/webp" // registers WebP for DecodeConfig
)

// Limits on what an import accepts; a header declaring more is refused before decoding,
// so that a hostile or broken file cannot make the app allocate gigabytes.
const (
	MaxImageSide   = 20000
	MaxImagePixels = 150_000_000
	MaxImageBytes  = 512 << 20
	PreviewSide    = 1600
	ThumbSide      = 256
)

// ImageExts are the file endings an import reads (case-insensitive).
var ImageExts = []string{".jpg", ".jpeg", ".png", ".webp"}

// isImageName reports whether a file name has an image ending.
func isImageName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range ImageExts {
		if ext == e {
			return true
		}
	}
	return false
}

// probe is what an import learns of one file before storing it.
type probe struct {
	RelPath string
	Scene   string
	SHA256  string
	Size    int64
	MtimeNS int64
	Width   int
	Height  int
}

// errBadImage marks a file an import rejects; its message is the reason shown to people.
var errBadImage = errors.New("bad image")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadImage, fmt.Sprintf(format, args...))
}

// probeImage reads one file: checks its header, decodes it with EXIF orientation
// applied, hashes its bytes and writes its preview and thumbnail into previewDir.
func probeImage(abs, rel, previewDir string) (probe, error) {
	p := probe{RelPath: filepath.ToSlash(rel)}
	if dir := filepath.Dir(rel); dir != "." {
		p.Scene = filepath.Base(dir)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	p.Size, p.MtimeNS = st.Size(), st.ModTime().UnixNano()
	switch {
	case st.Size() == 0:
		return p, bad("empty file (0 bytes)")
	case st.Size() > MaxImageBytes:
		return p, bad("file is %d MiB, more than the %d MiB limit", st.Size()>>20, MaxImageBytes>>20)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return p, bad("truncated image: the file ends inside its header")
	}
	if err != nil {
		return p, bad("not a readable image (%v)", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide ||
		int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return p, bad("%s header declares %d×%d pixels, beyond the limit of %d px a side and %d megapixels",
			format, cfg.Width, cfg.Height, MaxImageSide, MaxImagePixels/1_000_000)
	}
	img, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "EOF") ||
			strings.Contains(err.Error(), "not enough pixel data") { // image/png's word for a cut-off file
			return p, bad("truncated %s: the file ends before the image data does", format)
		}
		return p, bad("corrupt %s data (%v)", format, err)
	}
	b := img.Bounds()
	p.Width, p.Height = b.Dx(), b.Dy()
	sum := sha256.Sum256(data)
	p.SHA256 = hex.EncodeToString(sum[:])
	// A JPEG already small enough and without EXIF (so shown as stored) is its own
	// preview: copying its bytes saves an encode, a fifth of an import's CPU.
	var asIs []byte
	switch img.(type) {
	case *image.YCbCr, *image.Gray: // as the decoder returned it: not turned, not CMYK
		if format == "jpeg" && !hasExif(data) {
			asIs = data
		}
	}
	if err := writePreviews(img, asIs, previewDir, p.SHA256); err != nil {
		return p, fmt.Errorf("preview of %s: %w", rel, err)
	}
	return p, nil
}

// PreviewPath and ThumbPath name the cached downscaled copies of an image by content hash.
func PreviewPath(previewDir, sha string) string {
	return filepath.Join(previewDir, sha[:2], sha+".jpg")
}

// ThumbPath names the cached thumbnail of an image by content hash.
func ThumbPath(previewDir, sha string) string {
	return filepath.Join(previewDir, sha[:2], sha+"_t.jpg")
}

// writePreviews writes the preview and the thumbnail of img; asIs, when set, is a
// JPEG file of img that may serve as the preview if img needs no downscaling.
func writePreviews(img image.Image, asIs []byte, dir, sha string) error {
	if _, err := os.Stat(ThumbPath(dir, sha)); err == nil {
		return nil // content-addressed: already made
	}
	if err := os.MkdirAll(filepath.Dir(PreviewPath(dir, sha)), 0o755); err != nil {
		return err
	}
	prev := img
	if b := img.Bounds(); b.Dx() > PreviewSide || b.Dy() > PreviewSide {
		prev = imaging.Fit(img, PreviewSide, PreviewSide, imaging.Linear)
		asIs = nil
	}
	write := func(path string) error { return writeJPEG(path, prev) }
	if asIs != nil {
		write = func(path string) error { return writeFileAtomic(path, asIs) }
	}
	if err := write(PreviewPath(dir, sha)); err != nil {
		return err
	}
	return writeJPEG(ThumbPath(dir, sha), imaging.Fit(prev, ThumbSide, ThumbSide, imaging.Linear))
}

// writeJPEG writes img as a JPEG, atomically.
func writeJPEG(path string, img image.Image) error {
	return writeAtomic(path, func(w io.Writer) error { return jpeg.Encode(w, encodable(img), &jpeg.Options{Quality: 85}) })
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
