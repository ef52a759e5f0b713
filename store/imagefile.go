package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif" // registers GIF (its first frame is the image) for DecodeConfig
	"image/jpeg"
	_ "image/png" // registers PNG for DecodeConfig
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"

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

// maxHeaderBytes bounds how far into a file its image header (after metadata such as
// EXIF, XMP and colour profiles) is looked for.
const maxHeaderBytes = 8 << 20

// ImageExts are the file endings an import reads (case-insensitive).
var ImageExts = []string{".jpg", ".jpeg", ".png", ".webp", ".gif"}

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
	PHash   nullHash // perceptual hash of the thumbnail (neardup.go)
}

// errBadImage marks a file an import rejects; its message is the reason shown to people.
var errBadImage = errors.New("bad image")

func bad(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errBadImage, fmt.Sprintf(format, args...))
}

// probeImage reads one file: checks its header, reserves the memory its decoding needs
// from decodeBudget, reads it once, checks that it did not change meanwhile, decodes it
// with EXIF orientation applied, hashes the bytes it decoded and writes its preview and
// thumbnail into previewDir.
func probeImage(abs, rel, previewDir string) (probe, error) {
	p := probe{RelPath: filepath.ToSlash(rel)}
	if dir := filepath.Dir(rel); dir != "." {
		p.Scene = filepath.Base(dir)
	}
	// O_NONBLOCK: a file replaced by a named pipe since the folder was listed must
	// not block the import in open; the file type is checked on what was opened.
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	if !st.Mode().IsRegular() {
		return p, bad("%s", notAFileReason(st.Mode()))
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

	if testHookBeforeRead != nil {
		testHookBeforeRead(abs)
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
			return p, errChangedDuringImport
		}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return p, errChangedDuringImport
	}
	if err != nil {
		return p, bad("cannot read: %v", err)
	}
	data = data[:n]
	if changedSince(f, abs, st) {
		return p, errChangedDuringImport
	}
	if cfg2, format2, err := image.DecodeConfig(bytes.NewReader(data)); err != nil || !sameConfig(cfg2, cfg) || format2 != format {
		return p, errChangedDuringImport // the same size and time, yet another header
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
	p.PHash = importHash(previewDir, p.SHA256)
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

// errChangedDuringImport is the reason given for a file written to while it was read:
// what was read may be no version of it, so nothing of it is stored.
var errChangedDuringImport = bad("changed while it was being imported; import again")

// testHookBeforeRead, when set (by tests), runs after a file's header was checked and
// before the file is read whole.
var testHookBeforeRead func(abs string)

// headerError turns an error of image.DecodeConfig into a reason.
func headerError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return bad("truncated image: the file ends inside its header")
	}
	return bad("not a readable image (%v)", err)
}

// changedSince reports whether the open file f, or the file now at path abs, differs
// from st in size, modification time or identity (replaced by a rename).
func changedSince(f *os.File, abs string, st os.FileInfo) bool {
	now, err := f.Stat()
	if err != nil || now.Size() != st.Size() || !now.ModTime().Equal(st.ModTime()) {
		return true
	}
	at, err := os.Stat(abs)
	return err != nil || !os.SameFile(at, st)
}

// notAFileReason says why a directory entry that is not a regular file is not read.
func notAFileReason(m fs.FileMode) string {
	kind := annotate.FileKind(m)
	switch {
	case m&fs.ModeSymlink != 0:
		return kind + ": Benchwright imports the files themselves (import the folder it points to)"
	case kind == "not a regular file":
		return kind
	}
	return kind + ", not an image file"
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

// DecodeBudget is how many bytes the decodes of all imports running in this process
// may hold at once. A file whose own decoding needs more is refused; the others wait
// for their share, so that the memory an import takes does not grow with the number
// of cores or of concurrent imports.
const DecodeBudget = 512 << 20

// decodeBudget is the process's budget of decode bytes (tests replace it).
var decodeBudget = newByteBudget(DecodeBudget)

// byteBudget is a weighted semaphore of bytes, served first come first served so that
// a large reservation is not starved by small ones.
type byteBudget struct {
	max int64

	mu            sync.Mutex
	cond          sync.Cond
	used, peak    int64 // bytes reserved now, and at most so far
	next, serving uint64
	onAcquire     func(n, used int64) // test hook, called under mu
}

func newByteBudget(max int64) *byteBudget {
	b := &byteBudget{max: max}
	b.cond.L = &b.mu
	return b
}

// acquire waits until n bytes (at most b.max) fit in the budget and reserves them.
func (b *byteBudget) acquire(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ticket := b.next
	b.next++
	for b.serving != ticket || b.used+n > b.max {
		b.cond.Wait()
	}
	b.serving++
	b.used += n
	b.peak = max(b.peak, b.used)
	if b.onAcquire != nil {
		b.onAcquire(n, b.used)
	}
	b.cond.Broadcast() // the next in line may fit too
}

// release gives back n bytes reserved by acquire.
func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// decodeCost estimates, from its header, the bytes that importing one image holds at
// once: the file read whole, the decoded pixels in the type the decoder returns (16-bit
// PNGs take 8 bytes a pixel, 4:2:0 JPEGs 1.5), the decoders' working copies (interlaced
// PNG passes, progressive JPEG coefficients, CMYK planes, WebP lossless pixels), the
// copy made by an EXIF orientation, and the downscaling and encoding buffers of the
// preview. What it cannot read from the header it counts on the high side.
func decodeCost(cfg image.Config, format string, head []byte, fileSize int64) int64 {
	w, h := int64(cfg.Width), int64(cfg.Height)
	px := w * h
	decoded := px * bytesPerPixel(cfg.ColorModel)
	var extra int64
	switch format {
	case "png":
		if len(head) > 28 && head[28] == 1 { // Adam7: each pass is decoded into an image of its own
			extra += decoded
		}
	case "jpeg":
		progressive, num, den, ok := jpegFrame(head)
		if !ok {
			progressive, num, den = true, components(cfg.ColorModel), 1
		}
		samples := (w + 16) * (h + 16) * num / den // planes are padded to whole blocks
		decoded = samples
		if cfg.ColorModel == color.CMYKModel {
			decoded += px * 4 // the YCbCr and K planes are converted into a CMYK image
		}
		if progressive {
			extra += samples * 4 // an int32 coefficient per sample
		}
		if exifTurns(head) {
			extra += px * 4 // imaging turns the image into an NRGBA copy
		}
	case "webp":
		extra += px * 4 // the lossless decoder's ARGB pixels
	}
	if w > PreviewSide || h > PreviewSide {
		// imaging.Fit resizes horizontally into an NRGBA of the preview's width and the
		// source's height (either side, once turned), then vertically.
		extra += PreviewSide * max(w, h) * 4
	}
	// The preview, its RGBA copy for the encoder and the thumbnail's buffers.
	extra += 3 * min(px, PreviewSide*PreviewSide) * 4
	return fileSize + decoded + extra
}

// bytesPerPixel is the size of a pixel of the image the decoders return for a colour
// model; unknown models count as 16-bit RGBA.
func bytesPerPixel(m color.Model) int64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel: // 4:4:4 at worst
		return 3
	case color.RGBAModel, color.NRGBAModel, color.NYCbCrAModel, color.CMYKModel:
		return 4
	}
	return 8
}

// components is the number of colour components a JPEG of this model has.
func components(m color.Model) int64 {
	switch m {
	case color.GrayModel:
		return 1
	case color.CMYKModel:
		return 4
	}
	return 3
}

// jpegFrame reads a JPEG's frame header in head: whether the JPEG is progressive
// (its decoder then keeps every coefficient of the image) and the samples a pixel has
// on average over its components, num/den (3 for 4:4:4 YCbCr, 1.5 for 4:2:0). ok is
// false when no frame header is found.
func jpegFrame(head []byte) (progressive bool, num, den int64, ok bool) {
	ok = jpegWalk(head, func(marker byte, seg []byte) bool {
		if marker < 0xC0 || marker > 0xCF || marker == 0xC4 || marker == 0xC8 || marker == 0xCC {
			return false // not a frame header
		}
		if len(seg) < 6 || seg[5] < 1 || len(seg) < 6+3*int(seg[5]) {
			return false
		}
		num, den = 0, 1
		var hmax, vmax int64 = 1, 1
		for c := 0; c < int(seg[5]); c++ {
			hv := seg[7+3*c]
			ch, cv := int64(hv>>4), int64(hv&15)
			num += ch * cv
			hmax, vmax = max(hmax, ch), max(vmax, cv)
		}
		den = hmax * vmax
		progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
		return true
	})
	return progressive, num, den, ok
}

// exifTurns reports whether imaging's EXIF orientation turns or flips a JPEG (which
// copies it), as imagefile.Orientation reads it.
func exifTurns(head []byte) bool { return imagefile.Orientation(head) >= 2 }

// jpegWalk calls visit with the marker and the payload of each of a JPEG's marker
// segments in head, up to the scan, until visit returns true; it reports whether
// visit did, false when the segments end or cannot be followed first.
func jpegWalk(head []byte, visit func(marker byte, payload []byte) bool) bool {
	if len(head) < 4 || head[0] != 0xFF || head[1] != 0xD8 {
		return false
	}
	for i := 2; ; {
		for i+1 < len(head) && head[i] == 0xFF && head[i+1] == 0xFF {
			i++ // fill bytes
		}
		if i+4 > len(head) || head[i] != 0xFF || head[i+1] == 0xDA || head[i+1] == 0xD9 {
			return false
		}
		n := int(head[i+2])<<8 | int(head[i+3])
		if n < 2 || i+2+n > len(head) {
			return false
		}
		if visit(head[i+1], head[i+4:i+2+n]) {
			return true
		}
		i += 2 + n
	}
}

// aboutBytes writes a byte count for people: "1.2 GiB", "300 MiB".
func aboutBytes(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", (n+(1<<20)-1)>>20)
}
