package annotate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxIDLen is the longest sample id, in bytes.
const MaxIDLen = 128

// IDCharacters describes the characters a sample id may hold, for messages and docs.
const IDCharacters = "letters A–Z and a–z, digits 0–9 and . _ - : + @, starting with a letter or digit"

// CheckID says why id cannot be a sample id, or returns nil. An id is 1 to MaxIDLen
// of IDCharacters: ids are printed in review queues and logs, typed in commands
// and used in file names, so a space, a control character, a quote, a slash or a
// non-ASCII letter would forge output lines, need quoting or differ only in how
// they look.
func CheckID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("the id is empty")
	case len(id) > MaxIDLen:
		return fmt.Errorf("the id is %d bytes long; at most %d are allowed", len(id), MaxIDLen)
	case !idStart(id[0]):
		return fmt.Errorf("the id %s must start with a letter or digit", quoteID(id))
	}
	for i := 0; i < len(id); i++ {
		if !idByte(id[i]) {
			r, _ := utf8.DecodeRuneInString(id[i:])
			return fmt.Errorf("the id %s holds %s at byte %d; ids may use %s", quoteID(id), describeRune(r), i+1, IDCharacters)
		}
	}
	return nil
}

func idStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func idByte(c byte) bool {
	return idStart(c) || strings.IndexByte("._-:+@", c) >= 0
}

// IDPrefix turns a name (a project's, say) into text that can start an id: every
// run of characters an id cannot hold becomes one underscore.
func IDPrefix(name string) string {
	var b strings.Builder
	gap := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !idByte(c) {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteByte('_')
		}
		gap = false
		b.WriteByte(c)
	}
	out := strings.TrimLeft(b.String(), "._-:+@")
	if out == "" {
		out = "sample"
	}
	if len(out) > MaxIDLen/2 {
		out = out[:MaxIDLen/2]
	}
	return out
}

// quoteID quotes an id for a message, escaping what a terminal would interpret
// and cutting a long one short.
func quoteID(id string) string {
	if len(id) > 40 {
		id = id[:37] + "..."
	}
	return strconv.QuoteToASCII(id)
}

func describeRune(r rune) string {
	switch {
	case r == utf8.RuneError:
		return "a byte that is not UTF-8"
	case r == ' ':
		return "a space"
	case r < ' ' || r == 0x7f:
		return fmt.Sprintf("the control character %U", r)
	}
	return fmt.Sprintf("%q", r)
}

// InvalidUTF8 finds the first byte of a JSON text that is not UTF-8 and names
// where it is: the field path ("question", "options[2]", "steps[0].content"),
// "a field name" inside an object when a key holds it, or "" for the top level.
// ok is false when data is valid UTF-8. Go's JSON decoder replaces such bytes
// with U+FFFD without telling anyone, so a record has to be checked before it is
// decoded.
func InvalidUTF8(data []byte) (path string, offset int, ok bool) {
	offset = firstInvalidUTF8(data)
	if offset < 0 {
		return "", 0, false
	}
	type frame struct {
		array   bool
		index   int
		key     string
		wantKey bool
	}
	var stack []*frame
	pathOf := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case f.array:
				fmt.Fprintf(&b, "[%d]", f.index)
			case !f.wantKey:
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				if f.key == "" {
					b.WriteString(`""`) // an empty field name
				} else {
					b.WriteString(f.key)
				}
			}
		}
		return b.String()
	}
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		top := stack[len(stack)-1]
		if top.array {
			top.index++
		} else {
			top.wantKey, top.key = true, ""
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return pathOf(), offset, true
		}
		if dec.InputOffset() > int64(offset) {
			if len(stack) > 0 {
				if top := stack[len(stack)-1]; !top.array && top.wantKey {
					if p := pathOf(); p != "" {
						return p + " (a field name)", offset, true
					}
					return "a field name", offset, true
				}
			}
			return pathOf(), offset, true
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{wantKey: true})
			case '[':
				stack = append(stack, &frame{array: true})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if len(stack) > 0 {
				if top := stack[len(stack)-1]; !top.array && top.wantKey {
					top.key, top.wantKey = t, false
					continue
				}
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// invalidUTF8Error describes a record's first byte that is not UTF-8, or is nil.
func invalidUTF8Error(data []byte) (field string, err error) {
	path, off, bad := InvalidUTF8(data)
	if !bad {
		return "", nil
	}
	where := "the record"
	if path != "" {
		where = path
	}
	return path, fmt.Errorf("%s: byte %d of the record is not UTF-8; save the file as UTF-8", where, off+1)
}
