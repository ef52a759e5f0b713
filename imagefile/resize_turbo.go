//go:build cgo && !windows && !nolibjpeg

package imagefile

/*
#cgo CFLAGS: -O3
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t bw_round(int32_t acc) {
	int32_t v = (acc + (1 << 13)) >> 14; // weightBits
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

// bw_hpass4 is one row of bw_resample's horizontal pass for 4 bytes a pixel
// (opaque RGBA): the three colours' sums of each destination pixel at once.
#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("sse4.1")))
static void bw_hpass4_sse41(const uint8_t *row, uint8_t *out, int dstW,
		const int32_t *hfirst, const int32_t *hcount, const int32_t *hoff, const int32_t *hw) {
	int x, k;
	const __m128i round = _mm_set1_epi32(1 << 13), lo = _mm_setzero_si128(), hi = _mm_set1_epi32(255);
	for (x = 0; x < dstW; x++) {
		const uint8_t *s = row + (size_t)hfirst[x] * 4;
		const int32_t *w = hw + hoff[x];
		__m128i a = _mm_setzero_si128();
		int32_t u;
		for (k = 0; k < hcount[x]; k++, s += 4) {
			memcpy(&u, s, 4);
			a = _mm_add_epi32(a, _mm_mullo_epi32(_mm_cvtepu8_epi32(_mm_cvtsi32_si128(u)), _mm_set1_epi32(w[k])));
		}
		a = _mm_min_epi32(_mm_max_epi32(_mm_srai_epi32(_mm_add_epi32(a, round), 14), lo), hi);
		a = _mm_packus_epi16(_mm_packus_epi32(a, a), a);
		u = _mm_cvtsi128_si32(a) | (int32_t)0xff000000; // opaque
		memcpy(out + 4 * (size_t)x, &u, 4);
	}
}
#endif

static void bw_hpass4_generic(const uint8_t *row, uint8_t *out, int dstW,
		const int32_t *hfirst, const int32_t *hcount, const int32_t *hoff, const int32_t *hw) {
	int x, k;
	for (x = 0; x < dstW; x++) {
		const uint8_t *s = row + (size_t)hfirst[x] * 4;
		const int32_t *w = hw + hoff[x];
		int32_t r = 0, g = 0, b = 0;
		for (k = 0; k < hcount[x]; k++, s += 4) {
			r += w[k] * s[0];
			g += w[k] * s[1];
			b += w[k] * s[2];
		}
		out[4 * x] = bw_round(r);
		out[4 * x + 1] = bw_round(g);
		out[4 * x + 2] = bw_round(b);
		out[4 * x + 3] = 255; // opaque
	}
}

// bw_generic makes bw_hpass4 take its portable path (tests).
static int bw_generic;

static void bw_set_generic(int on) { bw_generic = on; }

static void bw_hpass4(const uint8_t *row, uint8_t *out, int dstW,
		const int32_t *hfirst, const int32_t *hcount, const int32_t *hoff, const int32_t *hw) {
#if defined(__x86_64__)
	if (!bw_generic && __builtin_cpu_supports("sse4.1")) {
		bw_hpass4_sse41(row, out, dstW, hfirst, hcount, hoff, hw);
		return;
	}
#endif
	bw_hpass4_generic(row, out, dstW, hfirst, hcount, hoff, hw);
}

// bw_resample is resampleGo (resize.go) in C, the same integer arithmetic, so the
// same bytes: horizontally from src (srcW×srcH pixels of n bytes, rows stride
// bytes apart) into mid (dstW×srcH), then vertically into dst (dstW×dstH).
// Destination pixel x reads hcount[x] source pixels from hfirst[x] with the
// weights at hw+hoff[x]; likewise vertically. mid and the vertical sums are C's
// memory, which malloc reuses from one image to the next (Go's would be fresh,
// zeroed pages each time). It returns 0, or 1 when that memory could not be had.
__attribute__((target_clones("avx2", "default")))
static int bw_resample(const uint8_t *src, int stride, int n, int srcW, int srcH,
		uint8_t *dst, int dstW, int dstH,
		const int32_t *hfirst, const int32_t *hcount, const int32_t *hoff, const int32_t *hw,
		const int32_t *vfirst, const int32_t *vcount, const int32_t *voff, const int32_t *vw) {
	int x, y, k, i;
	int rowBytes = dstW * n;
	uint8_t *mid = malloc((size_t)rowBytes * srcH);
	int32_t *acc = malloc((size_t)rowBytes * sizeof(int32_t));
	if (mid == NULL || acc == NULL) {
		free(mid);
		free(acc);
		return 1;
	}
	for (y = 0; y < srcH; y++) {
		const uint8_t *row = src + (size_t)y * stride;
		uint8_t *out = mid + (size_t)y * rowBytes;
		if (n == 1) {
			for (x = 0; x < dstW; x++) {
				const uint8_t *s = row + hfirst[x];
				const int32_t *w = hw + hoff[x];
				int32_t a = 0;
				for (k = 0; k < hcount[x]; k++)
					a += w[k] * s[k];
				out[x] = bw_round(a);
			}
			continue;
		}
		bw_hpass4(row, out, dstW, hfirst, hcount, hoff, hw);
	}
	for (y = 0; y < dstH; y++) {
		const int32_t *w = vw + voff[y];
		uint8_t *out = dst + (size_t)y * rowBytes;
		for (i = 0; i < rowBytes; i++)
			acc[i] = 0;
		for (k = 0; k < vcount[y]; k++) {
			const uint8_t *row = mid + (size_t)(vfirst[y] + k) * rowBytes;
			int32_t wk = w[k];
			for (i = 0; i < rowBytes; i++)
				acc[i] += wk * row[i];
		}
		for (i = 0; i < rowBytes; i++)
			out[i] = bw_round(acc[i]);
	}
	free(mid);
	free(acc);
	return 0;
}
*/
import "C"

import "unsafe"

// resampleC is resampleGo in C (bw_resample), or nil when its input is not what
// it expects.
func resampleC(pix []byte, stride, n, srcW, srcH, dstW, dstH int, hw, vw resampling) []byte {
	if n != 1 && n != 4 || srcW <= 0 || srcH <= 0 || dstW <= 0 || dstH <= 0 ||
		len(pix) < (srcH-1)*stride+srcW*n || len(hw.taps) != dstW || len(vw.taps) != dstH {
		return nil
	}
	hf, hc, ho, hws := flatWeights(hw, srcW)
	vf, vc, vo, vws := flatWeights(vw, srcH)
	if hf == nil || vf == nil {
		return nil
	}
	dst := make([]byte, dstW*dstH*n)
	rc := C.bw_resample((*C.uint8_t)(unsafe.Pointer(&pix[0])), C.int(stride), C.int(n), C.int(srcW), C.int(srcH),
		(*C.uint8_t)(unsafe.Pointer(&dst[0])), C.int(dstW), C.int(dstH),
		(*C.int32_t)(unsafe.Pointer(&hf[0])), (*C.int32_t)(unsafe.Pointer(&hc[0])), (*C.int32_t)(unsafe.Pointer(&ho[0])), (*C.int32_t)(unsafe.Pointer(&hws[0])),
		(*C.int32_t)(unsafe.Pointer(&vf[0])), (*C.int32_t)(unsafe.Pointer(&vc[0])), (*C.int32_t)(unsafe.Pointer(&vo[0])), (*C.int32_t)(unsafe.Pointer(&vws[0])))
	if rc != 0 {
		return nil
	}
	return dst
}

// resampleGeneric makes resampleC take its portable C path instead of its SIMD
// one where the CPU has SSE4.1 (tests, which check both).
func resampleGeneric(on bool) {
	v := 0
	if on {
		v = 1
	}
	C.bw_set_generic(C.int(v))
}

// flatWeights lays r out for bw_resample: each destination pixel's first source
// pixel, its number of taps, and where its weights start in the weights of all of
// them. It returns nils when a pixel's taps would read past size source pixels.
func flatWeights(r resampling, size int) (first, count, off, weights []int32) {
	first, count, off = make([]int32, len(r.taps)), make([]int32, len(r.taps)), make([]int32, len(r.taps))
	for i, ws := range r.taps {
		if r.first[i] < 0 || r.first[i]+len(ws) > size {
			return nil, nil, nil, nil
		}
		first[i], count[i], off[i] = int32(r.first[i]), int32(len(ws)), int32(len(weights))
		weights = append(weights, ws...)
	}
	if len(weights) == 0 {
		return nil, nil, nil, nil
	}
	return first, count, off, weights
}
