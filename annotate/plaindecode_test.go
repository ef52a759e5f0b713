package annotate

import (
	"encoding/json"
	"reflect"
	"testing"
)

// plainCases are values plainDecode takes or leaves: every one must decode to
// what json.Unmarshal gives, or be left to it.
var plainCases = []string{
	`"plain"`, `""`, `"with space and ümlaut"`, `"a\"b"`, `"tab\there"`, `"\u00e9"`, "\"raw\ttab\"", "\"bad \xff utf8\"",
	`"unterminated`, `"`, `x"`, `null`, `0`, `7`, `42`, `007`, `-3`, `1.5`, `1e3`, `999999999999999999`, `9999999999999999999`,
	`[]`, `["a"]`, `["a","b"]`, `[ "a" ]`, `["a",]`, `[,"a"]`, `["a""b"]`, `["a",1]`, `["a\"",""]`, `["a","b`, `[`, `]`, `[null]`,
	`true`, `{}`, `{"a":1}`,
}

func TestPlainDecodeAgreesWithJSON(t *testing.T) {
	for _, raw := range plainCases {
		checkPlain[string](t, raw)
		checkPlain[[]string](t, raw)
		checkPlain[int](t, raw)
	}
}

// checkPlain fails when plainDecode takes raw into a T and json.Unmarshal
// refuses it or decodes another value.
func checkPlain[T any](t *testing.T, raw string) {
	t.Helper()
	var got T
	if !plainDecode([]byte(raw), &got) {
		return
	}
	var want T
	if err := json.Unmarshal([]byte(raw), &want); err != nil {
		t.Errorf("%T from %q: plainDecode took it, json.Unmarshal refuses it: %v", got, raw, err)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%T from %q: plainDecode gives %#v, json.Unmarshal %#v", got, raw, got, want)
	}
}

// TestPlainDecodeTakesThePlainest: the values it exists for are taken.
func TestPlainDecodeTakesThePlainest(t *testing.T) {
	var s string
	var l []string
	var n int
	for _, c := range []struct {
		raw string
		dst any
	}{{`"which is closest?"`, &s}, {`["the towel","the phone"]`, &l}, {`[]`, &l}, {`2`, &n}, {`0`, &n}} {
		if !plainDecode([]byte(c.raw), c.dst) {
			t.Errorf("%T from %s: left to json.Unmarshal", c.dst, c.raw)
		}
	}
}

func FuzzPlainDecode(f *testing.F) {
	for _, c := range plainCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		checkPlain[string](t, raw)
		checkPlain[[]string](t, raw)
		checkPlain[int](t, raw)
	})
}
