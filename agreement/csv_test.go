package agreement

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	tests := []struct {
		name   string
		input  string
		names  bool
		coders []string
	}{
		{"dots", "1,2,3,3,2,1,4,1,2,.,.,.\n1,2,3,3,2,2,4,1,2,5,.,3\n.,3,3,3,2,3,4,2,2,5,1,.\n1,2,3,3,2,4,4,1,2,5,1,.\n", false, nil},
		{"stars, blanks and spaces", "1, 2,3,3,2,1,4,1,2,*,,\n1,2,3,3,2,2,4,1,2,5, * ,3\n,3,3,3,2,3,4,2,2,5,1,.\n1,2,3,3,2,4,4,1,2,5,1\n", false, nil},
		{"names, CRLF, blank line", "A,1,2,3,3,2,1,4,1,2\r\n\r\nB,1,2,3,3,2,2,4,1,2,5,,3\r\n\"C\",*,3,3,3,2,3,4,2,2,5,1\r\nD,1,2,3,3,2,4,4,1,2,5,1,.\r\n", true, []string{"A", "B", "C", "D"}},
	}
	want, err := Alpha(workedData(), Nominal)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, coders, err := ReadCSV(strings.NewReader(tt.input), tt.names)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(coders, tt.coders) {
				t.Errorf("coders = %q, want %q", coders, tt.coders)
			}
			if d.Coders() != 4 || d.Units() != 12 || d.Values() != 41 {
				t.Errorf("coders, units, values = %d, %d, %d; want 4, 12, 41", d.Coders(), d.Units(), d.Values())
			}
			r, err := Alpha(d, Nominal)
			if err != nil {
				t.Fatal(err)
			}
			if r.Alpha != want.Alpha || r.DroppedUnits != 1 || !reflect.DeepEqual(r.Values, want.Values) {
				t.Errorf("got %+v, want %+v", r, want)
			}
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		names bool
		want  []string
	}{
		{"empty", "", false, []string{"no rows"}},
		{"only blank lines", "\n\n", true, []string{"no rows"}},
		{"bare quote", "1,2\n1,x\"y\n", false, []string{"line 2", "column"}},
		{"unterminated quote", "1,2\n\"1,2\n", false, []string{"line 2"}},
		{"empty name", "A,1,2\n ,1,2\n", true, []string{"line 2", "empty coder name"}},
		{"repeated name", "A,1\nB,1\n\nA,2\n", true, []string{"line 4", `"A"`, "line 1"}},
		{"not UTF-8", "A,1,2\nB,1,\"x\xffy\"\n", true, []string{"line 2, column 3", "not UTF-8"}},
		{"name not UTF-8", "A,1\n\xfe,1\n", true, []string{"line 2, column 1", "not UTF-8"}},
	}
	for _, tt := range tests {
		_, _, err := ReadCSV(strings.NewReader(tt.input), tt.names)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tt.name, err, w)
			}
		}
	}
}

// A value that is not a number is reported by Alpha with its CSV position.
func TestReadCSVValuePosition(t *testing.T) {
	d, _, err := ReadCSV(strings.NewReader("A,1,2,3\n\nB,1,2,three\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Alpha(d, Interval)
	if err == nil || errors.Is(err, ErrUndefined) || !strings.Contains(err.Error(), `"three" (line 3, field 4)`) {
		t.Errorf("error %v, want one naming \"three\" at line 3, field 4", err)
	}
}
