package score

import (
	"github.com/benchwright/benchwright/annotate"
)

// PixelBoxes returns the ids, in prediction order, of the hop_qa predictions whose
// box looks like pixel coordinates of the sample's image: the scorers read a box
// on the 0–1 scale, or on the 0–1000 scale when a coordinate exceeds 1
// (ParseHopBox, as benchmark_qwen.py and lmms-eval do), so a model that answers in
// pixels scores an IoU near 0 with no error anywhere (issue 27 item 16). A box
// looks like pixels when, with a coordinate above 1,
//
//   - a coordinate exceeds 1000 (no box on the 0–1000 scale does) and the box lies
//     within the image, or
//   - read as pixels of the image it overlaps the gold box with an IoU of at least
//     0.5, while read on the 0–1000 scale it overlaps it less than half as well.
//
// Predictions for samples not in gs, and responses without a box, are passed over.
func PixelBoxes(gs []Gold, preds []Prediction) []string {
	gold := make(map[string]Gold, len(gs))
	for _, g := range gs {
		if g.Sample.Kind == annotate.KindHopQA && g.Sample.Box != nil && g.Width > 0 && g.Height > 0 {
			gold[g.Sample.ID] = g
		}
	}
	var ids []string
	for _, p := range preds {
		g, ok := gold[p.SampleID]
		if !ok {
			continue
		}
		raw, err := hopBoxRaw(p.Response)
		if err != nil || !(raw[0] > 1 || raw[1] > 1 || raw[2] > 1 || raw[3] > 1) {
			continue
		}
		w, h := float64(g.Width), float64(g.Height)
		asPixels := [4]float64{raw[0] / w, raw[1] / h, raw[2] / w, raw[3] / h}
		if CheckUnitBox(asPixels) != nil {
			continue // not a box of this image either
		}
		over1000 := raw[0] > 1000 || raw[1] > 1000 || raw[2] > 1000 || raw[3] > 1000
		pixIoU := HopIoU(asPixels, *g.Sample.Box, g.Width, g.Height)
		scaled := [4]float64{raw[0] / 1000, raw[1] / 1000, raw[2] / 1000, raw[3] / 1000}
		if over1000 || pixIoU >= 0.5 && HopIoU(scaled, *g.Sample.Box, g.Width, g.Height) < pixIoU/2 {
			ids = append(ids, p.SampleID)
		}
	}
	return ids
}
