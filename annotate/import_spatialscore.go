package annotate

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// SpatialScoreOptions configures ImportSpatialScore.
type SpatialScoreOptions struct {
	// ImageRoot, when set, is removed from the front of every img_paths entry that
	// starts with it ("./dataset/office-bench/"); a leading "./" is removed always.
	ImageRoot string
}

// ImportSpatialScore converts a SpatialScore benchmark file (haoningwu3639/SpatialScore
// @ 1995c4f5: version_0/dataset/SpatialScore.json, SpatialScore-Hard.json, and
// Benchwright's spatialscore export, release/spatialscore.go): a JSON list of items,
// read as its evaluation reads them (version_0/test_qwen.py, utils/util.py). For each
// item:
//
//   - img_paths (required): the images, a list of 1 to 64 paths shown in that order;
//     a leading "./" (and opt.ImageRoot) is removed.
//   - input_modality: "single-image" needs one path, "multi-images" and "video" two
//     or more. A video item is a sample of several images; without Benchwright's
//     frames (the Hard file has none) its modality is kept in Extra.
//   - question_type: "multi-choice" is an mcq whose options are the lines "(A) …",
//     "A. …" or "A: …" ending the question, or the inline "(a) … (b) …" of its last
//     line (Benchwright's "options", when present, instead), answered by a letter
//     ("B", "(B)", "(a)"); "judgment" answers Yes or No; "open-ended" any text, a
//     number marking the answer numeric.
//   - id: Benchwright's sample id; else "ss-<index>".
//   - category: the sample's task (unless Benchwright's export wrote the kind or the
//     hop categories there); subcategory, source, index, index_origin and
//     category_origin are kept in Extra (the Hard file's provenance).
//   - kind, options, hop, view, categories, ego_subject, answer_number, bbox (pixel
//     [x1, y1, x2, y2]), image_labels, box_image, frames and split: Benchwright's own
//     fields, read into the sample.
//
// Every other field is kept in Extra. Errors are reported as for ImportMultihop.
func ImportSpatialScore(r io.Reader, opt SpatialScoreOptions) ([]Imported, []RecordError, error) {
	return importRecords(r, func(i int, o object) (Sample, error) { return convertSpatialScore(i, o, opt) })
}

var (
	// ssOptionLine is one option line: "(A) train", "A. train", "A: train", "A) train".
	ssOptionLine = regexp.MustCompile(`^\s*\(?([A-Fa-f])\s*[).:]\s*(.*?)\s*$`)
	// ssInlineOption finds the "(a) " labels of options written on one line.
	ssInlineOption = regexp.MustCompile(`\(([A-Fa-f])\)\s*`)
	// ssAnswerLetter is a multi-choice answer: a letter, in parentheses or not.
	ssAnswerLetter = regexp.MustCompile(`^\s*\(?([A-Fa-f])\)?\.?\s*$`)
)

func convertSpatialScore(index int, o object, opt SpatialScoreOptions) (Sample, error) {
	c := &converter{obj: o}
	var s Sample
	idx := strconv.Itoa(index)
	if raw, ok := c.obj["index"]; ok { // kept in Extra
		var n json.Number
		var t string
		if json.Unmarshal(raw, &n) == nil {
			idx = n.String()
		} else if json.Unmarshal(raw, &t) == nil && t != "" {
			idx = t
		}
	}
	s.ID = cmp.Or(c.text("id"), "ss-"+idx)

	paths := c.strings("img_paths")
	switch {
	case len(paths) == 0:
		c.fail("img_paths", errors.New("want a list of 1 or more image paths"))
	case len(paths) > MaxImages:
		c.fail("img_paths", fmt.Errorf("%d images; a sample shows at most %d", len(paths), MaxImages))
	}
	for i, p := range paths {
		if opt.ImageRoot != "" {
			p = strings.TrimPrefix(p, opt.ImageRoot)
		}
		paths[i] = strings.TrimPrefix(p, "./")
	}
	s.SetImages(paths)
	modality := c.text("input_modality")
	switch {
	case modality == "single-image" && len(paths) > 1,
		(modality == "multi-images" || modality == "video") && len(paths) == 1:
		c.fail("input_modality", fmt.Errorf("%q, but img_paths lists %d images", modality, len(paths)))
	case modality != "" && modality != "single-image" && modality != "multi-images" && modality != "video":
		c.fail("input_modality", fmt.Errorf(`want "single-image", "multi-images" or "video", got %q`, modality))
	}

	question := c.text("question")
	answer := c.text("answer")
	qtype := c.text("question_type")
	kind := Kind(c.text("kind"))
	if kind != "" && !kind.Valid() {
		c.fail("kind", fmt.Errorf("%q is not a sample kind", kind))
	}
	switch strings.ToLower(qtype) {
	case "multi-choice":
		s.Kind = KindMCQ
		if kind == KindHopQA {
			s.Kind = KindHopQA
		}
		s.Question = question
		if _, ok := c.obj["options"]; ok {
			s.Options = c.strings("options")
			s.Question = stripOptionLines(question, len(s.Options))
		} else {
			s.Question, s.Options = splitSpatialScoreOptions(question)
			if len(s.Options) == 0 {
				c.fail("question", errors.New("a multi-choice question, but no options (A) …, (B) … end it"))
			}
		}
		if m := ssAnswerLetter.FindStringSubmatch(answer); m == nil {
			c.fail("answer", fmt.Errorf("%q is not an option letter", answer))
		} else if i := int(strings.ToUpper(m[1])[0] - 'A'); len(s.Options) > 0 && i >= len(s.Options) {
			c.fail("answer", fmt.Errorf("%q, but the question has %d options", answer, len(s.Options)))
		} else {
			s.AnswerIndex = i
		}
	case "judgment":
		s.Kind, s.Question = KindJudgment, question
		switch a := strings.ToLower(strings.TrimSpace(answer)); a {
		case "yes", "no":
			s.AnswerText = a
		default:
			c.fail("answer", fmt.Errorf("a judgment answers Yes or No, not %q", answer))
		}
	case "open-ended":
		s.Kind, s.Question, s.AnswerText = KindOpen, question, answer
		_, err := strconv.ParseFloat(strings.TrimSpace(answer), 64)
		s.AnswerNumber = err == nil
		if _, ok := c.obj["answer_number"]; ok {
			var v bool
			_, raw, _ := c.obj.take("answer_number")
			if json.Unmarshal(raw, &v) != nil {
				c.fail("answer_number", errors.New("want true or false"))
			}
			s.AnswerNumber = v
		}
	default:
		c.fail("question_type", fmt.Errorf(`want "multi-choice", "judgment" or "open-ended", got %q`, qtype))
	}
	if kind != "" && kind.Valid() && kind != s.Kind {
		c.fail("kind", fmt.Errorf("%s, but question_type is %q", kind, qtype))
	}
	delete(c.obj, "answer_number")

	// Benchwright's fields.
	if _, ok := c.obj["hop"]; ok {
		s.Hop = c.hop(0)
	}
	if v := c.text("view"); v != "" {
		s.View = View(v)
	}
	if _, ok := c.obj["categories"]; ok {
		s.Categories = c.categories()
	}
	s.EgoSubject = EgoSubject(c.text("ego_subject"))
	if _, raw, ok := c.obj.take("bbox"); ok {
		var b []float64
		if err := json.Unmarshal(raw, &b); err != nil || len(b) != 4 {
			c.fail("bbox", errors.New("want a pixel box [x1, y1, x2, y2]"))
		} else {
			box := Box(b)
			s.Box = &box
		}
	}
	extra := object{}
	for _, name := range []string{"image_labels", "box_image", "frames"} {
		if raw, ok := c.obj[name]; ok {
			extra[name] = raw
			delete(c.obj, name)
		}
	}
	s.Extra = extra
	if err := TakeSequenceFields(&s); err != nil {
		c.errs = append(c.errs, err)
	}

	// category: the task, unless it is what Benchwright's export writes without one.
	task := c.text("category")
	if kind != "" {
		if task == string(s.Kind) || s.Kind == KindHopQA && task == joinCategoryNames(s.Categories) {
			task = ""
		}
		if sub := c.text("subcategory"); sub != string(s.Kind) && sub != "" {
			c.obj["subcategory"], _ = json.Marshal(sub)
		}
		// index, source, index_origin and category_origin are the export's own.
		delete(c.obj, "index")
		delete(c.obj, "source")
		delete(c.obj, "index_origin")
		delete(c.obj, "category_origin")
	}
	if modality == "video" && s.Modality() != ModalityVideo {
		c.obj["input_modality"], _ = json.Marshal(modality) // frames of a video whose provenance the file does not give
	}
	if _, ok := c.obj["task"]; !ok && task != "" {
		c.obj["task"], _ = json.Marshal(task) // finish reads it
	}
	return c.finish(s)
}

// joinCategoryNames is categories joined with "+", as exports write them.
func joinCategoryNames(cats []Category) string {
	s := make([]string, len(cats))
	for i, c := range cats {
		s[i] = string(c)
	}
	return strings.Join(s, "+")
}

// splitSpatialScoreOptions takes the options off the end of a multi-choice question:
// the last lines when each is the next option "(A) …" from A, else the inline
// "(a) … (b) …" of the last line. It returns the question without them.
func splitSpatialScoreOptions(q string) (string, []string) {
	lines := strings.Split(strings.TrimRight(q, "\n "), "\n")
	first := len(lines)
	for first > 0 && ssOptionLine.MatchString(lines[first-1]) {
		first--
	}
	var opts []string
	for i, l := range lines[first:] {
		m := ssOptionLine.FindStringSubmatch(l)
		if int(strings.ToUpper(m[1])[0]-'A') != i {
			opts = nil
			break
		}
		opts = append(opts, m[2])
	}
	if len(opts) >= 2 {
		return strings.TrimSpace(strings.Join(lines[:first], "\n")), opts
	}
	last := lines[len(lines)-1]
	locs := ssInlineOption.FindAllStringSubmatchIndex(last, -1)
	if len(locs) < 2 {
		return q, nil
	}
	for i, l := range locs {
		if int(strings.ToUpper(last[l[2]:l[3]])[0]-'A') != i {
			return q, nil
		}
		end := len(last)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		opts = append(opts, strings.TrimSpace(last[l[1]:end]))
	}
	head := strings.TrimSpace(strings.Join(append(lines[:len(lines)-1:len(lines)-1], last[:locs[0][0]]), "\n"))
	return head, opts
}

// stripOptionLines removes the n option lines an export wrote after the question.
func stripOptionLines(q string, n int) string {
	head, opts := splitSpatialScoreOptions(q)
	if len(opts) == n {
		return head
	}
	return q
}
