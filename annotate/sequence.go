package annotate

import (
	"slices"
	"strconv"
)

// Samples of several images (spec §1d). LRR-Bench asks a yes/no question about an
// ordered sequence of images labelled A, B, C; SpatialScore mixes single images,
// several images and the sampled frames of a video. In the native record:
//
//	"image": "a.jpg"                        one image (unchanged)
//	"images": ["a.jpg", "b.jpg", "c.jpg"]   several, in the order shown
//	"image_labels": ["left", "right"]       labels, when not the default ones
//	"frames": [{"video": "v.mp4", "video_sha256": "…", "duration": 60,
//	            "time": 7.5, "index": 225}, …]  one per image, for video frames
//	"box_image": 1                          the box is on the second image
//
// A record never holds both "image" and "images"; "images" with one path is read
// as "image" and written back so.

// MaxImages is the most images a sample may show.
const MaxImages = 64

// Frame is where an image of a sample came from when it is a frame of a video:
// the video (its path as imported, its SHA-256 in lower-case hex, its duration in
// seconds) and the frame (its presentation time in seconds from the start, and its
// 0-based index among the video's decoded frames). Frames are recorded one per image,
// in the images' order; a sample whose images are all frames of the same video (the
// same path and SHA-256), two or more, is a video sample.
type Frame struct {
	Video       string  `json:"video"`
	VideoSHA256 string  `json:"video_sha256"`
	Duration    float64 `json:"duration"`
	Time        float64 `json:"time"`
	Index       int     `json:"index"`
}

// Modality is what a model is shown for a sample: one image, several images, or
// frames of one video. It is derived from the images and frames, never set by hand.
type Modality string

// Modalities.
const (
	ModalityImage  Modality = "image"
	ModalityImages Modality = "images"
	ModalityVideo  Modality = "video"
)

// AllImages returns the sample's images in order: Image then MoreImages. It is nil
// for a sample without any image. The slice is a copy.
func (s Sample) AllImages() []string {
	if s.Image == "" && len(s.MoreImages) == 0 {
		return nil
	}
	return append([]string{s.Image}, s.MoreImages...)
}

// NumImages is len(s.AllImages()).
func (s Sample) NumImages() int {
	if s.Image == "" && len(s.MoreImages) == 0 {
		return 0
	}
	return 1 + len(s.MoreImages)
}

// SetImages makes paths the sample's images, in order: Image is paths[0] (or ""),
// MoreImages the rest (nil for one image or none). It does not touch labels, frames
// or BoxImage, which lint checks against the new count.
func (s *Sample) SetImages(paths []string) {
	s.Image, s.MoreImages = "", nil
	if len(paths) > 0 {
		s.Image = paths[0]
	}
	if len(paths) > 1 {
		s.MoreImages = slices.Clone(paths[1:])
	}
}

// Modality derives the sample's modality: video when it has two or more images and
// every one is a frame of the same video (a single frame is shown as an image),
// images for several images, image otherwise.
func (s Sample) Modality() Modality {
	n := s.NumImages()
	switch {
	case n >= 2 && s.oneVideo():
		return ModalityVideo
	case n >= 2:
		return ModalityImages
	}
	return ModalityImage
}

// oneVideo reports whether there is a frame for every image and all of them name
// the same video.
func (s Sample) oneVideo() bool {
	if len(s.Frames) != s.NumImages() || len(s.Frames) == 0 {
		return false
	}
	v := s.Frames[0]
	if v.Video == "" {
		return false
	}
	for _, f := range s.Frames[1:] {
		if f.Video != v.Video || f.VideoSHA256 != v.VideoSHA256 {
			return false
		}
	}
	return true
}

// DefaultLabels are the labels of n images: "A", "B", … "Z", "AA", "AB", … as
// LRR-Bench writes them, or "frame 1" … "frame n" for the frames of a video.
func DefaultLabels(n int, video bool) []string {
	out := make([]string, n)
	for i := range out {
		if video {
			out[i] = "frame " + strconv.Itoa(i+1)
		} else {
			out[i] = sequenceLetters(i)
		}
	}
	return out
}

// sequenceLetters is the spreadsheet column name of 0-based i: 0 → A, 25 → Z,
// 26 → AA.
func sequenceLetters(i int) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append(b, byte('A'+(i-1)%26))
	}
	slices.Reverse(b)
	return string(b)
}

// Labels returns the label of each image: ImageLabels when there is one per image,
// else DefaultLabels (lint reports labels of the wrong count as image-labels).
func (s Sample) Labels() []string {
	n := s.NumImages()
	if len(s.ImageLabels) == n && n > 0 {
		return slices.Clone(s.ImageLabels)
	}
	return DefaultLabels(n, s.Modality() == ModalityVideo)
}

// labelsAreDefault reports whether the labels are the default ones (or none), so
// the record leaves them out.
func (s Sample) labelsAreDefault() bool {
	return s.ImageLabels == nil ||
		slices.Equal(s.ImageLabels, DefaultLabels(s.NumImages(), s.Modality() == ModalityVideo))
}

// BoxImagePath is the path of the image the box is drawn on (image BoxImage), or ""
// when BoxImage is not one of the sample's images.
func (s Sample) BoxImagePath() string {
	if s.BoxImage == 0 {
		return s.Image
	}
	if s.BoxImage < 0 || s.BoxImage > len(s.MoreImages) {
		return ""
	}
	return s.MoreImages[s.BoxImage-1]
}
