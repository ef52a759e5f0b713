package release

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/benchwright/benchwright/annotate"
)

// coco is COCO instances JSON of the answer boxes, in the shape pycocotools reads
// (cocodataset/cocoapi @ 8c9bcc3, PythonAPI/pycocotools):
//   - coco.py COCO.createIndex indexes annotations, images and categories by id;
//     cocoeval.py COCOeval.evaluateImg stores a match as the ground truth's
//     annotation id and accumulate counts it with logical_and(dtm, …), so an id 0
//     would never count as matched: every id is 1 or more.
//   - evaluateImg reads each annotation's area and iscrowd; coco.py annToRLE and
//     annToMask (and showAnns) read segmentation as polygons through
//     _mask.pyx frPyObjects, which takes a first polygon of exactly 4 numbers for a
//     box: the box is written as its rectangle polygon of 8 numbers.
//   - images' width and height are the size the box is drawn on: images are copied
//     upright (EXIF orientation applied), so that is the stored size too.
//
// Numbers are written with a fraction (100.0), as COCO's own files do.
//
// COCO is box-only: it holds no question, options or answer, so it is not a Reader
// (boxOnly in roundtrip_test.go lists it).
type coco struct{}

func (coco) Name() string { return "coco" }

// Holds takes the samples with a box.
func (coco) Holds(s annotate.Sample) bool { return s.Box != nil }

func (coco) Layout() string {
	return "annotations/instances_<split>.json; images/ holds the images, turned upright (width and height are the stored size), " +
		"and file_name is relative to it; each annotation's segmentation is its box as a rectangle polygon; " +
		"a sample of several images is annotated on the image its box is drawn on (box_image), the only one of its images listed. " +
		"The format is box-only: an annotation holds a sample's box, the object's name as its category and sample_id, " +
		"not the question, options or answer, so the samples cannot be read back from it"
}

func (coco) Write(_ context.Context, w *Writer, recs []Record) error {
	// An annotation lies on one image: a sample of several images is written as its
	// box's image (Sample.BoxImage), the one its coordinates and that image's size
	// refer to; its other images hold no box and are not listed.
	recs = slices.Clone(recs)
	for i, r := range recs {
		br, err := r.imageRecord(r.Sample.BoxImage)
		if err != nil {
			return err
		}
		br.Sample.MoreImages, br.Sample.ImageLabels, br.Sample.Frames, br.Sample.BoxImage, br.More = nil, nil, nil, 0, nil
		recs[i] = br
	}
	// Ids are shared by every split's file: images by path, categories by name.
	imageID, catID := map[string]int{}, map[string]int{}
	var paths, names []string
	for _, r := range recs {
		if _, ok := imageID[r.Sample.Image]; !ok {
			imageID[r.Sample.Image] = 0
			paths = append(paths, r.Sample.Image)
		}
		if n := ObjectName(r.Sample); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(paths)
	slices.Sort(names)
	for i, p := range paths {
		imageID[p] = i + 1
	}
	var categories [][]byte
	for i, n := range names {
		catID[n] = i + 1
		b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
			o.Value("id", i+1)
			o.Value("name", n)
			o.Value("supercategory", "object")
		})
		if err != nil {
			return err
		}
		categories = append(categories, b)
	}
	annID := map[string]int{}
	for i, r := range recs {
		annID[r.Sample.ID] = i + 1
	}
	rel := w.Info().Release
	info, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
		o.Value("description", fmt.Sprintf("%s@%s, Benchwright project %s", rel.Name, rel.Version, rel.Project))
		o.Value("version", rel.Version)
	})
	if err != nil {
		return err
	}
	for _, split := range splitsOf(recs) {
		var images, anns [][]byte
		var in []Record
		listed := map[string]bool{}
		for _, r := range recs {
			if splitOf(r.Sample) == split {
				in = append(in, r)
			}
		}
		sorted := slices.Clone(in)
		slices.SortStableFunc(sorted, func(a, b Record) int { return cmp.Compare(a.Sample.Image, b.Sample.Image) })
		for _, r := range sorted {
			if listed[r.Sample.Image] {
				continue
			}
			listed[r.Sample.Image] = true
			b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
				o.Value("id", imageID[r.Sample.Image])
				o.Value("file_name", r.Sample.Image)
				o.Value("width", r.Width)
				o.Value("height", r.Height)
			})
			if err != nil {
				return err
			}
			images = append(images, b)
		}
		for _, r := range in {
			s := r.Sample
			c := s.Box.ToCOCO()
			x1, y1, x2, y2 := s.Box[0], s.Box[1], s.Box[2], s.Box[3]
			bbox, err1 := floatList(c[:]...)
			polygon, err2 := floatList(x1, y1, x2, y1, x2, y2, x1, y2)
			area, err3 := floatJSON(s.Box.Area())
			if err := errors.Join(err1, err2, err3); err != nil {
				return fmt.Errorf("sample %s: box: %w", s.ID, err)
			}
			b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
				o.Value("id", annID[s.ID])
				o.Value("image_id", imageID[s.Image])
				o.Value("category_id", catID[ObjectName(s)])
				o.Raw("bbox", append(append([]byte{'['}, bbox...), ']'))
				o.Raw("area", area)
				o.Raw("segmentation", append(append([]byte{'[', '['}, polygon...), ']', ']'))
				o.Value("iscrowd", 0)
				o.Value("sample_id", s.ID)
			})
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			anns = append(anns, b)
		}
		err := w.WriteFile("annotations/instances_"+split+".json", func(out io.Writer) error {
			var b bytes.Buffer
			b.WriteString("{\n\"info\": ")
			b.Write(info)
			b.WriteString(",\n\"licenses\": []")
			for _, part := range []struct {
				key   string
				items [][]byte
			}{{"images", images}, {"annotations", anns}, {"categories", categories}} {
				b.WriteString(",\n\"" + part.key + "\": ")
				if err := writeJSONList(&b, part.items); err != nil {
					return err
				}
				b.Truncate(b.Len() - 1) // the list's newline
			}
			b.WriteString("\n}\n")
			_, err := out.Write(b.Bytes())
			return err
		})
		if err != nil {
			return err
		}
		for _, r := range in {
			if err := w.CopyUprightImage("images/"+r.Sample.Image, r); err != nil {
				return err
			}
			if err := w.Step(); err != nil {
				return err
			}
		}
	}
	return nil
}
