package annotate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrLeftOut marks a RecordError for a record the source itself says not to use,
// such as a COCO crowd region or a Label Studio task nobody annotated: a note for
// people, not a failure.
var ErrLeftOut = errors.New("left out")

// ImportCOCO converts COCO instances JSON (the file pycocotools' COCO class reads)
// into draft hop_qa samples, one per annotation: boxes become draft boxes an
// annotator writes questions for. It reads
//
//   - images: id, file_name (the sample's image, a path relative to the images'
//     folder), and width and height when given;
//   - categories: id, name;
//   - annotations: id, image_id, category_id, bbox [x, y, width, height] in pixels,
//     iscrowd.
//
// Ids are integers or strings, 0 included (Label Studio's COCO export counts from
// 0). Each sample has id "coco-<annotation id>", the box as [x1, y1, x2, y2], the
// tag "coco:<category name>" so that the annotator sees what was boxed, and no
// question, options or answer. Other fields (area, segmentation, supercategory, …)
// are not read: the box comes from bbox, never from a polygon.
//
// An annotation with iscrowd 1 (a region COCO evaluation ignores) is returned as a
// RecordError wrapping ErrLeftOut. An annotation that cannot be converted — a field
// missing or of the wrong type, an image or category id that no entry has, a box
// with no area, an id used before, an image whose width and height differ from the
// size opt.ImageSize knows (the boxes would have been drawn on another size) — is a
// RecordError with its 0-based position in the annotations list and the line it
// starts on; the others are kept. err is for a file that is not a JSON object with
// the three lists.
func ImportCOCO(r io.Reader, opt ImportOptions) ([]Imported, []RecordError, error) {
	type element struct {
		line int
		raw  json.RawMessage
	}
	lists := map[string][]element{}
	err := walkObjectLists(r, func(key string, line int, raw json.RawMessage) error {
		switch key {
		case "images", "annotations", "categories":
			lists[key] = append(lists[key], element{line, raw})
		}
		return nil
	}, "images", "annotations", "categories")
	if err != nil {
		return nil, nil, err
	}

	type imageEntry struct {
		line int
		file string
		w, h int
		err  error
	}
	images := map[string]*imageEntry{}
	for _, el := range lists["images"] {
		e := &imageEntry{line: el.line}
		o, err := cocoObject(el.raw)
		var id string
		if err == nil {
			c := &converter{obj: o}
			id = c.cocoID("id")
			e.file = strings.TrimPrefix(c.text("file_name"), "./")
			if e.file == "" && len(c.errs) == 0 {
				c.fail("file_name", errors.New("missing"))
			}
			e.w, e.h = c.cocoSize("width"), c.cocoSize("height")
			err = errors.Join(c.errs...)
		}
		e.err = err
		if prev, dup := images[id]; dup && id != "" {
			prev.err = fmt.Errorf("id %s is also the id of the image entry on line %d", id, el.line)
			continue
		}
		images[id] = e
	}
	type categoryEntry struct {
		line int
		name string
		err  error
	}
	categories := map[string]*categoryEntry{}
	for _, el := range lists["categories"] {
		e := &categoryEntry{line: el.line}
		o, err := cocoObject(el.raw)
		var id string
		if err == nil {
			c := &converter{obj: o}
			id = c.cocoID("id")
			e.name = c.text("name")
			if strings.TrimSpace(e.name) == "" && len(c.errs) == 0 {
				c.fail("name", errors.New("missing"))
			}
			err = errors.Join(c.errs...)
		}
		e.err = err
		if prev, dup := categories[id]; dup && id != "" {
			prev.err = fmt.Errorf("id %s is also the id of the category entry on line %d", id, el.line)
			continue
		}
		categories[id] = e
	}

	var ok []Imported
	var bad []RecordError
	firstUse := map[string]int{}
	for i, el := range lists["annotations"] {
		s, err := func() (Sample, error) {
			o, err := cocoObject(el.raw)
			if err != nil {
				return Sample{}, err
			}
			c := &converter{obj: o}
			if name, raw, ok := c.obj.take("iscrowd"); ok {
				v, err := decodeAs[int](raw, "0 or 1")
				if err != nil || v != 0 && v != 1 {
					c.fail(name, fmt.Errorf("want 0 or 1, got %s", snippet(raw)))
				}
				if v == 1 {
					return Sample{}, fmt.Errorf("%w: iscrowd is 1: a crowd region, which COCO evaluation ignores", ErrLeftOut)
				}
			}
			id := c.cocoID("id")
			imageID, catID := c.cocoID("image_id"), c.cocoID("category_id")
			bbox := c.cocoBox()
			if err := errors.Join(c.errs...); err != nil {
				return Sample{}, err
			}
			s := Sample{ID: "coco-" + id, Kind: KindHopQA}
			var errs []error
			switch im := images[imageID]; {
			case im == nil:
				errs = append(errs, fmt.Errorf("image_id: no image entry has id %s", imageID))
			case im.err != nil:
				errs = append(errs, fmt.Errorf("image_id: the image entry with id %s (line %d) is unusable: %w", imageID, im.line, im.err))
			default:
				s.Image = im.file
				if opt.ImageSize != nil && im.w > 0 && im.h > 0 {
					if w, h, known := opt.ImageSize(im.file); known && (w != im.w || h != im.h) {
						hint := "the boxes were drawn on another size of the image"
						if w == im.h && h == im.w {
							hint = "the file's EXIF orientation turns it a quarter: the boxes were drawn on the image as stored, not upright"
						}
						errs = append(errs, fmt.Errorf("image_id: the file gives image %q as %d×%d, the project's image is %d×%d: %s", im.file, im.w, im.h, w, h, hint))
					}
				}
			}
			switch cat := categories[catID]; {
			case cat == nil:
				errs = append(errs, fmt.Errorf("category_id: no category entry has id %s", catID))
			case cat.err != nil:
				errs = append(errs, fmt.Errorf("category_id: the category entry with id %s (line %d) is unusable: %w", catID, cat.line, cat.err))
			default:
				s.Tags = []string{"coco:" + strings.TrimSpace(cat.name)}
			}
			b := BoxFromCOCO(bbox)
			s.Box = &b
			return s, errors.Join(errs...)
		}()
		if err == nil {
			if e := CheckID(s.ID); e != nil {
				err = fmt.Errorf("id: %w", e)
			} else if j, dup := firstUse[s.ID]; dup {
				err = fmt.Errorf("id: annotation id %s is already used by annotation %d", strings.TrimPrefix(s.ID, "coco-"), j+1)
			}
		}
		if err != nil {
			bad = append(bad, RecordError{Index: i, Line: el.line, Err: err})
			continue
		}
		firstUse[s.ID] = i
		ok = append(ok, Imported{Line: el.line, Sample: s})
	}
	return ok, bad, nil
}

// cocoObject decodes one entry of a COCO list, refusing text that is not UTF-8.
func cocoObject(raw json.RawMessage) (object, error) {
	if _, err := invalidUTF8Error(raw); err != nil {
		return nil, err
	}
	o, err := decodeAs[object](raw, "an object")
	if err == nil && o == nil {
		err = errors.New("want an object, got null")
	}
	return o, err
}

// cocoID reads an id: an integer (its decimal text) or a non-empty string.
func (c *converter) cocoID(name string) string {
	_, raw, ok := c.obj.take(name)
	if !ok {
		c.fail(name, errors.New("missing"))
		return ""
	}
	switch jsonType(raw) {
	case "number":
		var n json.Number
		if err := json.Unmarshal(raw, &n); err == nil {
			if i, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
				return strconv.FormatInt(i, 10)
			}
			if f, err := n.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				return strconv.FormatInt(int64(f), 10)
			}
		}
	case "string":
		if s, _ := decodeAs[string](raw, ""); strings.TrimSpace(s) != "" {
			return s
		}
	}
	c.fail(name, fmt.Errorf("want an integer or a string, got %s", snippet(raw)))
	return ""
}

// cocoSize reads an optional positive image dimension; 0 when absent.
func (c *converter) cocoSize(name string) int {
	_, raw, ok := c.obj.take(name)
	if !ok {
		return 0
	}
	v, err := decodeAs[float64](raw, "a number of pixels")
	if err == nil && (v <= 0 || v != math.Trunc(v)) {
		err = fmt.Errorf("want a positive whole number of pixels, got %s", snippet(raw))
	}
	if err != nil {
		c.fail(name, err)
		return 0
	}
	return int(v)
}

// cocoBox reads bbox [x, y, width, height], refusing a box with no area.
func (c *converter) cocoBox() [4]float64 {
	name, raw, ok := c.obj.take("bbox")
	if !ok {
		c.fail("bbox", errors.New("missing; boxes are read from bbox [x, y, width, height], never from segmentation"))
		return [4]float64{}
	}
	v, err := decodeAs[[]float64](raw, "[x, y, width, height]")
	if err == nil && len(v) != 4 {
		err = fmt.Errorf("want 4 numbers [x, y, width, height], got %d", len(v))
	}
	if err == nil && (v[2] <= 0 || v[3] <= 0) {
		err = fmt.Errorf("the box %s has no area: width and height must be more than 0", snippet(raw))
	}
	if err != nil {
		c.fail(name, err)
		return [4]float64{}
	}
	return [4]float64(v)
}

// walkObjectLists reads a top-level JSON object and calls fn for each element of
// the lists under keys, with the 1-based line where the element starts. Every key
// must be present and hold a list; other members are skipped. An error fn returns
// stops the walk.
func walkObjectLists(r io.Reader, fn func(key string, line int, raw json.RawMessage) error, keys ...string) error {
	in, first, err := openJSON(r, "a JSON object")
	if err != nil {
		return err
	}
	if first != '{' {
		return fmt.Errorf("line %d: want a JSON object with %s", in.lines.line(in.skipped), quotedList(keys))
	}
	lines, skipped, dec, fail := in.lines, in.skipped, in.dec, in.fail
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fail(err)
		}
		start := skipped + dec.InputOffset() - int64(len(raw))
		wanted := false
		for _, k := range keys {
			wanted = wanted || k == key
		}
		if !wanted {
			continue
		}
		if seen[key] {
			return fmt.Errorf("line %d: %q appears twice", lines.line(start), key)
		}
		seen[key] = true
		if jsonType(raw) != "array" {
			return fmt.Errorf("line %d: %q: want a list, got %s", lines.line(start), key, snippet(raw))
		}
		inner := json.NewDecoder(bytes.NewReader(raw))
		inner.Token() // [
		for inner.More() {
			var el json.RawMessage
			if err := inner.Decode(&el); err != nil {
				return fmt.Errorf("line %d: %q: %w", lines.line(start), key, err)
			}
			if err := fn(key, lines.line(start+inner.InputOffset()-int64(len(el))), el); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	var missing []string
	for _, k := range keys {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("line %d: the object has no list %s; want an object with %s", lines.line(skipped), quotedList(missing), quotedList(keys))
	}
	return nil
}

func quotedList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
