//go:build !cgo || windows || nolibjpeg

package imagefile

import "image"

// turboJPEG reports whether JPEGs are decoded by libjpeg-turbo in this build.
const turboJPEG = false

// decodeJPEGScaled is libjpeg-turbo's scaled decoding, not built in without cgo
// (and on Windows, whose builds carry no libjpeg), or with the build tag nolibjpeg
// (to measure what it saves): Go's decoder reads every JPEG.
func decodeJPEGScaled(data []byte, cfg image.Config, eighths int) image.Image { return nil }

// encodeJPEGTurbo is libjpeg-turbo's encoding, not built in: image/jpeg encodes.
func encodeJPEGTurbo(img image.Image, quality int, opaque bool) []byte { return nil }

// resampleC is resampleGo in C, not built in: resample runs in Go.
func resampleC(pix []byte, stride, n, srcW, srcH, dstW, dstH int, hw, vw resampling) []byte {
	return nil
}

// resampleGeneric has no C path to choose.
func resampleGeneric(on bool) {}
