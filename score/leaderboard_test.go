package score

import (
	"reflect"
	"testing"
)

func report(model string, v, lo, hi float64) *Report {
	m := &Metric{Value: v, N: 100}
	if lo <= hi {
		m.CI = &[2]float64{lo, hi}
	}
	return &Report{Model: model, Overall: Figures{Acc50IoU: m}}
}

func TestLeaderboard(t *testing.T) {
	board, err := Leaderboard([]*Report{
		report("c", 40, 35, 45),
		report("b", 58, 53, 63),
		report("a", 60, 55, 65),
		report("d", 45, 45, 50), // touches c's interval
	}, "acc50iou")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		rank  int
		model string
		tied  []string
	}
	var got []row
	for _, s := range board {
		got = append(got, row{s.Rank, s.Model, s.TiedWith})
	}
	want := []row{
		{1, "a", []string{"b"}},
		{1, "b", []string{"a"}},
		{3, "d", []string{"c"}},
		{3, "c", []string{"d"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("leaderboard %v, want %v", got, want)
	}

	// Without intervals only equal values tie; equal values go by name.
	board, err = Leaderboard([]*Report{report("y", 50, 1, 0), report("x", 50, 1, 0), report("z", 70, 1, 0)}, "acc50iou")
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, s := range board {
		got = append(got, row{s.Rank, s.Model, s.TiedWith})
	}
	want = []row{{1, "z", nil}, {2, "x", []string{"y"}}, {2, "y", []string{"x"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("leaderboard without intervals %v, want %v", got, want)
	}
}

func TestLeaderboardErrors(t *testing.T) {
	if _, err := Leaderboard([]*Report{report("a", 1, 0, 2)}, "accuracy"); err == nil {
		t.Error("unknown figure accepted")
	}
	if _, err := Leaderboard([]*Report{report("a", 1, 0, 2)}, "mcq_acc"); err == nil {
		t.Error("a report without the figure accepted")
	}
	if _, err := Leaderboard([]*Report{report("a", 1, 0, 2), report("a", 2, 0, 3)}, "acc50iou"); err == nil {
		t.Error("two reports for one model accepted")
	}
}
