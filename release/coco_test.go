package release

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"path"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// realImage is a w×h image in the format name's extension says (JPEG or PNG), with a
// gradient so that it is not blank.
func realImage(t *testing.T, name string, w, h int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray(x, y, color.Gray{uint8((x*7 + y*3) % 256)})
		}
	}
	var b bytes.Buffer
	var err error
	if path.Ext(name) == ".png" {
		err = png.Encode(&b, img)
	} else {
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// realFixture is releaseFixture with images the consumers' PIL can open, of the
// records' sizes, plus a hop question on a JPEG stored 60×40 with EXIF orientation 6
// (displayed 40×60), in the test split.
func realFixture(t *testing.T) ([]Record, map[string][]byte) {
	t.Helper()
	recs, _ := releaseFixture()
	images := map[string][]byte{}
	for _, r := range recs {
		if _, ok := images[r.Sample.Image]; !ok {
			images[r.Sample.Image] = realImage(t, r.Sample.Image, r.Width, r.Height)
		}
	}
	images["0003-hall-1/rot.jpg"] = exifJPEG(t, 60, 40, 6)
	recs = append(recs, Record{Sample: annotate.Sample{ID: "mh-0003", Kind: annotate.KindHopQA, Image: "0003-hall-1/rot.jpg",
		Question: "Which object is at the top of the picture?", Options: []string{"the lamp", "the door", "the rug", "the chair"},
		AnswerIndex: 1, Categories: []annotate.Category{annotate.CatPos}, Hop: 1, View: annotate.ViewExo,
		Box: &annotate.Box{5, 10, 30, 50}, Split: annotate.SplitTest}, Width: 40, Height: 60})
	for i := range recs {
		recs[i].ImageSHA256 = sha(images[recs[i].Sample.Image])
	}
	return recs, images
}

// exportReal exports recs into a new folder and returns it.
func exportReal(t *testing.T, f Format, recs []Record, images map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if _, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: f, Records: recs, Open: opener(images),
		Info: fixtureInfo(fixedTime)}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cocoResult is what testdata/consumers/coco_loader.py prints for one split.
type cocoResult struct {
	Images, Annotations, Categories int
	Errors                          []string
	AnnIDsAll                       int `json:"ann_ids_all"`
	AnnIDsArea                      int `json:"ann_ids_area"`
	AnnIDsNotCrowd                  int `json:"ann_ids_not_crowd"`
	Masks                           []struct {
		ID       int        `json:"id"`
		MaskArea int        `json:"mask_area"`
		Area     float64    `json:"area"`
		BBox     [4]float64 `json:"bbox"`
	}
	ImageSizes []struct {
		FileName   string `json:"file_name"`
		Error      string
		Listed     [2]int
		Stored     [2]int
		Transposed [2]int
	} `json:"image_sizes"`
	Perfect, Shifted struct{ AP, AP50, AP75, AR100 float64 }
}

// pycocotools' loading path and COCOeval (bbox) read the export as intended: ids
// from 1, every field the default paths read, polygons annToMask can rasterise to
// about the box's area, images stored at their listed (upright) size, and a perfect
// detection file scoring AP 1.
func TestCOCOLoadsInPycocotools(t *testing.T) {
	recs, images := realFixture(t)
	dir := exportReal(t, coco{}, recs, images)
	var got struct{ Splits map[string]cocoResult }
	runConsumer(t, "coco_loader.py", &got, dir)
	boxes := map[string]int{}
	for _, r := range recs {
		if r.Sample.Box != nil {
			boxes[splitOf(r.Sample)]++
		}
	}
	if len(got.Splits) != len(boxes) {
		t.Fatalf("splits %v, want %v", got.Splits, boxes)
	}
	for split, res := range got.Splits {
		if len(res.Errors) > 0 {
			t.Errorf("%s: %q", split, res.Errors)
		}
		if n := boxes[split]; res.Annotations != n || res.AnnIDsAll != n || res.AnnIDsArea != n || res.AnnIDsNotCrowd != n || len(res.Masks) != n {
			t.Errorf("%s: %d annotations (%d, %d by area, %d not crowd, %d masks), want %d", split, res.Annotations,
				res.AnnIDsAll, res.AnnIDsArea, res.AnnIDsNotCrowd, len(res.Masks), n)
		}
		for _, m := range res.Masks {
			// rleFrPoly covers the pixels whose centres the polygon holds: the area of
			// the box, give or take its rim.
			rim := 2*(m.BBox[2]+m.BBox[3]) + 4
			if m.MaskArea <= 0 || math.Abs(float64(m.MaskArea)-m.Area) > rim {
				t.Errorf("%s: annotation %d: mask area %d, box area %g", split, m.ID, m.MaskArea, m.Area)
			}
		}
		for _, s := range res.ImageSizes {
			if s.Error != "" || s.Stored != s.Listed || s.Transposed != s.Listed {
				t.Errorf("%s: %s listed %v, stored %v, transposed %v %s", split, s.FileName, s.Listed, s.Stored, s.Transposed, s.Error)
			}
		}
		for name, v := range map[string]float64{"AP": res.Perfect.AP, "AP50": res.Perfect.AP50, "AP75": res.Perfect.AP75, "AR@100": res.Perfect.AR100} {
			// tp / (tp + fp + eps) is 1 - 2⁻⁵² for one detection: 1 within rounding.
			if math.Abs(v-1) > 1e-9 {
				t.Errorf("%s: perfect detections score %s %v, want 1", split, name, v)
			}
		}
		if res.Shifted.AP != 0 {
			t.Errorf("%s: detections shifted off every box score AP %v, want 0", split, res.Shifted.AP)
		}
	}
	// The rotated JPEG is listed and stored upright.
	var found bool
	for _, s := range got.Splits["test"].ImageSizes {
		if s.FileName == "0003-hall-1/rot.jpg" {
			found = s.Stored == [2]int{40, 60}
		}
	}
	if !found {
		t.Errorf("the EXIF-rotated image is not stored 40×60: %+v", got.Splits["test"].ImageSizes)
	}
}

// The instances JSON itself: ids from 1, the rectangle polygon of each box, floats
// with a fraction.
func TestCOCOAnnotationShape(t *testing.T) {
	sink := exportOne(t, coco{}, annotate.Sample{ID: "mh-1", Kind: annotate.KindHopQA, Image: "0001-x-1/odd.jpg", Question: "Which object is closest?",
		Options: []string{"the a", "the b", "the c", "the d"}, AnswerIndex: 3, Categories: []annotate.Category{annotate.CatRel}, Hop: 1,
		View: annotate.ViewExo, Box: &annotate.Box{100, 120.5, 200, 220}}, 641, 479)
	got := string(sink["annotations/instances_test.json"])
	for _, want := range []string{
		`"licenses": []`,
		`{"id":1,"file_name":"0001-x-1/odd.jpg","width":641,"height":479}`,
		`{"id":1,"image_id":1,"category_id":1,"bbox":[100.0,120.5,100.0,99.5],"area":9950.0,` +
			`"segmentation":[[100.0,120.5,200.0,120.5,200.0,220.0,100.0,220.0]],"iscrowd":0,"sample_id":"mh-1"}`,
		`{"id":1,"name":"d","supercategory":"object"}`,
	} {
		if !bytes.Contains([]byte(got), []byte(want)) {
			t.Errorf("instances JSON lacks %s:\n%s", want, got)
		}
	}
	if sink["images/0001-x-1/odd.jpg"] == nil {
		t.Error("the image is not under images/")
	}
}
