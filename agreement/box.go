package agreement

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// IoU is the intersection over union of two boxes [x1, y1, x2, y2] in pixels.
// It is 0 when the boxes do not overlap or when both are empty.
func IoU(a, b [4]float64) float64 {
	iw := min(a[2], b[2]) - max(a[0], b[0])
	ih := min(a[3], b[3]) - max(a[1], b[1])
	if iw <= 0 || ih <= 0 {
		return 0
	}
	inter := iw * ih
	union := area(a) + area(b) - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

func area(b [4]float64) float64 { return max(b[2]-b[0], 0) * max(b[3]-b[1], 0) }

// BoxSummary summarises the agreement of several boxes drawn on one target.
type BoxSummary struct {
	Boxes     int
	Pairs     int     // Boxes·(Boxes-1)/2
	MeanIoU   float64 // mean IoU over all pairs
	ShareAt50 float64 // share of pairs with IoU >= 0.5
}

// BoxAgreement compares every pair of boxes [x1, y1, x2, y2]. It needs two or
// more boxes, each finite with x1 < x2 and y1 < y2.
func BoxAgreement(boxes ...[4]float64) (BoxSummary, error) {
	if len(boxes) < 2 {
		return BoxSummary{}, fmt.Errorf("agreement: box agreement needs two or more boxes, got %d", len(boxes))
	}
	for i, b := range boxes {
		for _, x := range b {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return BoxSummary{}, fmt.Errorf("agreement: box %d %v: coordinate is not finite", i+1, b)
			}
		}
		if b[0] >= b[2] || b[1] >= b[3] {
			return BoxSummary{}, fmt.Errorf("agreement: box %d %v: want x1 < x2 and y1 < y2", i+1, b)
		}
	}
	s := BoxSummary{Boxes: len(boxes)}
	sum, at50 := 0.0, 0
	for i, a := range boxes {
		for _, b := range boxes[i+1:] {
			iou := IoU(a, b)
			sum += iou
			if iou >= 0.5 {
				at50++
			}
			s.Pairs++
		}
	}
	s.MeanIoU = sum / float64(s.Pairs)
	s.ShareAt50 = float64(at50) / float64(s.Pairs)
	return s, nil
}

// Drawn is the box of one revision of a sample, by the revision's author.
type Drawn struct {
	Sample string
	Author int64  // the author's account
	Name   string // the author's name
	Known  bool   // false when the account is gone: its boxes are left out of the rows
	Box    []byte // the box as stored: the JSON array [x1, y1, x2, y2]
}

// SampleBoxes is the agreement of the boxes that two or more people drew on one
// sample's target: each person's latest box among the sample's revisions.
type SampleBoxes struct {
	Sample  string
	Authors []string // in the order of their first boxed revision
	BoxSummary
}

// BoxTotals sums the samples' box agreement up, weighting every pair of boxes
// equally.
type BoxTotals struct {
	Samples   int
	Pairs     int
	MeanIoU   float64
	ShareAt50 float64 // share of pairs with IoU >= 0.5
	Rows      []SampleBoxes
}

// Boxes compares, on every sample whose boxes were drawn by two or more accounts,
// each known person's latest box. drawn holds the boxes sample after sample, each
// sample's in revision order.
func Boxes(drawn []Drawn) (BoxTotals, error) {
	var out BoxTotals
	sum, at50 := 0.0, 0.0
	// sample takes one sample's boxes in revision order, if two or more people drew them.
	sample := func(ds []Drawn) error {
		if slices.IndexFunc(ds, func(d Drawn) bool { return d.Author != ds[0].Author }) < 0 {
			return nil
		}
		var authors []string
		var boxes [][4]float64
		for _, d := range ds {
			if !d.Known {
				continue
			}
			var b [4]float64
			if err := json.Unmarshal(d.Box, &b); err != nil {
				return fmt.Errorf("sample %s: box by %s: %w", d.Sample, d.Name, err)
			}
			if i := slices.Index(authors, d.Name); i >= 0 {
				boxes[i] = b // later revisions replace an author's earlier box
			} else {
				authors, boxes = append(authors, d.Name), append(boxes, b)
			}
		}
		if len(authors) == 0 {
			return nil
		}
		sum1, err := BoxAgreement(boxes...)
		if err != nil {
			return fmt.Errorf("sample %s: %w", ds[0].Sample, err)
		}
		out.Rows = append(out.Rows, SampleBoxes{Sample: ds[0].Sample, Authors: authors, BoxSummary: sum1})
		out.Samples++
		out.Pairs += sum1.Pairs
		sum += sum1.MeanIoU * float64(sum1.Pairs)
		at50 += sum1.ShareAt50 * float64(sum1.Pairs)
		return nil
	}
	for start := 0; start < len(drawn); {
		end := start + 1
		for end < len(drawn) && drawn[end].Sample == drawn[start].Sample {
			end++
		}
		if err := sample(drawn[start:end]); err != nil {
			return BoxTotals{}, err
		}
		start = end
	}
	if out.Pairs > 0 {
		out.MeanIoU, out.ShareAt50 = sum/float64(out.Pairs), at50/float64(out.Pairs)
	}
	return out, nil
}
