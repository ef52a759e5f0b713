package release

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
)

// vlmImages are real images for the VLMEvalKit tests, which decode them: a JPEG
// stored 40×20 with EXIF orientation 6 (displayed 20×40), a PNG and a plain JPEG.
func vlmImages(t *testing.T) map[string][]byte {
	t.Helper()
	var p, j bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 30, 10))
	img.Set(3, 3, color.RGBA{200, 10, 10, 255})
	if err := png.Encode(&p, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&j, image.NewGray(image.Rect(0, 0, 24, 16)), nil); err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"0001-office-1/rot6.jpg": exifJPEG(t, 40, 20, 6), "0001-office-1/p.png": p.Bytes(), "misc/j.jpg": j.Bytes()}
}

// vlmRelease is a release of every kind on the vlmImages: hop questions with 2, 3 and
// 4 options, mcq, judgments yes and no (one answered "Yes"), an open answer and a step
// graph; split gives each sample's split from its position.
func vlmRelease(t *testing.T, split func(i int) string) ([]Record, map[string][]byte) {
	t.Helper()
	images := vlmImages(t)
	samples := []annotate.Sample{
		{ID: "mh-01", Kind: annotate.KindHopQA, Image: "0001-office-1/rot6.jpg", Question: "Which side of the desk is the lamp on?",
			Options: []string{"left", "right"}, AnswerIndex: 1, Categories: []annotate.Category{annotate.CatPos}, Hop: 1,
			View: annotate.ViewExo, Box: &annotate.Box{1, 2, 10, 30}},
		{ID: "mh-02", Kind: annotate.KindHopQA, Image: "0001-office-1/rot6.jpg", Question: "Which red object is nearest to the lamp?",
			Options: []string{"the mug", "the pen", "the book"}, AnswerIndex: 2, Categories: []annotate.Category{annotate.CatAtt, annotate.CatRel},
			Hop: 2, View: annotate.ViewEgo, EgoSubject: annotate.EgoVirtual, Box: &annotate.Box{2, 3, 12, 20}},
		{ID: "mh-03", Kind: annotate.KindHopQA, Image: "0001-office-1/p.png", Question: "Which object is behind the chair?",
			Options: []string{"the lamp", "the mug", "the laptop", "the book"}, AnswerIndex: 0, Task: "occlusion",
			Categories: []annotate.Category{annotate.CatRel}, Hop: 3, View: annotate.ViewExo, Box: &annotate.Box{0, 0, 30, 10}},
		{ID: "mc-01", Kind: annotate.KindMCQ, Image: "misc/j.jpg", Question: "How many chairs are there?",
			Options: []string{"1", "2", "three"}, AnswerIndex: 1, Task: "counting"},
		{ID: "mc-02", Kind: annotate.KindMCQ, Image: "0001-office-1/p.png", Question: "Which object is \"red\"?",
			Options: []string{"the dot", "the wall", "none", "nothing\tat all"}, AnswerIndex: 0},
		{ID: "yn-01", Kind: annotate.KindJudgment, Image: "0001-office-1/rot6.jpg", Question: "Is the lamp left of the desk?", AnswerText: "no"},
		{ID: "yn-02", Kind: annotate.KindJudgment, Image: "misc/j.jpg", Question: "Is the room empty?", AnswerText: "yes", Task: "presence"},
		{ID: "yn-03", Kind: annotate.KindJudgment, Image: "0001-office-1/p.png", Question: "Is there a dot?", AnswerText: "Yes"},
		{ID: "op-01", Kind: annotate.KindOpen, Image: "misc/j.jpg", Question: "How far is the chair, in metres?", AnswerText: "1.5", AnswerNumber: true},
		{ID: "sq-01", Kind: annotate.KindStepGraph, Image: "misc/j.jpg", Question: "Pick up the mug",
			Steps: []annotate.Step{{ID: "a", Content: "Move the book"}, {ID: "b", Content: "Pick up the mug", Precondition: []string{"a"}}}},
	}
	var recs []Record
	for i, s := range samples {
		s.Split = split(i)
		w, h, err := annotate.ImageSize(bytes.NewReader(images[s.Image]))
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, Record{Sample: s, Width: w, Height: h, ImageSHA256: sha(images[s.Image])})
	}
	return recs, images
}

// readTSV reads a TSV as Go's csv does and checks VLMEvalKit's index and image rules
// (ImageBaseDataset.__init__): indices 1, 2, ... and every short image cell the index
// of a row of the same file that holds base64. It returns the header and rows.
func readTSV(t *testing.T, b []byte) ([]string, [][]string) {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma = '\t'
	rows, err := r.ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("the TSV does not read back: %v (%d rows)", err, len(rows))
	}
	images := map[string]string{}
	for i, row := range rows[1:] {
		if row[0] != strconv.Itoa(i+1) {
			t.Errorf("row %d: index %q, want %d", i+1, row[0], i+1)
		}
		images[row[0]] = row[1]
	}
	for _, row := range rows[1:] {
		if cell := row[1]; len(cell) <= 64 {
			if ref, ok := images[cell]; !ok || len(ref) <= 64 {
				t.Errorf("index %s: image reference %q does not name a row of this file that holds an image", row[0], cell)
			}
		}
	}
	return rows[0], rows[1:]
}

// TestVLMEvalKitPerfectScores exports a release of every kind, loads each file with
// VLMEvalKit's own loading and scoring (testdata/consumers/vlmevalkit_scorer.py) and
// checks that a perfect prediction file scores 100 % in every split, with every row
// kept and every image at its displayed size.
func TestVLMEvalKitPerfectScores(t *testing.T) {
	tests := []struct {
		name   string
		split  func(int) string
		splits []string // the MCQ file's splits
	}{
		{"mixed splits", func(i int) string { return []string{"train", "", annotate.SplitTest}[i%3] }, []string{"test", "train"}},
		{"no split", func(int) string { return "" }, []string{"test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, images := vlmRelease(t, tt.split)
			dir := t.TempDir()
			info := fixtureInfo(fixedTime)
			info.Release.Name = "mixed bench"
			m, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: vlmEvalKit{}, Records: recs, Open: opener(images), Info: info})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[string]int{"open": 1, "step_graph": 1}; !mapsEqual(m.Skipped, want) {
				t.Errorf("skipped %v, want %v", m.Skipped, want)
			}
			var files []string
			for _, f := range m.Files {
				files = append(files, f.Path)
			}
			if want := []string{"mixed_bench_MCQ.tsv", "mixed_bench_YN.tsv"}; !slices.Equal(files, want) {
				t.Fatalf("files %q, want %q", files, want)
			}
			size := map[string][2]int{}
			var mcqPreds, ynPreds []string
			nMCQ, nYN := 0, 0
			for _, r := range recs {
				s := r.Sample
				size[s.ID] = [2]int{r.Width, r.Height}
				switch s.Kind {
				case annotate.KindHopQA, annotate.KindMCQ:
					nMCQ++
					mcqPreds = append(mcqPreds, mustJSON(map[string]string{"id": s.ID, "prediction": annotate.AnswerLetter(s.AnswerIndex)}))
				case annotate.KindJudgment:
					nYN++
					answer := map[string]string{"yes": "Yes", "no": "No"}[strings.ToLower(s.AnswerText)]
					ynPreds = append(ynPreds, mustJSON(map[string]string{"id": s.ID, "prediction": answer}))
				}
			}
			write := func(name string, lines []string) string {
				p := filepath.Join(t.TempDir(), name)
				if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			for _, name := range files {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				readTSV(t, b)
			}

			var mcq struct {
				Rows       int                            `json:"rows"`
				Overall    map[string]*float64            `json:"Overall"`
				Categories []string                       `json:"categories"`
				Groups     map[string]map[string]*float64 `json:"groups"`
				Dtypes     map[string]string              `json:"dtypes"`
				Sizes      map[string][2]int              `json:"sizes"`
			}
			runConsumer(t, "vlmevalkit_scorer.py", &mcq, "mcq", filepath.Join(dir, "mixed_bench_MCQ.tsv"), write("mcq.jsonl", mcqPreds))
			if mcq.Rows != nMCQ {
				t.Errorf("MCQ: %d rows scored, want %d", mcq.Rows, nMCQ)
			}
			if got := slices.Sorted(maps.Keys(mcq.Overall)); !slices.Equal(got, tt.splits) {
				t.Errorf("MCQ: Overall for splits %q, want %q", got, tt.splits)
			}
			for sp, v := range mcq.Overall {
				if v == nil || *v != 1 {
					t.Errorf("MCQ: Overall[%s] = %v, want 1", sp, v)
				}
			}
			for g, bySplit := range mcq.Groups {
				for sp, v := range bySplit {
					if v != nil && *v != 1 {
						t.Errorf("MCQ: group %s split %s = %v, want 1", g, sp, *v)
					}
				}
			}
			if want := []string{"att+rel", "counting", "mcq", "occlusion", "pos"}; !slices.Equal(mcq.Categories, want) {
				t.Errorf("MCQ: categories %q, want %q", mcq.Categories, want)
			}
			for _, col := range []string{"question", "A", "B", "C", "D", "answer", "category", "l2-category", "split", "id"} {
				if mcq.Dtypes[col] != "object" {
					t.Errorf("MCQ: column %s read as %s, want text (object)", col, mcq.Dtypes[col])
				}
			}

			var yn struct {
				Rows    int               `json:"rows"`
				Overall *float64          `json:"Overall"`
				Dtypes  map[string]string `json:"dtypes"`
				Sizes   map[string][2]int `json:"sizes"`
			}
			runConsumer(t, "vlmevalkit_scorer.py", &yn, "yorn", filepath.Join(dir, "mixed_bench_YN.tsv"), write("yn.jsonl", ynPreds))
			if yn.Rows != nYN || yn.Overall == nil || *yn.Overall != 100 {
				overall := "NaN"
				if yn.Overall != nil {
					overall = strconv.FormatFloat(*yn.Overall, 'g', -1, 64)
				}
				t.Errorf("Y/N: %d rows, Overall %s; want %d rows, 100", yn.Rows, overall, nYN)
			}

			// PIL's size of each decoded image (decode_base64_to_image, no EXIF
			// transpose) is the displayed size the boxes are drawn on.
			for id, got := range mcq.Sizes {
				if got != size[id] {
					t.Errorf("MCQ %s: image decodes to %v, displayed size %v", id, got, size[id])
				}
			}
			for id, got := range yn.Sizes {
				if got != size[id] {
					t.Errorf("Y/N %s: image decodes to %v, displayed size %v", id, got, size[id])
				}
			}
			if len(mcq.Sizes) != nMCQ || len(yn.Sizes) != nYN {
				t.Errorf("sizes of %d and %d rows, want %d and %d", len(mcq.Sizes), len(yn.Sizes), nMCQ, nYN)
			}
		})
	}
}

// The TSVs' images are upright: the EXIF-rotated JPEG is stored at its displayed size
// without an orientation tag, the others byte for byte.
func TestVLMEvalKitUprightImage(t *testing.T) {
	recs, images := vlmRelease(t, func(int) string { return "" })
	sink := MemSink{}
	if _, err := Export(context.Background(), sink, ExportRequest{Format: vlmEvalKit{}, Records: recs, Open: opener(images), Info: fixtureInfo(fixedTime)}); err != nil {
		t.Fatal(err)
	}
	byID := map[string]Record{}
	for _, r := range recs {
		byID[r.Sample.ID] = r
	}
	decoded := 0
	for _, name := range []string{"office-bench_MCQ.tsv", "office-bench_YN.tsv"} {
		header, rows := readTSV(t, sink[name])
		id := slices.Index(header, "id")
		for _, row := range rows {
			if len(row[1]) <= 64 {
				continue
			}
			r := byID[row[id]]
			b, err := base64.StdEncoding.DecodeString(row[1])
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: %v", r.Sample.ID, err)
			}
			if cfg.Width != r.Width || cfg.Height != r.Height || imagefile.Orientation(b) > 1 {
				t.Errorf("%s in %s: stored %d×%d with orientation %d, want the displayed %d×%d upright",
					r.Sample.ID, name, cfg.Width, cfg.Height, imagefile.Orientation(b), r.Width, r.Height)
			}
			if r.Sample.Image != "0001-office-1/rot6.jpg" && !bytes.Equal(b, images[r.Sample.Image]) {
				t.Errorf("%s: an upright image was not copied byte for byte", r.Sample.ID)
			}
			decoded++
		}
	}
	if decoded != 6 { // each file embeds each of the three images once
		t.Errorf("%d images embedded, want 6", decoded)
	}
}

// A value that would not arrive as written is refused, naming the sample and the
// field; values that arrive as written (plain integers, floats printed as Python
// prints them, words pandas keeps) are accepted.
func TestVLMEvalKitRefusals(t *testing.T) {
	mcq := func(id string, options ...string) annotate.Sample {
		return annotate.Sample{ID: id, Kind: annotate.KindMCQ, Image: "a.jpg", Question: "Which one?", Options: options, AnswerIndex: 0}
	}
	with := func(s annotate.Sample, f func(*annotate.Sample)) annotate.Sample { f(&s); return s }
	tests := []struct {
		name    string
		release string
		samples []annotate.Sample
		want    string // "" = accepted
	}{
		{"NA option", "", []annotate.Sample{mcq("mc-1", "a cup", "NA")},
			`sample mc-1: option B is "NA", which pandas reads as a missing value; VLMEvalKit would drop the option`},
		{"None question", "", []annotate.Sample{with(mcq("mc-1", "a", "b"), func(s *annotate.Sample) { s.Question = "None" })},
			`sample mc-1: question is "None", which pandas reads as a missing value (pandas 2 and later)`},
		{"empty option", "", []annotate.Sample{mcq("mc-1", "", "b")}, `sample mc-1: option A is empty, which pandas reads as a missing value`},
		{"null task", "", []annotate.Sample{with(mcq("mc-1", "a", "b"), func(s *annotate.Sample) { s.Task = "null" })},
			`sample mc-1: category is "null", which pandas reads as a missing value`},
		{"task Overall", "", []annotate.Sample{with(mcq("mc-1", "a", "b"), func(s *annotate.Sample) { s.Task = "Overall" })},
			`sample mc-1: category is "Overall"`},
		{"n/a split", "", []annotate.Sample{with(mcq("mc-1", "a", "b"), func(s *annotate.Sample) { s.Split = "n/a" })},
			`sample mc-1: split is "n/a"`},
		{"judgment answer", "", []annotate.Sample{{ID: "yn-1", Kind: annotate.KindJudgment, Image: "a.jpg", Question: "Is it?", AnswerText: "maybe"}},
			`sample yn-1: judgment answer "maybe" is neither yes nor no`},
		{"leading zeros", "", []annotate.Sample{mcq("mc-1", "1", "2"), mcq("mc-2", "007", "8")},
			`column A: pandas reads the column as int64, so sample mc-2's option A "007" would arrive as "7"`},
		{"integers with a gap", "", []annotate.Sample{mcq("mc-1", "1", "2", "3"), mcq("mc-2", "4", "5")},
			`column C: pandas reads the column as float64, so sample mc-1's option C "3" would arrive as "3.0"`},
		{"true/false options", "", []annotate.Sample{mcq("mc-1", "true", "false"), mcq("mc-2", "False", "True")},
			`column A: pandas reads the column as bool, so sample mc-1's option A "true" would arrive as "True"`},
		{"numeric ids", "", []annotate.Sample{mcq("01", "a", "b"), mcq("02", "c", "d")},
			`column id: pandas reads the column as int64, so sample 01's id "01" would arrive as "1"`},
		{"benchmark name", "My MMBench copy", []annotate.Sample{mcq("mc-1", "a", "b")}, `release name "My MMBench copy" contains "mmbench"`},
		{"Y/N name", "POPE-study", []annotate.Sample{mcq("mc-1", "a", "b")}, `contains "POPE"`},
		{"lower-case name with a case-sensitive word", "summer-study", []annotate.Sample{mcq("mc-1", "a", "b")}, ""},
		{"too many options", "", []annotate.Sample{mcq("mc-1", strings.Split("abcdefghijklmnopqrstuvwxyz0", "")...)}, "27 options"},
		{"plain integers", "", []annotate.Sample{mcq("mc-1", "1", "2"), mcq("mc-2", "3", "40")}, ""},
		{"Python floats", "", []annotate.Sample{mcq("mc-1", "2.5", "0.75"), mcq("mc-2", "1e-05", "3.0")}, ""},
		{"words pandas keeps", "", []annotate.Sample{mcq("mc-1", "none", "Null"), mcq("mc-2", " NA", "yes")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			img := fakeImage("a.jpg")
			var recs []Record
			for _, s := range tt.samples {
				recs = append(recs, Record{Sample: s, Width: 10, Height: 10, ImageSHA256: sha(img)})
			}
			info := fixtureInfo(fixedTime)
			if tt.release != "" {
				info.Release.Name = tt.release
			}
			sink := MemSink{}
			_, err := Export(context.Background(), sink, ExportRequest{Format: vlmEvalKit{}, Records: recs,
				Open: opener(map[string][]byte{"a.jpg": img}), Info: info})
			if err != nil {
				t.Log(err)
			}
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			case tt.want != "" && len(sink) != 0:
				t.Errorf("a refused export wrote %d files", len(sink))
			}
		})
	}
}

// TestPandasReads checks the pandas model against the real pandas: each case is a
// column written to a TSV and read with pd.read_csv(path, sep='\t') as VLMEvalKit
// reads it; the dtype must be pandasReads' and every cell must arrive as pandasColumn
// says (missing, or the text Python's str() gives).
func TestPandasReads(t *testing.T) {
	cases := [][]string{
		{"1", "2", "3"},
		{"007", "5"},
		{"3", "5.0"},
		{"3", ""},
		{"3", "NA"},
		{" 3 ", "4"},
		{"+3", "-4"},
		{"-0", "0"},
		{"1e5", "2"},
		{"1E+05", "x"},
		{"inf", "1"},
		{"-Infinity", "INF", "+inf"},
		{" inf", "1"},
		{"1.5", "0.1", "2.50"},
		{"1e16", "1e-5", "0.0001", "123456789012345678", "1234567890123456"},
		{"-0.0", "1.5"},
		{".5", "5.", "1.e3"},
		{"1e", "2"},
		{"1e+", "2"},
		{"1,000", "2"},
		{"0x10", "1"},
		{"1_000", "2"},
		{"NAN", "1"},
		{"nan", "1"},
		{"TRUE", "False", "true"},
		{"tRuE", "FALSE"},
		{"True", ""},
		{" True", "False"},
		{"yes", "no"},
		{"none", "NONE", "Null", "na", " NA", "NA "},
		{"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL",
			"NaN", "n/a", "nan", "null", "x"},
		{"None", "x"},
		{"", ""},
		{"9223372036854775807", "1"},
		{"9223372036854775808", "1"},
		{"9223372036854775808", "-1"},
		{"9223372036854775808", ""},
		{"-9223372036854775809", "1"},
		{"18446744073709551616", "1"},
		{"12345678901234567890123", "1.5"},         // the int64 pass stops at the overflow, the uint64 pass overflows: object
		{"1.5", "12345678901234567890123"},         // the int64 pass stops at 1.5: float64
		{"99999999999999999999", "-abc", "NA", ""}, // a conflict: object with NA tokens kept as text
		{"a\tb", "say \"hi\"", " lead", "multi\nline", "x\r\ny", "trail\t", "\"quoted\""},
		{"0.30000000000000004", "2.675"},
	}
	dir := t.TempDir()
	var paths []string
	for i, cells := range cases {
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Comma = '\t'
		w.Write([]string{"i", "v"}) // two columns: a one-column row of "" would be a blank line, which pandas skips
		for j, c := range cells {
			w.Write([]string{strconv.Itoa(j), c})
		}
		w.Flush()
		p := filepath.Join(dir, fmt.Sprintf("case%02d.tsv", i))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	// Chunks: in a file of 64 columns pandas infers 8,192 rows at a time.
	const width = 64
	n := pandasChunkRows(width)
	if n != 8192 {
		t.Fatalf("pandasChunkRows(%d) = %d, want 8192", width, n)
	}
	chunked := map[string][]string{}
	fill := func(col string, first, rest string) {
		for i := range n + 10 {
			chunked[col] = append(chunked[col], map[bool]string{true: first, false: rest}[i < n])
		}
	}
	fill("ints-then-text", "007", "x")    // object: the first chunk keeps 7
	fill("ints-then-floats", "3", "1.5")  // float64: 3.0
	fill("bools-then-text", "true", "x")  // object: True
	fill("missing-then-ints", "", "5")    // float64: 5.0
	fill("bools-then-ints", "True", "2")  // pandas 1.x: int64, True → 1; pandas 2: object
	fill("text-then-missing", "x", "NA")  // object
	fill("ints-with-missing", "4", "")    // float64
	fill("texts-then-ints", "x", "0042")  // object: the second chunk keeps 42
	fill("all-ints-both", "0012", "0013") // int64 across chunks
	cols := slices.Sorted(maps.Keys(chunked))
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Comma = '\t'
	header := append([]string{}, cols...)
	for i := len(cols); i < width; i++ {
		header = append(header, "filler"+strconv.Itoa(i))
	}
	cw.Write(header)
	for i := range n + 10 {
		row := make([]string, width)
		for j := range row {
			if j < len(cols) {
				row[j] = chunked[cols[j]][i]
			} else {
				row[j] = "f"
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	wide := filepath.Join(dir, "wide.tsv")
	if err := os.WriteFile(wide, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	py := consumerPython(t)
	script := `
import json, sys, warnings
import pandas as pd
warnings.simplefilter("ignore")
out = {"version": pd.__version__, "files": []}
for path in sys.argv[1:]:
    df = pd.read_csv(path, sep="\t")  # vlmeval/smp/file.py load
    cols = {}
    for c in df.columns:
        if str(c).startswith("filler") or c == "i":
            continue
        cols[c] = {"dtype": str(df[c].dtype), "values": [None if (isinstance(x, float) and x != x) else str(x) for x in df[c]]}
    out["files"].append(cols)
print(json.dumps(out))
`
	cmd := exec.Command(py, append([]string{"-c", script}, append(paths, wide)...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("pandas: %v\n%s", err, stderr.String())
	}
	var got struct {
		Version string
		Files   []map[string]struct {
			Dtype  string
			Values []*string
		}
	}
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatal(err)
	}
	na := maps.Clone(pandasNA)
	pandas2 := !strings.HasPrefix(got.Version, "0.") && !strings.HasPrefix(got.Version, "1.")
	if !pandas2 {
		delete(na, "None") // "None" is NA from pandas 2.0 on
	}
	t.Logf("pandas %s", got.Version)
	compare := func(name string, cells []string, columns int, real struct {
		Dtype  string
		Values []*string
	}) {
		t.Helper()
		dtype, want := pandasColumn(cells, columns, na)
		if columns == 2 && (pandas2 || !slices.Contains(cells, "None")) && pandasReads(cells) != real.Dtype {
			t.Errorf("%s: pandas reads %s, pandasReads says %s", name, real.Dtype, pandasReads(cells))
		}
		if dtype != real.Dtype {
			t.Errorf("%s: pandas reads %s, the model says %s", name, real.Dtype, dtype)
		}
		if len(real.Values) != len(cells) {
			t.Errorf("%s: pandas read %d cells of %d", name, len(real.Values), len(cells))
			return
		}
		for i, v := range real.Values {
			w := want[i]
			switch {
			case v == nil && !w.missing, v != nil && w.missing:
				t.Errorf("%s: cell %d %q: pandas missing %v, the model %v", name, i, cells[i], v == nil, w.missing)
			case v != nil && w.exact && *v != w.str:
				t.Errorf("%s: cell %d %q arrives as %q, the model says %q", name, i, cells[i], *v, w.str)
			}
		}
	}
	for i, cells := range cases {
		compare(fmt.Sprintf("case %d %q", i, cells[:min(3, len(cells))]), cells, 2, got.Files[i]["v"])
	}
	for _, col := range cols {
		if col == "bools-then-ints" && pandas2 {
			continue // pandas 2 keeps the bools as objects; the model follows pandas 1.x, which changes them
		}
		compare(col, chunked[col], width, got.Files[len(cases)][col])
	}
}

// TestPythonFloatStr checks the Python float formatting on values whose text is known.
func TestPythonFloatStr(t *testing.T) {
	for f, want := range map[float64]string{0: "0.0", 1: "1.0", -2.5: "-2.5", 0.1: "0.1", 1e16: "1e+16", 1e15: "1000000000000000.0",
		1e-4: "0.0001", 1e-5: "1e-05", 123456789012345678: "1.2345678901234568e+17", 1.5e300: "1.5e+300", 0.30000000000000004: "0.30000000000000004"} {
		if got := pythonFloatStr(f); got != want {
			t.Errorf("pythonFloatStr(%g) = %q, want %q", f, got, want)
		}
	}
}
