package sampling

import "testing"

func TestSizeRule(t *testing.T) {
	for _, tc := range []struct {
		r     SizeRule
		err   string
		words string
		of100 int // Size()("s", 100)
	}{
		{SizeRule{PerStratum: 20}, "", "20 per stratum", 20},
		{SizeRule{PerStratum: 200}, "", "200 per stratum", 100},
		{SizeRule{PerStratum: 5, Margin: 0.05, Level: 0.95}, "", "5 per stratum", 5},
		{SizeRule{Margin: 0.05, Level: 0.95, Expected: 0.1}, "", "margin ±0.05 at 0.95 (expected rate 0.1)", SizeForMargin(0.05, 0.95, 0.1, 100)},
		{SizeRule{Margin: 0.1, Level: 0.9}, "", "margin ±0.1 at 0.9 (expected rate 0)", SizeForMargin(0.1, 0.9, 0, 100)},
		{SizeRule{}, "give a size per stratum or a margin of error between 0 and 1", "", 0},
		{SizeRule{PerStratum: -1, Margin: 1}, "give a size per stratum or a margin of error between 0 and 1", "", 0},
	} {
		got := ""
		if err := tc.r.Check(); err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%+v.Check() = %q, want %q", tc.r, got, tc.err)
		}
		if tc.err != "" {
			continue
		}
		if s := tc.r.String(); s != tc.words {
			t.Errorf("%+v says %q, want %q", tc.r, s, tc.words)
		}
		if n := tc.r.Size()("s", 100); n != tc.of100 {
			t.Errorf("%+v takes %d of 100, want %d", tc.r, n, tc.of100)
		}
	}
	if SizeForMargin(0.05, 0.95, 0.1, 100) == 20 || SizeForMargin(0.1, 0.9, 0, 100) == 5 {
		t.Fatal("the margin cases cannot tell the rules apart")
	}
}
