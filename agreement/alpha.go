package agreement

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ErrUndefined is wrapped by the error [Alpha] returns when alpha is not
// defined for the data: fewer than two pairable values, or a single distinct
// value (no expected disagreement). Check it with errors.Is.
var ErrUndefined = errors.New("alpha undefined")

// MaxValues bounds the number of distinct values [Alpha] accepts, which keeps
// the values × values coincidence matrix small.
const MaxValues = 2048

// Level is a level of measurement; it selects alpha's difference function.
type Level int

// The levels of measurement.
const (
	Nominal  Level = iota // delta = 0 if c == k, else 1
	Ordinal               // delta = (sum of n_g for g from c to k - (n_c+n_k)/2)^2
	Interval              // delta = (c-k)^2
	Ratio                 // delta = ((c-k)/(c+k))^2
)

var levelNames = [...]string{"nominal", "ordinal", "interval", "ratio"}

func (l Level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel parses "nominal", "ordinal", "interval" or "ratio" (any case).
func ParseLevel(s string) (Level, error) {
	for i, name := range levelNames {
		if strings.EqualFold(s, name) {
			return Level(i), nil
		}
	}
	return 0, fmt.Errorf("agreement: unknown level %q (want nominal, ordinal, interval or ratio)", s)
}

// ValueCount is how many pairable values carry a value.
type ValueCount struct {
	Value string
	Count int
}

// Result is Krippendorff's alpha with the quantities it was computed from.
type Result struct {
	Alpha        float64
	Level        Level
	Units        int          // pairable units: units with two or more values
	DroppedUnits int          // units with fewer than two values, left out
	Pairable     int          // n, the number of pairable values
	Observed     float64      // D_o, observed disagreement
	Expected     float64      // D_e, expected disagreement
	Values       []ValueCount // n_c per value, in value order (numbers ascending, then labels)

	pairs int    // sum over pairable units of m_u(m_u-1)/2
	cells []cell // non-zero coincidences, c <= k
	// expected is D_e in the units of the cells' deltas (interval values are
	// scaled, so it may differ from Expected); the bootstrap holds it fixed.
	expected float64
}

// cell is one non-zero coincidence o_ck with c <= k; for c < k, o holds
// o_ck + o_kc.
type cell struct {
	o, delta float64
	diag     bool
}

// Alpha computes Krippendorff's alpha for d at the given level by the
// coincidence-matrix method. Units with fewer than two values are dropped and
// counted in Result.DroppedUnits. At the ordinal, interval and ratio levels
// every value must be a finite number (ratio: non-negative); values that are
// numerically equal ("1", "1.0") are one value there. At the nominal level
// values are labels compared exactly.
//
// If alpha is undefined the error wraps [ErrUndefined]. Alpha may be negative.
func Alpha(d *Data, level Level) (*Result, error) {
	if level < Nominal || level > Ratio {
		return nil, fmt.Errorf("agreement: unknown level %d", int(level))
	}
	classOf, classes, err := classify(d, level)
	if err != nil {
		return nil, err
	}
	k := len(classes)
	if k > MaxValues {
		return nil, fmt.Errorf("agreement: %d distinct values, more than the %d supported", k, MaxValues)
	}

	// Coincidences: each pairable unit u with m_u values adds, for each
	// ordered pair of its values (i != j), 1/(m_u-1) to o[v_i][v_j].
	o := make([]float64, k*k)
	n := make([]int, k) // n_c
	inUnit := make([]int, k)
	touched := make([]int32, 0, 16)
	r := &Result{Level: level}
	for u := range d.Units() {
		vals := d.unit(u)
		m := len(vals)
		if m < 2 {
			r.DroppedUnits++
			continue
		}
		r.Units++
		r.Pairable += m
		r.pairs += m * (m - 1) / 2
		for _, v := range vals {
			c := classOf[v]
			if inUnit[c] == 0 {
				touched = append(touched, c)
			}
			inUnit[c]++
		}
		w := 1 / float64(m-1)
		for i, c := range touched {
			nc := inUnit[c]
			n[c] += nc
			o[int(c)*k+int(c)] += float64(nc*(nc-1)) * w
			for _, c2 := range touched[i+1:] {
				x := float64(nc*inUnit[c2]) * w
				o[int(c)*k+int(c2)] += x
				o[int(c2)*k+int(c)] += x
			}
		}
		for _, c := range touched {
			inUnit[c] = 0
		}
		touched = touched[:0]
	}

	if r.Pairable < 2 {
		return nil, fmt.Errorf("%w: fewer than two pairable values (no unit has two or more values among %d units)", ErrUndefined, d.Units())
	}
	for c, nc := range n {
		if nc > 0 {
			r.Values = append(r.Values, ValueCount{classes[c].label, nc})
		}
	}
	if len(r.Values) == 1 {
		return nil, fmt.Errorf("%w: all %d pairable values are %s, so there is no expected disagreement", ErrUndefined, r.Pairable, quote(r.Values[0].Value))
	}

	delta, unit := deltaFunc(level, classes, n)
	var do, de float64
	for c := range k {
		if n[c] == 0 {
			continue
		}
		if x := o[c*k+c]; x > 0 {
			r.cells = append(r.cells, cell{o: x, diag: true})
		}
		for c2 := c + 1; c2 < k; c2++ {
			if n[c2] == 0 {
				continue
			}
			dl := delta(c, c2)
			de += float64(n[c]) * float64(n[c2]) * dl
			if x := o[c*k+c2]; x > 0 {
				do += x * dl
				r.cells = append(r.cells, cell{o: 2 * x, delta: dl})
			}
		}
	}
	nn := float64(r.Pairable)
	observed := 2 * do / nn
	r.expected = 2 * de / (nn * (nn - 1))
	if r.expected == 0 {
		return nil, fmt.Errorf("%w: the %s difference between all %d pairable values is 0, so there is no expected disagreement", ErrUndefined, level, r.Pairable)
	}
	r.Alpha = 1 - observed/r.expected
	r.Observed, r.Expected = observed*unit, r.expected*unit
	return r, nil
}

// class is one distinct value at a level.
type class struct {
	label string
	num   float64 // the number, if numeric
}

// classify maps each value code of d to a class, classes sorted in value
// order: numbers ascending, then non-numeric labels lexically. At the numeric
// levels every value must be a number and equal numbers share a class.
func classify(d *Data, level Level) ([]int32, []class, error) {
	type entry struct {
		code  int32
		num   float64
		isNum bool
	}
	es := make([]entry, len(d.labels))
	for i, label := range d.labels {
		f, err := strconv.ParseFloat(strings.TrimSpace(label), 64)
		isNum := err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
		if level != Nominal {
			if !isNum {
				return nil, nil, fmt.Errorf("agreement: %s level needs numbers, but value %s (%s) is not a finite number", level, quote(label), d.where[i])
			}
			if level == Ratio && f < 0 {
				return nil, nil, fmt.Errorf("agreement: ratio level needs non-negative numbers, but value %s (%s) is negative", quote(label), d.where[i])
			}
		}
		es[i] = entry{int32(i), f, isNum}
	}
	slices.SortFunc(es, func(a, b entry) int {
		switch {
		case a.isNum && b.isNum:
			if c := cmp.Compare(a.num, b.num); c != 0 {
				return c
			}
		case a.isNum:
			return -1
		case b.isNum:
			return 1
		}
		return strings.Compare(d.labels[a.code], d.labels[b.code])
	})
	classOf := make([]int32, len(d.labels))
	var classes []class
	for i, e := range es {
		if i == 0 || level == Nominal || e.num != es[i-1].num {
			classes = append(classes, class{d.labels[e.code], e.num})
		}
		classOf[e.code] = int32(len(classes) - 1)
	}
	return classOf, classes, nil
}

// deltaFunc returns the squared difference function delta(c, k) for classes
// c < k, given the pairable value counts n, and the factor that turns its values
// into the level's own units (interval values are scaled, see below).
func deltaFunc(level Level, classes []class, n []int) (func(c, k int) float64, float64) {
	switch level {
	case Ordinal:
		// sum_{g=c..k} n_g - (n_c+n_k)/2 equals mid_k - mid_c, where mid_g
		// = n_1 + ... + n_{g-1} + n_g/2.
		mid := make([]float64, len(n))
		cum := 0
		for g, ng := range n {
			mid[g] = float64(cum) + float64(ng)/2
			cum += ng
		}
		return func(c, k int) float64 { x := mid[k] - mid[c]; return x * x }, 1
	case Interval, Ratio:
		// Alpha does not change when every value is multiplied by one factor, so the
		// values are divided by the largest magnitude first: squaring 1e200 would
		// overflow to +Inf and make alpha NaN.
		num := make([]float64, len(classes))
		scale := 0.0
		for _, c := range classes {
			scale = max(scale, math.Abs(c.num))
		}
		for i, c := range classes {
			if num[i] = c.num; scale > 0 {
				num[i] = c.num / scale
			}
		}
		if level == Interval {
			return func(c, k int) float64 { x := num[k] - num[c]; return x * x }, scale * scale
		}
		return func(c, k int) float64 {
			// ((a-b)/(a+b))² as (1-r)/(1+r) with r = small/large on the values as
			// given: values are non-negative and distinct, so large > 0, and r stays
			// in [0, 1). Dividing by the scale first could turn a tiny value into 0,
			// equal to a zero beside it (0/0: NaN for "0, 1e307, 1e-17"), and a+b
			// could overflow.
			a, b := classes[c].num, classes[k].num
			lo, hi := min(a, b), max(a, b)
			r := lo / hi
			x := (1 - r) / (1 + r)
			return x * x
		}, 1
	}
	return func(c, k int) float64 { return 1 }, 1
}

// The readings of an alpha (Krippendorff 2004: rely on variables with alpha
// >= .800; draw tentative conclusions from .667 <= alpha < .800).
const (
	Reliable    = "reliable"
	Tentative   = "tentative"
	NotReliable = "not reliable"
)

// Reading says how far an alpha can be relied on: [Reliable] at 0.800 or
// above, [Tentative] from 0.667 up to 0.800, [NotReliable] below (and NaN).
func Reading(alpha float64) string {
	switch {
	case alpha >= 0.800:
		return Reliable
	case alpha >= 0.667:
		return Tentative
	}
	return NotReliable
}
