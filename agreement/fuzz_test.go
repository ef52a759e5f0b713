package agreement

import (
	"bytes"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
)

// FuzzAlphaCSV reads reliability data as the alpha command does and computes alpha
// at every level. Nothing may panic; a CSV error names its line; alpha is a number in
// [-1, 1] with consistent counts, or an error: ErrUndefined, a value that does not fit
// the level (naming where it is), or too many distinct values. The seed corpus is in
// testdata/fuzz/FuzzAlphaCSV; scripts/fuzz runs it for a while.
func FuzzAlphaCSV(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, names bool) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d, coders, err := ReadCSV(bytes.NewReader(data), names)
		runtime.ReadMemStats(&after)
		// Bound (garbage included, as annotate's fuzz targets): linear in the input.
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(4<<20+1024*len(data)); got > limit {
			t.Errorf("ReadCSV allocated %d bytes for %d bytes of input, above the bound of %d", got, len(data), limit)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "read csv: ") {
				t.Errorf("ReadCSV error %q does not say what failed", err)
			}
			return
		}
		if names && len(coders) != d.Coders() || !names && coders != nil {
			t.Errorf("%d coder names for %d coders (names %v)", len(coders), d.Coders(), names)
		}
		for _, level := range []Level{Nominal, Ordinal, Interval, Ratio} {
			r, err := Alpha(d, level)
			if err != nil {
				msg := err.Error()
				if !errors.Is(err, ErrUndefined) && !strings.Contains(msg, "line ") && !strings.Contains(msg, "distinct values") {
					t.Errorf("%s: error %q is neither ErrUndefined nor names the offending value's place", level, msg)
				}
				if level == Nominal && !errors.Is(err, ErrUndefined) && !strings.Contains(msg, "distinct values") {
					t.Errorf("nominal alpha refused the data: %v", err)
				}
				continue
			}
			if math.IsNaN(r.Alpha) || r.Alpha > 1+1e-9 || r.Alpha < -1-1e-9 {
				t.Errorf("%s alpha = %v, outside [-1, 1] (D_o %v, D_e %v)\ninput %q", level, r.Alpha, r.Observed, r.Expected, data)
			}
			if r.Units+r.DroppedUnits != d.Units() || r.Pairable < 2 || len(r.Values) < 2 {
				t.Errorf("%s: %d pairable + %d dropped units of %d, %d pairable values, %d distinct", level, r.Units, r.DroppedUnits, d.Units(), r.Pairable, len(r.Values))
			}
			sum := 0
			for _, v := range r.Values {
				sum += v.Count
			}
			if sum != r.Pairable {
				t.Errorf("%s: value counts add up to %d, pairable values %d", level, sum, r.Pairable)
			}
		}
	})
}
