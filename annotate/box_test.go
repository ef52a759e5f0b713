package annotate

import (
	"math"
	"strings"
	"testing"
)

func TestBoxTo1000(t *testing.T) {
	tests := []struct {
		box  Box
		w, h int
		want [4]int
	}{
		{Box{100, 120, 200, 220}, 1200, 800, [4]int{83, 150, 167, 275}}, // spec §7
		{Box{0, 0, 7, 3}, 7, 3, [4]int{0, 0, 1000, 1000}},
		{Box{1, 3, 2, 5}, 2000, 8, [4]int{1, 375, 1, 625}},         // 0.5 → 1: half up
		{Box{1, 1, 2, 2}, 3, 3, [4]int{333, 333, 667, 667}},        // 333.33, 666.67
		{Box{1, 1, 1200, 799}, 1201, 799, [4]int{1, 1, 999, 1000}}, // 0.83 → 1, 999.17 → 999
		{Box{0.5, 0.5, 1, 1}, 1, 1, [4]int{500, 500, 1000, 1000}},
		{Box{10, 10, 20, 20}, 0, 100, [4]int{}}, // unknown size
	}
	for _, tt := range tests {
		if got := tt.box.To1000(tt.w, tt.h); got != tt.want {
			t.Errorf("%v.To1000(%d, %d) = %v, want %v", tt.box, tt.w, tt.h, got, tt.want)
		}
	}
}

func TestBoxRoundTrips(t *testing.T) {
	sizes := [][2]int{{1200, 800}, {1, 1}, {7, 3}, {1201, 799}, {4032, 3024}}
	for _, sz := range sizes {
		w, h := sz[0], sz[1]
		b := Box{0, 0, float64(w) / 2, float64(h)}
		if got := FromUnit(b.ToUnit(w, h), w, h); !near(got, b, 1e-9) {
			t.Errorf("%dx%d: FromUnit(ToUnit(%v)) = %v", w, h, b, got)
		}
		// 0–1000 loses at most half a step of the scale.
		if got := From1000(b.To1000(w, h), w, h); !near(got, b, max(float64(w), float64(h))/2000+1e-9) {
			t.Errorf("%dx%d: From1000(To1000(%v)) = %v", w, h, b, got)
		}
		if got := BoxFromCOCO(b.ToCOCO()); got != b {
			t.Errorf("BoxFromCOCO(ToCOCO(%v)) = %v", b, got)
		}
	}
	if got := (Box{100, 120, 200, 220}).ToCOCO(); got != [4]float64{100, 120, 100, 100} {
		t.Errorf("ToCOCO = %v, want spec §7 [100 120 100 100]", got)
	}
	if got := From1000([4]int{83, 150, 167, 275}, 1200, 800); !near(got, Box{99.6, 120, 200.4, 220}, 1e-9) {
		t.Errorf("From1000 = %v", got)
	}
}

func near(a, b Box, eps float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > eps {
			return false
		}
	}
	return true
}

func TestBoxGeometry(t *testing.T) {
	if got := (Box{200, 220, 100, 120}).Normalize(); got != (Box{100, 120, 200, 220}) {
		t.Errorf("Normalize = %v", got)
	}
	if got := (Box{-5, 10, 1300, 900}).Clamp(1201, 799); got != (Box{0, 10, 1201, 799}) {
		t.Errorf("Clamp = %v", got)
	}
	areas := []struct {
		b    Box
		want float64
	}{
		{Box{100, 120, 200, 220}, 10000},
		{Box{0, 0, 0.5, 3}, 1.5},
		{Box{10, 10, 5, 20}, 0}, // inverted
		{Box{10, 10, 10, 20}, 0},
	}
	for _, a := range areas {
		if got := a.b.Area(); got != a.want {
			t.Errorf("%v.Area() = %g, want %g", a.b, got, a.want)
		}
	}
	ious := []struct {
		a, b Box
		want float64
	}{
		{Box{0, 0, 10, 10}, Box{0, 0, 10, 10}, 1},
		{Box{0, 0, 10, 10}, Box{5, 0, 15, 10}, 50.0 / 150},
		{Box{0, 0, 10, 10}, Box{10, 0, 20, 10}, 0}, // touching
		{Box{0, 0, 10, 10}, Box{2, 2, 4, 4}, 4.0 / 100},
		{Box{0, 0, 0, 0}, Box{0, 0, 0, 0}, 0},
	}
	for _, c := range ious {
		if got := c.a.IoU(c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%v.IoU(%v) = %g, want %g", c.a, c.b, got, c.want)
		}
		if got := c.b.IoU(c.a); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("IoU not symmetric for %v, %v", c.a, c.b)
		}
	}
}

func TestBoxCheck(t *testing.T) {
	tests := []struct {
		b       Box
		w, h    int
		wantErr string // substring; "" = valid
	}{
		{Box{0, 0, 7, 3}, 7, 3, ""}, // touches right and bottom edges
		{Box{0, 0, 7, 3}, 0, 0, ""},
		{Box{0, 0, 8, 3}, 7, 3, "past the 7×3 image"},
		{Box{0, 0, 7, 4}, 7, 3, "past the 7×3 image"},
		{Box{0, 0, 9000, 9000}, 0, 0, ""}, // size unknown: bounds not checked
		{Box{5, 0, 5, 3}, 7, 3, "x1 5 is not left of x2 5"},
		{Box{0, 3, 7, 1}, 7, 3, "y1 3 is not above y2 1"},
		{Box{-1, 0, 5, 3}, 0, 0, "coordinate 1 is negative"},
		{Box{0, math.NaN(), 5, 3}, 7, 3, "coordinate 2 is NaN"},
	}
	for _, tt := range tests {
		err := tt.b.Check(tt.w, tt.h)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%v.Check(%d, %d) = %v, want valid", tt.b, tt.w, tt.h, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%v.Check(%d, %d) = %v, want %q", tt.b, tt.w, tt.h, err, tt.wantErr)
		}
		if tt.b.Valid(tt.w, tt.h) != (err == nil) {
			t.Errorf("Valid disagrees with Check for %v", tt.b)
		}
	}
}
