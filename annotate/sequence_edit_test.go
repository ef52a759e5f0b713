package annotate

import (
	"reflect"
	"testing"
)

// Moving, removing and adding images keeps labels, frames and the box's image with
// their images.
func TestSequenceEdits(t *testing.T) {
	box := &Box{1, 2, 3, 4}
	frames := []Frame{{Video: "v", Index: 0}, {Video: "v", Index: 1}, {Video: "v", Index: 2}, {Video: "v", Index: 3}}
	base := func() Sample {
		s := Sample{Box: box, BoxImage: 2, ImageLabels: []string{"p", "q", "r", "s"}, Frames: frames}
		s.SetImages([]string{"a", "b", "c", "d"})
		return s
	}
	for _, tc := range []struct {
		name     string
		edit     func(s *Sample)
		images   []string
		labels   []string
		frameIdx []int
		boxImage int
		boxGone  bool
	}{
		{"move first to last", func(s *Sample) { s.MoveImage(0, 3) }, []string{"b", "c", "d", "a"}, []string{"q", "r", "s", "p"}, []int{1, 2, 3, 0}, 1, false},
		{"move the box's image earlier", func(s *Sample) { s.MoveImage(2, 0) }, []string{"c", "a", "b", "d"}, []string{"r", "p", "q", "s"}, []int{2, 0, 1, 3}, 0, false},
		{"move later past the box's image", func(s *Sample) { s.MoveImage(1, 3) }, []string{"a", "c", "d", "b"}, []string{"p", "r", "s", "q"}, []int{0, 2, 3, 1}, 1, false},
		{"out of range does nothing", func(s *Sample) { s.MoveImage(1, 4) }, []string{"a", "b", "c", "d"}, []string{"p", "q", "r", "s"}, []int{0, 1, 2, 3}, 2, false},
		{"remove before the box's image", func(s *Sample) { s.RemoveImage(0) }, []string{"b", "c", "d"}, []string{"q", "r", "s"}, []int{1, 2, 3}, 1, false},
		{"remove the box's image", func(s *Sample) { s.RemoveImage(2) }, []string{"a", "b", "d"}, []string{"p", "q", "s"}, []int{0, 1, 3}, 0, true},
		{"add: hand labels get defaults", func(s *Sample) { s.AddImages("e") }, []string{"a", "b", "c", "d", "e"}, []string{"p", "q", "r", "s", "E"}, []int{0, 1, 2, 3}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.edit(&s)
			if got := s.AllImages(); !reflect.DeepEqual(got, tc.images) {
				t.Errorf("images %v, want %v", got, tc.images)
			}
			if !reflect.DeepEqual(s.ImageLabels, tc.labels) {
				t.Errorf("labels %v, want %v", s.ImageLabels, tc.labels)
			}
			var idx []int
			for _, f := range s.Frames {
				idx = append(idx, f.Index)
			}
			if !reflect.DeepEqual(idx, tc.frameIdx) {
				t.Errorf("frames %v, want %v", idx, tc.frameIdx)
			}
			if (s.Box == nil) != tc.boxGone || s.BoxImage != tc.boxImage {
				t.Errorf("box %v on image %d, want gone=%v on image %d", s.Box, s.BoxImage, tc.boxGone, tc.boxImage)
			}
		})
	}
}
