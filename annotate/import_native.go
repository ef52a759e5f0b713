package annotate

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ImportNative reads Benchwright's own JSON Lines (one native record a line, as
// the native export and bwctl augment --dry-run write them) into samples. Each
// record is decoded by ParseRecord; a record with a schema error (not an object,
// a known field of the wrong type, a required field missing, an unknown kind) is
// returned as a RecordError naming its rules and messages, and the others are
// kept with their lint left to the importer. The error is for input that is not
// JSON Lines (a malformed or over-long line) and names the line.
func ImportNative(r io.Reader) ([]Imported, []RecordError, error) {
	var out []Imported
	var bad []RecordError
	index := 0
	err := ReadJSONL(r, func(line int, raw []byte) error {
		defer func() { index++ }()
		s, findings := ParseRecord(raw)
		if !HasErrors(findings) {
			out = append(out, Imported{Line: line, Sample: s})
			return nil
		}
		var rules, msgs []string
		for _, f := range findings {
			if f.Severity == SeverityError {
				rules = append(rules, f.Rule)
				msgs = append(msgs, fmt.Sprintf("%s (%s): %s", f.Rule, f.Field, f.Message))
			}
		}
		bad = append(bad, RecordError{Index: index, Line: line,
			Err: fmt.Errorf("%s: %s", strings.Join(slices.Compact(rules), ", "), strings.Join(msgs, "; "))})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, bad, nil
}
