package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Krippendorff's (2011) worked example, spec §7.
const (
	alphaWorkedCSV = `1,2,3,3,2,1,4,1,2,.,.,.
1,2,3,3,2,2,4,1,2,5,.,3
.,3,3,3,2,3,4,2,2,5,1,.
1,2,3,3,2,4,4,1,2,5,1,.
`
	alphaNamedCSV = `ann,1,2,3,3,2,1,4,1,2,*,*,*
bob,1,2,3,3,2,2,4,1,2,5,*,3
cat,*,3,3,3,2,3,4,2,2,5,1,*
dan,1,2,3,3,2,4,4,1,2,5,1,*
`
	// Empty cells, spaces, ragged rows and "*" / "." mixed.
	alphaMixedCSV = `1,2,3,3,2,1,4,1,2
1,2,3,3,2,2,4,1,2,5, * ,3
 ,3,3,3,2,3,4,2,2,5,1,.
1,2,3,3,2,4,4,1,2,5,1,
`
)

func alphaFixture(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runAlphaCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = runAlpha(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestAlphaCommand(t *testing.T) {
	worked := alphaFixture(t, "worked.csv", alphaWorkedCSV)
	named := alphaFixture(t, "named.csv", alphaNamedCSV)
	mixed := alphaFixture(t, "mixed.csv", alphaMixedCSV)
	tests := []struct {
		name  string
		args  []string
		lines []string // lines stdout must hold; the first must come first
	}{
		{"default nominal", []string{worked}, []string{"alpha=0.743421", "level=nominal", "units=11", "dropped=1", "pairable=40", "observed=0.200000", "expected=0.779487", "reading=tentative"}},
		{"names, ordinal", []string{"--names", "--level", "ordinal", named}, []string{"alpha=0.815388", "level=ordinal", "reading=reliable"}},
		{"flags after the file", []string{worked, "--level", "interval"}, []string{"alpha=0.849107", "level=interval", "observed=0.433333", "expected=2.871795"}},
		{"ratio", []string{"-level=ratio", worked}, []string{"alpha=0.797403", "reading=tentative"}},
		{"empty, star and dot missing", []string{mixed}, []string{"alpha=0.743421", "units=11", "dropped=1", "pairable=40"}},
		{"bootstrap", []string{"--bootstrap", "500", "--seed", "7", worked}, []string{"alpha=0.743421", "bootstrap=500 seed=7 pairs=55"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runAlphaCmd(tt.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if lines[0] != tt.lines[0] {
				t.Errorf("first line %q, want %q", lines[0], tt.lines[0])
			}
			for _, want := range tt.lines {
				if !alphaHasLine(lines, want) {
					t.Errorf("stdout lacks line %q:\n%s", want, stdout)
				}
			}
		})
	}
}

func alphaHasLine(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func TestAlphaCommandBootstrap(t *testing.T) {
	worked := alphaFixture(t, "worked.csv", alphaWorkedCSV)
	run := func(seed string) []string {
		t.Helper()
		code, stdout, stderr := runAlphaCmd("--bootstrap", "1000", "--seed", seed, worked)
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		return strings.Split(strings.TrimSpace(stdout), "\n")
	}
	a, b, c := run("1"), run("1"), run("2")
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("same seed, different output:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	if len(a) != 12 || !strings.HasPrefix(a[9], "ci95=[") || !strings.HasPrefix(a[10], "q(alpha<0.800)=") || !strings.HasPrefix(a[11], "q(alpha<0.667)=") {
		t.Fatalf("bootstrap output:\n%s", strings.Join(a, "\n"))
	}
	if strings.Join(a[8:], "\n") == strings.Join(c[8:], "\n") {
		t.Errorf("seeds 1 and 2 gave the same bootstrap:\n%s", strings.Join(a[8:], "\n"))
	}
}

var alphaJSONPrefix = regexp.MustCompile(`^\{"alpha":0\.84910714\d*,"level":"interval","units":11,"pairable":40,"observed":0\.43333333\d*,"expected":2\.87179487\d*,`)

func TestAlphaCommandJSON(t *testing.T) {
	worked := alphaFixture(t, "worked.csv", alphaWorkedCSV)
	for _, boot := range []bool{false, true} {
		args := []string{"--json", "--level", "interval", worked}
		if boot {
			args = append([]string{"--bootstrap", "1000"}, args...)
		}
		code, stdout, stderr := runAlphaCmd(args...)
		if code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		// The documented fields lead, in order.
		prefix := alphaJSONPrefix.FindString(stdout)
		if prefix == "" || strings.Count(stdout, "\n") != 1 {
			t.Fatalf("bootstrap %v: stdout %s, want one line matching %s", boot, stdout, alphaJSONPrefix)
		}
		var got struct {
			Alpha   float64
			CI95    []float64
			Dropped int
			Reading string
			Values  []struct {
				Value string
				Count int
			}
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
		if got.Dropped != 1 || got.Reading != "reliable" || len(got.Values) != 5 || got.Values[1].Value != "2" || got.Values[1].Count != 13 {
			t.Errorf("bootstrap %v: decoded %+v", boot, got)
		}
		switch {
		case !boot && got.CI95 != nil:
			t.Errorf("ci95 %v without --bootstrap", got.CI95)
		case boot && (len(got.CI95) != 2 || !(got.CI95[0] < got.Alpha && got.Alpha < got.CI95[1])):
			t.Errorf("ci95 %v does not hold alpha %v", got.CI95, got.Alpha)
		}
		if next := map[bool]string{false: `"dropped":`, true: `"ci95":[`}[boot]; !strings.HasPrefix(stdout[len(prefix):], next) {
			t.Errorf("bootstrap %v: %s does not follow expected: %s", boot, next, stdout)
		}
	}
}

func TestAlphaCommandErrors(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	worked := file("worked.csv", alphaWorkedCSV)
	named := file("named.csv", alphaNamedCSV)
	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of stderr
	}{
		{"all one value", []string{file("same.csv", "yes,yes,*\nyes,yes,yes\n")}, 3, []string{"same.csv", "undefined", `all 4 pairable values are "yes"`}},
		{"one coder", []string{file("single.csv", "1,2,3\n")}, 3, []string{"single.csv", "undefined", "fewer than two pairable values"}},
		{"bare quote", []string{file("quote.csv", "1,2\n1,x\"y\n")}, 2, []string{"quote.csv", "line 2", "column"}},
		{"empty file", []string{file("empty.csv", "")}, 2, []string{"empty.csv", "no rows"}},
		{"duplicate coder", []string{"--names", file("dup.csv", "a,1,2\nb,1,2\na,2,2\n")}, 2, []string{"dup.csv", "line 3"}},
		{"label at interval level", []string{"--level", "interval", named}, 2, []string{"named.csv", `"ann"`, "line 1, field 1"}},
		{"missing file", []string{filepath.Join(dir, "nope.csv")}, 2, []string{"nope.csv"}},
		{"no file", nil, 2, []string{"usage: bwctl alpha"}},
		{"two files", []string{worked, worked}, 2, []string{"usage: bwctl alpha"}},
		{"bad level", []string{"--level", "circular", worked}, 2, []string{"circular"}},
		{"too many draws", []string{"--bootstrap", "100000001", worked}, 2, []string{"--bootstrap 100000001: want 0 (none) to 100000 draws"}},
		{"negative bootstrap", []string{"--bootstrap", "-5", worked}, 2, []string{"--bootstrap -5"}},
		{"bad seed", []string{"--seed", "x", worked}, 2, []string{"-seed"}},
		{"unknown flag", []string{"--colour", worked}, 2, []string{"colour"}},
		{"help", []string{"-h"}, 0, []string{"usage: bwctl alpha", "-bootstrap"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runAlphaCmd(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
		})
	}
}

// Values near 1e200 give a finite alpha, but D_o and D_e in the data's squared
// units overflow: --json prints null with a note instead of failing on +Inf, and a
// huge bad cell is quoted cut, with its size.
func TestAlphaCommandHugeValues(t *testing.T) {
	big := alphaFixture(t, "big.csv", "0,1e200,3,5\n1e200,-1e200,3,5\n")
	code, stdout, stderr := runAlphaCmd("--json", "--level", "interval", big)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var got struct {
		Alpha              float64
		Observed, Expected *float64
		Notes              []string
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if got.Observed != nil || got.Expected != nil || len(got.Notes) != 1 || !(got.Alpha > -0.53 && got.Alpha < -0.52) {
		t.Errorf("decoded %+v from %s", got, stdout)
	}
	if code, stdout, _ := runAlphaCmd("--level", "interval", big); code != 0 || !strings.Contains(stdout, "observed=overflow") {
		t.Errorf("text output: exit %d\n%s", code, stdout)
	}

	cell := strings.Repeat("x", 1<<20)
	bad := alphaFixture(t, "bad.csv", "1,2,"+cell+"\n1,2,3\n")
	code, _, stderr = runAlphaCmd("--level", "interval", bad)
	if code == 0 || len(stderr) > 400 || !strings.Contains(stderr, `"`+strings.Repeat("x", 60)+`"… (1048576 bytes)`) {
		t.Errorf("exit %d, a %d-byte message: %.300s", code, len(stderr), stderr)
	}
}
