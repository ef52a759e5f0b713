package imagefile

import (
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// fit downscales img to fit a side×side box, as imaging.Fit(img, side, side,
// imaging.Linear) does — the same size, the same triangle filter and weights —
// for the opaque images the JPEG decoding gives (*image.NRGBA without
// transparency, *image.Gray), in fixed-point arithmetic on one goroutine: resizing
// took the largest part of an import's CPU. Other images, and images that fit
// already, go through imaging.
func fit(img image.Image, side int) image.Image { return fitKnown(img, side, false) }

// fitKnown is fit; opaque says img is known to be opaque (decoded by
// libjpeg-turbo, or resized from such an image), so its pixels are not checked.
func fitKnown(img image.Image, side int, opaque bool) image.Image {
	b := img.Bounds()
	srcW, srcH := b.Dx(), b.Dy()
	if srcW <= side && srcH <= side || srcW <= 0 || srcH <= 0 {
		return imaging.Fit(img, side, side, imaging.Linear)
	}
	var dstW, dstH int
	if float64(srcW)/float64(srcH) > 1 { // imaging.Fit's arithmetic, for a square box
		dstW, dstH = side, int(float64(side)/(float64(srcW)/float64(srcH)))
	} else {
		dstH, dstW = side, int(float64(side)*(float64(srcW)/float64(srcH)))
	}
	if dstW < 1 || dstH < 1 {
		return imaging.Fit(img, side, side, imaging.Linear)
	}
	var pix []byte
	var stride, n int
	switch m := img.(type) {
	case *image.NRGBA:
		if !opaque && !m.Opaque() {
			return imaging.Fit(img, side, side, imaging.Linear)
		}
		pix, stride, n = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, 4
	case *image.Gray:
		pix, stride, n = m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, 1
	default:
		return imaging.Fit(img, side, side, imaging.Linear)
	}
	dst := resample(pix, stride, n, srcW, srcH, dstW, dstH)
	r := image.Rect(0, 0, dstW, dstH)
	if n == 1 {
		return &image.Gray{Pix: dst, Stride: dstW, Rect: r}
	}
	return &image.NRGBA{Pix: dst, Stride: dstW * 4, Rect: r}
}

// resample resizes srcW×srcH pixels of n bytes (1: gray; 4: opaque RGBA), rows
// stride bytes apart, into dstW×dstH: horizontally with linearWeights, then
// vertically, as imaging does. Where libjpeg-turbo is built in (cgo) it runs in C
// (resampleC: the same arithmetic, so the same bytes, several times faster);
// otherwise in Go.
func resample(pix []byte, stride, n, srcW, srcH, dstW, dstH int) []byte {
	hw, vw := linearWeights(dstW, srcW), linearWeights(dstH, srcH)
	if dst := resampleC(pix, stride, n, srcW, srcH, dstW, dstH, hw, vw); dst != nil {
		return dst
	}
	return resampleGo(pix, stride, n, srcW, srcH, dstW, dstH, hw, vw)
}

// resampleGo is resample in Go.
func resampleGo(pix []byte, stride, n, srcW, srcH, dstW, dstH int, hw, vw resampling) []byte {
	// Horizontally into dstW×srcH, then vertically into dstW×dstH, as imaging does.
	mid := make([]byte, dstW*srcH*n)
	for y := 0; y < srcH; y++ {
		row, out := pix[y*stride:], mid[y*dstW*n:(y+1)*dstW*n]
		if n == 1 {
			for x, ws := range hw.taps {
				s := row[hw.first[x]:][:len(ws)]
				var acc int32
				for k, w := range ws {
					acc += w * int32(s[k])
				}
				out[x] = roundWeight(acc)
			}
			continue
		}
		for x, ws := range hw.taps {
			s := row[hw.first[x]*4:][:len(ws)*4]
			var r, g, b int32
			for k, w := range ws {
				p := s[k*4 : k*4+3 : k*4+3]
				r += w * int32(p[0])
				g += w * int32(p[1])
				b += w * int32(p[2])
			}
			o := out[x*4 : x*4+4 : x*4+4]
			o[0], o[1], o[2], o[3] = roundWeight(r), roundWeight(g), roundWeight(b), 255 // opaque
		}
	}
	dst := make([]byte, dstW*dstH*n)
	acc := make([]int32, dstW*n)
	for y, ws := range vw.taps {
		clear(acc)
		for k, w := range ws {
			row := mid[(vw.first[y]+k)*dstW*n:][:dstW*n]
			for i, v := range row {
				acc[i] += w * int32(v)
			}
		}
		out := dst[y*dstW*n:][:dstW*n]
		for i, a := range acc {
			out[i] = roundWeight(a)
		}
	}
	return dst
}

// weightBits is the fixed-point precision of the filter weights.
const weightBits = 14

// resampling is, for each destination pixel along one axis, the first source pixel
// it reads and the weights of that pixel and the following ones.
type resampling struct {
	first []int
	taps  [][]int32
}

// linearWeights are imaging's weights for its Linear (triangle) filter from
// srcSize to dstSize pixels (imaging's precomputeWeights), in fixed point, each
// pixel's summing to exactly 1<<weightBits.
func linearWeights(dstSize, srcSize int) resampling {
	du := float64(srcSize) / float64(dstSize)
	scale := max(du, 1)
	ru := math.Ceil(scale) // the Linear filter's support is 1
	r := resampling{first: make([]int, dstSize), taps: make([][]int32, dstSize)}
	for v := 0; v < dstSize; v++ {
		fu := (float64(v)+0.5)*du - 0.5
		begin := max(int(math.Ceil(fu-ru)), 0)
		end := min(int(math.Floor(fu+ru)), srcSize-1)
		fw := make([]float64, 0, end-begin+1)
		var sum float64
		for u := begin; u <= end; u++ {
			x := math.Abs((float64(u) - fu) / scale)
			w := 0.0
			if x < 1 {
				w = 1 - x
			}
			fw = append(fw, w)
			sum += w
		}
		ws := make([]int32, len(fw))
		var total, big int32
		for i, w := range fw {
			ws[i] = int32(math.Round(w / sum * (1 << weightBits)))
			total += ws[i]
			if ws[i] > ws[big] {
				big = int32(i)
			}
		}
		ws[big] += 1<<weightBits - total // the rounding's remainder
		r.first[v], r.taps[v] = begin, ws
	}
	return r
}

// roundWeight is a fixed-point sum of weighted 8-bit values, rounded and clamped.
func roundWeight(acc int32) uint8 {
	v := (acc + 1<<(weightBits-1)) >> weightBits
	return uint8(min(max(v, 0), 255))
}
