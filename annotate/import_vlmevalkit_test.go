package annotate

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// testPNG is a small PNG of one colour.
func testPNG(t *testing.T, c color.Color, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// dumpTSV writes rows as VLMEvalKit's dump_tsv does (pandas to_csv with sep='\t'
// and quoting=csv.QUOTE_ALL): every cell in double quotes, a quote doubled, tabs and
// newlines kept inside the quotes, a missing value as "".
func dumpTSV(rows [][]string) string {
	var b strings.Builder
	for _, row := range rows {
		for i, c := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(`"` + strings.ReplaceAll(c, `"`, `""`) + `"`)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func b64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

func rawString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// TestImportVLMEvalKitPandasFile reads a TSV pandas wrote as dump_tsv does
// (testdata/import/make_vlmevalkit.py).
func TestImportVLMEvalKitPandasFile(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "import", "vlmevalkit_mcq.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, images, bad, err := ImportVLMEvalKitTSV(f, VLMEvalKitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Imported{
		{Line: 2, Sample: Sample{ID: "vlm-1", Kind: KindMCQ, Image: "vlmevalkit/1.png", Question: "Which object is left of the mug?",
			Options: []string{"the lamp", "the book", "the pen"}, AnswerIndex: 1, Task: "spatial", Split: "test",
			Extra: map[string]json.RawMessage{"hint": rawString("Look at the desk."), "l2-category": rawString("left-right")}}},
		{Line: 3, Sample: Sample{ID: "vlm-2", Kind: KindMCQ, Image: "vlmevalkit/1.png", Question: "Which is nearer,\nthe \"cup\"\tor the pan?",
			Options: []string{"the cup", "the pan"}, AnswerIndex: 0, Task: "spatial", Split: "test",
			Extra: map[string]json.RawMessage{"l2-category": rawString("depth")}}},
		{Line: 5, Sample: Sample{ID: "vlm-3", Kind: KindJudgment, Image: "vlmevalkit/3.png", Question: "Is the cup on the table?",
			AnswerText: "yes", Task: "yn", Split: "test", Extra: map[string]json.RawMessage{"l2-category": rawString("support")}}},
		{Line: 7, Sample: Sample{ID: "vlm-5", Kind: KindMCQ, Image: "vlmevalkit/1.png", Question: "Which is right of the mug?",
			Options: []string{"the lamp", "the book", "the pen", "the cup"}, AnswerIndex: 2, Task: "spatial", Split: "test",
			Extra: map[string]json.RawMessage{"l2-category": rawString("left-right")}}},
	}
	compareImported(t, got, want)
	wantBad := []string{
		`record 4 (line 6): question: VLMEvalKit would read this as missing: pandas takes the cell "NA" for no value`,
		`record 6 (line 8): image: the cell is empty; VLMEvalKit drops rows without an image`,
		`record 7 (line 9): option B: the cell is missing while option C is there; VLMEvalKit would letter the options differently`,
		`record 8 (line 10): answer: "E" is not the letter of an option (A to B)`,
	}
	checkRecordErrors(t, bad, wantBad)
	if len(images) != 2 || images["vlmevalkit/1.png"] == nil || images["vlmevalkit/3.png"] == nil {
		t.Fatalf("images %v", keysOf(images))
	}
	for p, data := range images {
		w, h, err := ImageSize(bytes.NewReader(data))
		if err != nil || w != 8 || h != 6 {
			t.Errorf("%s: %d×%d %v, want the 8×6 PNG", p, w, h, err)
		}
	}
}

func compareImported(t *testing.T, got, want []Imported) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d samples, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			g, _ := json.Marshal(got[i].Sample)
			w, _ := json.Marshal(want[i].Sample)
			t.Errorf("sample %d:\n got line %d %s\nwant line %d %s", i, got[i].Line, g, want[i].Line, w)
		}
	}
}

func keysOf[V any](m map[string]V) []string { return sortedKeys(m) }

func checkRecordErrors(t *testing.T, bad []RecordError, want []string) {
	t.Helper()
	if len(bad) != len(want) {
		var got []string
		for _, e := range bad {
			got = append(got, e.Error())
		}
		t.Fatalf("got %d bad records, want %d:\n%s", len(bad), len(want), strings.Join(got, "\n"))
	}
	for i, e := range bad {
		if e.Error() != want[i] {
			t.Errorf("bad[%d] = %q\n          want %q", i, e.Error(), want[i])
		}
	}
}

// TestImportVLMEvalKitRoundTrip writes a TSV as dump_tsv does, with PNG images made
// here, and reads it back: the samples, and the very image bytes.
func TestImportVLMEvalKitRoundTrip(t *testing.T) {
	red := testPNG(t, color.RGBA{200, 0, 0, 255}, 30, 20)
	green := testPNG(t, color.RGBA{0, 200, 0, 255}, 12, 10)
	blue := testPNG(t, color.RGBA{0, 0, 200, 255}, 5, 5)
	var gifBuf bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 40, 40), []color.Color{color.Black, color.White})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 7 % 2)
	}
	if err := gif.Encode(&gifBuf, pal, nil); err != nil {
		t.Fatal(err)
	}
	rows := [][]string{
		{"index", "image", "question", "A", "B", "C", "answer", "category", "split", "image_path", "id", "source"},
		{"10", b64(red), "Which is left?", "the mug", "the cup", "", "B", "left-right", "dev", "", "", "bench-x"},
		{"11", "10", "Which is right?\nThink.", "the mug", "the cup", "the pen", "C", "", "", "", "given-id", ""},
		{"12", b64(green), "Is it red?", "", "", "", "no", "colour", "train", "pics/g.png", "", ""},
		{"13", b64(blue), "Which is highest?", "a", "b", "", "A", "", "", "pics/b.jpg", "", ""},
		{"14", b64(green), "What colour?", "", "", "", "green", "", "", "", "", ""},
		{"15", "99", "Where?", "a", "b", "", "A", "", "", "", "", ""},
		{"16", "not base64 at all, longer than sixty-four characters, so it is no reference", "Q?", "a", "b", "", "A", "", "", "", "", ""},
		{"17", b64(gifBuf.Bytes()), "Q?", "a", "b", "", "A", "", "", "", "", ""},
		{"10", b64(blue), "Same index?", "a", "b", "", "A", "", "", "", "", ""},
		{"18", "['" + b64(red) + "', 7]", "Two images?", "a", "b", "", "A", "", "", "", "", ""},
		{"19", b64(red), "None", "a", "None", "", "A", "", "", "", "", ""},
		{"20", "13", "Copy of 13", "a", "b", "", "B", "", "", "", "given-id", ""},
	}
	got, images, bad, err := ImportVLMEvalKitTSV(strings.NewReader("\ufeff"+dumpTSV(rows)), VLMEvalKitOptions{Folder: "vlmevalkit/bench"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Imported{
		{Line: 2, Sample: Sample{ID: "vlm-10", Kind: KindMCQ, Image: "vlmevalkit/bench/10.png", Question: "Which is left?",
			Options: []string{"the mug", "the cup"}, AnswerIndex: 1, Task: "left-right",
			Extra: map[string]json.RawMessage{"split": rawString("dev"), "source": rawString("bench-x")}}},
		{Line: 3, Sample: Sample{ID: "given-id", Kind: KindMCQ, Image: "vlmevalkit/bench/10.png", Question: "Which is right?\nThink.",
			Options: []string{"the mug", "the cup", "the pen"}, AnswerIndex: 2}},
		{Line: 5, Sample: Sample{ID: "vlm-12", Kind: KindJudgment, Image: "vlmevalkit/bench/pics/g.png", Question: "Is it red?",
			AnswerText: "no", Task: "colour", Split: "train"}},
		// image_path b.jpg does not fit a PNG: the file is named by its index.
		{Line: 6, Sample: Sample{ID: "vlm-13", Kind: KindMCQ, Image: "vlmevalkit/bench/13.png", Question: "Which is highest?",
			Options: []string{"a", "b"}, AnswerIndex: 0}},
		// The same image as row 12: the same file.
		{Line: 7, Sample: Sample{ID: "vlm-14", Kind: KindOpen, Image: "vlmevalkit/bench/pics/g.png", Question: "What colour?", AnswerText: "green"}},
	}
	compareImported(t, got, want)
	checkRecordErrors(t, bad, []string{
		`record 6 (line 8): image: the cell "99" is short, so VLMEvalKit takes it for the index of the row holding the image, and no readable row has that index`,
		`record 7 (line 9): image: the cell is not base64 (character 18, ',')`,
		`record 8 (line 10): image: the decoded file is a GIF, not a JPEG, PNG or WebP image`,
		`record 9 (line 11): index: 10 is already the index of row 1 (line 2)`,
		`record 10 (line 12): image: the cell is in brackets, so VLMEvalKit reads it as a Python list, but item 2 is not a quoted string`,
		"record 11 (line 13): question: VLMEvalKit would read this as missing: pandas takes the cell \"None\" for no value (pandas 2.0 and later)\n" +
			"option B: VLMEvalKit would read this as missing: pandas takes the cell \"None\" for no value (pandas 2.0 and later)",
		`record 12 (line 14): id "given-id" is already used by row 2 (line 3)`,
	})
	wantImages := map[string][]byte{"vlmevalkit/bench/10.png": red, "vlmevalkit/bench/pics/g.png": green, "vlmevalkit/bench/13.png": blue}
	if !reflect.DeepEqual(images, wantImages) {
		t.Errorf("images %v, want %v", keysOf(images), keysOf(wantImages))
	}
}

// A row of several images holds the list of their base64 and image_path the list of
// names, as VLMEvalKit's toliststr and dump_image read them: the sample shows them
// in that order; a reference stands for the whole list; names missing from
// image_path are <index>_<i>.<ext>; an image already extracted is reused.
func TestImportVLMEvalKitSequences(t *testing.T) {
	red := testPNG(t, color.RGBA{200, 0, 0, 255}, 30, 20)
	green := testPNG(t, color.RGBA{0, 200, 0, 255}, 12, 10)
	blue := testPNG(t, color.RGBA{0, 0, 200, 255}, 5, 5)
	list := func(items ...string) string { return "['" + strings.Join(items, "', '") + "']" }
	rows := [][]string{
		{"index", "image", "image_path", "question", "A", "B", "answer"},
		{"1", list(b64(green), b64(red)), "['g.png', 'x/r.png']", "Which picture is red?", "the first", "the second", "B"},
		{"2", "1", "['2_0.png', '2_1.png']", "Which picture is green?", "the first", "the second", "A"},
		{"3", list(b64(blue), b64(red), b64(green)), "", "Was the second picture taken last?", "", "", "no"},
		{"4", b64(blue), "4.png", "Is it blue?", "", "", "yes"},
		{"5", list(b64(red), "bm90IGFuIGltYWdl"), "", "Q?", "a", "b", "A"},
	}
	got, images, bad, err := ImportVLMEvalKitTSV(strings.NewReader(dumpTSV(rows)), VLMEvalKitOptions{Folder: "v"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Imported{
		{Line: 2, Sample: Sample{ID: "vlm-1", Kind: KindMCQ, Image: "v/g.png", MoreImages: []string{"v/x/r.png"},
			Question: "Which picture is red?", Options: []string{"the first", "the second"}, AnswerIndex: 1}},
		{Line: 3, Sample: Sample{ID: "vlm-2", Kind: KindMCQ, Image: "v/g.png", MoreImages: []string{"v/x/r.png"},
			Question: "Which picture is green?", Options: []string{"the first", "the second"}, AnswerIndex: 0}},
		{Line: 4, Sample: Sample{ID: "vlm-3", Kind: KindJudgment, Image: "v/3_0.png", MoreImages: []string{"v/x/r.png", "v/g.png"},
			Question: "Was the second picture taken last?", AnswerText: "no"}},
		{Line: 5, Sample: Sample{ID: "vlm-4", Kind: KindJudgment, Image: "v/3_0.png", Question: "Is it blue?", AnswerText: "yes"}},
	}
	compareImported(t, got, want)
	checkRecordErrors(t, bad, []string{
		`record 5 (line 6): image: image 2 of the list: the decoded file is not an image this reader knows, not a JPEG, PNG or WebP image`,
	})
	wantImages := map[string][]byte{"v/g.png": green, "v/x/r.png": red, "v/3_0.png": blue}
	if !reflect.DeepEqual(images, wantImages) {
		t.Errorf("images %v, want %v", keysOf(images), keysOf(wantImages))
	}
}

func TestImportVLMEvalKitReading(t *testing.T) {
	red := b64(testPNG(t, color.RGBA{200, 0, 0, 255}, 4, 4))
	t.Run("bare quote and unquoted cells", func(t *testing.T) {
		in := "index\timage\tquestion\tA\tB\tanswer\n" +
			"1\t" + red + "\tA 5\" screen?\tyes\tno\tA\n" +
			"2\t1\tplain cells\tyes\tno\tB\n" +
			"3\t1\t\"open \"quote\" here\"\tyes\tno\tA\n" +
			"4\t1\tshort row\tyes\n"
		got, _, bad, err := ImportVLMEvalKitTSV(strings.NewReader(in), VLMEvalKitOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkRecordErrors(t, bad, []string{
			`record 1 (line 2): line 2, column ` + strconv.Itoa(len(red)+7) + `: a " inside a cell that does not start with one; put the cell in quotes and double the quote (""), as VLMEvalKit's dump_tsv writes it`,
			`record 2 (line 3): image: the cell "1" is short, so VLMEvalKit takes it for the index of the row holding the image, and no readable row has that index`,
			`record 3 (line 4): line 4, column 11: a quoted cell has a " that is not doubled (""), or its closing quote is missing or followed by more than a tab or the end of the line`,
			`record 4 (line 5): image: the cell "1" is short, so VLMEvalKit takes it for the index of the row holding the image, and no readable row has that index` + "\n" + `answer: the cell is empty`,
		})
		if len(got) != 0 {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("integer indexes read as numbers", func(t *testing.T) {
		in := "index\timage\tquestion\tA\tB\tanswer\n007\t" + red + "\tq\ta\tb\tA\n8\t7\tq\ta\tb\tB\n"
		got, images, bad, err := ImportVLMEvalKitTSV(strings.NewReader(in), VLMEvalKitOptions{})
		if err != nil || len(bad) != 0 || len(got) != 2 {
			t.Fatalf("%v %v %+v", err, bad, got)
		}
		if got[0].Sample.ID != "vlm-7" || got[1].Sample.Image != "vlmevalkit/7.png" || len(images) != 1 {
			t.Errorf("got %+v, images %v", got, keysOf(images))
		}
	})
	t.Run("path-only file", func(t *testing.T) {
		in := "index\timage_path\tquestion\tA\tB\tanswer\n1\t0001-office-1/a.jpg\tq\ta\tb\tA\n2\t\tq\ta\tb\tA\n"
		got, images, bad, err := ImportVLMEvalKitTSV(strings.NewReader(in), VLMEvalKitOptions{})
		if err != nil || len(images) != 0 || len(got) != 1 || got[0].Sample.Image != "0001-office-1/a.jpg" {
			t.Fatalf("%v %+v %v", err, got, keysOf(images))
		}
		checkRecordErrors(t, bad, []string{`record 2 (line 3): image_path: the cell is empty`})
	})
	for _, tt := range []struct{ name, in, want string }{
		{"empty", "", "line 1: the file is empty; want a header row naming the columns (index, image, question, A, B, …, answer)"},
		{"no answer column", "index\timage\tquestion\tA\n", `line 1: the header has no column answer; a VLMEvalKit MCQ TSV has index, image, question, A, B, …, answer`},
		{"no image", "index\tquestion\tanswer\n", `line 1: the header has no column image (or image_path); a VLMEvalKit MCQ TSV has index, image, question, A, B, …, answer`},
		{"column twice", "index\timage\tquestion\tA\tA\tanswer\n", `line 1: column "A" appears twice`},
		{"header quote", "index\t\"image\n", `line 1, column 14: a quoted cell has a " that is not doubled (""), or its closing quote is missing or followed by more than a tab or the end of the line`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := ImportVLMEvalKitTSV(strings.NewReader(tt.in), VLMEvalKitOptions{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v\n     want %s", err, tt.want)
			}
		})
	}
}

// Benchwright's own export (release/vlmevalkit.go) adds kind, hop, view, categories,
// bbox, bbox_1000, id and source_image to VLMEvalKit's columns: a row with a kind is
// read back as the sample it was, its category a task only when it is not what the
// export writes for a sample without one.
func TestImportVLMEvalKitBenchwrightColumns(t *testing.T) {
	img := b64(testPNG(t, color.RGBA{0, 0, 200, 255}, 8, 8))
	header := []string{"index", "image", "question", "A", "B", "C", "answer", "category", "l2-category", "split", "hop", "view",
		"categories", "bbox", "bbox_1000", "kind", "id", "source_image"}
	rows := [][]string{header,
		{"1", img, "Which is left?", "the mug", "the cup", "the pen", "C", "att+pos", "2-hop", "train", "2", "exo", "att+pos", "[1.5,2,30.25,40]", "[1,2,3,4]", "hop_qa", "mh-1", "a/x.png"},
		{"2", "1", "Which is behind?", "the mug", "the cup", "", "A", "occlusion", "1-hop", "test", "1.0", "ego", "rel", "[0,0,8,8]", "[0,0,1000,1000]", "hop_qa", "mh-2", "a/x.png"},
		{"3", "1", "Which is it?", "x", "y", "", "B", "hop_qa", "exo", "val", "", "exo", "", "", "", "hop_qa", "mh-3", "a/x.png"},
		{"4", "1", "How many?", "1", "2", "3", "B", "mcq", "mcq", "test", "", "", "", "", "", "mcq", "mc-1", "a/x.png"},
		{"5", "1", "Which one?", "a", "b", "", "A", "proximity", "mcq", "test", "", "", "", "", "", "mcq", "mc-2", "a/x.png"},
		{"6", "1", "Which one?", "a", "b", "", "A", "pos", "custom", "test", "", "", "pos", "", "", "hop_qa", "mh-4", "a/x.png"},
		{"7", "1", "Which?", "a", "b", "", "A", "x", "x", "test", "two", "up", "", "[1,2]", "", "hop_qa", "bad-1", "a/x.png"},
		{"8", "1", "Which?", "", "", "", "Yes", "x", "x", "test", "", "", "", "", "", "mcq", "bad-2", "a/x.png"},
		{"9", "1", "Which?", "", "", "", "Yes", "x", "x", "test", "", "", "", "", "", "shape", "bad-3", "a/x.png"},
		{"10", "1", "Which?", "", "", "", "maybe", "x", "x", "test", "", "", "", "", "", "judgment", "bad-4", "a/x.png"},
	}
	got, _, bad, err := ImportVLMEvalKitTSV(strings.NewReader(dumpTSV(rows)), VLMEvalKitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]json.RawMessage{"source_image": rawString("a/x.png")}
	want := []Imported{
		{Line: 2, Sample: Sample{ID: "mh-1", Kind: KindHopQA, Image: "vlmevalkit/1.png", Question: "Which is left?",
			Options: []string{"the mug", "the cup", "the pen"}, AnswerIndex: 2, Categories: []Category{CatAtt, CatPos}, Hop: 2, View: ViewExo,
			Box: &Box{1.5, 2, 30.25, 40}, Split: "train", Extra: src}},
		{Line: 3, Sample: Sample{ID: "mh-2", Kind: KindHopQA, Image: "vlmevalkit/1.png", Question: "Which is behind?",
			Options: []string{"the mug", "the cup"}, AnswerIndex: 0, Categories: []Category{CatRel}, Hop: 1, View: ViewEgo,
			Box: &Box{0, 0, 8, 8}, Task: "occlusion", Split: "test", Extra: src}},
		// No hop and no categories: category and l2-category are the kind and the view.
		{Line: 4, Sample: Sample{ID: "mh-3", Kind: KindHopQA, Image: "vlmevalkit/1.png", Question: "Which is it?",
			Options: []string{"x", "y"}, AnswerIndex: 1, View: ViewExo, Split: "val", Extra: src}},
		{Line: 5, Sample: Sample{ID: "mc-1", Kind: KindMCQ, Image: "vlmevalkit/1.png", Question: "How many?",
			Options: []string{"1", "2", "3"}, AnswerIndex: 1, Split: "test", Extra: src}},
		{Line: 6, Sample: Sample{ID: "mc-2", Kind: KindMCQ, Image: "vlmevalkit/1.png", Question: "Which one?",
			Options: []string{"a", "b"}, AnswerIndex: 0, Task: "proximity", Split: "test", Extra: src}},
		// An l2-category that does not follow from the other columns is kept.
		{Line: 7, Sample: Sample{ID: "mh-4", Kind: KindHopQA, Image: "vlmevalkit/1.png", Question: "Which one?",
			Options: []string{"a", "b"}, AnswerIndex: 0, Categories: []Category{CatPos}, Split: "test",
			Extra: map[string]json.RawMessage{"source_image": rawString("a/x.png"), "l2-category": rawString("custom")}}},
	}
	compareImported(t, got, want)
	checkRecordErrors(t, bad, []string{
		"record 7 (line 8): hop: \"two\" is not a number of hops\nview: want \"ego\" or \"exo\", got \"up\"\nbbox: \"[1,2]\" is not a pixel box [x1, y1, x2, y2]",
		`record 8 (line 9): kind: mcq, but the row has no options`,
		`record 9 (line 10): kind: "shape" is not a sample kind`,
		`record 10 (line 11): kind: a judgment answers Yes or No, not "maybe"`,
	})

	// Without a categories column, a hop_qa category made of att, pos and rel is the
	// categories; a judgment's category equal to its kind is no task.
	rows = [][]string{{"index", "image", "question", "A", "B", "answer", "category", "kind", "id"},
		{"1", img, "Which?", "a", "b", "B", "att+rel", "hop_qa", "mh-1"},
		{"2", "1", "Which?", "a", "b", "B", "spatial", "hop_qa", "mh-2"},
		{"3", "1", "Is it?", "", "", "No", "judgment", "judgment", "yn-1"},
		{"4", "1", "Is it?", "", "", "Yes", "presence", "judgment", "yn-2"},
	}
	got, _, bad, err = ImportVLMEvalKitTSV(strings.NewReader(dumpTSV(rows)), VLMEvalKitOptions{})
	if err != nil || len(bad) != 0 {
		t.Fatal(err, bad)
	}
	want = []Imported{
		{Line: 2, Sample: Sample{ID: "mh-1", Kind: KindHopQA, Image: "vlmevalkit/1.png", Question: "Which?", Options: []string{"a", "b"},
			AnswerIndex: 1, Categories: []Category{CatAtt, CatRel}}},
		{Line: 3, Sample: Sample{ID: "mh-2", Kind: KindHopQA, Image: "vlmevalkit/1.png", Question: "Which?", Options: []string{"a", "b"},
			AnswerIndex: 1, Task: "spatial"}},
		{Line: 4, Sample: Sample{ID: "yn-1", Kind: KindJudgment, Image: "vlmevalkit/1.png", Question: "Is it?", AnswerText: "no"}},
		{Line: 5, Sample: Sample{ID: "yn-2", Kind: KindJudgment, Image: "vlmevalkit/1.png", Question: "Is it?", AnswerText: "yes", Task: "presence"}},
	}
	compareImported(t, got, want)
}
