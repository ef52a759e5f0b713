package imagefile

import (
	"path/filepath"
	"strings"
)

// Limits on what an import accepts; a header declaring more is refused before decoding,
// so that a hostile or broken file cannot make the app allocate gigabytes.
const (
	MaxImageSide   = 20000
	MaxImagePixels = 150_000_000
	MaxImageBytes  = 512 << 20
)

// maxHeaderBytes bounds how far into a file its image header (after metadata such as
// EXIF, XMP and colour profiles) is looked for.
const maxHeaderBytes = 8 << 20

// ImageExts are the file endings an import reads (case-insensitive).
var ImageExts = []string{".jpg", ".jpeg", ".png", ".webp", ".gif"}

// IsImageName reports whether a file name has an ending the image import reads.
func IsImageName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range ImageExts {
		if ext == e {
			return true
		}
	}
	return false
}
