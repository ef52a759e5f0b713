package score

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// litKind is the type of a decoded literal.
type litKind uint8

const (
	litNull litKind = iota
	litBool
	litNumber
	litString
	litList
	litObject
)

// lit is a JSON value or Python literal with object members in source order.
// Duplicate keys keep the first position and the last value, as Python's dict
// and json.loads do.
type lit struct {
	kind litKind
	str  string // string, or the source text of a number or bool
	list []lit
	keys []string
	vals []lit
}

func (v lit) get(key string) (lit, bool) {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i], true
		}
	}
	return lit{}, false
}

// text renders a scalar as Python's str() would, for step contents and ids that
// are not strings.
func (v lit) text() string {
	switch v.kind {
	case litString, litNumber, litBool:
		return v.str
	case litNull:
		return "None"
	}
	return ""
}

// parseLiteral decodes one value that is JSON or a Python literal, the two forms
// SpatiaLQA's parsers accept (json.loads, then ast.literal_eval): single- or
// double-quoted strings, True/False/None as well as true/false/null, tuples and
// sets as lists, trailing commas. Text after the value is an error.
func parseLiteral(s string) (lit, error) {
	p := &litParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return lit{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return lit{}, p.errorf("unexpected text after the value")
	}
	return v, nil
}

type litParser struct {
	s string
	i int
}

const maxLitDepth = 64

func (p *litParser) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *litParser) space() {
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !pyIsSpace(r) {
			return
		}
		p.i += n
	}
}

var errLitEnd = errors.New("unexpected end of text")

// litWords are the bare words of JSON and Python literals.
var litWords = []struct {
	word string
	v    lit
}{
	{"true", lit{kind: litBool, str: "True"}}, {"True", lit{kind: litBool, str: "True"}},
	{"false", lit{kind: litBool, str: "False"}}, {"False", lit{kind: litBool, str: "False"}},
	{"null", lit{kind: litNull}}, {"None", lit{kind: litNull}},
}

func (p *litParser) value(depth int) (lit, error) {
	if depth > maxLitDepth {
		return lit{}, p.errorf("nested too deeply")
	}
	p.space()
	if p.i >= len(p.s) {
		return lit{}, errLitEnd
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.braces(depth)
	case c == '[':
		p.i++
		items, err := p.items(']', depth)
		return lit{kind: litList, list: items}, err
	case c == '(':
		p.i++
		items, err := p.items(')', depth)
		return lit{kind: litList, list: items}, err
	case c == '"' || c == '\'':
		s, err := p.str()
		return lit{kind: litString, str: s}, err
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	for _, w := range litWords {
		if strings.HasPrefix(p.s[p.i:], w.word) {
			p.i += len(w.word)
			return w.v, nil
		}
	}
	return lit{}, p.errorf("unexpected %q", p.s[p.i:p.i+1])
}

// items reads comma-separated values up to the closing byte.
func (p *litParser) items(end byte, depth int) ([]lit, error) {
	items := []lit{}
	for {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			return items, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, errLitEnd
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case end:
		default:
			return nil, p.errorf("want ',' or %q", end)
		}
	}
}

// braces reads a dict, or a Python set (returned as a list).
func (p *litParser) braces(depth int) (lit, error) {
	p.i++
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return lit{kind: litObject}, nil
	}
	first, err := p.value(depth + 1)
	if err != nil {
		return lit{}, err
	}
	p.space()
	if p.i < len(p.s) && p.s[p.i] != ':' { // a set
		rest := []lit{first}
		if p.s[p.i] == ',' {
			p.i++
			more, err := p.items('}', depth)
			if err != nil {
				return lit{}, err
			}
			rest = append(rest, more...)
		} else if p.s[p.i] == '}' {
			p.i++
		} else {
			return lit{}, p.errorf("want ':', ',' or '}'")
		}
		return lit{kind: litList, list: rest}, nil
	}
	obj := lit{kind: litObject}
	var at map[string]int // key → index, built once the object is large
	key := first
	for {
		if key.kind != litString && key.kind != litNumber && key.kind != litBool && key.kind != litNull {
			return lit{}, p.errorf("an object key must be a string")
		}
		p.space()
		if p.i >= len(p.s) {
			return lit{}, errLitEnd
		}
		if p.s[p.i] != ':' {
			return lit{}, p.errorf("want ':'")
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return lit{}, err
		}
		k := key.text()
		j := -1
		if at != nil {
			if x, dup := at[k]; dup {
				j = x
			}
		} else {
			j = slices.Index(obj.keys, k)
		}
		if j >= 0 {
			obj.vals[j] = v
		} else {
			obj.keys = append(obj.keys, k)
			obj.vals = append(obj.vals, v)
			if at != nil {
				at[k] = len(obj.keys) - 1
			} else if len(obj.keys) > 16 {
				at = make(map[string]int, 2*len(obj.keys))
				for x, key := range obj.keys {
					at[key] = x
				}
			}
		}
		p.space()
		if p.i >= len(p.s) {
			return lit{}, errLitEnd
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return obj, nil
		default:
			return lit{}, p.errorf("want ',' or '}'")
		}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' { // trailing comma
			p.i++
			return obj, nil
		}
		if key, err = p.value(depth + 1); err != nil {
			return lit{}, err
		}
	}
}

func (p *litParser) number() (lit, error) {
	start := p.i
	if p.s[p.i] == '-' || p.s[p.i] == '+' {
		p.i++
	}
	for p.i < len(p.s) && strings.IndexByte("0123456789.eE+-_", p.s[p.i]) >= 0 {
		if (p.s[p.i] == '+' || p.s[p.i] == '-') && p.s[p.i-1] != 'e' && p.s[p.i-1] != 'E' {
			break
		}
		p.i++
	}
	text := strings.ReplaceAll(p.s[start:p.i], "_", "")
	if _, err := strconv.ParseFloat(text, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
		return lit{}, p.errorf("malformed number %q", p.s[start:p.i])
	}
	return lit{kind: litNumber, str: strings.TrimPrefix(text, "+")}, nil
}

// str reads a quoted string with JSON and Python escapes; an unknown escape
// keeps its backslash, as Python does.
func (p *litParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	// Fast path: no escape before the closing quote.
	for j := p.i; j < len(p.s); j++ {
		if p.s[j] == q {
			v := p.s[p.i:j]
			p.i = j + 1
			return v, nil
		}
		if p.s[j] == '\\' {
			break
		}
	}
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case '\\', '\'', '"', '/':
				b.WriteByte(e)
			case '\n':
			case 'u', 'x':
				n := 4
				if e == 'x' {
					n = 2
				}
				if p.i+n > len(p.s) {
					return "", errLitEnd
				}
				v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil {
					return "", p.errorf("bad \\%c escape", e)
				}
				p.i += n
				r := rune(v)
				if e == 'u' && r >= 0xd800 && r < 0xdc00 && strings.HasPrefix(p.s[p.i:], `\u`) && p.i+6 <= len(p.s) {
					if lo, err := strconv.ParseUint(p.s[p.i+2:p.i+6], 16, 32); err == nil && lo >= 0xdc00 && lo < 0xe000 {
						r = (r-0xd800)<<10 + (rune(lo) - 0xdc00) + 0x10000
						p.i += 6
					}
				}
				b.WriteRune(r)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", errLitEnd
}
