package annotate

import "slices"

// Editing a sample's sequence of images: moving, removing and adding an image moves
// its label and its video frame with it, and keeps the box on the image it was drawn
// on. What is allowed (1 to MaxImages images, frames for every image of a
// video, …) is the lint's to say, not these. The editor's filmstrip calls them.

// perImage reports whether a per-image list (labels, frames) has one entry for each
// of n images: only then does it follow the images.
func perImage[T any](list []T, n int) bool { return len(list) == n && n > 0 }

// MoveImage moves image from to position to (0-based, both within the sequence).
func (s *Sample) MoveImage(from, to int) {
	paths := s.AllImages()
	n := len(paths)
	if from < 0 || from >= n || to < 0 || to >= n || from == to {
		return
	}
	labels, frames := perImage(s.ImageLabels, n), perImage(s.Frames, n)
	s.SetImages(moveItem(paths, from, to))
	if labels {
		s.ImageLabels = moveItem(s.ImageLabels, from, to)
	}
	if frames {
		s.Frames = moveItem(s.Frames, from, to)
	}
	if s.Box != nil {
		s.BoxImage = MovedIndex(s.BoxImage, from, to)
	}
}

// MovedIndex is where the item at i is after the item at from moved to to.
func MovedIndex(i, from, to int) int {
	switch {
	case i == from:
		return to
	case from < to && i > from && i <= to:
		return i - 1
	case to < from && i >= to && i < from:
		return i + 1
	}
	return i
}

func moveItem[T any](list []T, from, to int) []T {
	out := slices.Clone(list)
	v := out[from]
	out = slices.Delete(out, from, from+1)
	return slices.Insert(out, to, v)
}

// RemoveImage removes image i; the box goes with it when it was drawn on it.
func (s *Sample) RemoveImage(i int) {
	paths := s.AllImages()
	n := len(paths)
	if i < 0 || i >= n {
		return
	}
	labels, frames := perImage(s.ImageLabels, n), perImage(s.Frames, n)
	s.SetImages(slices.Delete(paths, i, i+1))
	if labels {
		s.ImageLabels = slices.Delete(slices.Clone(s.ImageLabels), i, i+1)
	}
	if frames {
		s.Frames = slices.Delete(slices.Clone(s.Frames), i, i+1)
	}
	switch {
	case s.Box != nil && s.BoxImage == i:
		s.Box, s.BoxImage = nil, 0
	case s.BoxImage > i:
		s.BoxImage--
	}
	if s.NumImages() <= 1 {
		s.ImageLabels = nil
	}
}

// AddImages appends paths to the sequence. Labels written by hand get the default
// label of each new position.
func (s *Sample) AddImages(paths ...string) {
	n := s.NumImages()
	labels := perImage(s.ImageLabels, n) && n > 0
	all := append(s.AllImages(), paths...)
	s.SetImages(all)
	if labels {
		def := DefaultLabels(len(all), false)
		s.ImageLabels = append(slices.Clone(s.ImageLabels), def[n:]...)
	}
}
