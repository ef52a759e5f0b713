package agreement

import (
	"fmt"
	"math"
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
