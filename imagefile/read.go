package imagefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // registers GIF (its first frame is the image) for DecodeConfig
	_ "image/png" // registers PNG for DecodeConfig
	"io"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"syscall"

	_ "golang.org/x/image/webp" // registers WebP for DecodeConfig
)

// Info is what reading an image file for an import tells of it.
type Info struct {
	SHA256  string // of the bytes read and decoded, lower-case hex
	Size    int64
	MtimeNS int64
	Format  string // "jpeg", "png", "webp", "gif"
	Width   int    // of the image upright (EXIF orientation applied), full resolution
	Height  int
	// Thumb is the thumbnail Read made and wrote (ThumbPath), as it was before its
	// JPEG encoding; nil when the previews of this content were there already.
	Thumb image.Image
}

// ErrBadImage marks a file an import rejects; its message is the reason shown to people.
var ErrBadImage = errors.New("bad image")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadImage, fmt.Sprintf(format, args...))
}

// ErrChanged is the reason given for a file written to while it was read: what was
// read may be no version of it, so nothing of it is stored.
var ErrChanged = bad("changed while it was being imported; import again")

// NotAFileError is Read's error for a path that is not a regular file (a link, a
// named pipe, a device: its Mode says which); it wraps ErrBadImage.
type NotAFileError struct{ Mode fs.FileMode }

func (e *NotAFileError) Error() string { return ErrBadImage.Error() + ": not a regular file" }
func (e *NotAFileError) Unwrap() error { return ErrBadImage }

// Read reads the image file at path for an import: checks its header against the
// limits, reserves the memory its decoding needs from the decode budget, reads it
// once, checks that it did not change meanwhile, decodes it with EXIF orientation
// applied, hashes the bytes it decoded and writes its preview and thumbnail into
// previewDir (PreviewPath, ThumbPath). beforeRead, when not nil (tests), runs after
// the header was checked and before the file is read whole. An error wrapping
// ErrBadImage says why the file is not imported.
func Read(path, previewDir string, beforeRead func()) (Info, error) {
	var p Info
	// O_NONBLOCK: a file replaced by a named pipe since the folder was listed must
	// not block the import in open; the file type is checked on what was opened.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	if !st.Mode().IsRegular() {
		return p, &NotAFileError{Mode: st.Mode()}
	}
	p.Size, p.MtimeNS = st.Size(), st.ModTime().UnixNano()
	switch {
	case st.Size() == 0:
		return p, bad("empty file (0 bytes)")
	case st.Size() > MaxImageBytes:
		return p, bad("file is %d MiB, more than the %d MiB limit", st.Size()>>20, MaxImageBytes>>20)
	}

	// The header alone tells how much memory decoding takes; head keeps the bytes the
	// header was read from (for the PNG interlace flag and the JPEG frame type).
	var head bytes.Buffer
	cfg, format, err := image.DecodeConfig(io.TeeReader(io.LimitReader(f, maxHeaderBytes), &head))
	if err != nil && head.Len() >= maxHeaderBytes {
		return p, bad("not a readable image: no image header in its first %d MiB", maxHeaderBytes>>20)
	}
	if err != nil {
		return p, headerError(err)
	}
	p.Format = format
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide ||
		int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return p, bad("%s header declares %d×%d pixels, beyond the limit of %d px a side and %d megapixels",
			format, cfg.Width, cfg.Height, MaxImageSide, MaxImagePixels/1_000_000)
	}
	cost := decodeCost(cfg, format, head.Bytes(), st.Size())
	if cost > decodeBudget.max {
		return p, bad("%s header declares %d×%d pixels: decoding needs about %s, over the import's %s budget",
			format, cfg.Width, cfg.Height, aboutBytes(cost), aboutBytes(decodeBudget.max))
	}
	decodeBudget.acquire(cost)
	defer decodeBudget.release(cost)

	if beforeRead != nil {
		beforeRead()
	}
	// Read the whole file once: the bytes read are the bytes decoded and hashed, and
	// their number and the file's time must still be what was stat'ed.
	data := make([]byte, st.Size())
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return p, bad("cannot read: %v", err)
	}
	n, err := io.ReadFull(f, data)
	var extra [1]byte
	if err == nil {
		if m, _ := f.Read(extra[:]); m > 0 {
			return p, ErrChanged
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return p, ErrChanged
	}
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	data = data[:n]
	if changedSince(f, path, st) {
		return p, ErrChanged
	}
	if cfg2, format2, err := image.DecodeConfig(bytes.NewReader(data)); err != nil || !sameConfig(cfg2, cfg) || format2 != format {
		return p, ErrChanged // the same size and time, yet another header
	}

	d, err := decodeForPreview(data, cfg, format)
	if err != nil {
		return p, err
	}
	p.Width, p.Height = d.width, d.height
	sum := sha256.Sum256(data)
	p.SHA256 = hex.EncodeToString(sum[:])
	prev, asIs := d.img, data
	if !d.fileIsPreview {
		prev, asIs = previewOf(d.img, d.opaque), nil
	}
	p.Thumb, err = writePreviews(prev, asIs, previewDir, p.SHA256, d.opaque)
	// The thumbnail is always a new image (fitKnown), and prev is no longer used:
	// the decoded pixels go back to the pool.
	prev, d.img = nil, nil
	putPix(d.pooled)
	if err != nil {
		return p, fmt.Errorf("write preview: %w", err)
	}
	return p, nil
}

// sameConfig reports whether two decoded headers agree field by field. A colour
// model may be a color.Palette (paletted PNG, GIF), a slice that == cannot
// compare: two palettes agree when their colours do, in order.
func sameConfig(a, b image.Config) bool {
	if a.Width != b.Width || a.Height != b.Height {
		return false
	}
	pa, okA := a.ColorModel.(color.Palette)
	pb, okB := b.ColorModel.(color.Palette)
	switch {
	case okA != okB:
		return false
	case okA:
		return slices.EqualFunc(pa, pb, func(x, y color.Color) bool {
			xr, xg, xb, xa := x.RGBA()
			yr, yg, yb, ya := y.RGBA()
			return xr == yr && xg == yg && xb == yb && xa == ya
		})
	}
	if va := reflect.ValueOf(a.ColorModel); va.IsValid() && !va.Comparable() {
		return reflect.DeepEqual(a.ColorModel, b.ColorModel) // any other model that is not comparable
	}
	return a.ColorModel == b.ColorModel
}

// headerError turns an error of image.DecodeConfig into a reason.
func headerError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return bad("truncated image: the file ends inside its header")
	}
	return bad("not a readable image (%v)", err)
}

// changedSince reports whether the open file f, or the file now at path, differs
// from st in size, modification time or identity (replaced by a rename).
func changedSince(f *os.File, path string, st os.FileInfo) bool {
	now, err := f.Stat()
	if err != nil || now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) {
		return true
	}
	at, err := os.Stat(path)
	return err != nil || !os.SameFile(at, st)
}
