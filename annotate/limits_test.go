package annotate

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// zeros is an endless stream of NUL bytes, as /dev/zero gives.
type zeros struct{ read int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += int64(len(p))
	return len(p), nil
}

func TestReadJSONLBoundsLines(t *testing.T) {
	z := &zeros{}
	calls := 0
	err := ReadJSONL(z, func(int, []byte) error { calls++; return nil })
	var le *LineError
	if !errors.As(err, &le) || le.Line != 1 || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Fatalf("endless line: %v", err)
	}
	if calls != 0 || z.read > MaxLineBytes+1<<20 {
		t.Errorf("read %d bytes and called fn %d times before refusing", z.read, calls)
	}
	// A line of exactly the limit (with its newline) is still read; the next one over it is refused.
	ok := `{"a":"` + strings.Repeat("x", MaxLineBytes-9) + `"}` + "\n"
	long := `{"a":"` + strings.Repeat("x", MaxLineBytes) + `"}` + "\n"
	var lines []int
	err = ReadJSONL(io.MultiReader(strings.NewReader(ok), strings.NewReader(long)), func(line int, _ []byte) error {
		lines = append(lines, line)
		return nil
	})
	if len(ok) != MaxLineBytes || len(lines) != 1 || !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("a %d-byte line then an over-long one: lines %v, %v", len(ok), lines, err)
	}
}
