package release

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
)

// hfResult is what testdata/consumers/hf_imagefolder_loader.py prints.
type hfResult struct {
	ReadmeSplits   map[string][]string `json:"readme_splits"`
	InferredSplits map[string][]string `json:"inferred_splits"`
	Splits         map[string]struct {
		Rows            int
		RowsV33         int `json:"rows_v33"`
		IDs             []string
		FileNamesUnique bool `json:"file_names_unique"`
		Types           map[string]string
	}
	TypesEqual          bool              `json:"types_equal"`
	Declared            map[string]string `json:"declared"`
	DatasetInfoDeclared map[string]string `json:"dataset_info_declared"`
	Images              []struct {
		Split, ID                  string
		Index                      int
		FileName                   string `json:"file_name"`
		Listed, Stored, Transposed [2]int
		SHA256                     string
	}
	ImageColumns map[string][]string `json:"image_columns"`
	V33Error     *string             `json:"v33_error"`
	Errors       []string
}

// loadHF exports recs as an imagefolder and loads it with the datasets port.
func loadHF(t *testing.T, recs []Record, images map[string][]byte) (hfResult, string) {
	t.Helper()
	dir := exportReal(t, hfImageFolder{}, recs, images)
	var got hfResult
	runConsumer(t, "hf_imagefolder_loader.py", &got, dir)
	return got, dir
}

// checkHF asserts what every imagefolder export must give: no load error, the same
// splits and files with and without the README, one row per sample, the same column
// types in every split, every value of the declared type, and images stored at the
// listed size whether or not EXIF is applied. A release holding a sample of several
// images loads every row's images as the images column (datasets 3.4 or later);
// others the image column, also with datasets 3.3.
func checkHF(t *testing.T, got hfResult, recs []Record) {
	t.Helper()
	seq := slices.ContainsFunc(recs, func(r Record) bool { return r.Sample.NumImages() > 1 })
	if len(got.Errors) > 0 {
		t.Errorf("load errors: %q", got.Errors)
	}
	ids := map[string][]string{}
	for _, r := range recs {
		folder := hfSplitFolders[splitOf(r.Sample)]
		ids[folder] = append(ids[folder], r.Sample.ID)
	}
	if !slices.Equal(slices.Sorted(maps.Keys(got.ReadmeSplits)), slices.Sorted(maps.Keys(ids))) {
		t.Errorf("README splits %v, want %v", slices.Sorted(maps.Keys(got.ReadmeSplits)), slices.Sorted(maps.Keys(ids)))
	}
	// Without the README (load_dataset("imagefolder", data_dir=...)), data_files.py
	// finds the same splits and files: no name is mistaken for a split.
	if !maps.EqualFunc(got.ReadmeSplits, got.InferredSplits, slices.Equal) {
		t.Errorf("splits without the README %v, with it %v", got.InferredSplits, got.ReadmeSplits)
	}
	var first map[string]string
	for folder, want := range ids {
		s := got.Splits[folder]
		slices.Sort(want)
		if s.Rows != len(want) || (!seq && s.RowsV33 != len(want)) || !slices.Equal(s.IDs, want) || !s.FileNamesUnique {
			t.Errorf("%s: %d rows (%d up to datasets 3.3), ids %v, unique file names %v; want one row per sample %v",
				folder, s.Rows, s.RowsV33, s.IDs, s.FileNamesUnique, want)
		}
		wantColumn := "image"
		if seq {
			wantColumn = "images"
		}
		if cols := got.ImageColumns[folder]; !slices.Equal(cols, []string{wantColumn}) {
			t.Errorf("%s: the builder makes image columns %v of the metadata, want %s", folder, cols, wantColumn)
		}
		if first == nil {
			first = s.Types
		} else if !maps.Equal(s.Types, first) {
			t.Errorf("%s: types %v, another split %v", folder, s.Types, first)
		}
	}
	if !got.TypesEqual {
		t.Error("the splits' metadata types differ")
	}
	if bbox := first["objects"]; bbox != "struct<bbox: list<list<double>>, category: list<string>>" {
		t.Errorf("objects typed %s", bbox)
	}
	want := map[string]string{"image": "image", "id": "string", "kind": "string", "question": "string", "question_tag": "string",
		"options": "list<string>", "answer": "string", "answer_number": "bool", "categories": "list<string>", "hop": "int32", "view": "string",
		"ego_subject": "string", "scene": "string", "task": "string", "split": "string", "parent": "string", "width": "int32",
		"height": "int32", "source_image": "string", "objects": "struct<bbox: list<list<float64>>, category: list<string>>"}
	if seq {
		delete(want, "image")
		for _, c := range []string{"width", "height", "source_image"} {
			want[c+"s"] = "list<" + want[c] + ">"
			delete(want, c)
		}
		want["images"], want["image_labels"], want["box_image"] = "list<image>", "list<string>", "int32"
		want["frames"] = "list<struct<video: string, video_sha256: string, duration: float64, time: float64, index: int64>>"
		if got.V33Error == nil {
			t.Error("datasets 3.3, which knows no file_names, is said to load it")
		}
	} else if got.V33Error != nil {
		t.Errorf("datasets 3.3 cannot load it: %s", *got.V33Error)
	}
	if !maps.Equal(got.Declared, want) || !maps.Equal(got.DatasetInfoDeclared, want) {
		t.Errorf("declared features %v, dataset_info %v; want %v", got.Declared, got.DatasetInfoDeclared, want)
	}
	n := 0
	for _, r := range recs {
		n += r.Sample.NumImages()
	}
	if len(got.Images) != n {
		t.Errorf("%d images opened, want %d", len(got.Images), n)
	}
	for _, im := range got.Images {
		if im.Stored != im.Listed || im.Transposed != im.Listed {
			t.Errorf("%s %s: listed %v, stored %v, EXIF-transposed %v", im.Split, im.FileName, im.Listed, im.Stored, im.Transposed)
		}
	}
}

func TestHFImageFolderLoads(t *testing.T) {
	recs, images := realFixture(t)
	got, _ := loadHF(t, recs, images)
	checkHF(t, got, recs)
	// The EXIF-rotated JPEG (stored 60×40, shown 40×60) is written upright.
	for _, im := range got.Images {
		if im.ID == "mh-0003" && im.Stored != [2]int{40, 60} {
			t.Errorf("the rotated image is stored %v, want 40×60", im.Stored)
		}
	}
}

// Whole-number boxes in one split and fractional ones in the other type the same
// (Go alone would write 12 and datasets read int64 there); images in folders named
// like splits (val2017, test_x) do not make splits.
func TestHFImageFolderStableTypesAndNeutralNames(t *testing.T) {
	images := map[string][]byte{}
	var recs []Record
	add := func(id, img, split string, box annotate.Box) {
		if _, ok := images[img]; !ok {
			images[img] = realImage(t, img, 64, 48)
		}
		recs = append(recs, Record{Sample: annotate.Sample{ID: id, Kind: annotate.KindHopQA, Image: img, Question: "Which object is left?",
			Options: []string{"the a", "the b", "the c", "the d"}, AnswerIndex: 0, Categories: []annotate.Category{annotate.CatPos}, Hop: 1,
			View: annotate.ViewExo, Box: &box, Split: split}, Width: 64, Height: 48, ImageSHA256: sha(images[img])})
	}
	add("mh-1", "val2017/test_1.jpg", "train", annotate.Box{1, 2, 30, 40})
	add("mh-2", "val2017/test_1.jpg", "train", annotate.Box{2, 2, 31, 41})
	add("mh-3", "dev-3/eval 4.png", "test", annotate.Box{1.5, 2.25, 30.5, 40})
	add("mh-4", "training/valid.jpg", "val", annotate.Box{0.5, 0.5, 10, 10})
	got, dir := loadHF(t, recs, images)
	checkHF(t, got, recs)
	if _, ok := got.ReadmeSplits["validation"]; !ok {
		t.Errorf("the val split is not written as validation: %v", slices.Sorted(maps.Keys(got.ReadmeSplits)))
	}
	// The loader's inference does catch Go's integral floats: written as 30 in one
	// split and 30.5 in another, the types differ.
	p := filepath.Join(dir, "train", "metadata.jsonl")
	b, _ := os.ReadFile(p)
	b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte(".0,"), []byte(",")), []byte(".0]"), []byte("]"))
	os.WriteFile(p, b, 0o644)
	var broken hfResult
	runConsumer(t, "hf_imagefolder_loader.py", &broken, dir)
	if broken.TypesEqual || broken.Splits["train"].Types["objects"] == got.Splits["train"].Types["objects"] {
		t.Errorf("integral boxes in train still type as %s", broken.Splits["train"].Types["objects"])
	}
}

// One split with a column the other never fills would type as list<null> there:
// refused, as are split names datasets has no folder for and columns of dates.
func TestHFImageFolderRefusals(t *testing.T) {
	recs, images := releaseFixture()
	slices.SortFunc(recs, func(a, b Record) int { return strings.Compare(a.Sample.ID, b.Sample.ID) })
	onlyMCQInTest := slices.DeleteFunc(slices.Clone(recs), func(r Record) bool { return r.Sample.ID == "mh-0001" })
	holdout := slices.Clone(recs)
	holdout[0].Sample.Split = "holdout"
	clash := slices.Clone(recs)
	clash[0].Sample.Split, clash[1].Sample.Split = "val", "dev"
	dates := slices.DeleteFunc(slices.Clone(recs), func(r Record) bool { return r.Sample.ID != "op-0001" })
	dates[0].Sample.AnswerText = "2024-01-02"
	tests := []struct {
		name string
		recs []Record
		want string
	}{
		{"a list empty in a whole split", onlyMCQInTest, "type column categories as list<string> and list<null>"},
		{"an unknown split", holdout, `split "holdout" has no Hugging Face split`},
		{"two splits for one folder", clash, `splits "val" and "dev" would both be written as the validation split`},
		{"a column of dates", dates, "every answer value of a chunk of metadata.jsonl reads as a date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Export(context.Background(), MemSink{}, ExportRequest{Format: hfImageFolder{}, Records: tt.recs, Open: opener(images)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

func TestArrowInference(t *testing.T) {
	tests := []struct{ lines, want string }{
		{`{"a":1,"b":[],"c":"x"}`, "struct<a: int64, b: list<null>, c: string>"},
		{`{"a":1}` + "\n" + `{"a":1.5}`, "struct<a: double>"},
		{`{"a":"2024-01-02"}` + "\n" + `{"a":"2024-01-02 03:04:05"}`, "struct<a: timestamp[s]>"},
		{`{"a":"2024-01-02"}` + "\n" + `{"a":"soon"}`, "struct<a: string>"},
		{`{"a":"2024-13-02"}`, "struct<a: string>"},
		{`{"a":null}` + "\n" + `{"a":[[1.0]]}`, "struct<a: list<list<double>>>"},
		{`{"o":{"b":[]}}` + "\n" + `{"o":{"b":[[1,2.5]]}}`, "struct<o: struct<b: list<list<double>>>>"},
	}
	for _, tt := range tests {
		got, err := inferArrowRows([]byte(tt.lines))
		if err != nil || got.String() != tt.want {
			t.Errorf("%s: %v %v, want %s", tt.lines, got, err, tt.want)
		}
	}
}

func TestFloatList(t *testing.T) {
	got, err := floatList(12, 0.5, -0, 1e-7, 123456789012, 100.25)
	if want := "12.0,0.5,0.0,0.0000001,123456789012.0,100.25"; err != nil || string(got) != want {
		t.Errorf("floatList = %s, %v; want %s", got, err, want)
	}
	if _, err := floatList(1, posInf()); err == nil {
		t.Error("an infinity was written")
	}
}

func posInf() float64 { var z float64; return 1 / z }

// A release holding samples of several images loads, through the folder builder's
// file_names logic (datasets 3.4+), with every image of each sample in its order:
// the row's images are the sample's images (the files' bytes, or for the
// EXIF-rotated JPEG its upright size), each at its listed size, and the box is on
// image box_image, in that image's pixels.
func TestHFImageFolderSequences(t *testing.T) {
	recs, images := roundTripRelease(t)
	got, dir := loadHF(t, recs, images)
	checkHF(t, got, recs)
	type loaded struct {
		listed, stored [2]int
		sha            string
	}
	byID := map[string][]loaded{}
	for _, im := range got.Images {
		l := byID[im.ID]
		if im.Index != len(l) {
			t.Errorf("%s: image %d loaded at position %d", im.ID, im.Index, len(l))
		}
		byID[im.ID] = append(l, loaded{im.Listed, im.Stored, im.SHA256})
	}
	for _, r := range recs {
		want, l := r.Images(), byID[r.Sample.ID]
		if len(l) != len(want) {
			t.Errorf("%s: %d images loaded, the sample shows %d", r.Sample.ID, len(l), len(want))
			continue
		}
		for i, f := range want {
			size := [2]int{f.Width, f.Height}
			if l[i].listed != size || l[i].stored != size {
				t.Errorf("%s: image %d listed %v, stored %v; %s is %v", r.Sample.ID, i+1, l[i].listed, l[i].stored, f.Path, size)
			}
			// A JPEG stored sideways is re-encoded upright; every other image is its bytes.
			if imagefile.Orientation(images[f.Path]) <= 1 && l[i].sha != f.SHA256 {
				t.Errorf("%s: image %d is not %s", r.Sample.ID, i+1, f.Path)
			}
		}
	}
	// seq-mh-01's box (600–1100 × 100–700) is on its second image, b.jpg (1200×800):
	// box_image says so, and the pixels are that image's.
	b, err := os.ReadFile(filepath.Join(dir, "test", "metadata.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var row struct {
			ID       string
			BoxImage int `json:"box_image"`
			Widths   []int
			Objects  struct{ BBox [][4]float64 }
		}
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatal(err)
		}
		if row.ID != "seq-mh-01" {
			continue
		}
		found = true
		if row.BoxImage != 1 || len(row.Objects.BBox) != 1 || row.Objects.BBox[0] != [4]float64{600, 100, 500, 600} || row.Widths[row.BoxImage] != 1200 {
			t.Errorf("seq-mh-01: box_image %d, bbox %v, widths %v; want the box [600 100 500 600] on image 1, 1200 wide", row.BoxImage, row.Objects.BBox, row.Widths)
		}
	}
	if !found {
		t.Error("seq-mh-01 is not in the test split")
	}
}

// One sample of several images in the test split makes the train split's rows
// file_names rows too: the builder requires the splits' metadata to type alike. The
// loader, following the builder, fails on a file mixing file_name and file_names
// rows, which is why the export never writes one.
func TestHFImageFolderSequencesInOneSplit(t *testing.T) {
	recs, images := realFixture(t)
	for _, r := range sequenceRecords(t, images) {
		if r.Sample.ID == "seq-mc-01" {
			recs = append(recs, r)
		}
	}
	got, dir := loadHF(t, recs, images)
	checkHF(t, got, recs)
	// Mixed: the one-image rows of the test split written with file_name.
	p := filepath.Join(dir, "test", "metadata.jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var mixed []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		if names := row["file_names"].([]any); len(names) == 1 {
			delete(row, "file_names")
			row["file_name"] = names[0]
		}
		mixed = append(mixed, mustJSON(row))
	}
	if err := os.WriteFile(p, []byte(strings.Join(mixed, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var broken hfResult
	runConsumer(t, "hf_imagefolder_loader.py", &broken, dir)
	if !slices.ContainsFunc(broken.Errors, func(e string) bool { return strings.Contains(e, "datasets raises TypeError") }) {
		t.Errorf("a metadata file mixing file_name and file_names rows loads: %q", broken.Errors)
	}
}
