package annotate

import (
	"errors"
	"fmt"
	"math"
)

// Normalize returns b with its corners ordered so that x1 <= x2 and y1 <= y2.
func (b Box) Normalize() Box {
	return Box{min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])}
}

// Clamp returns b with every coordinate clamped into a w×h image.
// It does not reorder corners; call Normalize first if they may be swapped.
func (b Box) Clamp(w, h int) Box {
	fw, fh := float64(w), float64(h)
	return Box{clamp(b[0], fw), clamp(b[1], fh), clamp(b[2], fw), clamp(b[3], fh)}
}

func clamp(v, hi float64) float64 { return max(0, min(v, hi)) }

// Check explains why b is not a valid box for a w×h image: a coordinate is not a
// finite number or is negative, x1 >= x2 or y1 >= y2, or the box leaves the image.
// With w or h <= 0 the image size is unknown and the bounds are not checked.
// A box may touch the right and bottom edges (x2 == w, y2 == h).
func (b Box) Check(w, h int) error {
	var errs []error
	for i, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("coordinate %d is %v", i+1, v)
		}
		if v < 0 {
			errs = append(errs, fmt.Errorf("coordinate %d is negative (%g)", i+1, v))
		}
	}
	if b[0] >= b[2] {
		errs = append(errs, fmt.Errorf("x1 %g is not left of x2 %g", b[0], b[2]))
	}
	if b[1] >= b[3] {
		errs = append(errs, fmt.Errorf("y1 %g is not above y2 %g", b[1], b[3]))
	}
	if w > 0 && h > 0 && (b[2] > float64(w) || b[3] > float64(h)) {
		errs = append(errs, fmt.Errorf("box extends past the %d×%d image", w, h))
	}
	return errors.Join(errs...)
}

// Valid reports whether b is a valid box for a w×h image (see Check).
func (b Box) Valid(w, h int) bool { return b.Check(w, h) == nil }

// Area is the box's area in square pixels, 0 for an empty or inverted box.
func (b Box) Area() float64 {
	return max(0, b[2]-b[0]) * max(0, b[3]-b[1])
}

// IoU is the intersection over union of b and o, 0 when the union is empty.
func (b Box) IoU(o Box) float64 {
	inter := Box{max(b[0], o[0]), max(b[1], o[1]), min(b[2], o[2]), min(b[3], o[3])}.Area()
	union := b.Area() + o.Area() - inter
	if union <= 0 {
		return 0
	}
	return inter / union
}

// ToCOCO returns the box as COCO [x, y, width, height].
func (b Box) ToCOCO() [4]float64 {
	return [4]float64{b[0], b[1], b[2] - b[0], b[3] - b[1]}
}

// BoxFromCOCO converts COCO [x, y, width, height] to a Box.
func BoxFromCOCO(c [4]float64) Box {
	return Box{c[0], c[1], c[0] + c[2], c[1] + c[3]}
}

// To1000 returns the box on the 0–1000 scale model prompts use (spec §1a), each
// coordinate rounded half up: [100,120,200,220] on 1200×800 is [83,150,167,275].
// Values are not clamped; it returns zeros when w or h is not positive.
func (b Box) To1000(w, h int) [4]int {
	if w <= 0 || h <= 0 {
		return [4]int{}
	}
	var r [4]int
	for i, x := range b {
		// x*1000/size, not ToUnit(...)*1000: exact halves must stay exact to round up.
		r[i] = int(math.Floor(x*1000/float64(size(i, w, h)) + 0.5))
	}
	return r
}

// From1000 converts a box on the 0–1000 scale to pixels of a w×h image.
func From1000(v [4]int, w, h int) Box {
	var b Box
	for i, x := range v {
		b[i] = float64(x) * float64(size(i, w, h)) / 1000
	}
	return b
}

// ToUnit returns the box as fractions (0–1) of a w×h image; zeros when w or h is not positive.
func (b Box) ToUnit(w, h int) [4]float64 {
	var u [4]float64
	if w <= 0 || h <= 0 {
		return u
	}
	for i, x := range b {
		u[i] = x / float64(size(i, w, h))
	}
	return u
}

// FromUnit converts a box given as fractions (0–1) of a w×h image to pixels.
func FromUnit(u [4]float64, w, h int) Box {
	var b Box
	for i, x := range u {
		b[i] = x * float64(size(i, w, h))
	}
	return b
}

// size is the image dimension coordinate i is measured along: x (even) by w, y (odd) by h.
func size(i, w, h int) int {
	if i%2 == 0 {
		return w
	}
	return h
}
