package annotate

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ObjectWriter writes the members of one JSON object in the order they are given,
// without escaping HTML characters, remembering the first error. The native record
// (Sample.MarshalJSON) and the release formats write their JSON with it, so that
// the bytes are fixed by the code rather than by struct tags and map order.
type ObjectWriter struct {
	buf  *bytes.Buffer
	keys map[string]bool
	err  error
}

// JSONObject builds one JSON object with the members fill writes.
func JSONObject(fill func(w *ObjectWriter)) ([]byte, error) {
	w := ObjectWriter{buf: new(bytes.Buffer), keys: map[string]bool{}}
	w.buf.WriteByte('{')
	fill(&w)
	if w.err != nil {
		return nil, w.err
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}

// Raw writes a member whose value is already JSON.
func (w *ObjectWriter) Raw(key string, v []byte) {
	if len(w.keys) > 0 {
		w.buf.WriteByte(',')
	}
	w.keys[key] = true
	k, _ := MarshalPlain(key)
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(v)
}

// Value writes a member encoded with MarshalPlain.
func (w *ObjectWriter) Value(key string, v any) {
	b, err := MarshalPlain(v)
	if err != nil {
		w.Fail(fmt.Errorf("%s: %w", key, err))
		return
	}
	w.Raw(key, b)
}

// Str writes a string member unless it is empty.
func (w *ObjectWriter) Str(key, v string) {
	if v != "" {
		w.Value(key, v)
	}
}

// Fail records err unless an earlier error is recorded; JSONObject returns it.
func (w *ObjectWriter) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Has reports whether a member named key was written.
func (w *ObjectWriter) Has(key string) bool { return w.keys[key] }

// MarshalPlain is json.Marshal without HTML escaping.
func MarshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
