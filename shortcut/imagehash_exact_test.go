package shortcut

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/corona10/goimagehash/etcs"
	"github.com/corona10/goimagehash/transforms"
)

// TestImageHashIsUnchanged: ImageHash's hashes are those the import stored before
// its speed-ups (refImageHash, below, is that code as it was at 605a0d0), bit for
// bit, on every image type the import and the audit hash (NRGBA thumbnails,
// opaque or not; YCbCr decoded from the files; grey; others through At), at
// sizes where the shrink's taps are clamped at both ends, below and above 64
// pixels, and on sub-images whose bounds do not start at 0 (and the 64×64 grey
// picture they are computed from, equal too): a stored hash is
// compared with hashes computed later.
func TestImageHashIsUnchanged(t *testing.T) {
	var pics []image.Image
	sizes := [][2]int{{1, 1}, {2, 3}, {7, 200}, {63, 64}, {64, 64}, {65, 63}, {129, 97}, {256, 192}, {192, 256}, {256, 256}, {255, 171}, {640, 480}}
	for i, s := range sizes {
		seed := uint64(i)
		p := photoLike(seed, s[0], s[1])
		pics = append(pics, p, reencode(t, p, 85), toGray(p), toRGBA(p), withAlpha(p, seed), layoutAlike(seed, max(s[0], 8), max(s[1], 8)))
		if s[0] > 4 && s[1] > 4 {
			pics = append(pics, p.SubImage(image.Rect(1, 2, s[0]-1, s[1]-2)))
		}
	}
	flatPic := image.NewNRGBA(image.Rect(0, 0, 300, 200))
	for i := range flatPic.Pix {
		flatPic.Pix[i] = 180
	}
	pics = append(pics, flatPic, reencode(t, flatPic, 75))
	var zero int
	for i, pic := range pics {
		want, werr := refImageHash(pic)
		got, gerr := ImageHash(pic)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("picture %d (%T, %v): %016x, %v; before: %016x, %v", i, pic, pic.Bounds(), got, gerr, want, werr)
		}
		if want == 0 {
			zero++
			continue
		}
		// The grey picture the DCT takes, bit for bit: a hash may hide a change.
		if got, want := shrinkGrey64(pic), refShrinkGrey64(pic); !slices.Equal(got, want) {
			at := 0
			for at < len(got) && got[at] == want[at] {
				at++
			}
			t.Errorf("picture %d (%T, %v): grey value %d of %d is %v, was %v", i, pic, pic.Bounds(), at, len(got), got[at], want[at])
		}
	}
	if zero*8 > len(pics) {
		t.Errorf("%d of %d pictures hash 0: too few hashes compared", zero, len(pics))
	}
}

func toGray(img image.Image) *image.Gray { return redraw(img, image.NewGray(img.Bounds())) }

func toRGBA(img image.Image) *image.RGBA { return redraw(img, image.NewRGBA(img.Bounds())) }

// redraw sets every pixel of dst (of img's bounds) to img's, converted by dst's model.
func redraw[T draw.Image](img image.Image, dst T) T {
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			dst.Set(x, y, img.At(x, y))
		}
	}
	return dst
}

// withAlpha is a copy of img with random opacity in a third of its pixels.
func withAlpha(img *image.NRGBA, seed uint64) *image.NRGBA {
	r := rand.New(rand.NewPCG(seed, 5))
	out := image.NewNRGBA(img.Bounds())
	copy(out.Pix, img.Pix)
	for i := 3; i < len(out.Pix); i += 4 {
		if r.IntN(3) == 0 {
			out.Pix[i] = uint8(r.IntN(256))
		}
	}
	return out
}

// BenchmarkImageHash hashes a thumbnail as the import makes it (NRGBA, 256×192).
func BenchmarkImageHash(b *testing.B) {
	p := photoLike(3, 256, 192)
	for b.Loop() {
		if _, err := ImageHash(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImageHashBefore is refImageHash, the code before the speed-ups, on the same thumbnail.
func BenchmarkImageHashBefore(b *testing.B) {
	p := photoLike(3, 256, 192)
	for b.Loop() {
		if _, err := refImageHash(p); err != nil {
			b.Fatal(err)
		}
	}
}

func refImageHash(img image.Image) (uint64, error) {
	if img == nil || img.Bounds().Empty() {
		return 0, fmt.Errorf("perceptual hash: empty image")
	}
	if refFlat(img) {
		return 0, nil
	}
	pixels := refShrinkGrey64(img)
	transforms.DCT2DFast64(&pixels)
	flattens := transforms.FlattenPixelsFast64(pixels, 8, 8)
	median := etcs.MedianOfPixelsFast64(flattens)
	var h uint64
	for idx, p := range flattens {
		if p > median {
			h |= 1 << uint(64-idx-1)
		}
	}
	return h, nil
}

// shrinkGrey64 is img in grey (goimagehash's weights: 0.299 R + 0.587 G + 0.114 B,
// of 8-bit channels) shrunk to hashSide×hashSide by nfnt/resize's bilinear filter:
// each row turned grey and shrunk, then the columns.
func refShrinkGrey64(img image.Image) []float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	lum := func(r, g, bl uint32) float64 {
		return 0.299*float64(r/257) + 0.587*float64(g/257) + 0.114*float64(bl/256)
	}
	grey := make([]float64, w)
	greyRow := func(y int) {
		switch m := img.(type) {
		case *image.NRGBA:
			row := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			for x := range grey {
				p := row[4*x : 4*x+4 : 4*x+4]
				if a := uint32(p[3]); a == 0xff { // opaque: the 16-bit channel over 257 is the byte
					grey[x] = refLumR[p[0]] + refLumG[p[1]] + refLumB[p[2]]
				} else { // color.NRGBA.RGBA: premultiplied, 16 bits
					grey[x] = lum(uint32(p[0])*0x101*a/0xff, uint32(p[1])*0x101*a/0xff, uint32(p[2])*0x101*a/0xff)
				}
			}
		case *image.YCbCr:
			for x := range grey {
				yi, ci := m.YOffset(b.Min.X+x, b.Min.Y+y), m.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bl, _ := color.YCbCr{Y: m.Y[yi], Cb: m.Cb[ci], Cr: m.Cr[ci]}.RGBA()
				grey[x] = lum(r, g, bl)
			}
		default:
			for x := range grey {
				r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				grey[x] = lum(r, g, bl)
			}
		}
	}
	cols, rows := refBilinearTaps(hashSide, w), refBilinearTaps(hashSide, h)
	tmp := make([]float64, hashSide*h)
	for y := range h {
		greyRow(y)
		for x, t := range cols {
			var sum float64
			for k, i := range t.at {
				sum += t.w[k] * grey[i]
			}
			tmp[y*hashSide+x] = sum
		}
	}
	out := make([]float64, hashSide*hashSide)
	for y, t := range rows {
		for x := range hashSide {
			var sum float64
			for k, i := range t.at {
				sum += t.w[k] * tmp[i*hashSide+x]
			}
			out[y*hashSide+x] = sum
		}
	}
	return out
}

// lumR, lumG, lumB are goimagehash's grey weights times each 8-bit value (of an
// opaque pixel: B's 16 bits over 256 are its byte too).
var refLumR, refLumG, refLumB = func() (r, g, b [256]float64) {
	for v := range 256 {
		r[v], g[v], b[v] = 0.299*float64(v), 0.587*float64(v), 0.114*float64(v)
	}
	return
}()

// taps are the samples one output sample of a resize weighs (clamped to the
// input's ends) and their weights, summing to 1.
type refTaps struct {
	at []int
	w  []float64
}

// bilinearTaps are nfnt/resize's weights (createWeights16, in float64, normalised)
// of a resize from src to dst samples with its linear kernel.
func refBilinearTaps(dst, src int) []refTaps {
	scale := float64(src) / float64(dst)
	n := 2 * int(math.Max(math.Ceil(scale), 1))
	factor := math.Min(1/scale, 1)
	out := make([]refTaps, dst)
	for i := range out {
		at := scale*(float64(i)+0.5) - 0.5
		start := int(at) - n/2 + 1
		at -= float64(start)
		var t refTaps
		var sum float64
		for k := range n {
			if v := math.Abs((at - float64(k)) * factor); v < 1 {
				t.at = append(t.at, min(max(start+k, 0), src-1))
				t.w = append(t.w, 1-v)
				sum += 1 - v
			}
		}
		for k := range t.w {
			t.w[k] /= sum
		}
		out[i] = t
	}
	return out
}

// flat reports whether img's brightness hardly varies, sampled on a grid of at
// most 64×64 points.
func refFlat(img image.Image) bool {
	b := img.Bounds()
	sx, sy := max(1, b.Dx()/64), max(1, b.Dy()/64)
	var n, sum, sq float64
	for y := b.Min.Y; y < b.Max.Y; y += sy {
		for x := b.Min.X; x < b.Max.X; x += sx {
			var v float64
			if yc, ok := img.(*image.YCbCr); ok {
				v = float64(yc.Y[yc.YOffset(x, y)])
			} else {
				v = float64(color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)
			}
			n++
			sum += v
			sq += v * v
		}
	}
	if n == 0 {
		return true
	}
	mean := sum / n
	return sq/n-mean*mean < flatLevels*flatLevels
}

// TestFlatGreyIsGrayModel: flatGrey's grey of an NRGBA pixel, opaque or not, on a
// sub-image too, is color.GrayModel's, which it spares the interface of.
func TestFlatGreyIsGrayModel(t *testing.T) {
	p := withAlpha(photoLike(9, 40, 30), 9)
	for i := range 256 { // every opacity and every channel value
		p.Pix[4*i], p.Pix[4*i+1], p.Pix[4*i+2], p.Pix[4*i+3] = uint8(i), uint8(255-i), uint8(i*7), uint8(i)
	}
	for _, img := range []image.Image{p, p.SubImage(image.Rect(3, 4, 37, 29))} {
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				want := float64(color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)
				if got := flatGrey(img, x, y); got != want {
					t.Fatalf("%v at (%d, %d): grey %v, color.GrayModel %v", img.At(x, y), x, y, got, want)
				}
			}
		}
	}
}

// TestFlatIsUnchanged: flat decides as before (refFlat) on pictures whose
// brightness varies about as much as its threshold, so that a point sampled
// differently would change some decisions; NRGBA opaque and not, on sub-images.
func TestFlatIsUnchanged(t *testing.T) {
	var flats, n int
	for level := range 60 {
		r := rand.New(rand.NewPCG(uint64(level), 3))
		p := image.NewNRGBA(image.Rect(0, 0, 299, 203))
		for i := 0; i < len(p.Pix); i += 4 {
			v := 120 + r.IntN(level/4+1) // spread grows with level: about the threshold at the middle
			p.Pix[i], p.Pix[i+1], p.Pix[i+2], p.Pix[i+3] = uint8(v), uint8(v+r.IntN(3)), uint8(v), uint8(255-r.IntN(level%3+1)*(level%2))
		}
		for _, img := range []image.Image{p, p.SubImage(image.Rect(5, 7, 290, 200)), toRGBA(p)} {
			n++
			got, want := flat(img), refFlat(img)
			if got != want {
				t.Errorf("level %d, %T %v: flat %v, before %v", level, img, img.Bounds(), got, want)
			}
			if want {
				flats++
			}
		}
	}
	// Brightness that varies only at the points flat samples (every 4th column
	// and 3rd row of 299×203 from the bounds' corner): flat sees it all, or none
	// of it on a grid one pixel off.
	for k := range 8 {
		p := image.NewNRGBA(image.Rect(0, 0, 299, 203))
		for y := range 203 {
			for x := range 299 {
				v := 120
				if x%4 == 0 && y%3 == 0 {
					v += k * ((x*7 + y*13) % 5)
				}
				i := p.PixOffset(x, y)
				p.Pix[i], p.Pix[i+1], p.Pix[i+2], p.Pix[i+3] = uint8(v), uint8(v), uint8(v), 255
			}
		}
		for _, img := range []image.Image{p, toRGBA(p)} {
			n++
			got, want := flat(img), refFlat(img)
			if got != want {
				t.Errorf("grid pattern %d, %T: flat %v, before %v", k, img, got, want)
			}
			if want {
				flats++
			}
		}
	}
	if flats == 0 || flats == n {
		t.Errorf("%d of %d pictures flat: the threshold is not crossed", flats, n)
	}
}
