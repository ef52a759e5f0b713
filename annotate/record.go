package annotate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"unicode/utf8"
)

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// MarshalJSON writes the canonical native record (spec §5): the fields in this
// fixed order, leaving out empty optional ones, then the Extra fields sorted by name:
//
//	id kind image|images image_labels frames scene question options answer
//	tolerance categories hop view ego_subject box box_image steps task split tags
//	parent transform <extra...>
//
// One image is written as "image", several as "images" (see sequence.go);
// image_labels only when they differ from DefaultLabels, box_image only when not 0.
// answer is written only for kinds that have one: the option index for hop_qa and
// mcq (always, 0 included), the text for judgment and open (an open answer that was
// a JSON number, AnswerNumber, is written back as that number). For step_graph and
// unknown kinds an "answer" field stays in Extra. A step's precondition is always
// written, [] when empty. Extra values are kept verbatim except for insignificant
// whitespace; an Extra field named like a field already written is skipped. HTML
// characters are not escaped, so decoding a record written by MarshalJSON and
// encoding it again gives the same bytes.
func (s Sample) MarshalJSON() ([]byte, error) {
	w := ObjectWriter{buf: bytes.NewBuffer(make([]byte, 0, 256)), keys: map[string]bool{}}
	w.buf.WriteByte('{')
	w.Str("id", s.ID)
	w.Str("kind", string(s.Kind))
	if len(s.MoreImages) > 0 {
		w.Value("images", s.AllImages())
	} else {
		w.Str("image", s.Image)
	}
	if !s.labelsAreDefault() {
		w.Value("image_labels", s.ImageLabels)
	}
	if s.Frames != nil {
		w.Value("frames", s.Frames)
	}
	w.Str("scene", s.Scene)
	w.Str("question", s.Question)
	w.Str("question_tag", s.QuestionTag)
	if s.Options != nil {
		w.Value("options", s.Options)
	}
	switch {
	case s.Kind.IndexAnswer():
		w.Value("answer", s.AnswerIndex)
	case s.Kind.textAnswer() && s.AnswerNumber && isJSONNumber(s.AnswerText):
		w.Raw("answer", []byte(s.AnswerText))
	case s.Kind.textAnswer():
		w.Value("answer", s.AnswerText)
	}
	switch {
	case s.Tolerance != nil:
		w.Value("tolerance", *s.Tolerance)
	case s.ToleranceText != "":
		w.Value("tolerance", s.ToleranceText) // as typed; lint reports it
	}
	if s.Categories != nil {
		w.Value("categories", s.Categories)
	}
	if s.Hop != 0 {
		w.Value("hop", s.Hop)
	}
	w.Str("view", string(s.View))
	w.Str("ego_subject", string(s.EgoSubject))
	if s.Box != nil {
		w.Value("box", *s.Box)
	}
	if s.BoxImage != 0 {
		w.Value("box_image", s.BoxImage)
	}
	if s.Steps != nil {
		steps := slices.Clone(s.Steps)
		for i := range steps {
			if steps[i].Precondition == nil {
				steps[i].Precondition = []string{}
			}
		}
		w.Value("steps", steps)
	}
	w.Str("task", s.Task)
	w.Str("split", s.Split)
	if s.Tags != nil {
		w.Value("tags", s.Tags)
	}
	w.Str("parent", s.Parent)
	w.Str("transform", s.Transform)
	for _, k := range sortedKeys(s.Extra) {
		if w.keys[k] {
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, s.Extra[k]); err != nil {
			return nil, fmt.Errorf("annotate: encode sample %q: extra field %q: %w", s.ID, k, err)
		}
		w.Raw(k, c.Bytes())
	}
	if w.err != nil {
		return nil, fmt.Errorf("annotate: encode sample %q: %w", s.ID, w.err)
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}

func isJSONNumber(s string) bool {
	return jsonType([]byte(s)) == "number" && json.Valid([]byte(s))
}

// UnmarshalJSON decodes a native record. It fails only when data is not a JSON
// object or a known field has the wrong type; missing fields, unknown kinds and
// the like are left to Lint. Unknown fields go to Extra.
func (s *Sample) UnmarshalJSON(data []byte) error {
	v, fs, _, err := decodeRecord(data)
	if err != nil {
		return fmt.Errorf("annotate: decode sample: %w", err)
	}
	for _, f := range fs {
		if f.Severity == SeverityError {
			return fmt.Errorf("annotate: decode sample: %s", f.Message)
		}
	}
	*s = v
	return nil
}

// ParseRecord decodes one native record leniently: it never fails, and reports as
// schema findings what is wrong with the record's shape — not a JSON object, a
// known field of the wrong type (that field is left empty), a missing required field
// (including the option index of hop_qa and mcq), an unknown kind — plus one
// schema warning per unknown field (kept in Extra) and per unknown field inside a
// step (dropped). It includes Lint's schema findings but not the other rules; to
// lint a record use MergeFindings(ParseRecord's findings, Lint(sample, env)).
func ParseRecord(data []byte) (Sample, []Finding) {
	s, fs, answerSeen, err := decodeRecord(data)
	if err != nil {
		return s, []Finding{errorf(RuleSchema, "", "the record is "+err.Error(), "")}
	}
	if field, err := invalidUTF8Error(data); err != nil {
		// First: in MergeFindings' order it then hides the findings on that field.
		fs = append([]Finding{errorf(RuleSchema, field, err.Error(), "")}, fs...)
	}
	if s.Kind.IndexAnswer() && !answerSeen {
		fs = append(fs, missing("answer", "the 0-based index of the correct option"))
	}
	fs = append(fs, schemaFindings(s)...)
	for i := range fs {
		fs[i].Sample = s.ID
	}
	return s, MergeFindings(fs)
}

// object is a decoded JSON object whose members are consumed as they are read.
type object map[string]json.RawMessage

// take removes and returns the first of names that is present and not null.
func (o object) take(names ...string) (name string, raw json.RawMessage, ok bool) {
	for _, n := range names {
		raw, present := o[n]
		if !present {
			continue
		}
		delete(o, n)
		if jsonType(raw) != "null" {
			return n, raw, true
		}
	}
	return "", nil, false
}

// decodeAs decodes raw as a T, or says what was wanted and what was found.
func decodeAs[T any](raw json.RawMessage, want string) (T, error) {
	var v T
	if plainDecode(raw, &v) {
		return v, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("want %s, got %s", want, snippet(raw))
	}
	return v, nil
}

// plainDecode decodes the plainest values of raw into dst without
// encoding/json, and reports whether it did: a string with no escape (its
// bytes, valid UTF-8), a list of such strings, an integer of digits alone
// (without sign, fraction or exponent: at most 18 digits, no leading zero).
// What it leaves, json.Unmarshal decodes as before, to the same values: each
// call into it validated raw and allocated its state again, about 0.4 µs a
// value, 38 µs a stored sample of 400 bytes (issue 31: the freeze decodes
// every accepted sample).
func plainDecode(raw []byte, dst any) bool {
	switch p := dst.(type) {
	case *string:
		v, ok := plainString(raw)
		if ok {
			*p = v
		}
		return ok
	case *[]string:
		if len(raw) < 2 || raw[0] != '[' || raw[len(raw)-1] != ']' {
			return false
		}
		body := raw[1 : len(raw)-1]
		out := []string{}
		for len(body) > 0 {
			if body[0] != '"' {
				return false
			}
			end := bytes.IndexByte(body[1:], '"')
			if end < 0 {
				return false
			}
			v, ok := plainString(body[:end+2])
			if !ok {
				return false
			}
			out = append(out, v)
			body = body[end+2:]
			if len(body) > 0 {
				if body[0] != ',' || len(body) == 1 {
					return false
				}
				body = body[1:]
			}
		}
		*p = out
		return true
	case *int:
		if len(raw) == 0 || len(raw) > 18 || (raw[0] == '0' && len(raw) > 1) {
			return false
		}
		n := 0
		for _, c := range raw {
			if c < '0' || c > '9' {
				return false
			}
			n = n*10 + int(c-'0')
		}
		*p = n
		return true
	}
	return false
}

// plainString is the string raw (quoted) holds when it holds no escape and no
// control character, and is valid UTF-8: its bytes between the quotes.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
}

func snippet(raw json.RawMessage) string {
	var c bytes.Buffer
	if json.Compact(&c, raw) != nil {
		c.Reset()
		c.Write(raw)
	}
	if s := c.String(); len(s) <= 40 {
		return s
	}
	return string(c.Bytes()[:37]) + "..."
}

// jsonType names the JSON type of a raw value.
func jsonType(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// recordDecoder collects schema findings while a record's fields are read.
type recordDecoder struct {
	obj object
	fs  []Finding
}

// field decodes member key of obj into dst, reporting a wrong type at path. It
// reports whether a non-null value was decoded into dst.
func field[T any](d *recordDecoder, obj object, key, path, want string, dst *T) bool {
	_, raw, ok := obj.take(key)
	if !ok {
		return false
	}
	v, err := decodeAs[T](raw, want)
	if err != nil {
		d.fs = append(d.fs, errorf(RuleSchema, path, path+": "+err.Error(), ""))
		return false
	}
	*dst = v
	return true
}

var errNotObject = errors.New("not a JSON object")

// decodeRecord decodes what it can of a native record, or fails with errNotObject.
// Its findings are the ones only the JSON shows: wrong types, unknown step fields.
func decodeRecord(data []byte) (s Sample, fs []Finding, answerSeen bool, err error) {
	var obj object
	if json.Unmarshal(data, &obj) != nil || obj == nil {
		return s, nil, false, errNotObject
	}
	d := &recordDecoder{obj: obj}
	str := func(key string, dst *string) { field(d, obj, key, key, "a string", dst) }
	var kind, view, subject string
	str("kind", &kind)
	s.Kind = Kind(kind)
	str("id", &s.ID)
	d.images(&s)
	str("scene", &s.Scene)
	str("question", &s.Question)
	str("question_tag", &s.QuestionTag)
	field(d, obj, "options", "options", "a list of strings", &s.Options)
	switch {
	case s.Kind.IndexAnswer():
		answerSeen = field(d, obj, "answer", "answer", "an integer option index", &s.AnswerIndex)
	case s.Kind.textAnswer():
		if _, raw, ok := obj.take("answer"); ok {
			answerSeen = true
			switch t := jsonType(raw); {
			case t == "string":
				s.AnswerText, _ = decodeAs[string](raw, "")
			case t == "number" && s.Kind == KindOpen:
				s.AnswerText, s.AnswerNumber = string(bytes.TrimSpace(raw)), true
			default:
				want := `"yes" or "no"`
				if s.Kind == KindOpen {
					want = "a string or a number"
				}
				d.fs = append(d.fs, errorf(RuleSchema, "answer", "answer: want "+want+", got "+snippet(raw), ""))
			}
		}
	}
	if raw, ok := obj["tolerance"]; ok && jsonType(raw) == "string" {
		// Text where a number belongs is kept for lint to report (and for the
		// editor to show as it was typed), not dropped.
		delete(obj, "tolerance")
		s.ToleranceText, _ = decodeAs[string](raw, "")
	} else {
		var tol float64
		if field(d, obj, "tolerance", "tolerance", "a number", &tol) {
			s.Tolerance = &tol
		}
	}
	var cats []string
	if field(d, obj, "categories", "categories", "a list of strings", &cats) {
		s.Categories = make([]Category, len(cats))
		for i, c := range cats {
			s.Categories[i] = Category(c)
		}
	}
	field(d, obj, "hop", "hop", "an integer", &s.Hop)
	str("view", &view)
	s.View = View(view)
	str("ego_subject", &subject)
	s.EgoSubject = EgoSubject(subject)
	var box []float64
	if field(d, obj, "box", "box", "[x1, y1, x2, y2]", &box) {
		if len(box) == 4 {
			s.Box = &Box{box[0], box[1], box[2], box[3]}
		} else {
			d.fs = append(d.fs, errorf(RuleSchema, "box", fmt.Sprintf("box: want [x1, y1, x2, y2], got %d numbers", len(box)), ""))
		}
	}
	field(d, obj, "box_image", "box_image", "an integer image index", &s.BoxImage)
	s.Steps = d.steps()
	str("task", &s.Task)
	str("split", &s.Split)
	field(d, obj, "tags", "tags", "a list of strings", &s.Tags)
	str("parent", &s.Parent)
	str("transform", &s.Transform)
	if len(obj) > 0 {
		s.Extra = map[string]json.RawMessage(obj)
	}
	return s, d.fs, answerSeen, nil
}

// images reads "image" or "images", "image_labels" and "frames". A record with both
// "image" and "images" is a schema error on images; the list is read.
func (d *recordDecoder) images(s *Sample) {
	_, both := d.obj["image"]
	var list []string
	if field(d, d.obj, "images", "images", "a list of image paths", &list) {
		if both && jsonType(d.obj["image"]) != "null" {
			d.fs = append(d.fs, errorf(RuleSchema, "images", `images: the record has both "image" and "images"`,
				`write one image as "image", several as "images", not both`))
		}
		delete(d.obj, "image")
		s.SetImages(list)
	} else {
		field(d, d.obj, "image", "image", "a string", &s.Image)
	}
	field(d, d.obj, "image_labels", "image_labels", "a list of strings", &s.ImageLabels)
	var raws []object
	if !field(d, d.obj, "frames", "frames", "a list of frame objects", &raws) {
		return
	}
	s.Frames = make([]Frame, len(raws))
	for i, o := range raws {
		path := fmt.Sprintf("frames[%d]", i)
		if o == nil {
			d.fs = append(d.fs, errorf(RuleSchema, path, path+": want a frame object, got null", ""))
			continue
		}
		f := &s.Frames[i]
		field(d, o, "video", path+".video", "a string", &f.Video)
		field(d, o, "video_sha256", path+".video_sha256", "a string", &f.VideoSHA256)
		field(d, o, "duration", path+".duration", "a number of seconds", &f.Duration)
		field(d, o, "time", path+".time", "a number of seconds", &f.Time)
		field(d, o, "index", path+".index", "an integer frame index", &f.Index)
		for _, k := range sortedKeys(o) {
			d.fs = append(d.fs, warnf(RuleSchema, path+"."+k, fmt.Sprintf("unknown frame field %q (dropped)", k), ""))
		}
	}
}

func (d *recordDecoder) steps() []Step {
	var raws []object
	if !field(d, d.obj, "steps", "steps", "a list of step objects", &raws) {
		return nil
	}
	steps := make([]Step, len(raws))
	for i, o := range raws {
		path := fmt.Sprintf("steps[%d]", i)
		if o == nil {
			d.fs = append(d.fs, errorf(RuleSchema, path, path+": want a step object, got null", ""))
			continue
		}
		field(d, o, "id", path+".id", "a string", &steps[i].ID)
		field(d, o, "content", path+".content", "a string", &steps[i].Content)
		field(d, o, "precondition", path+".precondition", "a list of step ids", &steps[i].Precondition)
		for _, k := range sortedKeys(o) {
			d.fs = append(d.fs, warnf(RuleSchema, path+"."+k, fmt.Sprintf("unknown step field %q (dropped)", k), ""))
		}
	}
	return steps
}

// LineError is an error at a 1-based line of a JSON Lines input.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

var utf8BOM = []byte("\ufeff")

// MaxLineBytes is the longest line ReadJSONL accepts: a sample record is a few
// kilobytes, and a stream without line breaks (/dev/zero) must not fill memory.
const MaxLineBytes = 16 << 20

// ReadJSONL streams a JSON Lines input: it calls fn with each non-blank line's
// 1-based number and its trimmed bytes, which are well-formed JSON. Lines may be up
// to MaxLineBytes long; a leading UTF-8 byte order mark and CRLF endings are
// accepted. It stops at the first malformed or over-long line, read error or fn
// error and returns it as a *LineError naming the line.
func ReadJSONL(r io.Reader, fn func(line int, raw []byte) error) error {
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		b, err := readLine(br, MaxLineBytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return &LineError{line, fmt.Errorf("read: %w", err)}
		}
		if line == 1 {
			b = bytes.TrimPrefix(b, utf8BOM)
		}
		if text := bytes.TrimSpace(b); len(text) > 0 {
			var v json.RawMessage
			if jerr := json.Unmarshal(text, &v); jerr != nil {
				return &LineError{line, fmt.Errorf("malformed JSON: %w", jerr)}
			}
			if ferr := fn(line, text); ferr != nil {
				return &LineError{line, ferr}
			}
		}
		if err != nil {
			return nil
		}
	}
}

// errLineTooLong is readLine's refusal of a line over its limit.
var errLineTooLong = fmt.Errorf("the line is longer than %d MiB, the most a record may take", MaxLineBytes>>20)

// readLine reads up to and including the next '\n', as bufio.Reader.ReadBytes
// does, but refuses a line longer than max bytes without holding more than that.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}
