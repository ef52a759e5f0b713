package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// The formats write JSON by hand, key by key, so that the bytes are fixed by the
// code rather than by struct tags and map order.

// objectWriter writes the members of a JSON object, remembering the first error.
type objectWriter struct {
	buf  *bytes.Buffer
	keys map[string]bool
	err  error
}

func (w *objectWriter) raw(key string, v []byte) {
	if len(w.keys) > 0 {
		w.buf.WriteByte(',')
	}
	w.keys[key] = true
	k, _ := marshalPlain(key)
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(v)
}

func (w *objectWriter) value(key string, v any) {
	b, err := marshalPlain(v)
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("%s: %w", key, err)
		}
		return
	}
	w.raw(key, b)
}

// str writes a string member unless it is empty.
func (w *objectWriter) str(key, v string) {
	if v != "" {
		w.value(key, v)
	}
}

// marshalPlain is json.Marshal without HTML escaping.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// jsonObject builds one JSON object with keys in the order fill writes them.
func jsonObject(fill func(w *objectWriter)) ([]byte, error) {
	w := objectWriter{buf: new(bytes.Buffer), keys: map[string]bool{}}
	w.buf.WriteByte('{')
	fill(&w)
	if w.err != nil {
		return nil, w.err
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}

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
