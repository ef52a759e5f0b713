package bench

// ImageSize is which file of an image ImageFile gives.
type ImageSize string

const (
	ImagePreview  ImageSize = "preview"  // downscaled to PreviewSide, upright (a JPEG)
	ImageThumb    ImageSize = "thumb"    // the image grid's thumbnail (a JPEG)
	ImageOriginal ImageSize = "original" // the imported file itself, as it is
)

// Valid tells whether s names one of the sizes.
func (s ImageSize) Valid() bool { return s == ImagePreview || s == ImageThumb || s == ImageOriginal }
