package release

import (
	"bytes"
	"io"
)

// The formats write JSON by hand, key by key, with annotate.JSONObject, so that
// the bytes are fixed by the code rather than by struct tags and map order.

// writeJSONList writes items as a JSON list, one item per line.
func writeJSONList(w io.Writer, items [][]byte) error {
	var b bytes.Buffer
	b.WriteString("[")
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		b.Write(it)
	}
	if len(items) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}

// orEmpty is s, or an empty list instead of nil (JSON [] rather than null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
