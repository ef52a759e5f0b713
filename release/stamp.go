package release

import "time"

// Stamp is how a release's times (its freeze, a curation's proposal and
// decisions) are written in an export: the stored RFC 3339 time in UTC to the
// second; a text that is no such time is written as it is.
func Stamp(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format(time.RFC3339)
}
