package release

import (
	"bytes"
	"fmt"

	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/imagefile"
)

// uprightQuality is the JPEG quality of an image re-encoded upright.
const uprightQuality = 95

// Upright returns image bytes that every consumer reads the way Benchwright shows
// them. Boxes are in displayed pixels (EXIF orientation applied, spec §5), but the
// consumers disagree about EXIF: the official MultihopSpatial scorer takes PIL's
// Image.size, the stored size (eval/benchmark_qwen_vllm.py get_image_dimensions);
// VLMEvalKit decodes base64 and re-saves without transposing
// (vlmeval/smp/vlm.py decode_base64_to_image); Hugging Face datasets ≥ 2.19
// transposes. A JPEG whose orientation is 2–8 is therefore decoded, turned upright
// and re-encoded without EXIF (quality 95), so stored size = displayed size; any
// other image comes back unchanged with changed false. Re-encoding is
// deterministic: the same bytes in give the same bytes out.
func Upright(data []byte) (out []byte, changed bool, err error) {
	if o := imagefile.Orientation(data); o <= 1 {
		return data, false, nil
	}
	img, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	if err != nil {
		return nil, false, fmt.Errorf("turn the image upright: %w", err)
	}
	var buf bytes.Buffer
	if err := imaging.Encode(&buf, img, imaging.JPEG, imaging.JPEGQuality(uprightQuality)); err != nil {
		return nil, false, fmt.Errorf("turn the image upright: %w", err)
	}
	return buf.Bytes(), true, nil
}
