package agreement

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// workedExample is the reliability data of Krippendorff (2011), "Computing
// Krippendorff's alpha-reliability", spec §7: 4 coders × 12 units.
var workedExample = [][]string{
	strings.Fields("1 2 3 3 2 1 4 1 2 . . ."),
	strings.Fields("1 2 3 3 2 2 4 1 2 5 . 3"),
	strings.Fields(". 3 3 3 2 3 4 2 2 5 1 ."),
	strings.Fields("1 2 3 3 2 4 4 1 2 5 1 ."),
}

func dotMissing(s string) bool { return s == "." }

func workedData() *Data { return NewData(workedExample, dotMissing) }

// round3 rounds to three decimals, as the published values are given.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func TestAlphaWorkedExample(t *testing.T) {
	// D_o and D_e checked against a direct pairwise computation (no
	// coincidence matrix).
	tests := []struct {
		level        Level
		alpha        float64
		observed     float64
		expected     float64
		alphaPrecise float64
	}{
		{Nominal, 0.743, 0.2, 0.7794871794871795, 0.743421052631579},
		{Ordinal, 0.815, 47.275, 256.0769230769231, 0.8153875037548813},
		{Interval, 0.849, 0.4333333333333334, 2.871794871794872, 0.8491071428571428},
		{Ratio, 0.797, 0.022432728647014365, 0.11072574471384031, 0.7974027747116127},
	}
	wantValues := []ValueCount{{"1", 9}, {"2", 13}, {"3", 10}, {"4", 5}, {"5", 3}}
	for _, tt := range tests {
		t.Run(tt.level.String(), func(t *testing.T) {
			r, err := Alpha(workedData(), tt.level)
			if err != nil {
				t.Fatal(err)
			}
			if got := round3(r.Alpha); got != tt.alpha {
				t.Errorf("alpha = %v (%.3f), want %.3f", r.Alpha, got, tt.alpha)
			}
			if !near(r.Alpha, tt.alphaPrecise, 1e-12) || !near(r.Observed, tt.observed, 1e-12) || !near(r.Expected, tt.expected, 1e-12) {
				t.Errorf("alpha, D_o, D_e = %v, %v, %v; want %v, %v, %v", r.Alpha, r.Observed, r.Expected, tt.alphaPrecise, tt.observed, tt.expected)
			}
			if r.Level != tt.level || r.Units != 11 || r.DroppedUnits != 1 || r.Pairable != 40 {
				t.Errorf("level, units, dropped, pairable = %v, %d, %d, %d; want %v, 11, 1, 40", r.Level, r.Units, r.DroppedUnits, r.Pairable, tt.level)
			}
			if !reflect.DeepEqual(r.Values, wantValues) {
				t.Errorf("values = %v, want %v", r.Values, wantValues)
			}
		})
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// The three constructors must give the same data for the worked example.
func TestConstructorsAgree(t *testing.T) {
	var units, triples Builder
	for u := range workedExample[0] {
		var vals []string
		for c, row := range workedExample {
			v := row[u]
			if v == "." {
				v = "" // missing
			}
			vals = append(vals, v)
			if err := triples.Add(string(rune('a'+u)), string(rune('A'+c)), v); err != nil {
				t.Fatal(err)
			}
		}
		units.AddUnit(vals...)
	}
	for name, d := range map[string]*Data{"AddUnit": units.Data(), "Add": triples.Data()} {
		if d.Units() != 12 || d.Coders() != 4 || d.Values() != 40+1 {
			t.Errorf("%s: units, coders, values = %d, %d, %d; want 12, 4, 41", name, d.Units(), d.Coders(), d.Values())
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			want, err := Alpha(workedData(), level)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Alpha(d, level)
			if err != nil {
				t.Fatalf("%s %v: %v", name, level, err)
			}
			if !near(got.Alpha, want.Alpha, 1e-12) || got.Units != want.Units || got.DroppedUnits != want.DroppedUnits {
				t.Errorf("%s %v: got %+v, want %+v", name, level, got, want)
			}
		}
	}
}

func TestAlphaProperties(t *testing.T) {
	levels := []Level{Nominal, Ordinal, Interval, Ratio}
	tests := []struct {
		name string
		rows [][]string
		want float64 // at every level
		tol  float64
	}{
		{"perfect agreement", [][]string{
			{"1", "2", "3", "3", "5", ""},
			{"1", "2", "3", "3", "5", "4"},
			{"", "2", "3", "3", "5", "4"},
		}, 1, 0},
		// n=2000, n_0=1999, n_1=1: D_o = D_e = 1/1000.
		{"one disagreement in skewed data", skewed(1000), 0, 1e-9},
		// n=8, n_1=n_2=4, every pair disagrees: 1 - (n-1)·8/(64-32). With
		// two values every metric is a constant times the nominal one.
		{"systematic swap", [][]string{
			{"1", "2", "1", "2"},
			{"2", "1", "2", "1"},
		}, -0.75, 1e-12},
	}
	for _, tt := range tests {
		for _, level := range levels {
			r, err := Alpha(NewData(tt.rows, nil), level)
			if err != nil {
				t.Fatalf("%s, %v: %v", tt.name, level, err)
			}
			if math.Abs(r.Alpha-tt.want) > tt.tol {
				t.Errorf("%s, %v: alpha = %v, want %v", tt.name, level, r.Alpha, tt.want)
			}
		}
	}
}

func skewed(units int) [][]string {
	rows := [][]string{make([]string, units), make([]string, units)}
	for u := range units {
		rows[0][u], rows[1][u] = "0", "0"
	}
	rows[1][units/2] = "1"
	return rows
}

// Alpha must not depend on the order of units or of coders.
func TestAlphaPermutationInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const coders, units = 5, 60
	rows := make([][]string, coders)
	for c := range rows {
		rows[c] = make([]string, units)
		for u := range rows[c] {
			switch x := rng.IntN(10); {
			case x == 0:
				rows[c][u] = ""
			case x < 7:
				rows[c][u] = string(rune('1' + u%5))
			default:
				rows[c][u] = string(rune('1' + rng.IntN(5)))
			}
		}
	}
	unitPerm, coderPerm := rng.Perm(units), rng.Perm(coders)
	perm := make([][]string, coders)
	for c := range perm {
		perm[c] = make([]string, units)
		for u := range perm[c] {
			perm[c][u] = rows[coderPerm[c]][unitPerm[u]]
		}
	}
	for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
		a, err := Alpha(NewData(rows, nil), level)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Alpha(NewData(perm, nil), level)
		if err != nil {
			t.Fatal(err)
		}
		if !near(a.Alpha, b.Alpha, 1e-12) || a.Alpha == 1 {
			t.Errorf("%v: alpha %v before permuting, %v after", level, a.Alpha, b.Alpha)
		}
	}
}

func TestAlphaUndefined(t *testing.T) {
	tests := []struct {
		name  string
		rows  [][]string
		level Level
		why   string
	}{
		{"no data", nil, Nominal, "fewer than two pairable values"},
		{"all missing", [][]string{{"", ""}, {"", ""}}, Nominal, "fewer than two pairable values"},
		{"one value per unit", [][]string{{"1", "", "3"}, {"", "2", ""}}, Interval, "fewer than two pairable values"},
		{"one distinct value", [][]string{{"yes", "yes"}, {"yes", "yes", "no"}}, Nominal, `all 4 pairable values are "yes"`},
		{"numerically one value", [][]string{{"1", "1.0"}, {"1.00", "1"}}, Interval, `all 4 pairable values are "1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Alpha(NewData(tt.rows, nil), tt.level)
			if !errors.Is(err, ErrUndefined) {
				t.Fatalf("got %+v, %v; want an error wrapping ErrUndefined", r, err)
			}
			if !strings.Contains(err.Error(), tt.why) {
				t.Errorf("error %q does not say %q", err, tt.why)
			}
		})
	}
}

func TestAlphaLabels(t *testing.T) {
	rows := [][]string{
		{"pass", "pass", "fail", "pass", "fail"},
		{"pass", "fail", "fail", "pass", "fail"},
		{"pass", "pass", "fail", "pass", "pass"},
	}
	r, err := Alpha(NewData(rows, nil), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	// n=15, n_fail=6, n_pass=9; two units with a 2:1 split give o_fp=2.
	if want := 1 - 14*4.0/(225-36-81); !near(r.Alpha, want, 1e-12) {
		t.Errorf("alpha = %v, want %v", r.Alpha, want)
	}
	if want := []ValueCount{{"fail", 6}, {"pass", 9}}; !reflect.DeepEqual(r.Values, want) {
		t.Errorf("values = %v, want %v", r.Values, want)
	}

	for _, level := range []Level{Ordinal, Interval, Ratio} {
		_, err := Alpha(NewData(rows, nil), level)
		if err == nil || errors.Is(err, ErrUndefined) || !strings.Contains(err.Error(), `"pass"`) || !strings.Contains(err.Error(), "coder 1, unit 1") {
			t.Errorf("%v: error %v, want one naming value \"pass\" at coder 1, unit 1", level, err)
		}
	}
	if _, err := Alpha(NewData([][]string{{"1", "-2"}, {"1", "3"}}, nil), Ratio); err == nil || !strings.Contains(err.Error(), `"-2"`) {
		t.Errorf("ratio with a negative value: error %v, want one naming \"-2\"", err)
	}
	if _, err := Alpha(NewData([][]string{{"1", "NaN"}, {"1", "3"}}, nil), Interval); err == nil || !strings.Contains(err.Error(), `"NaN"`) {
		t.Errorf("interval with NaN: error %v, want one naming \"NaN\"", err)
	}
}

func TestAlphaValueOrder(t *testing.T) {
	rows := [][]string{{"b", "10", "9", "a", "9"}, {"b", "10", "10", "a", "2.5"}}
	r, err := Alpha(NewData(rows, nil), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	want := []ValueCount{{"2.5", 1}, {"9", 2}, {"10", 3}, {"a", 2}, {"b", 2}}
	if !reflect.DeepEqual(r.Values, want) {
		t.Errorf("values = %v, want %v", r.Values, want)
	}
}

// At the numeric levels "1" and "1.0" are one value; at nominal, two labels.
func TestAlphaNumericEquality(t *testing.T) {
	d := NewData([][]string{{"1", "2", "1"}, {"1.0", "2", "2"}}, nil)
	nom, err := Alpha(d, Nominal)
	if err != nil {
		t.Fatal(err)
	}
	itv, err := Alpha(d, Interval)
	if err != nil {
		t.Fatal(err)
	}
	if len(nom.Values) != 3 || len(itv.Values) != 2 || itv.Values[0] != (ValueCount{"1", 3}) {
		t.Errorf("nominal values %v, interval values %v", nom.Values, itv.Values)
	}
	if itv.Alpha <= nom.Alpha {
		t.Errorf("interval alpha %v should exceed nominal %v, which counts 1 vs 1.0 as a disagreement", itv.Alpha, nom.Alpha)
	}
}

func TestBuilderAdd(t *testing.T) {
	var b Builder
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.Add("s1", "ann", "pass"))
	must(b.Add("s1", "bob", "pass"))
	must(b.Add("s1", "ann", "pass")) // repeated, same value
	must(b.Add("s2", "ann", "fail"))
	must(b.Add("s2", "bob", ""))     // missing
	must(b.Add("s3", "cat", "pass")) // a third coder
	if err := b.Add("s1", "bob", "fail"); err == nil || !strings.Contains(err.Error(), `"bob"`) || !strings.Contains(err.Error(), `"s1"`) {
		t.Errorf("conflicting value: error %v, want one naming coder bob and unit s1", err)
	}
	b.AddUnit("fail", "fail")
	d := b.Data()
	if d.Units() != 4 || d.Coders() != 3 || d.Values() != 6 {
		t.Errorf("units, coders, values = %d, %d, %d; want 4, 3, 6", d.Units(), d.Coders(), d.Values())
	}
	r, err := Alpha(d, Nominal)
	if err != nil {
		t.Fatal(err)
	}
	if r.Alpha != 1 || r.Units != 2 || r.DroppedUnits != 2 {
		t.Errorf("alpha, units, dropped = %v, %d, %d; want 1, 2, 2", r.Alpha, r.Units, r.DroppedUnits)
	}
	b.AddUnit("pass", "fail") // the Builder stays usable; earlier Data unchanged
	if b.Data().Units() != 5 || d.Units() != 4 {
		t.Errorf("after another AddUnit: new data %d units, old data %d; want 5, 4", b.Data().Units(), d.Units())
	}
}

func TestParseLevel(t *testing.T) {
	for _, l := range []Level{Nominal, Ordinal, Interval, Ratio} {
		got, err := ParseLevel(strings.ToUpper(l.String()))
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v", strings.ToUpper(l.String()), got, err)
		}
	}
	if _, err := ParseLevel("circular"); err == nil {
		t.Error("ParseLevel(circular) succeeded")
	}
	if _, err := Alpha(workedData(), Level(9)); err == nil {
		t.Error("Alpha with Level(9) succeeded")
	}
}

func TestReading(t *testing.T) {
	tests := []struct {
		alpha float64
		want  string
	}{
		{1, Reliable}, {0.8, Reliable}, {0.7999, Tentative}, {0.667, Tentative},
		{0.6669, NotReliable}, {0, NotReliable}, {-0.75, NotReliable}, {math.NaN(), NotReliable},
	}
	for _, tt := range tests {
		if got := Reading(tt.alpha); got != tt.want {
			t.Errorf("Reading(%v) = %q, want %q", tt.alpha, got, tt.want)
		}
	}
}

func TestAlphaTooManyValues(t *testing.T) {
	row := make([]string, MaxValues+1)
	for i := range row {
		row[i] = "v" + strconv.Itoa(i)
	}
	_, err := Alpha(NewData([][]string{row, row}, nil), Nominal)
	if err == nil || errors.Is(err, ErrUndefined) || !strings.Contains(err.Error(), strconv.Itoa(MaxValues+1)) {
		t.Errorf("error %v, want one counting %d distinct values", err, MaxValues+1)
	}
}

// Huge and tiny magnitudes: alpha is the same as for the same data scaled to small
// numbers (it does not depend on the unit), never NaN from an overflowing square.
func TestAlphaScaleInvariance(t *testing.T) {
	base := [][]string{
		strings.Fields("1 2 3 3 2 . 4"),
		strings.Fields("1 2 3 4 2 2 4"),
		strings.Fields("1 3 3 3 2 2 4"),
	}
	scaled := func(f float64) [][]string {
		out := make([][]string, len(base))
		for i, row := range base {
			for _, v := range row {
				if v != "." {
					x, _ := strconv.ParseFloat(v, 64)
					v = strconv.FormatFloat(x*f, 'g', -1, 64)
				}
				out[i] = append(out[i], v)
			}
		}
		return out
	}
	for _, level := range []Level{Interval, Ratio} {
		want, err := Alpha(NewData(base, dotMissing), level)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []float64{1e-300, 1e-3, 1e3, 1e200, 1e300} {
			r, err := Alpha(NewData(scaled(f), dotMissing), level)
			if err != nil {
				t.Fatalf("%s ×%g: %v", level, f, err)
			}
			if !near(r.Alpha, want.Alpha, 1e-9) {
				t.Errorf("%s ×%g: alpha %v, want %v", level, f, r.Alpha, want.Alpha)
			}
			if _, err := r.Bootstrap(context.Background(), 200, 1); err != nil {
				t.Errorf("%s ×%g: bootstrap: %v", level, f, err)
			}
		}
	}
	// The fuzzer's case: two coders, one unit, 0 and 1e200.
	r, err := Alpha(NewData([][]string{{"0", "5"}, {"1e200", "5"}}, dotMissing), Interval)
	if err != nil || math.IsNaN(r.Alpha) {
		t.Errorf("0 vs 1e200: alpha %v, err %v; want a number", r, err)
	}
}
