package verify

import (
	"strings"
	"unicode"
)

// NormalizeGroup returns a verifier group name in its stored form: spaces
// trimmed and runs of spaces collapsed, so " A" and "A" are one group. Groups
// compare without regard to case (SameGroup). A name over 40 characters, or
// with a comma, an equals sign or a control character, is refused with
// ErrInvalidPolicy. The empty name means "no group".
func NormalizeGroup(g string) (string, error) {
	g = groupForm(g)
	switch {
	case len(g) > 40:
		return "", refuse(ErrInvalidPolicy, "a group name has at most 40 characters, got %d", len(g))
	case strings.ContainsAny(g, ",="):
		return "", refuse(ErrInvalidPolicy, "group %q: a group name has no commas or = signs", g)
	case strings.ContainsFunc(g, unicode.IsControl):
		return "", refuse(ErrInvalidPolicy, "group %q: a group name has no control characters", g)
	}
	return g, nil
}

// SameGroup reports whether two verifiers' groups are one group: equal after
// NormalizeGroup's trimming, ignoring case. Two empty groups are not the same
// group (nobody is in it).
func SameGroup(a, b string) bool {
	a, b = groupForm(a), groupForm(b)
	return a != "" && strings.EqualFold(a, b)
}

// groupForm trims a group name and collapses its runs of spaces.
func groupForm(g string) string { return strings.Join(strings.Fields(g), " ") }
