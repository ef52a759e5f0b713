package release

import "testing"

func TestCheckWord(t *testing.T) {
	for _, c := range []struct {
		s    string
		max  int
		want string // "" = accepted
	}{
		{"v1.0_rc-2", 40, ""},
		{"Küche", 40, ""},
		{"abc", 3, ""},
		{"", 40, "the release version is empty"},
		{"abcd", 3, `release version "abcd" must be at most 3 letters, digits, '.', '_' or '-' (not starting with '.')`},
		{".hidden", 40, `release version ".hidden" must be at most 40 letters, digits, '.', '_' or '-' (not starting with '.')`},
		{"a/b", 40, `release version "a/b" must be at most 40 letters, digits, '.', '_' or '-' (not starting with '.')`},
		{"a b", 40, `release version "a b" must be at most 40 letters, digits, '.', '_' or '-' (not starting with '.')`},
	} {
		err := CheckWord("version", c.s, c.max)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckWord(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}
