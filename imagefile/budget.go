package imagefile

import (
	"fmt"
	"image"
	"image/color"
	"sync"
)

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
// PNG passes, progressive JPEG coefficients, CMYK planes, WebP lossless pixels, the
// image libjpeg-turbo decodes at its scale beside Go's when it gives up), the
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
		if turboJPEG && cfg.ColorModel != color.CMYKModel {
			// libjpeg-turbo's image at its scale, 4 bytes a pixel (gray: 1), which may
			// be there still when it gives up and Go's decoder decodes the file.
			m, bpp := previewScale(cfg.Width, cfg.Height), int64(4)
			if cfg.ColorModel == color.GrayModel {
				bpp = 1
			}
			extra += int64(scaled(cfg.Width, m)) * int64(scaled(cfg.Height, m)) * bpp
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
// copies it), as Orientation reads it.
func exifTurns(head []byte) bool { return Orientation(head) >= 2 }

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
