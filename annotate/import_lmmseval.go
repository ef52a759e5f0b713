package annotate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ImportLMMSEval converts the test.jsonl of a lmms-eval task Benchwright exported
// (release/lmmseval.go): MultihopSpatial records, one per line, read by
// ImportMultihop, and for a sample of several images the native record's sequence
// fields beside them: "images" (every image in order; image_path is the first),
// "image_labels", "box_image" and "frames". The task's utils.py doc_to_visual
// shows "images" in that order.
func ImportLMMSEval(r io.Reader, opt ImportOptions) ([]Imported, []RecordError, error) {
	ok, bad, err := ImportMultihop(r, opt)
	if err != nil {
		return nil, nil, err
	}
	var kept []Imported
	for i, im := range ok {
		if err := TakeSequenceFields(&im.Sample); err != nil {
			bad = append(bad, RecordError{Index: i, Line: im.Line, Err: err})
			continue
		}
		kept = append(kept, im)
	}
	return kept, bad, nil
}

// TakeSequenceFields moves the native record's sequence fields an importer kept in
// s.Extra into the sample: "images" (a list of paths whose first is s.Image, or s.Image
// is empty), "image_labels", "box_image" (an integer) and "frames" (objects as the
// native record writes them). A field of the wrong type is an error naming it.
func TakeSequenceFields(s *Sample) error {
	var errs []error
	take := func(name string, v any, want string) bool {
		raw, ok := s.Extra[name]
		if !ok {
			return false
		}
		delete(s.Extra, name)
		if err := json.Unmarshal(raw, v); err != nil {
			errs = append(errs, fmt.Errorf("%s: want %s", name, want))
			return false
		}
		return true
	}
	var images []string
	if take("images", &images, "a list of image paths") && len(images) > 0 {
		switch {
		case len(images) > MaxImages:
			errs = append(errs, fmt.Errorf("images: %d images; a sample shows at most %d", len(images), MaxImages))
		case s.Image != "" && images[0] != s.Image:
			errs = append(errs, fmt.Errorf("images: the first is %q, the record's image %q", images[0], s.Image))
		default:
			s.SetImages(images)
		}
	}
	var labels []string
	if take("image_labels", &labels, "a list of labels") {
		s.ImageLabels = labels
	}
	var box int
	if take("box_image", &box, "an integer image index") {
		s.BoxImage = box
	}
	var frames []Frame
	if take("frames", &frames, "a list of frame objects") {
		s.Frames = frames
	}
	if len(s.Extra) == 0 {
		s.Extra = nil
	}
	return errors.Join(errs...)
}
