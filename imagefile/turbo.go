//go:build cgo && !windows && !nolibjpeg

package imagefile

/*
#cgo LDFLAGS: -l:libjpeg.a
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <jpeglib.h>

struct bw_jerr {
	struct jpeg_error_mgr pub;
	jmp_buf jump;
};

static void bw_error_exit(j_common_ptr c) {
	longjmp(((struct bw_jerr *)c->err)->jump, 1);
}

// A warning is corrupt or cut-off data that libjpeg would paper over (grey
// rows, skipped bytes): the file is handed to Go's decoder instead, which says
// what is wrong or decodes it as it always did.
static void bw_emit_message(j_common_ptr c, int level) {
	if (level < 0) longjmp(((struct bw_jerr *)c->err)->jump, 1);
}

// bw_decode decodes the JPEG in data at scale eighths/8 into out, w×h pixels of
// comps bytes (1: gray; 4: RGBA, alpha 255). It returns 0 when it did so without
// a warning, 1 on an error or a warning, 2 when the file's colour space or the
// size it decodes to is not what the caller expected.
static int bw_decode(const unsigned char *data, unsigned long size, int eighths,
		unsigned char *out, int w, int h, int comps) {
	struct jpeg_decompress_struct c;
	struct bw_jerr err;
	JSAMPROW rows[16];
	int ok, i;

	c.err = jpeg_std_error(&err.pub);
	err.pub.error_exit = bw_error_exit;
	err.pub.emit_message = bw_emit_message;
	if (setjmp(err.jump)) {
		jpeg_destroy_decompress(&c);
		return 1;
	}
	jpeg_create_decompress(&c);
	jpeg_mem_src(&c, data, size);
	jpeg_read_header(&c, TRUE);
	switch (c.jpeg_color_space) {
	case JCS_GRAYSCALE:
		ok = comps == 1;
		c.out_color_space = JCS_GRAYSCALE;
		break;
	case JCS_YCbCr:
	case JCS_RGB:
		ok = comps == 4;
		c.out_color_space = JCS_EXT_RGBA;
		break;
	default:
		ok = 0;
	}
	if (!ok) {
		jpeg_destroy_decompress(&c);
		return 2;
	}
	c.scale_num = eighths;
	c.scale_denom = 8;
	c.do_fancy_upsampling = FALSE; // chroma replicated, as Go's decoder does
	jpeg_start_decompress(&c);
	if ((int)c.output_width != w || (int)c.output_height != h || c.output_components != comps) {
		jpeg_destroy_decompress(&c);
		return 2;
	}
	while (c.output_scanline < c.output_height) {
		int n = c.output_height - c.output_scanline;
		if (n > 16) n = 16;
		for (i = 0; i < n; i++)
			rows[i] = out + ((size_t)c.output_scanline + i) * (size_t)w * comps;
		jpeg_read_scanlines(&c, rows, n);
	}
	jpeg_finish_decompress(&c);
	jpeg_destroy_decompress(&c);
	return 0;
}

static void bw_ignore_message(j_common_ptr c, int level) {}

// bw_encode compresses w×h pixels of comps bytes (1: gray; 4: RGB and a byte that
// is ignored), rows stride bytes apart, as a baseline JPEG of the given quality,
// 4:2:0 for colour, into a buffer it allocates (*out, *outlen bytes; the caller
// frees it). It returns 0 when it did so.
static int bw_encode(const unsigned char *pix, int w, int h, int stride, int comps, int quality,
		unsigned char **out, unsigned long *outlen) {
	struct jpeg_compress_struct c;
	struct bw_jerr err;
	JSAMPROW row;

	*out = NULL;
	*outlen = 0;
	c.err = jpeg_std_error(&err.pub);
	err.pub.error_exit = bw_error_exit;
	err.pub.emit_message = bw_ignore_message;
	if (setjmp(err.jump)) {
		jpeg_destroy_compress(&c);
		return 1;
	}
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, out, outlen);
	c.image_width = w;
	c.image_height = h;
	c.input_components = comps;
	c.in_color_space = comps == 1 ? JCS_GRAYSCALE : JCS_EXT_RGBX;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < c.image_height) {
		row = (JSAMPROW)(pix + (size_t)c.next_scanline * stride);
		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	return 0;
}
*/
import "C"

import (
	"image"
	"unsafe"
)

// turboJPEG reports whether JPEGs are decoded by libjpeg-turbo in this build.
const turboJPEG = true

// decodeJPEGScaled decodes a JPEG (its header read as cfg) at scale eighths/8 with
// libjpeg-turbo, in the DCT domain, as stored (not turned). It returns nil when
// libjpeg-turbo did not decode it cleanly or the colour model is one it leaves to
// Go's decoder. The image's pixels come from pixPool (libjpeg-turbo writes each of
// them): the caller gives them back (putPix) when nothing refers to them any more.
func decodeJPEGScaled(data []byte, cfg image.Config, eighths int) image.Image {
	gray, ok := jpegOutput(cfg.ColorModel)
	if !ok || len(data) == 0 {
		return nil
	}
	w, h := scaled(cfg.Width, eighths), scaled(cfg.Height, eighths)
	var img image.Image
	var pix []byte
	comps := 4
	r := image.Rect(0, 0, w, h)
	if gray {
		comps = 1
	}
	pix = getPix(w * h * comps)
	if gray {
		img = &image.Gray{Pix: pix, Stride: w, Rect: r}
	} else {
		img = &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: r}
	}
	rc := C.bw_decode((*C.uchar)(unsafe.Pointer(&data[0])), C.ulong(len(data)), C.int(eighths),
		(*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), C.int(comps))
	if rc != 0 {
		putPix(pix)
		return nil
	}
	return img
}

// encodeJPEGTurbo encodes img as a JPEG of the given quality with libjpeg-turbo
// (4:2:0, as image/jpeg writes colour; a third of image/jpeg's time), or returns
// nil for an image it is not given: only opaque *image.NRGBA, *image.RGBA and
// *image.Gray are. opaque says img is known to be (fitKnown): not checked again.
func encodeJPEGTurbo(img image.Image, quality int, opaque bool) []byte {
	var pix []byte
	var stride, comps int
	switch m := img.(type) {
	case *image.NRGBA:
		if !opaque && !m.Opaque() {
			return nil
		}
		pix, stride, comps = m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, 4
	case *image.RGBA:
		if !opaque && !m.Opaque() {
			return nil
		}
		pix, stride, comps = m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, 4
	case *image.Gray:
		pix, stride, comps = m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, 1
	default:
		return nil
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	if w <= 0 || h <= 0 || len(pix) < (h-1)*stride+w*comps {
		return nil
	}
	var out *C.uchar
	var n C.ulong
	rc := C.bw_encode((*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), C.int(stride), C.int(comps), C.int(quality), &out, &n)
	if out != nil {
		defer C.free(unsafe.Pointer(out))
	}
	if rc != 0 || out == nil {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(out), C.int(n))
}
