package shortcut

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/corona10/goimagehash/etcs"
	"github.com/corona10/goimagehash/transforms"
	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/annotate"
)

// CheckNearDuplicateImage is check 5's stable name (bwctl audit, bwctl shortcuts --json).
const CheckNearDuplicateImage = "near-duplicate-image"

// DefaultNearDistance is the largest Hamming distance between two images'
// perceptual hashes (of 64 bits) at which they are taken for the same picture.
// It is a heuristic: two photographs of one scene from nearly the same place can
// hash closer than that, and a copy cropped by more than a few per cent further.
// Measured on generated photo-like pictures (TestImageHashKeepsCopiesClose):
// resized and re-encoded copies come within 2, a 1 % crop within 6, unrelated
// pictures no closer than 22. Pictures sharing one layout are rarely closer than
// 10 (none of 80,000 pairs of synth's generated scenes, 39 of 8 million), and
// Alike refutes those on their thumbnails.
const DefaultNearDistance = 8

// ImageHash is an image's 64-bit perceptual hash: goimagehash's pHash (the image
// shrunk to 64×64 grey pixels, its 8×8 lowest DCT frequencies, a bit per
// coefficient above their median), computed by the import from the thumbnail it
// makes. A flat picture (its brightness varies by less than flatLevels) has no
// structure to compare: its hash is 0, which NearDuplicates leaves out (every
// blank picture would otherwise be a near-duplicate of every other).
//
// Why pHash, of goimagehash's three 64-bit hashes (TestImageHashKeepsCopiesClose
// keeps the measurements): resized and re-encoded copies stay within 2-3 bits
// under all three, and unrelated pictures are 16 or more bits apart; but pictures
// that share a layout — the same background gradient, as a room's photographs
// share a bright top and a dark floor, with different objects on it — come
// within 8 bits of each other in 8 % of pairs under aHash (average) and 2 % under
// dHash (difference), in 5 of a million under pHash, whose median over DCT coefficients
// discounts the shared low frequencies. A near-duplicate across splits blocks a
// freeze, so false pairs cost more than missed ones: pHash. Its price: a copy
// cropped by 2-3 % moves 10-12 bits (aHash: 7) and is missed at the default.
//
// It computes goimagehash.PerceptionHash's steps itself on grey values (issue 29:
// hashing must add less than 15 % to an import): the picture turned grey with
// PerceptionHash's weights first, then shrunk to 64×64 with the bilinear (triangle)
// filter of nfnt/resize that PerceptionHash uses, in float64 — grey then shrink
// equals shrink then grey but for rounding, a third of the work and no goroutines
// nor 64-bit colour copies. Its hashes may differ from PerceptionHash's by a bit
// where a coefficient lies at the median (TestImageHashNearPerceptionHash).
func ImageHash(img image.Image) (uint64, error) {
	if img == nil || img.Bounds().Empty() {
		return 0, fmt.Errorf("perceptual hash: empty image")
	}
	if flat(img) {
		return 0, nil
	}
	buf := hashBufPool.Get().(*hashBuf)
	defer hashBufPool.Put(buf)
	pixels := buf.shrinkGrey64(img)
	flattens := lowDCT8(pixels)
	median := etcs.MedianOfPixelsFast64(flattens[:])
	var h uint64
	for idx, p := range flattens {
		if p > median {
			h |= 1 << uint(64-idx-1)
		}
	}
	return h, nil
}

// lowDCT8 is transforms.DCT2DFast64 of pixels (hashSide×hashSide, by rows) cut
// to its 8×8 lowest frequencies as transforms.FlattenPixelsFast64 cuts it: the
// same transforms of every row, then of the 8 columns kept, the other 56 not
// transformed. pixels is transformed in place, by rows.
func lowDCT8(pixels []float64) [64]float64 {
	for r := range hashSide {
		transforms.DCT1DFast64(pixels[r*hashSide : (r+1)*hashSide])
	}
	var low [64]float64
	for c := range 8 {
		var col [hashSide]float64
		for r := range col {
			col[r] = pixels[c+r*hashSide]
		}
		transforms.DCT1DFast64(col[:])
		for r := range 8 {
			low[8*r+c] = col[r]
		}
	}
	return low
}

// hashSide is the side of the grey picture pHash transforms.
const hashSide = 64

// shrinkGrey64 is img in grey (goimagehash's weights: 0.299 R + 0.587 G + 0.114 B,
// of 8-bit channels) shrunk to hashSide×hashSide by nfnt/resize's bilinear filter:
// each row turned grey and shrunk, then the columns.
func shrinkGrey64(img image.Image) []float64 { return new(hashBuf).shrinkGrey64(img) }

// hashBuf is the memory one ImageHash works in: the picture's grey row, its
// rows shrunk, the grey picture. Every value is written before it is read.
type hashBuf struct{ grey, tmp, out []float64 }

// hashBufPool keeps hashBufs between hashes: an import hashes thousands of
// thumbnails, 130 kB of buffers each.
var hashBufPool = sync.Pool{New: func() any { return new(hashBuf) }}

// grow returns s with length n, reusing its memory when it has room.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// shrinkGrey64 is shrinkGrey64 in buf's memory; the result is buf's until its next use.
func (buf *hashBuf) shrinkGrey64(img image.Image) []float64 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	lum := func(r, g, bl uint32) float64 {
		return 0.299*float64(r/257) + 0.587*float64(g/257) + 0.114*float64(bl/256)
	}
	buf.grey = grow(buf.grey, w)
	grey := buf.grey
	greyRow := func(y int) {
		switch m := img.(type) {
		case *image.NRGBA:
			greyNRGBA(grey, m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):][:4*len(grey)])
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
	cols, rows := bilinearTapsOf(w), bilinearTapsOf(h)
	buf.tmp = grow(buf.tmp, hashSide*h)
	tmp := buf.tmp
	for y := range h {
		greyRow(y)
		// Each output sample sums its taps in their order, a tap of every sample
		// at a time: the same additions as one sample at a time, without one
		// long chain of dependent additions. The first tap is set (0 + a is a:
		// nothing here is negative) and the padding adds +0, which changes nothing.
		line := tmp[y*hashSide:][:hashSide]
		at, w0 := cols.at[:hashSide], cols.w[:hashSide]
		for x := range line {
			line[x] = w0[x] * grey[at[x]]
		}
		for k := 1; k < cols.n; k++ {
			at, wk := cols.at[k*hashSide:][:hashSide], cols.w[k*hashSide:][:hashSide]
			for x := range line {
				line[x] += wk[x] * grey[at[x]]
			}
		}
	}
	// Each output row sums its taps' rows in the taps' order, a row at a time: for
	// every output sample the same additions in the same order as one sample at a
	// time, over rows in place of a column read with a stride.
	buf.out = grow(buf.out, hashSide*hashSide)
	out := buf.out
	for y, t := range rows.taps {
		acc := out[y*hashSide:][:hashSide]
		for k, wk := range t.w {
			i := t.start + k
			if t.at != nil {
				i = t.at[k]
			}
			src := tmp[i*hashSide:][:hashSide]
			if k == 0 {
				for x := range acc {
					acc[x] = wk * src[x]
				}
				continue
			}
			for x := range acc {
				acc[x] += wk * src[x]
			}
		}
		if len(t.w) == 0 {
			clear(acc)
		}
	}
	return out
}

// greyNRGBA turns px, NRGBA pixels, grey into dst (as many): goimagehash's
// weights of color.NRGBA.RGBA's 16-bit channels.
func greyNRGBA(dst []float64, px []uint8) {
	for x := range dst {
		if len(px) < 4 {
			return // never: px holds len(dst) pixels
		}
		r, g, b, a := px[0], px[1], px[2], px[3]
		px = px[4:]
		if a == 0xff { // opaque: the 16-bit channel over 257 is the byte
			dst[x] = lumR[r] + lumG[g] + lumB[b]
			continue
		}
		// premultiplied, 16 bits
		a32 := uint32(a)
		r16, g16, b16 := uint32(r)*0x101*a32/0xff, uint32(g)*0x101*a32/0xff, uint32(b)*0x101*a32/0xff
		dst[x] = 0.299*float64(r16/257) + 0.587*float64(g16/257) + 0.114*float64(b16/256)
	}
}

// lumR, lumG, lumB are goimagehash's grey weights times each 8-bit value (of an
// opaque pixel: B's 16 bits over 256 are its byte too).
var lumR, lumG, lumB = func() (r, g, b [256]float64) {
	for v := range 256 {
		r[v], g[v], b[v] = 0.299*float64(v), 0.587*float64(v), 0.114*float64(v)
	}
	return
}()

// taps are the samples one output sample of a resize weighs (clamped to the
// input's ends) and their weights, summing to 1.
type taps struct {
	start int   // the first sample weighed
	at    []int // every sample weighed; nil when they are start, start+1, …
	w     []float64
}

// bilinearTaps are nfnt/resize's weights (createWeights16, in float64, normalised)
// of a resize from src to dst samples with its linear kernel.
func bilinearTaps(dst, src int) []taps {
	scale := float64(src) / float64(dst)
	n := 2 * int(math.Max(math.Ceil(scale), 1))
	factor := math.Min(1/scale, 1)
	out := make([]taps, dst)
	for i := range out {
		at := scale*(float64(i)+0.5) - 0.5
		start := int(at) - n/2 + 1
		at -= float64(start)
		var t taps
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
		if len(t.at) > 0 {
			t.start = t.at[0]
		}
		if contiguous(t.at) {
			t.at = nil
		}
		out[i] = t
	}
	return out
}

// contiguous reports whether at is at[0], at[0]+1, … (or empty).
func contiguous(at []int) bool {
	for k, a := range at {
		if a != at[0]+k {
			return false
		}
	}
	return true
}

// resizePlan is a resize's taps to hashSide samples (bilinearTaps), and the same
// by tap: at[k*hashSide+x] is output x's k-th sample and w its weight; an output
// with fewer than n taps is padded with its last sample, weighing 0.
type resizePlan struct {
	taps []taps
	n    int
	at   []int32
	w    []float64
}

func newResizePlan(src int) *resizePlan {
	p := &resizePlan{taps: bilinearTaps(hashSide, src)}
	for _, t := range p.taps {
		p.n = max(p.n, len(t.w))
	}
	p.at, p.w = make([]int32, p.n*hashSide), make([]float64, p.n*hashSide)
	for x, t := range p.taps {
		last := 0
		for k := range p.n {
			if k < len(t.w) {
				last = t.start + k
				if t.at != nil {
					last = t.at[k]
				}
				p.w[k*hashSide+x] = t.w[k]
			}
			p.at[k*hashSide+x] = int32(last)
		}
	}
	return p
}

// tapsCache holds newResizePlan(n) by n: the thumbnails an import hashes come in
// a few sizes (256 pixels on their longer side).
var tapsCache sync.Map // int → *resizePlan

// bilinearTapsOf is newResizePlan(n), computed once per n. Plans are only read.
func bilinearTapsOf(n int) *resizePlan {
	if t, ok := tapsCache.Load(n); ok {
		return t.(*resizePlan)
	}
	t := newResizePlan(n)
	if n <= 256 { // the thumbnails' sizes (imagefile.ThumbSide); a picture hashed whole is not kept
		tapsCache.Store(n, t)
	}
	return t
}

// flatLevels is the brightness spread (standard deviation, of 255) below which a
// picture is flat: a blank page, a uniform test image, a JPEG's noise on one.
const flatLevels = 3

// flat reports whether img's brightness hardly varies, sampled on a grid of at
// most 64×64 points.
func flat(img image.Image) bool {
	b := img.Bounds()
	sx, sy := max(1, b.Dx()/64), max(1, b.Dy()/64)
	// In integers: the sums of integer values a float64 held exactly, the same.
	var n, sum, sq int64
	if m, ok := img.(*image.NRGBA); ok {
		for y := b.Min.Y; y < b.Max.Y; y += sy {
			row := m.Pix[m.PixOffset(b.Min.X, y):][:4*b.Dx()]
			for i := 0; i < len(row); i += 4 * sx {
				v := int64(nrgbaGrey(row[i:]))
				n, sum, sq = n+1, sum+v, sq+v*v
			}
		}
	} else {
		for y := b.Min.Y; y < b.Max.Y; y += sy {
			for x := b.Min.X; x < b.Max.X; x += sx {
				v := int64(flatGrey(img, x, y))
				n, sum, sq = n+1, sum+v, sq+v*v
			}
		}
	}
	if n == 0 {
		return true
	}
	mean := float64(sum) / float64(n)
	return float64(sq)/float64(n)-mean*mean < flatLevels*flatLevels
}

// flatGrey is the brightness flat samples at (x, y): a YCbCr picture's Y, else
// color.GrayModel's grey.
func flatGrey(img image.Image, x, y int) float64 {
	switch m := img.(type) {
	case *image.YCbCr:
		return float64(m.Y[m.YOffset(x, y)])
	case *image.NRGBA:
		return float64(nrgbaGrey(m.Pix[m.PixOffset(x, y):]))
	}
	return float64(color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y)
}

// nrgbaGrey is color.GrayModel's grey of the NRGBA pixel p starts with, its
// arithmetic without At's interface.
func nrgbaGrey(p []uint8) uint8 {
	p = p[:4]
	r, g, b, a := uint32(p[0]), uint32(p[1]), uint32(p[2]), uint32(p[3])
	r, g, b = (r|r<<8)*a/0xff, (g|g<<8)*a/0xff, (b|b<<8)*a/0xff // color.NRGBA.RGBA
	return uint8((19595*r + 38470*g + 7471*b + 1<<15) >> 24)
}

// Distance is the Hamming distance between two hashes: how many of their 64 bits differ.
func Distance(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// Pair is two hashes within the distance NearPairs was given: indexes into its
// slice, A < B.
type Pair struct {
	A, B     int
	Distance int
}

// bands is how many 16-bit bands a hash is cut into for NearPairs' index.
const bands = 4

// NearPairs returns every pair of hashes at most maxDist apart, by A then B.
//
// Multi-index hashing (Norouzi et al.): two hashes at most maxDist apart differ in
// at most maxDist/4 bits in one of their four 16-bit bands (pigeonhole), so each
// hash looks up, in each band's table, the values within that radius of its own
// band; the full distance decides. A pair is kept from the first band in which it
// is within the radius, so it is found once. On 100,000 random hashes with
// maxDist 8 this looks at ~0.1 % of the pairs brute force compares
// (BenchmarkNearPairs). When enumerating the radius costs more than comparing
// with everyone — each band visits its 65,536 buckets once per offset within the
// radius, 4 × 137 × 65,536 ≈ 36 million steps at maxDist 8, as many as brute force's
// n²/2 comparisons at n ≈ 8,500 — it compares every pair (measured at 2,000
// hashes, in one run on a busy machine: the index 0.68 s, every pair 0.03 s).
func NearPairs(hashes []uint64, maxDist int) []Pair {
	n := len(hashes)
	if n < 2 || maxDist < 0 {
		return nil
	}
	if maxDist >= 64 || n*(n-1)/2 <= bands*len(bandMasks(maxDist/bands))<<16 {
		return bruteNearPairs(hashes, maxDist)
	}
	return indexNearPairs(hashes, maxDist)
}

// indexNearPairs is NearPairs by the multi-index, whatever the number of hashes;
// maxDist is 0 to 63.
func indexNearPairs(hashes []uint64, maxDist int) []Pair {
	r := maxDist / bands
	masks := bandMasks(r)
	// Per band, the hashes sorted by the band's value (a counting sort): start[v]
	// is the first of value v. Each offset m within the radius joins bucket v with
	// bucket v^m, v ascending, so the buckets and the hashes (copied in bucket
	// order) are read nearly in sequence: looking each hash's neighbours up one by
	// one instead missed the cache on every probe, five times slower. The bands
	// run on their own goroutines.
	var found [bands][]Pair
	var wg sync.WaitGroup
	for b := range bands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[b] = bandPairs(hashes, b, r, maxDist, masks)
		}()
	}
	wg.Wait()
	out := slices.Concat(found[:]...)
	slices.SortFunc(out, func(p, q Pair) int { return cmp.Or(cmp.Compare(p.A, q.A), cmp.Compare(p.B, q.B)) })
	return out
}

// bandPairs is NearPairs' search in band b: the pairs within radius r in it (and
// in no band before it) and within maxDist in all.
func bandPairs(hashes []uint64, b, r, maxDist int, masks []uint32) []Pair {
	n := len(hashes)
	var out []Pair
	start := make([]int32, 1<<16+1)
	ix := make([]int32, n)
	sorted := make([]uint64, n)
	for _, h := range hashes {
		start[band(h, b)+1]++
	}
	for v := 1; v < len(start); v++ {
		start[v] += start[v-1]
	}
	fill := slices.Clone(start[:1<<16])
	for i, h := range hashes {
		v := band(h, b)
		ix[fill[v]] = int32(i)
		sorted[fill[v]] = h
		fill[v]++
	}
	for _, m := range masks {
		for v := range uint32(1 << 16) {
			w := v ^ m
			if w < v || start[v] == start[v+1] {
				continue // each pair of buckets once
			}
			for k := start[v]; k < start[v+1]; k++ {
				from := start[w]
				if w == v {
					from = k + 1
				}
				for l := from; l < start[w+1]; l++ {
					x := sorted[k] ^ sorted[l]
					if d := bits.OnesCount64(x); d <= maxDist && !foundEarlier(x, b, r) {
						i, j := int(ix[k]), int(ix[l])
						out = append(out, Pair{min(i, j), max(i, j), d})
					}
				}
			}
		}
	}
	return out
}

// band is the b-th 16-bit band of h.
func band(h uint64, b int) uint32 { return uint32(h>>(16*b)) & 0xffff }

// foundEarlier reports whether a pair whose hashes differ in x is within radius r
// in a band before b, where NearPairs found it already.
func foundEarlier(x uint64, b, r int) bool {
	for e := range b {
		if bits.OnesCount32(band(x, e)) <= r {
			return true
		}
	}
	return false
}

// bandMasks lists the 16-bit values of at most r set bits: the offsets to a band
// value within radius r.
func bandMasks(r int) []uint32 {
	var out []uint32
	for m := range uint32(1 << 16) {
		if bits.OnesCount32(m) <= r {
			out = append(out, m)
		}
	}
	return out
}

// bruteNearPairs compares every pair: NearPairs' reference and its floor.
func bruteNearPairs(hashes []uint64, maxDist int) []Pair {
	var out []Pair
	for i, h := range hashes {
		for j := i + 1; j < len(hashes); j++ {
			if d := bits.OnesCount64(h ^ hashes[j]); d <= maxDist {
				out = append(out, Pair{i, j, d})
			}
		}
	}
	return out
}

// NearDuplicate is two images whose perceptual hashes are within the distance,
// with where their samples are.
type NearDuplicate struct {
	A, B     string // image names (paths in the project), A < B
	Distance int
	// SamplesA and SamplesB are the samples showing A and B (sorted); SplitsA and
	// SplitsB their splits (sorted; samples without a split add none).
	SamplesA, SamplesB []string
	SplitsA, SplitsB   []string
	// Cross: the two images are in different splits (one has samples in a split
	// the other's samples are not all in): what a model could have trained on is
	// in the test. An error that blocks a freeze; otherwise a warning.
	Cross bool
}

// Hashed lists the images of candidates that have a hash other than a flat
// picture's (0), sorted, and their hashes in that order: what NearPairs pairs.
func Hashed[V any](candidates map[string]V, hashes map[string]uint64) (names []string, hs []uint64) {
	for img := range candidates {
		if h, ok := hashes[img]; ok && h != 0 {
			names = append(names, img)
		}
	}
	slices.Sort(names)
	hs = make([]uint64, len(names))
	for i, img := range names {
		hs[i] = hashes[img]
	}
	return names, hs
}

// NearDuplicates finds the pairs of images of samples whose hashes (image name →
// hash; images without one, or whose hash is 0, a flat picture's, are left out)
// are at most maxDist apart. Two images
// shown only together, by exactly the same samples (the frames of one video in
// one sequence), are no pair: nothing of one can leak to a sample of the other.
// Sorted by A, then B.
func NearDuplicates(samples []annotate.Sample, hashes map[string]uint64, maxDist int) []NearDuplicate {
	users := map[string][]int{} // image → samples showing it (indexes)
	for i, s := range samples {
		for _, img := range s.AllImages() {
			if img == "" {
				continue
			}
			if u := users[img]; len(u) == 0 || u[len(u)-1] != i {
				users[img] = append(u, i)
			}
		}
	}
	names, hs := Hashed(users, hashes)
	var out []NearDuplicate
	for _, p := range NearPairs(hs, maxDist) {
		a, b := names[p.A], names[p.B]
		if slices.Equal(users[a], users[b]) {
			continue
		}
		nd := NearDuplicate{A: a, B: b, Distance: p.Distance}
		nd.SamplesA, nd.SplitsA = whereShown(samples, users[a])
		nd.SamplesB, nd.SplitsB = whereShown(samples, users[b])
		nd.Cross = crosses(nd.SplitsA, nd.SplitsB)
		out = append(out, nd)
	}
	return out
}

// whereShown is the ids and the splits of the samples at indexes is, sorted.
func whereShown(samples []annotate.Sample, is []int) (ids, splits []string) {
	for _, i := range is {
		ids = append(ids, samples[i].ID)
		if sp := samples[i].Split; sp != "" && !slices.Contains(splits, sp) {
			splits = append(splits, sp)
		}
	}
	slices.Sort(ids)
	slices.Sort(splits)
	return ids, splits
}

// crosses reports whether two images' splits put them on two sides: a split of
// one differs from a split of the other.
func crosses(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x != y {
				return true
			}
		}
	}
	return false
}

// Describe says in words what a pair is: "a.jpg (train: s1) and b.jpg (test: s2)
// are 3 bits apart".
func (nd NearDuplicate) Describe() string {
	side := func(img string, ids, splits []string) string {
		where := strings.Join(ids, ", ")
		if len(splits) > 0 {
			where = strings.Join(splits, "+") + ": " + where
		}
		return fmt.Sprintf("%s (%s)", img, where)
	}
	return fmt.Sprintf("%s and %s look alike: their perceptual hashes are %d of 64 bits apart",
		side(nd.A, nd.SamplesA, nd.SplitsA), side(nd.B, nd.SamplesB, nd.SplitsB), nd.Distance)
}

// SameImages rewrites samples so that near-duplicate images read as one: every
// image of a group of near-duplicates (the pairs joined transitively) becomes the
// group's first name. Duplicate-question detection over the result
// (annotate.DuplicateQuestions) then also finds the same question asked about
// two near-duplicate images. Samples are copied when changed, never modified.
func SameImages(samples []annotate.Sample, pairs []NearDuplicate) []annotate.Sample {
	if len(pairs) == 0 {
		return samples
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	for _, p := range pairs {
		a, b := find(p.A), find(p.B)
		if a != b {
			parent[max(a, b)] = min(a, b) // the smaller name leads
		}
	}
	out := make([]annotate.Sample, len(samples))
	for i, s := range samples {
		out[i] = s
		if _, ok := parent[s.Image]; ok {
			out[i].Image = find(s.Image)
		}
		if len(s.MoreImages) > 0 {
			imgs := slices.Clone(s.MoreImages)
			for k, img := range imgs {
				imgs[k] = find(img)
			}
			out[i].MoreImages = imgs
		}
	}
	return out
}

// NearResults are check 5's results for bwctl shortcuts: per task, the pairs of
// near-duplicate images both shown by the task's samples. Figure is the number
// of pairs (Chance 0; CI the figure itself: a count, not an estimate); a finding
// when there is any, its samples those showing either image.
func NearResults(samples []annotate.Sample, pairs []NearDuplicate) []Result {
	byTask := map[string]map[string]bool{} // task → its samples' images
	ids := map[string]string{}             // sample id → task
	var tasks []string
	for _, s := range samples {
		t := taskOf(s)
		if byTask[t] == nil {
			byTask[t] = map[string]bool{}
			tasks = append(tasks, t)
		}
		ids[s.ID] = t
		for _, img := range s.AllImages() {
			byTask[t][img] = true
		}
	}
	slices.Sort(tasks)
	var out []Result
	for _, t := range tasks {
		r := Result{Check: CheckNearDuplicateImage, Task: t, N: len(byTask[t])}
		cross := 0
		for _, p := range pairs {
			if !byTask[t][p.A] || !byTask[t][p.B] {
				continue
			}
			r.Pairs = append(r.Pairs, p)
			if p.Cross {
				cross++
			}
			for _, id := range append(slices.Clone(p.SamplesA), p.SamplesB...) {
				if ids[id] == t && !slices.Contains(r.Samples, id) {
					r.Samples = append(r.Samples, id)
				}
			}
		}
		r.Figure = float64(len(r.Pairs))
		r.CI.Low, r.CI.High = r.Figure, r.Figure
		r.Finding = len(r.Pairs) > 0
		slices.Sort(r.Samples)
		r.Detail = fmt.Sprintf("%d pairs of near-duplicate images among %d images (%d across splits); perceptual hash, a heuristic", len(r.Pairs), r.N, cross)
		out = append(out, r)
	}
	return out
}

// confirmLevel is the least correlation of two pictures' detail that confirms a
// pair of hashes within the distance (Alike). Measured on generated pictures
// (TestAlikeConfirmsCopies): resized, re-encoded, brightened and 1 %-cropped
// copies correlate at 0.97 or more; pictures that only share a layout — which
// the hash alone pairs now and then: 39 of 8 million pairs of synth's generated
// scenes at distance 8 — at 0.4 or less, different pictures at 0.3 or less.
const confirmLevel = 0.8

// Alike confirms a candidate pair on the pictures themselves (the thumbnails):
// both shrunk to 32×32 grey pixels, less their local mean (a 9×9 box: what is
// left is the picture's detail, not its layout of light and dark), correlate at
// confirmLevel or more. A flat picture is alike nothing.
func Alike(a, b image.Image) bool {
	x, y := detail(a), detail(b)
	var sxy, sxx, syy float64
	for i := range x {
		sxy += x[i] * y[i]
		sxx += x[i] * x[i]
		syy += y[i] * y[i]
	}
	if sxx == 0 || syy == 0 {
		return false
	}
	return sxy/math.Sqrt(sxx*syy) >= confirmLevel
}

// detailSide is the side of the square Alike compares; detailRadius the
// radius of the box whose mean it takes away.
const (
	detailSide   = 32
	detailRadius = 4
)

// detail is img shrunk to detailSide² (whatever its shape), each pixel's
// brightness less the mean of the box around it, then less their mean.
func detail(img image.Image) []float64 {
	const n = detailSide
	small := imaging.Resize(img, n, n, imaging.Box)
	grey := make([]float64, n*n)
	for i := range grey {
		p := small.Pix[4*i : 4*i+3 : 4*i+3]
		grey[i] = 0.299*float64(p[0]) + 0.587*float64(p[1]) + 0.114*float64(p[2])
	}
	out := make([]float64, n*n)
	var mean float64
	for i := range n {
		for j := range n {
			var s, c float64
			for a := max(0, i-detailRadius); a <= min(n-1, i+detailRadius); a++ {
				for b := max(0, j-detailRadius); b <= min(n-1, j+detailRadius); b++ {
					s += grey[a*n+b]
					c++
				}
			}
			out[i*n+j] = grey[i*n+j] - s/c
			mean += out[i*n+j]
		}
	}
	mean /= n * n
	for i := range out {
		out[i] -= mean
	}
	return out
}
