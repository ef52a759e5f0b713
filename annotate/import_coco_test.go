package annotate

import (
	"errors"
	"strings"
	"testing"
)

// cocoFile is COCO instances JSON as Label Studio's COCO export writes it (ids from
// 0), with one bad annotation of each kind among good ones.
const cocoFile = `{"info": {"description": "export"}, "licenses": [],
 "annotations": [
  {"id": 0, "image_id": 0, "category_id": 0, "bbox": [10, 5, 20.5, 10], "area": 205, "iscrowd": 0,
   "segmentation": [[10, 5, 30.5, 5, 30.5, 15, 10, 15]]},
  {"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "ignore": 0},
  {"id": 2, "image_id": 0, "category_id": 0, "bbox": [0, 0, 5, 5], "iscrowd": 1},
  {"id": 3, "image_id": 7, "category_id": 0, "bbox": [0, 0, 5, 5]},
  {"id": 4, "image_id": 2, "category_id": 0, "bbox": [0, 0, 5, 5]},
  {"id": 5, "image_id": 0, "category_id": 0, "bbox": [0, 0, 0, 5]},
  {"id": 0, "image_id": 0, "category_id": 1, "bbox": [1, 1, 2, 2]},
  {"id": 6, "image_id": 3, "category_id": 1, "bbox": [1, 1, 2, 2]},
  {"id": 7, "image_id": 4, "category_id": 0, "bbox": [1, 1, 2, 2]},
  {"id": "x y", "image_id": 0, "category_id": 0, "bbox": [1, 1, 2, 2]},
  {"id": 8, "image_id": 0, "category_id": 9, "segmentation": [[1, 1, 2, 2]]},
  "oops"
 ],
 "images": [
  {"id": 0, "file_name": "0001-office-1/a.jpg", "width": 64, "height": 48},
  {"id": 1, "file_name": "./b.jpg", "width": 40, "height": 40},
  {"id": 2, "width": 10, "height": 10},
  {"id": 3, "file_name": "resized.jpg", "width": 40, "height": 30},
  {"id": 4, "file_name": "turned.jpg", "width": 30, "height": 40}
 ],
 "categories": [{"id": 0, "name": "mug"}, {"id": 1, "name": "traffic light", "supercategory": "outdoor"}]
}
`

func cocoSizes(p string) (int, int, bool) {
	switch p {
	case "0001-office-1/a.jpg":
		return 64, 48, true
	case "resized.jpg":
		return 80, 60, true
	case "turned.jpg":
		return 40, 30, true
	}
	return 0, 0, false
}

func TestImportCOCO(t *testing.T) {
	got, bad, err := ImportCOCO(strings.NewReader(cocoFile), ImportOptions{ImageSize: cocoSizes})
	if err != nil {
		t.Fatal(err)
	}
	compareImported(t, got, []Imported{
		{Line: 3, Sample: Sample{ID: "coco-0", Kind: KindHopQA, Image: "0001-office-1/a.jpg", Box: &Box{10, 5, 30.5, 15}, Tags: []string{"coco:mug"}}},
		{Line: 5, Sample: Sample{ID: "coco-1", Kind: KindHopQA, Image: "b.jpg", Box: &Box{1, 2, 4, 6}, Tags: []string{"coco:traffic light"}}},
	})
	checkRecordErrors(t, bad, []string{
		`record 3 (line 6): left out: iscrowd is 1: a crowd region, which COCO evaluation ignores`,
		`record 4 (line 7): image_id: no image entry has id 7`,
		`record 5 (line 8): image_id: the image entry with id 2 (line 20) is unusable: file_name: missing`,
		`record 6 (line 9): bbox: the box [0,0,0,5] has no area: width and height must be more than 0`,
		`record 7 (line 10): id: annotation id 0 is already used by annotation 1`,
		`record 8 (line 11): image_id: the file gives image "resized.jpg" as 40×30, the project's image is 80×60: the boxes were drawn on another size of the image`,
		`record 9 (line 12): image_id: the file gives image "turned.jpg" as 30×40, the project's image is 40×30: the file's EXIF orientation turns it a quarter: the boxes were drawn on the image as stored, not upright`,
		`record 10 (line 13): id: the id "coco-x y" holds a space at byte 7; ids may use ` + IDCharacters,
		"record 11 (line 14): bbox: missing; boxes are read from bbox [x, y, width, height], never from segmentation",
		`record 12 (line 15): want an object, got "oops"`,
	})
	if !errors.Is(bad[0], ErrLeftOut) || errors.Is(bad[1], ErrLeftOut) {
		t.Error("only the crowd region is left out as the file marks it")
	}
	// Drafts: the boxes are good, what an annotator writes is missing.
	for _, im := range got {
		for _, f := range Lint(im.Sample, LintEnv{ImageSize: cocoSizes}) {
			if f.Rule != RuleSchema {
				t.Errorf("%s: %s %s: %s", im.Sample.ID, f.Rule, f.Severity, f.Message)
			}
		}
	}
}

func TestImportCOCOFileErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"a list", `[{"images": []}]`, `line 1: want a JSON object with "images", "annotations" and "categories"`},
		{"empty", "\n", `line 2: want a JSON object: unexpected EOF`},
		{"no categories", "{\"images\": [],\n \"annotations\": []}", `line 1: the object has no list "categories"; want an object with "images", "annotations" and "categories"`},
		{"images not a list", "{\"images\": {},\n \"annotations\": [], \"categories\": []}", `line 1: "images": want a list, got {}`},
		{"annotations twice", "{\"images\": [], \"annotations\": [],\n\"annotations\": [], \"categories\": []}", `line 2: "annotations" appears twice`},
		{"broken", "{\"images\": [],\n \"annotations\": [{\"id\": 1,}], \"categories\": []}", `line 2: invalid character '}' looking for beginning of object key string`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ImportCOCO(strings.NewReader(tt.in), ImportOptions{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v\n     want %s", err, tt.want)
			}
		})
	}
	// A file with no annotations is no error: nothing to import.
	got, bad, err := ImportCOCO(strings.NewReader("\ufeff{\"images\": [], \"annotations\": [], \"categories\": []}"), ImportOptions{})
	if err != nil || len(got)+len(bad) != 0 {
		t.Errorf("empty lists: %v %v %v", got, bad, err)
	}
}
