package release

import (
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// Samples of several images (issue 26) in the releases the format tests share.

// sequenceRecords adds to images, and returns, samples that show several images,
// on the images of realFixture (a.jpg 641×479, b.jpg 1200×800, c.png 33×17, the
// JPEG rot.jpg stored 60×40 with EXIF orientation 6) and three frames of a video:
//   - seq-mc-01: an mcq on three images with labels of its own, one of them the
//     EXIF-rotated JPEG, sharing a.jpg with single-image samples;
//   - seq-yn-01: a judgment on two images with the default labels, in the other order;
//   - seq-mh-01: a hop question on two images whose box is on the second (b.jpg), so
//     a format normalising by the first image's size would be wrong;
//   - seq-vid-01: an open question on three frames of one video (modality video),
//     with their provenance.
func sequenceRecords(t *testing.T, images map[string][]byte) []Record {
	t.Helper()
	frames := []string{"0005-video-1/v_f000.jpg", "0005-video-1/v_f001.jpg", "0005-video-1/v_f002.jpg"}
	for _, f := range frames {
		images[f] = realImage(t, f, 32, 24)
	}
	facts := map[string]ImageFacts{
		"0001-office-1/a.jpg": {Width: 641, Height: 479}, "0002-kitchen-1/b.jpg": {Width: 1200, Height: 800},
		"misc/c.png": {Width: 33, Height: 17}, "0003-hall-1/rot.jpg": {Width: 40, Height: 60},
	}
	for _, f := range frames {
		facts[f] = ImageFacts{Width: 32, Height: 24}
	}
	rec := func(s annotate.Sample) Record {
		all := s.AllImages()
		first := facts[all[0]]
		r := Record{Sample: s, Width: first.Width, Height: first.Height, ImageSHA256: sha(images[all[0]])}
		for _, p := range all[1:] {
			f := facts[p]
			r.More = append(r.More, ImageFacts{Path: p, Width: f.Width, Height: f.Height, SHA256: sha(images[p])})
		}
		return r
	}
	const video, videoSum = "0005-video-1/v.mp4", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	frame := func(i int, at float64) annotate.Frame {
		return annotate.Frame{Video: video, VideoSHA256: videoSum, Duration: 12, Time: at, Index: i}
	}
	return []Record{
		rec(annotate.Sample{ID: "seq-mc-01", Kind: annotate.KindMCQ, Image: "0001-office-1/a.jpg",
			MoreImages: []string{"0003-hall-1/rot.jpg", "misc/c.png"}, ImageLabels: []string{"desk", "hall", "drawer"},
			Question: "In which picture is the lamp lit?", Options: []string{"desk", "hall", "drawer"}, AnswerIndex: 1,
			Task: "lighting", Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "seq-yn-01", Kind: annotate.KindJudgment, Image: "0002-kitchen-1/b.jpg",
			MoreImages: []string{"0001-office-1/a.jpg"}, Question: "Was picture B taken after picture A?", AnswerText: "no",
			Split: annotate.SplitTrain}),
		rec(annotate.Sample{ID: "seq-mh-01", Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg",
			MoreImages: []string{"0002-kitchen-1/b.jpg"}, Question: "Which object in picture B is on the right of the kettle?",
			Options: []string{"the bowl", "the apple", "the cup"}, AnswerIndex: 2, Categories: []annotate.Category{annotate.CatPos},
			Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{600, 100, 1100, 700}, BoxImage: 1, Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "seq-vid-01", Kind: annotate.KindOpen, Image: frames[0], MoreImages: frames[1:],
			Frames: []annotate.Frame{frame(0, 0), frame(150, 6), frame(299, 11.96)}, Question: "How many people walk through the door?",
			AnswerText: "2", AnswerNumber: true, Split: annotate.SplitTest}),
	}
}
