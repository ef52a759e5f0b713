package agreement

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestIoU(t *testing.T) {
	tests := []struct {
		name string
		a, b [4]float64
		want float64
	}{
		{"identical", [4]float64{412, 188, 470, 240}, [4]float64{412, 188, 470, 240}, 1},
		{"disjoint", [4]float64{0, 0, 10, 10}, [4]float64{20, 20, 30, 30}, 0},
		{"touching edges", [4]float64{0, 0, 10, 10}, [4]float64{10, 0, 20, 10}, 0},
		{"half shifted", [4]float64{0, 0, 2, 2}, [4]float64{1, 0, 3, 2}, 2.0 / 6},
		{"contained", [4]float64{0, 0, 4, 4}, [4]float64{1, 1, 3, 3}, 4.0 / 16},
		{"corner overlap", [4]float64{0, 0, 10, 10}, [4]float64{5, 5, 15, 15}, 25.0 / 175},
		{"empty boxes", [4]float64{5, 5, 5, 5}, [4]float64{5, 5, 5, 5}, 0},
	}
	for _, tt := range tests {
		if got := IoU(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: IoU = %v, want %v", tt.name, got, tt.want)
		}
		if got := IoU(tt.b, tt.a); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: IoU reversed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBoxAgreement(t *testing.T) {
	tests := []struct {
		name  string
		boxes [][4]float64
		want  BoxSummary
	}{
		{"two identical", [][4]float64{{0, 0, 10, 10}, {0, 0, 10, 10}}, BoxSummary{2, 1, 1, 1}},
		// IoUs 1, 1/3, 1/3.
		{"three, one shifted", [][4]float64{{0, 0, 10, 10}, {0, 0, 10, 10}, {5, 0, 15, 10}}, BoxSummary{3, 3, 5.0 / 9, 1.0 / 3}},
		// An IoU of exactly 0.5 counts.
		{"at the 0.5 threshold", [][4]float64{{0, 0, 2, 1}, {0, 0, 4, 1}}, BoxSummary{2, 1, 0.5, 1}},
		{"four, none overlap", [][4]float64{{0, 0, 1, 1}, {2, 2, 3, 3}, {4, 4, 5, 5}, {6, 6, 7, 7}}, BoxSummary{4, 6, 0, 0}},
	}
	for _, tt := range tests {
		got, err := BoxAgreement(tt.boxes...)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got.Boxes != tt.want.Boxes || got.Pairs != tt.want.Pairs || math.Abs(got.MeanIoU-tt.want.MeanIoU) > 1e-12 || math.Abs(got.ShareAt50-tt.want.ShareAt50) > 1e-12 {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestBoxAgreementErrors(t *testing.T) {
	tests := []struct {
		name  string
		boxes [][4]float64
		want  string
	}{
		{"none", nil, "got 0"},
		{"one", [][4]float64{{0, 0, 1, 1}}, "got 1"},
		{"x1 >= x2", [][4]float64{{0, 0, 1, 1}, {5, 0, 5, 1}}, "box 2"},
		{"y1 > y2", [][4]float64{{0, 3, 1, 1}, {0, 0, 1, 1}}, "box 1"},
		{"NaN", [][4]float64{{0, 0, 1, 1}, {0, 0, math.NaN(), 1}}, "box 2"},
	}
	for _, tt := range tests {
		_, err := BoxAgreement(tt.boxes...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestBoxes: each known person's latest box on a sample two or more accounts drew
// on; totals weight every pair alike.
func TestBoxes(t *testing.T) {
	d := func(sample string, author int64, name string, box string) Drawn {
		return Drawn{Sample: sample, Author: author, Name: name, Known: name != "", Box: []byte(box)}
	}
	got, err := Boxes([]Drawn{
		d("a", 1, "ann", `[0,0,10,10]`),
		d("a", 2, "bob", `[0,0,5,10]`),
		d("a", 1, "ann", `[0,0,5,10]`),  // ann's later box replaces her first
		d("b", 1, "ann", `[0,0,10,10]`), // one author: no row
		d("b", 1, "ann", `[0,0,10,10]`),
		d("c", 1, "ann", `[0,0,10,10]`),
		d("c", 3, "", `[0,0,1,1]`), // an account that is gone: left out
		d("c", 2, "bob", `[0,0,10,20]`),
		d("c", 4, "cy", `[0,0,10,10]`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 2 || got.Rows[0].Sample != "a" || got.Rows[1].Sample != "c" {
		t.Fatalf("rows %+v, want samples a and c", got.Rows)
	}
	if a := got.Rows[0]; a.Boxes != 2 || a.MeanIoU != 1 || !slices.Equal(a.Authors, []string{"ann", "bob"}) {
		t.Errorf("sample a: %+v, want ann's latest box, equal to bob's", a)
	}
	if c := got.Rows[1]; c.Boxes != 3 || c.Pairs != 3 || !slices.Equal(c.Authors, []string{"ann", "bob", "cy"}) {
		t.Errorf("sample c: %+v", c)
	}
	// Pairs: a 1 (IoU 1), c 3 (0.5, 1, 0.5).
	if got.Samples != 2 || got.Pairs != 4 || math.Abs(got.MeanIoU-3.0/4) > 1e-12 || got.ShareAt50 != 1 {
		t.Errorf("totals %+v, want 2 samples, 4 pairs, mean IoU 0.75, all at 0.5", got)
	}
	if _, err := Boxes([]Drawn{d("x", 1, "ann", `[0,0,1,1]`), d("x", 2, "bob", `[0,0,1`)}); err == nil || !strings.Contains(err.Error(), "sample x: box by bob") {
		t.Errorf("a stored box that is not JSON: %v", err)
	}
}
