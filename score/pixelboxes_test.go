package score

import (
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestPixelBoxes(t *testing.T) {
	hop := func(id string, box annotate.Box, w, h int) Gold {
		return Gold{Sample: annotate.Sample{ID: id, Kind: annotate.KindHopQA, AnswerIndex: 0, Box: &box}, Width: w, Height: h}
	}
	gs := []Gold{
		hop("big", annotate.Box{1000, 800, 2000, 1600}, 4000, 3000),
		hop("small", annotate.Box{100, 100, 300, 300}, 640, 480),
		hop("corner", annotate.Box{10, 10, 100, 100}, 640, 480),
		hop("near1000", annotate.Box{100, 200, 400, 500}, 1280, 960),
		{Sample: annotate.Sample{ID: "yn", Kind: annotate.KindJudgment}, Width: 640, Height: 480},
	}
	for _, tc := range []struct {
		name     string
		id, resp string
		pixels   bool
	}{
		{"pixels past 1000 on a large image", "big", "Answer: (A) Bounding Box: [1000, 800, 2000, 1600]", true},
		{"pixels of a small image, far from the gold box on the 0–1000 scale", "small", "Answer: (A) [100, 100, 300, 300]", true},
		{"the 0–1000 scale, read right", "small", `Answer: (A) "bbox_2d": [156, 208, 469, 625]`, false},
		{"the 0–1000 scale that also fits the image as pixels", "corner", "Answer: (A) [16, 21, 156, 208]", false},
		{"the 0–1 scale", "big", "Answer: (A) [0.25, 0.27, 0.5, 0.53]", false},
		{"pixels on an image near 1000 px, which the 0–1000 reading nearly gets right", "near1000", "Answer: (A) [100, 200, 400, 500]", false},
		{"past 1000 but outside the image", "small", "Answer: (A) [1000, 800, 2000, 1600]", false},
		{"no box", "big", "Answer: (A)", false},
		{"not a hop sample", "yn", "Yes [100, 100, 300, 300]", false},
		{"not in the release", "other", "Answer: (A) [1000, 800, 2000, 1600]", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PixelBoxes(gs, []Prediction{{SampleID: tc.id, Response: tc.resp}})
			if want := tc.pixels; (len(got) == 1) != want || len(got) > 1 || want && got[0] != tc.id {
				t.Errorf("PixelBoxes = %q, want pixels %v", got, want)
			}
		})
	}
	// In prediction order, each once.
	preds := []Prediction{{SampleID: "small", Response: "[100, 100, 300, 300]"}, {SampleID: "corner", Response: "[0.1, 0.1, 0.2, 0.2]"},
		{SampleID: "big", Response: "[1000, 800, 2000, 1600]"}}
	if got := PixelBoxes(gs, preds); !slices.Equal(got, []string{"small", "big"}) {
		t.Errorf("PixelBoxes = %q", got)
	}
}
