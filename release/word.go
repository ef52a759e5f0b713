package release

import (
	"fmt"
	"strings"
	"unicode"
)

// CheckWord checks a release name or version (what says which, e.g. "name"):
// 1–maxLen letters, digits, '.', '_' or '-', not starting with '.'. Its error is
// the sentence saying why; the store wraps it as invalid input.
func CheckWord(what, s string, maxLen int) error {
	if s == "" {
		return fmt.Errorf("the release %s is empty", what)
	}
	if len(s) > maxLen || strings.IndexFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-')
	}) >= 0 || s[0] == '.' {
		return fmt.Errorf("release %s %q must be at most %d letters, digits, '.', '_' or '-' (not starting with '.')", what, s, maxLen)
	}
	return nil
}
