package release

import "testing"

func TestStamp(t *testing.T) {
	for in, want := range map[string]string{
		"2026-03-01T10:20:30.123456789Z": "2026-03-01T10:20:30Z",
		"2026-03-01T12:20:30.5+02:00":    "2026-03-01T10:20:30Z",
		"2026-03-01T10:20:30Z":           "2026-03-01T10:20:30Z",
		"2026-03-01":                     "2026-03-01",
		"":                               "",
		"yesterday":                      "yesterday",
	} {
		if got := Stamp(in); got != want {
			t.Errorf("Stamp(%q) = %q, want %q", in, got, want)
		}
	}
}
