package annotate

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"
	_ "image/jpeg" // register decoders for ImageSize
	_ "image/png"
	"io"

	_ "golang.org/x/image/webp"

	"github.com/benchwright/benchwright/imagefile"
)

// ImageSize reads an image header (JPEG, PNG or WebP) and returns the size of the
// image as displayed, the frame boxes are drawn on (spec §5): for a JPEG whose EXIF
// orientation is 5–8 (rotated a quarter turn; read by imagefile.Orientation, as the
// import applies it) width and height are swapped. EXIF in
// PNG and WebP files is not read.
func ImageSize(r io.Reader) (w, h int, err error) {
	var head bytes.Buffer // the bytes DecodeConfig reads hold the JPEG APP1 segment
	cfg, format, err := image.DecodeConfig(io.TeeReader(r, &head))
	if err != nil {
		return 0, 0, fmt.Errorf("read image header: %w", err)
	}
	if format == "jpeg" && imagefile.Turns(imagefile.Orientation(head.Bytes())) {
		return cfg.Height, cfg.Width, nil
	}
	return cfg.Width, cfg.Height, nil
}
