package annotate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ImportLabelStudio converts a Label Studio JSON export (Export → JSON: a list of
// tasks {id, data, annotations, predictions}; a single task object, or JSON Lines of
// them, are accepted too)
// into samples. For each task it takes one annotation: the newest one marked
// ground_truth, else the newest by created_at; cancelled and skipped annotations and
// predictions are never read. A task with no such annotation is returned as a
// RecordError wrapping ErrLeftOut. From the annotation's results it reads:
//
//   - rectanglelabels (and rectangle or labels results with a box): value.x, y,
//     width and height, in percent of the result's original_width and
//     original_height, become a pixel box. A rotated box (value.rotation not 0) or
//     a rotated image (image_rotation not 0) is an error: the box would not be the
//     axis-aligned box drawn.
//   - textarea named "question": the question (several texts are joined by a
//     newline); without it data.question is taken.
//   - choices named "answer", or the only choices result: the answer; a textarea
//     named "answer": an open answer.
//
// The options are data.options (or data.choices): a list of strings, or an object of
// labelled options, as for ImportMultihop. Each box becomes a draft hop_qa sample,
// like a COCO box, with its labels as tags "ls:<label>", the question, and, when the
// task has options, the options and the answer matched to one of them (by text or
// letter); an answer without options is kept in Extra["ls_answer"]. A task without
// boxes becomes one sample: mcq when it has options, judgment when the answer is Yes
// or No, open for another answer. Sample ids are "ls-<task id>", with "-1", "-2", …
// when a task has several boxes.
//
// The image is data.image (else the one data value that names an image file), as
// a path of the project: an upload "/data/upload/3/ab12cd34-name.jpg" gives
// "name.jpg" (Label Studio's hex prefix removed), local storage
// "/data/local-files/?d=dir/x.jpg", cloud and web URLs ("s3://bucket/dir/x.jpg",
// "https://host/x.jpg?sig") give the file name "x.jpg"; a relative path is kept as
// it is. Result types other than the ones above are reported as left out. A task
// that cannot be converted is a RecordError with the line it starts on; errors are
// reported as for ImportMultihop.
func ImportLabelStudio(r io.Reader) ([]Imported, []RecordError, error) {
	var ok []Imported
	var bad []RecordError
	firstUse := map[string]int{}
	err := walkJSON(r, func(index, line int, raw json.RawMessage) {
		samples, note, err := convertLabelStudio(index, raw)
		for i := range samples {
			if err != nil {
				break
			}
			if e := CheckID(samples[i].ID); e != nil {
				err = fmt.Errorf("id: %w", e)
			} else if j, dup := firstUse[samples[i].ID]; dup && j != index {
				err = fmt.Errorf("id %q is already used by task %d", samples[i].ID, j+1)
			}
		}
		if err != nil {
			bad = append(bad, RecordError{Index: index, Line: line, Err: err})
			return
		}
		for _, s := range samples {
			firstUse[s.ID] = index
			ok = append(ok, Imported{Line: line, Sample: s})
		}
		if note != nil {
			bad = append(bad, RecordError{Index: index, Line: line, Err: note})
		}
	})
	return ok, bad, err
}

type lsTask struct {
	ID          json.RawMessage            `json:"id"`
	Data        map[string]json.RawMessage `json:"data"`
	Annotations []lsAnnotation             `json:"annotations"`
	Completions []lsAnnotation             `json:"completions"` // exports before Label Studio 1.0
}

type lsAnnotation struct {
	ID           json.RawMessage `json:"id"`
	Result       []lsResult      `json:"result"`
	GroundTruth  bool            `json:"ground_truth"`
	WasCancelled bool            `json:"was_cancelled"`
	Skipped      bool            `json:"skipped"`
	CreatedAt    string          `json:"created_at"`
}

type lsResult struct {
	ID             string   `json:"id"`
	Type           string   `json:"type"`
	FromName       string   `json:"from_name"`
	OriginalWidth  *float64 `json:"original_width"`
	OriginalHeight *float64 `json:"original_height"`
	ImageRotation  float64  `json:"image_rotation"`
	// Value is read by type: other tools give the same names other types (the
	// text of a labels result on text is a string, of a textarea a list).
	Value json.RawMessage `json:"value"`
}

// lsBox is the value of a rectanglelabels result.
type lsBox struct {
	X, Y, Width, Height *float64
	Rotation            float64
	RectangleLabels     []string `json:"rectanglelabels"`
	Labels              []string `json:"labels"`
}

// convertLabelStudio converts one task; note, when not nil, tells what was left out.
func convertLabelStudio(index int, raw json.RawMessage) (samples []Sample, note, err error) {
	if _, err := invalidUTF8Error(raw); err != nil {
		return nil, nil, err
	}
	var t lsTask
	if jsonType(raw) != "object" {
		return nil, nil, fmt.Errorf("want a task object, got %s", snippet(raw))
	}
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, nil, lsDecodeError(err)
	}
	id := strconv.Itoa(index + 1)
	switch jsonType(t.ID) {
	case "number", "string":
		var v any
		json.Unmarshal(t.ID, &v)
		if s, ok := v.(string); ok {
			id = s
		} else {
			id = string(t.ID)
		}
	}
	anns := t.Annotations
	if anns == nil {
		anns = t.Completions
	}
	ann, chosen := chooseAnnotation(anns)
	if !chosen {
		why := "no annotation"
		if len(anns) > 0 {
			why = "every annotation was cancelled or skipped"
		}
		return nil, nil, fmt.Errorf("%w: task %s: %s (predictions are never imported)", ErrLeftOut, id, why)
	}
	where := "annotation " + string(ann.ID)
	if len(ann.ID) == 0 {
		where = "the annotation"
	}

	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	image, imgErr := lsImage(t.Data)
	if imgErr != nil {
		errs = append(errs, imgErr)
	}
	var question, answer, openAnswer string
	var questions []string
	var boxes []Box
	var labels [][]string
	choices := map[string]string{} // the choice made, by from_name
	ignored := map[string]int{}
	for i, res := range ann.Result {
		what := fmt.Sprintf("%s, result %d (%s %q)", where, i+1, res.Type, res.FromName)
		var v lsBox
		isBox := false
		if res.Type == "rectanglelabels" || res.Type == "rectangle" || res.Type == "labels" {
			var err error
			v, err = decodeAs[lsBox](res.Value, "an object with x, y, width, height")
			if err != nil && res.Type != "labels" {
				fail("%s: value: %v", what, err)
				continue
			}
			isBox = err == nil && v.X != nil
		}
		switch {
		case isBox:
			if v.Y == nil || v.Width == nil || v.Height == nil {
				fail("%s: value needs x, y, width and height", what)
				continue
			}
			if res.OriginalWidth == nil || res.OriginalHeight == nil || *res.OriginalWidth <= 0 || *res.OriginalHeight <= 0 {
				fail("%s: original_width and original_height are needed to turn the percentages into pixels", what)
				continue
			}
			if math.Mod(res.ImageRotation, 360) != 0 {
				fail("%s: the image was rotated by %g° in Label Studio; boxes on a rotated image are not supported", what, res.ImageRotation)
				continue
			}
			if math.Mod(v.Rotation, 360) != 0 {
				fail("%s: the box is rotated by %g°; only boxes along the image's edges are supported, redraw it unrotated", what, v.Rotation)
				continue
			}
			if *v.Width <= 0 || *v.Height <= 0 {
				fail("%s: the box has no area (width %g%%, height %g%%)", what, *v.Width, *v.Height)
				continue
			}
			w, h := *res.OriginalWidth, *res.OriginalHeight
			boxes = append(boxes, Box{*v.X * w / 100, *v.Y * h / 100, (*v.X + *v.Width) * w / 100, (*v.Y + *v.Height) * h / 100})
			labels = append(labels, append(slices.Clone(v.RectangleLabels), v.Labels...))
		case res.Type == "textarea" && (res.FromName == "question" || res.FromName == "answer"):
			tv, err := decodeAs[struct{ Text []string }](res.Value, `an object with "text": a list of strings`)
			if err != nil {
				fail("%s: value: %v", what, err)
				continue
			}
			if res.FromName == "question" {
				questions = append(questions, tv.Text...)
			} else {
				openAnswer = strings.Join(tv.Text, "\n")
			}
		case res.Type == "choices":
			cv, err := decodeAs[struct{ Choices []string }](res.Value, `an object with "choices": a list of strings`)
			switch {
			case err != nil:
				fail("%s: value: %v", what, err)
			case len(cv.Choices) > 1:
				fail("%s: %d choices are selected; a sample has one answer", what, len(cv.Choices))
			case len(cv.Choices) == 1:
				choices[res.FromName] = cv.Choices[0]
			}
		default:
			ignored[cmpOr(res.Type, "untyped")]++
		}
	}
	question = strings.Join(questions, "\n")
	if question == "" {
		if raw, ok := t.Data["question"]; ok {
			q, err := decodeAs[string](raw, "a string")
			if err != nil {
				fail("data.question: %v", err)
			}
			question = q
		}
	}
	c := &converter{obj: object{}}
	for _, name := range []string{"options", "choices"} {
		if raw, ok := t.Data[name]; ok {
			c.obj[name] = raw
		}
	}
	options := c.options()
	for _, e := range c.errs {
		errs = append(errs, fmt.Errorf("data.%w", e))
	}
	switch a, named := choices["answer"]; {
	case named:
		answer = a
	case len(choices) == 1:
		for _, a := range choices {
			answer = a
		}
	case len(choices) > 1:
		fail("%s: %d choices results and none named \"answer\"; name the one that holds the answer \"answer\"", where, len(choices))
	}
	if answer == "" {
		answer = openAnswer
	}
	answerIndex, answerErr := lsAnswer(answer, options)
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}

	base := "ls-" + id
	if len(boxes) > 0 {
		if answerErr != nil && answer != "" {
			return nil, nil, answerErr
		}
		for i, b := range boxes {
			s := Sample{ID: base, Kind: KindHopQA, Image: image, Question: question, Options: options, AnswerIndex: answerIndex}
			if len(boxes) > 1 {
				s.ID = fmt.Sprintf("%s-%d", base, i+1)
			}
			box := b
			s.Box = &box
			for _, l := range labels[i] {
				s.Tags = append(s.Tags, "ls:"+l)
			}
			if answer != "" && len(options) == 0 {
				s.Extra = map[string]json.RawMessage{}
				s.Extra["ls_answer"], _ = json.Marshal(answer)
			}
			samples = append(samples, s)
		}
	} else {
		s := Sample{ID: base, Image: image, Question: question}
		switch a := strings.ToLower(strings.TrimSpace(answer)); {
		case answer == "":
			msg := "nothing to import: the annotation has no rectanglelabels box, no choices and no textarea answer"
			if len(ignored) > 0 {
				msg += " (it has " + ignoredList(ignored) + ")"
			}
			return nil, nil, errors.New(msg)
		case len(options) > 0:
			if answerErr != nil {
				return nil, nil, answerErr
			}
			s.Kind, s.Options, s.AnswerIndex = KindMCQ, options, answerIndex
		case a == "yes" || a == "no":
			s.Kind, s.AnswerText = KindJudgment, a
		default:
			s.Kind, s.AnswerText = KindOpen, answer
		}
		samples = append(samples, s)
	}
	if len(ignored) > 0 {
		note = fmt.Errorf("%w: %s (only rectanglelabels, choices and textarea results are read)", ErrLeftOut, ignoredList(ignored))
	}
	return samples, note, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func ignoredList(m map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		s := ""
		if m[k] > 1 {
			s = "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s result%s", m[k], k, s))
	}
	return strings.Join(parts, ", ")
}

// lsAnswer matches a chosen answer to the options: the option's text (exactly, then
// as normalizeOption compares), else a letter or a 0-based index.
func lsAnswer(answer string, options []string) (int, error) {
	if answer == "" || len(options) == 0 {
		return 0, nil
	}
	if i := slices.Index(options, answer); i >= 0 {
		return i, nil
	}
	for i, o := range options {
		if normalizeOption(o) == normalizeOption(answer) {
			return i, nil
		}
	}
	c := &converter{obj: object{}}
	c.obj["answer"], _ = json.Marshal(answer)
	i := c.answer(options)
	if len(c.errs) == 0 && (i < 0 || i >= len(options)) {
		c.fail("answer", fmt.Errorf("%q is not one of the %d options", answer, len(options)))
	}
	return i, errors.Join(c.errs...)
}

// chooseAnnotation picks the annotation to import: among those neither cancelled
// nor skipped, the newest marked ground_truth, else the newest; of two equally new
// the first listed, as the Label Studio SDK's converter orders them.
func chooseAnnotation(anns []lsAnnotation) (lsAnnotation, bool) {
	best, found := -1, false
	for i, a := range anns {
		if a.WasCancelled || a.Skipped {
			continue
		}
		if !found {
			best, found = i, true
			continue
		}
		b := anns[best]
		if a.GroundTruth != b.GroundTruth {
			if a.GroundTruth {
				best = i
			}
			continue
		}
		if newer(a.CreatedAt, b.CreatedAt) {
			best = i
		}
	}
	if !found {
		return lsAnnotation{}, false
	}
	return anns[best], true
}

// newer reports whether time stamp a is later than b (RFC 3339, as Label Studio
// writes created_at; other text compares as text).
func newer(a, b string) bool {
	ta, ea := time.Parse(time.RFC3339Nano, a)
	tb, eb := time.Parse(time.RFC3339Nano, b)
	if ea == nil && eb == nil {
		return ta.After(tb)
	}
	return a > b
}

var (
	uploadPrefix = regexp.MustCompile(`^[0-9a-fA-F]{6,32}-`)
	imageFile    = regexp.MustCompile(`(?i)\.(jpe?g|png|webp|gif|bmp|tiff?)$`)
)

// lsImage finds the task's image and turns its URL into a project path.
func lsImage(data map[string]json.RawMessage) (string, error) {
	raw, ok := data["image"]
	name := "data.image"
	if !ok {
		var found []string
		for _, k := range sortedKeys(data) {
			if s, err := decodeAs[string](data[k], ""); err == nil && imageFile.MatchString(strings.SplitN(s, "?", 2)[0]) {
				found = append(found, k)
			}
		}
		if len(found) != 1 {
			return "", errors.New("data.image: missing, and no other data field names one image file")
		}
		name, raw = "data."+found[0], data[found[0]]
	}
	s, err := decodeAs[string](raw, "a string")
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	p, err := LabelStudioImagePath(s)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// LabelStudioImagePath turns the image reference of a Label Studio task into the
// path of a project image: the file name of an upload (with Label Studio's hex
// prefix removed), of local storage or of a cloud or web URL; a relative path as it
// is.
func LabelStudioImagePath(ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	switch {
	case ref == "":
		return "", errors.New("the image reference is empty")
	case strings.HasPrefix(ref, "data:"):
		return "", errors.New("the image is embedded as a data: URI; export the task with a file or URL instead")
	}
	u, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("%q is not a URL or a path: %v", ref, err)
	}
	p := u.Path
	switch {
	case strings.Contains(u.Path, "/data/local-files") && u.Query().Get("d") != "":
		p = u.Query().Get("d")
	case u.Scheme != "" || u.Host != "":
	case strings.HasPrefix(p, "/data/upload/"):
		return uploadPrefix.ReplaceAllString(path.Base(p), ""), nil
	case !strings.HasPrefix(p, "/"):
		return strings.TrimPrefix(path.Clean(p), "./"), nil
	}
	base := path.Base(p)
	if base == "." || base == "/" || base == "" {
		return "", fmt.Errorf("%q names no file", ref)
	}
	return base, nil
}

// lsDecodeError says which field of a task has the wrong type.
func lsDecodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Errorf("%s: want %s, got a JSON %s", te.Field, goTypeWords(te.Type.Kind().String()), te.Value)
	}
	return fmt.Errorf("the task does not have Label Studio's export shape: %v", err)
}

func goTypeWords(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice":
		return "a list"
	case "map", "struct":
		return "an object"
	case "float64", "int":
		return "a number"
	case "ptr":
		return "a number"
	}
	return kind
}
