package annotate

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Imported is one sample converted from another benchmark's file, with the 1-based
// line where its record starts.
type Imported struct {
	Line   int
	Sample Sample
}

// RecordError says why one record of an imported file was not converted.
type RecordError struct {
	Index int // 0-based position in the file's array (or among its JSON Lines)
	Line  int // 1-based line where the record starts
	Err   error
}

func (e RecordError) Error() string {
	return fmt.Sprintf("record %d (line %d): %v", e.Index+1, e.Line, e.Err)
}

func (e RecordError) Unwrap() error { return e.Err }

// ImportOptions configures ImportMultihop.
type ImportOptions struct {
	// ImageSize gives an image's displayed size; it is needed only to convert
	// normalised boxes (bbox_1000, bbox_norm) to pixels.
	ImageSize func(path string) (w, h int, ok bool)
}

// ImportMultihop converts a MultihopSpatial-style file into hop_qa samples. The file
// is a JSON array of records; a single record object, and JSON Lines (one record
// object per line, as lmms-eval's tasks hold them), are accepted too. For each
// record it accepts, field names first, alternatives after a slash:
//
//   - id: a string or a number; default "mh-NNNN" from the 1-based position.
//   - image / image_path / img: the image path.
//   - question.
//   - options / choices: a list of strings, or an object of labelled options
//     {"A": ..., "B": ...} taken in label order. Labels written into the options
//     themselves ("A. mug", "(B) kettle", "C: apple", "D) book") are removed when
//     every option carries the next letter.
//   - answer: a letter ("B", "b", "(B)", "B."), an integer or a numeric string
//     (0-based index), or the text of one of the options.
//   - hop: an integer, or a string holding one ("2-hop", "2hop", "hop2", "2");
//     when absent, the number of distinct categories.
//   - categories / category: a list of strings, or one string with separators
//     ("att+pos", "att, pos", "att/pos"). Names are lower-cased and "attribute",
//     "position", "location", "relation", "relationship" map to att, pos, rel;
//     other names are kept, for Lint to flag.
//   - view / viewpoint: "ego" or "exo", any case, with any suffix ("egocentric",
//     "exo-centric").
//   - ego_subject: "real" or "virtual"; for ego questions without it, taken from
//     the question's subject phrase when it has one.
//   - bbox / box: [x1, y1, x2, y2] in pixels. Otherwise bbox_1000: the same on the
//     0–1000 scale, or bbox_norm: 0–1 fractions (0–1000 if any value exceeds 1);
//     both are converted with opt.ImageSize and are an error when the size is unknown.
//   - task, split, parent, transform (strings) and tags (list of strings) as in the native record.
//
// Every other field, and an alternative name when the first one was also given,
// is kept in the sample's Extra. A record that cannot be converted (a field of an
// unusable type, an answer that matches no option, an id used before) is returned
// as a RecordError and the others are kept. The error is for input that is not
// JSON or neither an array nor an object, and names the line.
func ImportMultihop(r io.Reader, opt ImportOptions) ([]Imported, []RecordError, error) {
	return importRecords(r, func(i int, o object) (Sample, error) { return convertMultihop(i, o, opt) })
}

// ImportSpatiaLQA converts a SpatiaLQA file into step_graph samples. The file is a
// JSON array of records, a single record object, or JSON Lines (one record object
// per line). For each record it accepts:
//
//   - id: a string or a number; default "sq-NNNN" from the 1-based position.
//   - question / task.
//   - answer / steps: an object {"step1": {"content": ..., "precondition": [...]}, ...}
//     with steps ordered by the number in their key (step2 before step10; keys
//     without a number last, by name), or a list of step objects with "id" (default
//     "stepN"), "content", "precondition". The answer may also be a string holding
//     that JSON, optionally wrapped in <ans></ans>, as models write it. Preconditions
//     are step ids, or integers n meaning "stepn".
//   - image / image_path.
//   - scene; when absent, the image's folder if it matches NNNN-<scenetype>-<k>
//     ("0001-office-1/img_003.jpg"), else scene_category / scene_name.
//   - task, split, parent and tags as in the native record.
//
// Other fields are kept in Extra. Errors are reported as for ImportMultihop.
func ImportSpatiaLQA(r io.Reader) ([]Imported, []RecordError, error) {
	return importRecords(r, convertSpatiaLQA)
}

// importRecords decodes the array (or single object) in r record by record,
// converting each with convert and noting the line each starts on.
func importRecords(r io.Reader, convert func(index int, o object) (Sample, error)) ([]Imported, []RecordError, error) {
	var ok []Imported
	var bad []RecordError
	firstUse := map[string]int{}
	err := walkJSON(r, func(index, line int, raw json.RawMessage) {
		_, err := invalidUTF8Error(raw)
		var o object
		if err == nil {
			o, err = decodeAs[object](raw, "a record object")
		}
		if err == nil && o == nil {
			err = errors.New("want a record object, got null")
		}
		var s Sample
		if err == nil {
			s, err = convert(index, o)
		}
		if err == nil {
			if e := CheckID(s.ID); e != nil {
				err = fmt.Errorf("id: %w", e)
			}
		}
		if j, dup := firstUse[s.ID]; err == nil && dup {
			err = fmt.Errorf("id %q is already used by record %d", s.ID, j+1)
		}
		if err != nil {
			bad = append(bad, RecordError{Index: index, Line: line, Err: err})
			return
		}
		firstUse[s.ID] = index
		ok = append(ok, Imported{Line: line, Sample: s})
	})
	return ok, bad, err
}

// jsonInput is a JSON input past its byte order mark and leading white space,
// with a decoder on it and the means to name the line of an offset.
type jsonInput struct {
	lines   *lineCounter
	skipped int64 // bytes before the decoder's offset 0: BOM and leading space
	dec     *json.Decoder
}

// openJSON starts reading a JSON input: it skips a UTF-8 byte order mark and white
// space and returns the first byte of the value (not consumed). An input with no
// value is an error saying what was wanted.
func openJSON(r io.Reader, want string) (*jsonInput, byte, error) {
	in := &jsonInput{lines: &lineCounter{r: r}}
	br := bufio.NewReader(in.lines)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
		in.skipped = 3
	}
	for {
		c, err := br.ReadByte()
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: want %s: %w", in.lines.line(in.skipped), want, unexpectedEOF(err))
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			br.UnreadByte()
			in.dec = json.NewDecoder(br)
			return in, c, nil
		}
		in.skipped++
	}
}

// fail names the line where the decoder met err.
func (in *jsonInput) fail(err error) error {
	err = unexpectedEOF(err)
	off := in.skipped + in.dec.InputOffset()
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off = in.skipped + se.Offset
	case errors.Is(err, io.ErrUnexpectedEOF):
		off = in.lines.read
	}
	return fmt.Errorf("line %d: %w", in.lines.line(off), err)
}

// walkJSON calls fn for each element of a top-level JSON array, or for each of a
// sequence of top-level values starting with an object (a single object, or JSON
// Lines), with its index and the 1-based line where it starts.
func walkJSON(r io.Reader, fn func(index, line int, raw json.RawMessage)) error {
	in, first, err := openJSON(r, "a JSON array or object")
	if err != nil {
		return err
	}
	lines, skipped, dec, fail := in.lines, in.skipped, in.dec, in.fail
	var raw json.RawMessage
	switch first {
	case '{':
		// One record object, or JSON Lines: one record object after another (one per
		// line as lmms-eval's json builder reads them; any white space between).
		for i := 0; dec.More(); i++ {
			raw = nil
			if err := dec.Decode(&raw); err != nil {
				return fail(err)
			}
			fn(i, lines.line(skipped+dec.InputOffset()-int64(len(raw))), raw)
		}
		// More stops at the end of the input, or at a ] or } that closes nothing.
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			if err == nil {
				err = errors.New("unexpected text after the records")
			}
			return fail(err)
		}
		return nil
	case '[':
		if _, err := dec.Token(); err != nil {
			return fail(err)
		}
	default:
		return fmt.Errorf("line %d: want a JSON array or object", lines.line(skipped))
	}
	for i := 0; dec.More(); i++ {
		raw = nil
		if err := dec.Decode(&raw); err != nil {
			return fail(err)
		}
		fn(i, lines.line(skipped+dec.InputOffset()-int64(len(raw))), raw)
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	return nil
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// lineCounter passes a stream through, noting where its newlines are so that a byte
// offset can be turned into a line number. Offsets asked about must not decrease.
type lineCounter struct {
	r      io.Reader
	read   int64   // bytes passed through
	before int     // newlines before newlines[0]
	nl     []int64 // offsets of newlines not yet passed by a query
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.nl = append(c.nl, c.read+int64(i))
		}
	}
	c.read += int64(n)
	return n, err
}

// line returns the 1-based line holding byte offset off.
func (c *lineCounter) line(off int64) int {
	i, _ := slices.BinarySearch(c.nl, off)
	c.before += i
	c.nl = c.nl[i:]
	return c.before + 1
}

// converter reads a foreign record's fields, collecting errors.
type converter struct {
	obj  object
	errs []error
}

func (c *converter) fail(field string, err error) {
	c.errs = append(c.errs, fmt.Errorf("%s: %w", field, err))
}

// text takes the first present field of names as a string; numbers give their text.
func (c *converter) text(names ...string) string {
	name, raw, ok := c.obj.take(names...)
	if !ok {
		return ""
	}
	if jsonType(raw) == "number" {
		return string(raw)
	}
	s, err := decodeAs[string](raw, "a string")
	if err != nil {
		c.fail(name, err)
	}
	return s
}

// strings takes the first present field of names as a list of strings.
func (c *converter) strings(names ...string) []string {
	name, raw, ok := c.obj.take(names...)
	if !ok {
		return nil
	}
	v, err := decodeAs[[]string](raw, "a list of strings")
	if err != nil {
		c.fail(name, err)
	}
	return v
}

// common reads the optional native fields and finishes the sample.
func (c *converter) finish(s Sample) (Sample, error) {
	s.Task = c.text("task")
	s.Split = c.text("split")
	s.Parent = c.text("parent")
	s.Transform = c.text("transform")
	s.Tags = c.strings("tags")
	if len(c.obj) > 0 {
		s.Extra = map[string]json.RawMessage(c.obj)
	}
	return s, errors.Join(c.errs...)
}

var (
	optionLabel = regexp.MustCompile(`^\s*\(?([A-Za-z])\s*[).:]\s*`)
	digits      = regexp.MustCompile(`[0-9]+`)
	categoryOf  = map[string]Category{
		"att": CatAtt, "attribute": CatAtt, "attr": CatAtt,
		"pos": CatPos, "position": CatPos, "location": CatPos,
		"rel": CatRel, "relation": CatRel, "relationship": CatRel,
	}
)

// The official MultihopSpatial release (youngwanLEE/multihopspatial, the records of
// data/multihop_test_4500.json as eval/benchmark_qwen_vllm.py reads them) writes the
// options inside the question, "… <choice>(a) cat, (b) glass bottle</choice> And
// provide the bounding box coordinate of the region related to your answer.", the
// answer as "(b) glass bottle", the box as pixel [x, y, w, h], and in question_tag
// the question with <ATT>, <POS> and <REL> around the phrase of each category.
var (
	choiceBlock   = regexp.MustCompile(`(?s)\s*<choice>(.*?)</choice>\s*`)
	choiceLabel   = regexp.MustCompile(`(?:^|,\s*)\(([a-z])\)\s*`)
	officialAsk   = regexp.MustCompile(`\s*And provide the bounding box coordinate of the region related to your answer\.?\s*$`)
	categoryTag   = regexp.MustCompile(`</?(ATT|POS|REL)>`)
	answerPrefix  = regexp.MustCompile(`^\s*\(([A-Za-z])\)`)
	resolutionFmt = regexp.MustCompile(`^\s*([0-9]+)\s*[xX×]\s*([0-9]+)\s*$`)
)

// officialChoices splits the inside of a <choice> block into options: at each
// "(x) " label that starts the block or follows a comma, so an option may hold a
// comma of its own ("(a) a cup, red") as long as no ", (b) " follows it.
func officialChoices(block string) []string {
	locs := choiceLabel.FindAllStringSubmatchIndex(block, -1)
	var opts []string
	for i, l := range locs {
		if block[l[2]] != byte('a'+i) {
			return nil // labels out of order: not the official layout
		}
		end := len(block)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		opts = append(opts, strings.TrimSpace(block[l[1]:end]))
	}
	return opts
}

func convertMultihop(index int, o object, opt ImportOptions) (Sample, error) {
	c := &converter{obj: o}
	s := Sample{Kind: KindHopQA}
	s.ID = cmp.Or(c.text("id"), fmt.Sprintf("mh-%04d", index+1))
	s.Image = c.text("image", "image_path", "img")
	s.Question = c.text("question")
	official := false
	if m := choiceBlock.FindStringSubmatchIndex(s.Question); m != nil {
		official = true
		choices := officialChoices(s.Question[m[2]:m[3]])
		s.Question = strings.TrimSpace(officialAsk.ReplaceAllString(s.Question[:m[0]]+" "+s.Question[m[1]:], ""))
		if _, present := c.obj["options"]; !present && choices == nil {
			c.fail("question", errors.New("the <choice> block does not list options as (a) …, (b) …"))
		} else if !present {
			c.obj["options"], _ = json.Marshal(choices)
		}
	}
	tagged := c.text("question_tag")
	if m := choiceBlock.FindStringSubmatchIndex(tagged); m != nil {
		tagged = strings.TrimSpace(officialAsk.ReplaceAllString(tagged[:m[0]]+" "+tagged[m[1]:], ""))
	}
	if tagged == "" && categoryTag.MatchString(s.Question) {
		tagged = strings.TrimSpace(s.Question) // tags written into the question itself
	}
	s.QuestionTag = tagged
	s.Question = strings.TrimSpace(StripTags(s.Question))
	s.Options = c.options()
	if name, raw, ok := c.obj.take("answer"); ok {
		// "(c) frame of the reed picture": the letter in parentheses decides, as
		// extract_choice_letter does.
		if a, err := decodeAs[string](raw, ""); err == nil {
			if m := answerPrefix.FindStringSubmatch(a); m != nil {
				raw, _ = json.Marshal(m[1])
			}
		}
		c.obj[name] = raw
	}
	s.AnswerIndex = c.answer(s.Options)
	s.Categories = c.categories()
	if s.Categories == nil {
		for _, m := range categoryTag.FindAllStringSubmatch(tagged, -1) {
			if cat := Category(strings.ToLower(m[1])); !slices.Contains(s.Categories, cat) && !strings.HasPrefix(m[0], "</") {
				s.Categories = append(s.Categories, cat)
			}
		}
	}
	s.Hop = c.hop(len(distinct(s.Categories)))
	switch v := strings.ToLower(c.text("view", "viewpoint")); {
	case strings.HasPrefix(v, "ego"):
		s.View = ViewEgo
	case strings.HasPrefix(v, "exo"):
		s.View = ViewExo
	case v != "":
		c.fail("view", fmt.Errorf(`want "ego" or "exo", got %q`, v))
	}
	s.EgoSubject = EgoSubject(c.text("ego_subject"))
	if subject, ok := HasSubjectPhrase(s.Question); ok && s.View == ViewEgo && s.EgoSubject == "" {
		s.EgoSubject = subject
	}
	if official {
		s.Box = c.officialBox(s.Image, opt)
	} else {
		s.Box = c.box(s.Image, opt)
	}
	return c.finish(s)
}

// officialBox reads the official pixel [x, y, w, h]. The official data holds boxes
// that start left of or above the image or run past it ([23.09, -7.28, 136.34,
// 202.1]); they are clamped to the image (image_resolution, else the project's
// image size, else at 0), and the box as released is kept in Extra["source_bbox"].
func (c *converter) officialBox(image string, opt ImportOptions) *Box {
	name, raw, ok := c.obj.take("bbox", "box")
	if !ok {
		return nil
	}
	v, err := decodeAs[[]float64](raw, "[x, y, width, height]")
	if err == nil && len(v) != 4 {
		err = fmt.Errorf("want 4 numbers, got %d", len(v))
	}
	if err != nil {
		c.fail(name, err)
		return nil
	}
	b := BoxFromCOCO([4]float64(v))
	w, h := 0, 0
	if m := resolutionFmt.FindStringSubmatch(c.text("image_resolution")); m != nil {
		w, _ = strconv.Atoi(m[1])
		h, _ = strconv.Atoi(m[2])
	} else if opt.ImageSize != nil {
		w, h, _ = opt.ImageSize(image)
	}
	clamped := b
	for i := range clamped {
		clamped[i] = max(clamped[i], 0)
	}
	if w > 0 && h > 0 {
		clamped = clamped.Clamp(w, h)
	}
	if clamped != b {
		c.obj["source_bbox"] = raw
	}
	return &clamped
}

func (c *converter) options() []string {
	name, raw, ok := c.obj.take("options", "choices")
	if !ok {
		return nil
	}
	var opts []string
	if jsonType(raw) == "object" {
		m, err := decodeAs[map[string]string](raw, "an object of strings")
		if err != nil {
			c.fail(name, err)
			return nil
		}
		for _, k := range sortedKeys(m) {
			opts = append(opts, m[k])
		}
		return opts
	}
	opts, err := decodeAs[[]string](raw, "a list of strings or an object of labelled options")
	if err != nil {
		c.fail(name, err)
		return nil
	}
	stripped := make([]string, len(opts))
	for i, o := range opts {
		m := optionLabel.FindStringSubmatch(o)
		if m == nil || unicode.ToUpper(rune(m[1][0])) != rune('A'+i) {
			return opts
		}
		stripped[i] = o[len(m[0]):]
	}
	return stripped
}

func (c *converter) answer(opts []string) int {
	name, raw, ok := c.obj.take("answer")
	if !ok {
		c.fail("answer", errors.New("missing"))
		return 0
	}
	if jsonType(raw) == "number" {
		i, err := decodeAs[int](raw, "an option index")
		if err != nil {
			c.fail(name, err)
		}
		return i
	}
	a, err := decodeAs[string](raw, "a letter, an index or an option")
	if err != nil {
		c.fail(name, err)
		return 0
	}
	t := strings.Trim(strings.TrimSpace(a), "()[].: ")
	if len(t) == 1 && unicode.IsLetter(rune(t[0])) {
		return int(unicode.ToUpper(rune(t[0])) - 'A')
	}
	if i, err := strconv.Atoi(t); err == nil {
		return i
	}
	for i, o := range opts {
		if normalizeOption(o) == normalizeOption(a) {
			return i
		}
	}
	c.fail(name, fmt.Errorf("%q is not a letter, an index or one of the options", a))
	return 0
}

func (c *converter) categories() []Category {
	name, raw, ok := c.obj.take("categories", "category")
	if !ok {
		return nil
	}
	if jsonType(raw) == "string" {
		s, _ := decodeAs[string](raw, "")
		return categoryList(s)
	}
	names, err := decodeAs[[]string](raw, `a list of strings or a string such as "att+pos"`)
	if err != nil {
		c.fail(name, err)
	}
	return categoryNames(names)
}

// categoryList reads categories written as one string with separators ("att+pos",
// "att, pos", "att/pos").
func categoryList(s string) []Category {
	return categoryNames(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }))
}

// categoryNames lower-cases category names and maps the long ones ("attribute",
// "position", ...) to att, pos, rel; other names are kept, for Lint to flag.
func categoryNames(names []string) []Category {
	cats := make([]Category, len(names))
	for i, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		cats[i] = cmp.Or(categoryOf[n], Category(n))
	}
	return cats
}

func (c *converter) hop(fallback int) int {
	name, raw, ok := c.obj.take("hop")
	if !ok {
		return fallback
	}
	if jsonType(raw) == "number" {
		h, err := decodeAs[int](raw, "an integer")
		if err != nil {
			c.fail(name, err)
		}
		return h
	}
	s, err := decodeAs[string](raw, `an integer or a string such as "2-hop"`)
	if d := digits.FindString(s); err == nil && d != "" {
		h, _ := strconv.Atoi(d)
		return h
	}
	c.fail(name, cmp.Or(err, fmt.Errorf("no number in %q", s)))
	return 0
}

func (c *converter) box(image string, opt ImportOptions) *Box {
	numbers := func(name string, raw json.RawMessage) ([4]float64, bool) {
		v, err := decodeAs[[]float64](raw, "[x1, y1, x2, y2]")
		if err == nil && len(v) != 4 {
			err = fmt.Errorf("want 4 numbers, got %d", len(v))
		}
		if err != nil {
			c.fail(name, err)
			return [4]float64{}, false
		}
		return [4]float64(v), true
	}
	if name, raw, ok := c.obj.take("bbox", "box"); ok {
		v, ok := numbers(name, raw)
		if !ok {
			return nil
		}
		b := Box(v)
		return &b
	}
	name, raw, ok := c.obj.take("bbox_1000", "bbox_norm")
	if !ok {
		return nil
	}
	v, ok := numbers(name, raw)
	if !ok {
		return nil
	}
	var w, h int
	if opt.ImageSize != nil {
		w, h, ok = opt.ImageSize(image)
	}
	if !ok || w <= 0 || h <= 0 {
		c.fail(name, fmt.Errorf("converting it to pixels needs the size of image %q", image))
		return nil
	}
	if name == "bbox_1000" || slices.Max(v[:]) > 1 {
		for i := range v {
			v[i] /= 1000
		}
	}
	b := FromUnit(v, w, h)
	return &b
}

var ansTags = strings.NewReplacer("<ans>", "", "</ans>", "")

func convertSpatiaLQA(index int, o object) (Sample, error) {
	c := &converter{obj: o}
	s := Sample{Kind: KindStepGraph}
	s.ID = cmp.Or(c.text("id"), fmt.Sprintf("sq-%04d", index+1))
	s.Question = c.text("question", "task")
	s.Steps = c.steps()
	// The official records hold the image as a URL or a data: URI (answer.py sends
	// it to the model as is); a file path beside it, image_path, is what a project
	// can use, and the URI is not kept.
	if _, ok := c.obj["image_path"]; ok {
		if im, ok := c.obj["image"]; ok {
			if u, err := decodeAs[string](im, ""); err == nil && isURI(u) {
				delete(c.obj, "image")
			}
		}
	}
	s.Image = c.text("image", "image_path")
	s.Scene = c.text("scene")
	if dir := path.Base(path.Dir(s.Image)); s.Scene == "" && ValidSceneName(dir) {
		s.Scene = dir
	}
	if s.Scene == "" {
		s.Scene = c.text("scene_category", "scene_name")
	}
	return c.finish(s)
}

// stepNumber is the number a step key ends with ("step10" → 10); keys without one
// sort last.
func stepNumber(key string) int {
	i := len(key)
	for i > 0 && key[i-1] >= '0' && key[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(key[i:])
	if err != nil {
		return math.MaxInt
	}
	return n
}

func (c *converter) steps() []Step {
	name, raw, ok := c.obj.take("answer", "steps")
	if !ok {
		return nil
	}
	if jsonType(raw) == "string" {
		s, _ := decodeAs[string](raw, "")
		raw = json.RawMessage(strings.TrimSpace(ansTags.Replace(s)))
	}
	type rawStep struct {
		ID           string
		Content      string
		Precondition []json.RawMessage
	}
	var list []rawStep
	switch jsonType(raw) {
	case "object":
		m, err := decodeAs[map[string]rawStep](raw, "an object of steps")
		if err != nil {
			c.fail(name, err)
			return nil
		}
		keys := sortedKeys(m)
		slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(stepNumber(a), stepNumber(b)) })
		for _, k := range keys {
			st := m[k]
			st.ID = k
			list = append(list, st)
		}
	default:
		var err error
		if list, err = decodeAs[[]rawStep](raw, "an object or a list of steps"); err != nil {
			c.fail(name, err)
			return nil
		}
	}
	steps := make([]Step, len(list))
	for i, st := range list {
		steps[i] = Step{ID: cmp.Or(st.ID, fmt.Sprintf("step%d", i+1)), Content: st.Content, Precondition: []string{}}
		for _, p := range st.Precondition {
			id, err := decodeAs[string](p, "a step id or number")
			if n, nerr := decodeAs[int](p, ""); nerr == nil {
				id, err = "step"+strconv.Itoa(n), nil
			}
			if err != nil {
				c.fail(fmt.Sprintf("%s.%s.precondition", name, steps[i].ID), err)
			}
			steps[i].Precondition = append(steps[i].Precondition, id)
		}
	}
	return steps
}

// isURI reports whether an image reference is a URL or a data: URI rather than a
// file path.
func isURI(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	return strings.HasPrefix(l, "data:") || strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}
