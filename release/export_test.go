package release

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fakeImage is stand-in image bytes: exports copy images without decoding them.
func fakeImage(name string) []byte {
	return []byte(strings.Repeat(name+" bytes; ", 6))
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// releaseFixture is a small fixed release: every kind, three images (one shared by
// a hop question and a step graph, one outside any scene folder), odd image sizes,
// step ids that are not step1…N, and a train/test split.
func releaseFixture() ([]Record, map[string][]byte) {
	images := map[string][]byte{}
	for _, p := range []string{"0001-office-1/a.jpg", "0002-kitchen-1/b.jpg", "misc/c.png"} {
		images[p] = fakeImage(p)
	}
	tol := 0.5
	rec := func(s annotate.Sample, w, h int) Record {
		return Record{Sample: s, Width: w, Height: h, ImageSHA256: sha(images[s.Image])}
	}
	return []Record{
		rec(annotate.Sample{ID: "mh-0002", Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg",
			Question: "Which object stands on the right side of the desk?", Options: []string{"the lamp", "the mug", "the laptop", "the book"},
			AnswerIndex: 2, Categories: []annotate.Category{annotate.CatPos}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{100.5, 120, 200, 220.25}, Split: annotate.SplitTrain}, 641, 479),
		rec(annotate.Sample{ID: "mh-0001", Kind: annotate.KindHopQA, Image: "0002-kitchen-1/b.jpg",
			Question: "When I'm standing behind the counter and facing the camera, which round object is closest to my left hand?",
			Options:  []string{"The bowl", "the apple", "the kettle", "the bottle"}, AnswerIndex: 0,
			Categories: []annotate.Category{annotate.CatAtt, annotate.CatPos, annotate.CatRel}, Hop: 3, View: annotate.ViewEgo, EgoSubject: annotate.EgoVirtual,
			Box: &annotate.Box{100, 120, 200, 220}, Split: annotate.SplitTest, Tags: []string{"counter"}}, 1200, 800),
		rec(annotate.Sample{ID: "sq-0001", Kind: annotate.KindStepGraph, Image: "0001-office-1/a.jpg", Scene: "0001-office-1",
			Question: "Pick up the laptop", Steps: []annotate.Step{
				{ID: "a", Content: "Remove the stapler from the top of the book"},
				{ID: "b", Content: "Remove the book from the top of the laptop", Precondition: []string{"a"}},
				{ID: "c", Content: "Pick up the laptop", Precondition: []string{"b"}},
			}, Split: annotate.SplitTrain}, 641, 479),
		rec(annotate.Sample{ID: "sq-0002", Kind: annotate.KindStepGraph, Image: "misc/c.png", Question: "Open the drawer \"left\"",
			Steps: []annotate.Step{{ID: "step1", Content: "Move the chair\taway"}, {ID: "step2", Content: "Open the drawer", Precondition: []string{"step1"}}},
			Split: annotate.SplitTrain, Parent: "sq-0001"}, 33, 17),
		rec(annotate.Sample{ID: "mc-0001", Kind: annotate.KindMCQ, Image: "0002-kitchen-1/b.jpg", Question: "Which object is nearest to the kettle?",
			Options: []string{"the cup", "the pan", "the lemon"}, AnswerIndex: 1, Task: "proximity", Split: annotate.SplitTest}, 1200, 800),
		rec(annotate.Sample{ID: "yn-0001", Kind: annotate.KindJudgment, Image: "misc/c.png", Question: "Is the chair left of the drawer?", AnswerText: "yes", Split: annotate.SplitTrain}, 33, 17),
		rec(annotate.Sample{ID: "op-0001", Kind: annotate.KindOpen, Image: "misc/c.png", Question: "How far is the chair from the drawer, in metres?",
			AnswerText: "1.5", AnswerNumber: true, Tolerance: &tol, Box: &annotate.Box{1, 2, 30, 16}, Split: annotate.SplitTrain}, 33, 17),
	}, images
}

func fixtureInfo(created time.Time) ExportInfo {
	return ExportInfo{
		Release: ReleaseInfo{Project: "office", Name: "office-bench", Version: "1.0", FrozenAt: "2026-01-02T03:04:05Z",
			FrozenBy: "lead", Split: &annotate.SplitSpec{TestRatio: 0.2, Seed: 7}, Samples: 7},
		Created: created, Creator: "lead", AppVersion: "0.1.0-test",
		Agreement: &AgreementSummary{Reviews: 35, ByRound: map[string]ReviewCount{"1": {7, 0}, "2": {7, 0}, "3": {21, 0}}, Round3Unanimous: 7,
			AlphaNote: "alpha undefined: every decision agrees"},
	}
}

func opener(images map[string][]byte) func(string) (io.ReadCloser, error) {
	return func(p string) (io.ReadCloser, error) {
		b, ok := images[p]
		if !ok {
			return nil, os.ErrNotExist
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
}

func exportFixture(t *testing.T, f Format, created time.Time) (MemSink, Manifest) {
	t.Helper()
	recs, images := releaseFixture()
	sink := MemSink{}
	m, err := Export(context.Background(), sink, ExportRequest{Format: f, Records: recs, Open: opener(images), Info: fixtureInfo(created)})
	if err != nil {
		t.Fatalf("export %s: %v", f, err)
	}
	return sink, m
}

var fixedTime = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// isImageCopy reports whether name is an image file of the export (bytes copied from
// the project, compared with the source rather than a golden).
func isImageCopy(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".jpg" || ext == ".png"
}

func TestExportGolden(t *testing.T) {
	_, images := releaseFixture()
	byContent := map[string]bool{}
	for _, b := range images {
		byContent[string(b)] = true
	}
	for _, f := range Formats() {
		t.Run(f.Name(), func(t *testing.T) {
			sink, _ := exportFixture(t, f, fixedTime)
			dir := filepath.Join("testdata", f.Name())
			if *update {
				os.RemoveAll(dir)
			}
			var text []string
			for name, b := range sink {
				if isImageCopy(name) {
					if !byContent[string(b)] {
						t.Errorf("%s is not a byte copy of a source image", name)
					}
					continue
				}
				text = append(text, name)
				golden := filepath.Join(dir, filepath.FromSlash(name))
				if *update {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					if err := os.WriteFile(golden, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./release -run TestExportGolden -update)", err)
				}
				if !bytes.Equal(b, want) {
					t.Errorf("%s differs from %s:\n%s", name, golden, firstDiff(b, want))
				}
			}
			// No stale golden: every golden file is still produced.
			filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					rel, _ := filepath.Rel(dir, p)
					if !slices.Contains(text, filepath.ToSlash(rel)) {
						t.Errorf("golden %s is no longer produced", p)
					}
				}
				return nil
			})
		})
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + trunc(a) + "\n want " + trunc(b)
		}
	}
	return "(no line differs)"
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func TestExportLayouts(t *testing.T) {
	tests := []struct {
		format  Format
		files   []string // every file an export of the fixture holds, MANIFEST.json aside
		skipped map[string]int
	}{
		{native{}, []string{"images/0001-office-1/a.jpg", "images/0002-kitchen-1/b.jpg", "images/misc/c.png", "samples.jsonl"}, nil},
		{multihop{}, []string{"data/images/0001-office-1/a.jpg", "data/images/0002-kitchen-1/b.jpg", "data/multihopspatial.json"},
			map[string]int{"step_graph": 2, "mcq": 1, "judgment": 1, "open": 1}},
		{lmmsEval{}, []string{"benchwright_office_bench_1_0/benchwright_office_bench_1_0.yaml", "benchwright_office_bench_1_0/images/0001-office-1/a.jpg",
			"benchwright_office_bench_1_0/images/0002-kitchen-1/b.jpg", "benchwright_office_bench_1_0/test.jsonl", "benchwright_office_bench_1_0/utils.py"},
			map[string]int{"step_graph": 2, "mcq": 1, "judgment": 1, "open": 1}},
		{spatialQA{}, []string{"images/0001-office-1/a.jpg", "images/0002-misc-1/c.png", "spatialqa.json"},
			map[string]int{"hop_qa": 2, "mcq": 1, "judgment": 1, "open": 1}},
		{vlmEvalKit{}, []string{"office-bench_MCQ.tsv", "office-bench_YN.tsv"}, map[string]int{"open": 1, "step_graph": 2}},
		{hfImageFolder{}, []string{"README.md", "test/images/000001.jpg", "test/images/000002.jpg", "test/metadata.jsonl", "train/images/000001.jpg",
			"train/images/000002.png", "train/images/000003.jpg", "train/images/000004.png", "train/images/000005.png", "train/metadata.jsonl"}, nil},
		{coco{}, []string{"annotations/instances_test.json", "annotations/instances_train.json", "images/0001-office-1/a.jpg",
			"images/0002-kitchen-1/b.jpg", "images/misc/c.png"}, map[string]int{"step_graph": 2, "mcq": 1, "judgment": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.format.Name(), func(t *testing.T) {
			sink, m := exportFixture(t, tt.format, fixedTime)
			var names []string
			for n := range sink {
				if n != ManifestName {
					names = append(names, n)
				}
			}
			slices.Sort(names)
			if !slices.Equal(names, tt.files) {
				t.Errorf("files %q, want %q", names, tt.files)
			}
			var listed []string
			for _, f := range m.Files {
				listed = append(listed, f.Path)
				if b := sink[f.Path]; int64(len(b)) != f.Size || sha(b) != f.SHA256 {
					t.Errorf("manifest entry %+v does not match the file", f)
				}
			}
			if !slices.Equal(listed, tt.files) {
				t.Errorf("manifest lists %q, want %q", listed, tt.files)
			}
			if !mapsEqual(m.Skipped, tt.skipped) {
				t.Errorf("skipped %v, want %v", m.Skipped, tt.skipped)
			}
			total := 0
			for _, n := range tt.skipped {
				total += n
			}
			if m.Counts.Samples+total != 7 {
				t.Errorf("counts %d + skipped %d != 7 samples", m.Counts.Samples, total)
			}
		})
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestExportIsDeterministic(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f.Name(), func(t *testing.T) {
			a, _ := exportFixture(t, f, fixedTime)
			// Again, later, with the records in another order.
			recs, images := releaseFixture()
			slices.Reverse(recs)
			b := MemSink{}
			if _, err := Export(context.Background(), b, ExportRequest{Format: f, Records: recs, Open: opener(images),
				Info: fixtureInfo(fixedTime.Add(36 * time.Hour))}); err != nil {
				t.Fatal(err)
			}
			if len(a) != len(b) {
				t.Fatalf("%d files, then %d", len(a), len(b))
			}
			for name, content := range a {
				other := b[name]
				if name == ManifestName {
					content = bytes.Replace(content, []byte("2026-03-04T05:06:07Z"), []byte("CREATED"), 1)
					other = bytes.Replace(other, []byte("2026-03-05T17:06:07Z"), []byte("CREATED"), 1)
				}
				if !bytes.Equal(content, other) {
					t.Errorf("%s differs between two exports:\n%s", name, firstDiff(content, other))
				}
			}
		})
	}
}

// readFiles reads every file below dir, by slash-separated path.
func readFiles(t *testing.T, dir string) MemSink {
	t.Helper()
	files := MemSink{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestNativeRoundTrip(t *testing.T) {
	dir, m := exportDir(t, native{})
	first := readFiles(t, dir)
	hashes := map[string]string{}
	for _, f := range m.Files {
		hashes[f.Path] = f.SHA256
	}
	samples, err := native{}.Read(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for _, s := range samples {
		recs = append(recs, Record{Sample: s, ImageSHA256: hashes["images/"+s.Image]})
	}
	images := map[string][]byte{}
	for name, b := range first {
		if rest, ok := strings.CutPrefix(name, "images/"); ok {
			images[rest] = b
		}
	}
	second := MemSink{}
	if _, err := Export(context.Background(), second, ExportRequest{Format: native{}, Records: recs, Open: opener(images),
		Info: fixtureInfo(fixedTime)}); err != nil {
		t.Fatal(err)
	}
	if len(first) != len(second) {
		t.Fatalf("%d files, after the round trip %d", len(first), len(second))
	}
	for name, b := range first {
		if !bytes.Equal(b, second[name]) {
			t.Errorf("%s changed in the round trip:\n%s", name, firstDiff(second[name], b))
		}
	}
	// The round trip kept what matters: the original records, in id order.
	orig, _ := releaseFixture()
	slices.SortFunc(orig, func(a, b Record) int { return strings.Compare(a.Sample.ID, b.Sample.ID) })
	for i, r := range recs {
		want, _ := orig[i].Sample.MarshalJSON()
		got, _ := r.Sample.MarshalJSON()
		if !bytes.Equal(got, want) {
			t.Errorf("record %d: got %s, want %s", i, got, want)
		}
	}
}

// withoutExtra drops the fields an import keeps aside, to compare samples.
func withoutExtra(s annotate.Sample) annotate.Sample { s.Extra = nil; return s }

func TestMultihopImportRoundTrip(t *testing.T) {
	dir, _ := exportDir(t, multihop{})
	sink := readFiles(t, dir)
	sizes := map[string][2]int{}
	orig, _ := releaseFixture()
	want := map[string]annotate.Sample{}
	for _, r := range orig {
		sizes[r.Sample.Image] = [2]int{r.Width, r.Height}
		if r.Sample.Kind == annotate.KindHopQA {
			want[r.Sample.ID] = r.Sample
		}
	}
	got, err := multihop{}.Read(context.Background(), dir)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("imported %d samples, want %d", len(got), len(want))
	}
	for _, s := range got {
		w, _ := want[s.ID].MarshalJSON()
		g, _ := withoutExtra(s).MarshalJSON()
		if !bytes.Equal(g, w) {
			t.Errorf("%s: imported %s, exported %s", s.ID, g, w)
		}
		if _, ok := sink[MultihopImages+"/"+s.Image]; !ok {
			t.Errorf("%s: image %s is not under %s/", s.ID, s.Image, MultihopImages)
		}
		if sz := sizes[s.Image]; !strings.Contains(string(sink[MultihopFile]), fmt.Sprintf(`"image_resolution": "%dx%d"`, sz[0], sz[1])) &&
			!strings.Contains(string(sink[MultihopFile]), fmt.Sprintf(`"image_resolution":"%dx%d"`, sz[0], sz[1])) {
			t.Errorf("%s: no image_resolution %dx%d in the export", s.ID, sz[0], sz[1])
		}
	}
}

func TestSpatialQAImportRoundTrip(t *testing.T) {
	dir, _ := exportDir(t, spatialQA{})
	sink := readFiles(t, dir)
	got, err := spatialQA{}.Read(context.Background(), dir)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	tests := []struct {
		id, image, scene string
		steps            []annotate.Step
	}{
		{"sq-0001", "0001-office-1/a.jpg", "0001-office-1", []annotate.Step{
			{ID: "step1", Content: "Remove the stapler from the top of the book", Precondition: []string{}},
			{ID: "step2", Content: "Remove the book from the top of the laptop", Precondition: []string{"step1"}},
			{ID: "step3", Content: "Pick up the laptop", Precondition: []string{"step2"}},
		}},
		// An image outside any scene folder gets one, numbered after the scenes in use.
		{"sq-0002", "0002-misc-1/c.png", "0002-misc-1", []annotate.Step{
			{ID: "step1", Content: "Move the chair\taway", Precondition: []string{}},
			{ID: "step2", Content: "Open the drawer", Precondition: []string{"step1"}},
		}},
	}
	if len(got) != len(tests) {
		t.Fatalf("imported %d samples, want %d", len(got), len(tests))
	}
	for i, tt := range tests {
		s := got[i]
		if s.ID != tt.id || s.Image != tt.image || s.Scene != tt.scene || !annotate.ValidSceneName(s.Scene) {
			t.Errorf("sample %d: id %q image %q scene %q, want %q %q %q", i, s.ID, s.Image, s.Scene, tt.id, tt.image, tt.scene)
		}
		if g, w := mustJSON(s.Steps), mustJSON(tt.steps); g != w {
			t.Errorf("%s steps %s, want %s", s.ID, g, w)
		}
		if _, ok := sink["images/"+s.Image]; !ok {
			t.Errorf("%s: image %s is not under images/", s.ID, s.Image)
		}
		if fs := annotate.Lint(withoutExtra(s), annotate.LintEnv{}); annotate.HasErrors(fs) {
			t.Errorf("%s does not lint after the round trip: %v", s.ID, fs)
		}
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// exportOne exports one record and returns the files.
func exportOne(t *testing.T, f Format, s annotate.Sample, w, h int) MemSink {
	t.Helper()
	img := fakeImage(s.Image)
	sink := MemSink{}
	_, err := Export(context.Background(), sink, ExportRequest{Format: f,
		Records: []Record{{Sample: s, Width: w, Height: h, ImageSHA256: sha(img)}},
		Open:    opener(map[string][]byte{s.Image: img}), Info: fixtureInfo(fixedTime)})
	if err != nil {
		t.Fatal(err)
	}
	return sink
}

func TestBoxConversionsOnOddSizes(t *testing.T) {
	tests := []struct {
		w, h int
		box  annotate.Box
	}{
		{641, 479, annotate.Box{0, 0, 641, 479}},
		{641, 479, annotate.Box{100.5, 120, 200, 220.25}},
		{641, 479, annotate.Box{320, 239, 321, 240}},
		{479, 641, annotate.Box{12, 600, 478, 640}},
		{4033, 3025, annotate.Box{1, 1, 4032, 3024}},
		{3, 5, annotate.Box{1, 1, 2, 4}},
	}
	for _, tt := range tests {
		s := annotate.Sample{ID: "mh-1", Kind: annotate.KindHopQA, Image: "0001-x-1/odd.jpg", Question: "Which object is closest?",
			Options: []string{"the a", "the b", "the c", "the d"}, AnswerIndex: 3, Categories: []annotate.Category{annotate.CatRel}, Hop: 1,
			View: annotate.ViewExo, Box: &tt.box}
		name := mustJSON(tt.box) + " on " + strconv.Itoa(tt.w) + "x" + strconv.Itoa(tt.h)
		// MultihopSpatial: pixel [x, y, w, h] as plain decimals.
		var mh []struct {
			BBox [4]float64 `json:"bbox"`
		}
		if err := json.Unmarshal(exportOne(t, multihop{}, s, tt.w, tt.h)[MultihopFile], &mh); err != nil || len(mh) != 1 {
			t.Fatalf("%s: %v", name, err)
		}
		if annotate.BoxFromCOCO(mh[0].BBox) != tt.box {
			t.Errorf("%s: pixel bbox %v", name, mh[0].BBox)
		}
		// Hugging Face objects and COCO annotations: [x, y, w, h] pixels, area w×h.
		var hf struct {
			Objects struct {
				BBox     [][4]float64 `json:"bbox"`
				Category []string     `json:"category"`
			} `json:"objects"`
		}
		if err := json.Unmarshal(exportOne(t, hfImageFolder{}, s, tt.w, tt.h)["test/metadata.jsonl"], &hf); err != nil {
			t.Fatal(err)
		}
		if len(hf.Objects.BBox) != 1 || annotate.BoxFromCOCO(hf.Objects.BBox[0]) != tt.box || hf.Objects.Category[0] != "d" {
			t.Errorf("%s: HF objects %+v", name, hf.Objects)
		}
		var instances struct {
			Annotations []struct {
				BBox [4]float64 `json:"bbox"`
				Area float64    `json:"area"`
			} `json:"annotations"`
		}
		if err := json.Unmarshal(exportOne(t, coco{}, s, tt.w, tt.h)["annotations/instances_test.json"], &instances); err != nil {
			t.Fatal(err)
		}
		a := instances.Annotations[0]
		if annotate.BoxFromCOCO(a.BBox) != tt.box || a.Area != (tt.box[2]-tt.box[0])*(tt.box[3]-tt.box[1]) {
			t.Errorf("%s: COCO bbox %v area %g", name, a.BBox, a.Area)
		}
	}
}

func TestExportRefusals(t *testing.T) {
	recs, images := releaseFixture()
	changed := map[string][]byte{}
	for k, v := range images {
		changed[k] = v
	}
	changed["misc/c.png"] = append(slices.Clone(images["misc/c.png"]), 'x')
	dup := append(slices.Clone(recs), recs[0])
	tests := []struct {
		name   string
		format Format
		recs   []Record
		images map[string][]byte
		want   string
		is     error
	}{
		{"changed image", native{}, recs, changed, "misc/c.png", ErrImageChanged},
		{"changed image, embedded", vlmEvalKit{}, recs, changed, "misc/c.png", ErrImageChanged},
		{"missing image", coco{}, recs, map[string][]byte{}, "image 0002-kitchen-1/b.jpg", os.ErrNotExist},
		{"no format", nil, recs, images, "no format (one of native, ", nil},
		{"duplicate id", native{}, dup, images, `"mh-0002" appears twice`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Export(context.Background(), MemSink{}, ExportRequest{Format: tt.format, Records: tt.recs, Open: opener(tt.images)})
			if err == nil || !strings.Contains(err.Error(), tt.want) || (tt.is != nil && !errors.Is(err, tt.is)) {
				t.Errorf("got %v, want an error naming %q", err, tt.want)
			}
		})
	}
}

func TestExportProgressAndCancel(t *testing.T) {
	recs, images := releaseFixture()
	var seen [][2]int
	_, err := Export(context.Background(), MemSink{}, ExportRequest{Format: hfImageFolder{}, Records: recs, Open: opener(images),
		Progress: func(done, total int) { seen = append(seen, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(recs)+2 || seen[0] != [2]int{0, 8} || seen[len(seen)-1] != [2]int{8, 8} {
		t.Errorf("progress %v", seen)
	}
	for i := 1; i < len(seen); i++ {
		if seen[i][0] != seen[i-1][0]+1 {
			t.Errorf("progress not one step at a time: %v", seen)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	sink := MemSink{}
	_, err = Export(ctx, sink, ExportRequest{Format: native{}, Records: recs, Open: opener(images),
		Progress: func(done, total int) {
			if done == 2 {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled export: %v", err)
	}
	if _, ok := sink[ManifestName]; ok {
		t.Error("a cancelled export wrote its manifest")
	}
}

func TestSinkRefusesEscapingNames(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"", ".", "..", "../x", "a/../../x", "/etc/x", `a\b`, "a//b", "./a"} {
		if _, err := DirSink(dir).Create(name); err == nil {
			t.Errorf("DirSink created %q", name)
		}
		if _, err := (MemSink{}).Create(name); err == nil {
			t.Errorf("MemSink created %q", name)
		}
	}
	f, err := DirSink(dir).Create("a/b/c.txt")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := DirSink(dir).Create("a/b/c.txt"); err == nil {
		t.Error("DirSink overwrote a file")
	}
}

func TestObjectName(t *testing.T) {
	tests := []struct {
		s    annotate.Sample
		want string
	}{
		{annotate.Sample{Kind: annotate.KindHopQA, Options: []string{"The  Red mug", "x"}, AnswerIndex: 0}, "red mug"},
		{annotate.Sample{Kind: annotate.KindMCQ, Options: []string{"x", "an apple"}, AnswerIndex: 1}, "apple"},
		{annotate.Sample{Kind: annotate.KindMCQ, Options: []string{"the"}, AnswerIndex: 0}, "the"},
		{annotate.Sample{Kind: annotate.KindMCQ, Options: []string{"x"}, AnswerIndex: 4}, "object"},
		{annotate.Sample{Kind: annotate.KindOpen, AnswerText: "3"}, "object"},
	}
	for _, tt := range tests {
		if got := ObjectName(tt.s); got != tt.want {
			t.Errorf("ObjectName(%v) = %q, want %q", tt.s.Options, got, tt.want)
		}
	}
}

func TestLookup(t *testing.T) {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name())
		if got, err := Lookup(f.Name()); err != nil || got != f {
			t.Errorf("Lookup(%q) = %v, %v", f.Name(), got, err)
		}
		if f.Layout() == "" {
			t.Errorf("%s has no layout description", f.Name())
		}
	}
	// The order bwctl, the GUI and the golden folders list them in.
	if want := []string{"native", "multihopspatial", "lmms-eval", "spatialqa", "vlmevalkit", "hf-imagefolder", "coco", "spatialscore"}; !slices.Equal(names, want) {
		t.Errorf("Formats() = %q, want %q", names, want)
	}
	_, err := Lookup("csv")
	if want := `unknown export format "csv" (one of native, multihopspatial, lmms-eval, spatialqa, vlmevalkit, hf-imagefolder, coco, spatialscore)`; err == nil || err.Error() != want {
		t.Errorf("Lookup(csv): %v, want %s", err, want)
	}
	// The formats that can be read back.
	var readers []string
	for _, f := range Formats() {
		if _, ok := f.(Reader); ok {
			readers = append(readers, f.Name())
		}
	}
	if want := []string{"native", "multihopspatial", "lmms-eval", "spatialqa", "vlmevalkit", "hf-imagefolder", "spatialscore"}; !slices.Equal(readers, want) {
		t.Errorf("readers %q, want %q", readers, want)
	}
}

// Read refuses an export it cannot read whole: a record with a schema error, one
// the importer cannot convert, a missing file.
func TestReadRefusals(t *testing.T) {
	tests := []struct {
		format      Format
		file, data  string
		wantInError string
	}{
		{native{}, "samples.jsonl", `{"id":"mc-1","kind":"mcq","image":"a.jpg","question":"Which?","options":["a","b"],"answer":0}` + "\n" + `{"id":"x","kind":"mcq","answer":"z"}` + "\n", "line 2"},
		{native{}, "", "", "samples.jsonl"},
		{multihop{}, MultihopFile, `[{"id":"mh-1","image":"a.jpg","question":"Which?","options":["a","b"],"answer":"zebra"}]`, "record 1 (line 1)"},
		{spatialQA{}, "spatialqa.json", `{"id":`, "spatialqa.json"},
		{lmmsEval{}, "task/test.jsonl", `{"id":"mh-1","image":"a.jpg","question":"Which?","options":["a","b"],"answer":"A"}`, "no task folder"},
		{lmmsEval{}, "", "", "no task folder"},
		{vlmEvalKit{}, "b_MCQ.tsv", "index\timage\tquestion\tA\tB\tanswer\n1\tx\tWhich?\ta\tb\tA\n", "record 1 (line 2): image"},
		{vlmEvalKit{}, "", "", "no <Name>_MCQ.tsv or <Name>_YN.tsv"},
		{hfImageFolder{}, "test/metadata.jsonl", `{"id":"mc-1","kind":"mcq","question":"Which?","options":["a","b"],"answer":"C"}`, "line 1: sample mc-1: answer"},
		{hfImageFolder{}, "", "", "no train/, validation/ or test/ folder"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if tt.file != "" {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, tt.file)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := tt.format.(Reader).Read(context.Background(), dir)
		if err == nil || !strings.Contains(err.Error(), tt.wantInError) {
			t.Errorf("%s: read %v, %v; want an error naming %q", tt.format.Name(), got, err, tt.wantInError)
		}
	}
	// A cancelled read stops.
	dir, _ := exportDir(t, native{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (native{}).Read(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled read: %v", err)
	}
}

func ExampleExport() {
	img := []byte("the original bytes of the image file")
	recs := []Record{{
		Sample: annotate.Sample{ID: "mh-0001", Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg", Question: "Which object is closest to the camera?",
			Options: []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
			Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{100, 120, 200, 220}},
		Width: 1200, Height: 800,
	}}
	sink := MemSink{}
	m, err := Export(context.Background(), sink, ExportRequest{
		Format:  multihop{},
		Records: recs,
		Open:    func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(img)), nil },
		Info:    ExportInfo{Release: ReleaseInfo{Name: "office-bench", Version: "1.0", Samples: 1}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range m.Files {
		fmt.Println(f.Path, f.Size, f.SHA256[:12])
	}
	fmt.Print(string(sink[MultihopFile]))
	// Output:
	// data/images/0001-office-1/a.jpg 36 7d34f7bdd881
	// data/multihopspatial.json 453 eda3e00895c7
	// [
	//   {"id":"mh-0001","image_path":"0001-office-1/a.jpg","image_resolution":"1200x800","view":"exo","hop":"1hop","question":"Which object is closest to the camera? <choice>(a) the mug, (b) the lamp, (c) the book, (d) the pen</choice> And provide the bounding box coordinate of the region related to your answer.","answer":"(b) the lamp","bbox":[100.00, 120.00, 100.00, 100.00],"options":["the mug","the lamp","the book","the pen"],"categories":["rel"]}
	// ]
}

// BenchmarkExport exports a MultihopSpatial-sized release (4,500 hop questions on
// 1,500 images of 64 KiB) in each format into memory.
func BenchmarkExport(b *testing.B) {
	images := map[string][]byte{}
	var recs []Record
	for i := range 4500 {
		img := fmt.Sprintf("%04d-scene-%d/img_%04d.jpg", i/300+1, i/300+1, i/3)
		if _, ok := images[img]; !ok {
			images[img] = bytes.Repeat([]byte(img), 64<<10/len(img))
		}
		recs = append(recs, Record{Sample: annotate.Sample{ID: fmt.Sprintf("mh-%05d", i), Kind: annotate.KindHopQA, Image: img,
			Question: fmt.Sprintf("Which object is closest to the camera? (%d)", i), Options: []string{"the mug", "the lamp", "the book", "the pen"},
			AnswerIndex: i % 4, Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 12, 200, 220}, Split: annotate.SplitTest},
			Width: 1200, Height: 800, ImageSHA256: sha(images[img])})
	}
	for _, f := range Formats() {
		b.Run(f.Name(), func(b *testing.B) {
			for b.Loop() {
				if _, err := Export(context.Background(), MemSink{}, ExportRequest{Format: f, Records: recs, Open: opener(images)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestSceneFolders(t *testing.T) {
	rec := func(image, scene string) Record {
		return Record{Sample: annotate.Sample{Image: image, Scene: scene}}
	}
	recs := []Record{
		rec("0007-office-2/a.jpg", ""),         // the image's folder
		rec("x/b.jpg", "0003-kitchen-1"),       // the sample's scene wins
		rec("Living Room/c.jpg", ""),           // renamed after the highest index in use
		rec("Living Room/d.jpg", ""),           // the same folder, the same name
		rec("2nd floor/e.jpg", "2nd floor"),    // a type must start with a letter
		rec("f.jpg", ""),                       // no folder at all
		rec("office/g.jpg", ""),                // a second office scene
		rec("0009-office-x/h.jpg", "nonsense"), // neither fits the pattern
	}
	// New names are numbered from 0008 on (0007 is the highest valid one), in the order
	// of the names they replace.
	want := []string{"0007-office-2", "0003-kitchen-1", "0009-living-room-1", "0009-living-room-1", "0008-scene-2nd-floor-1",
		"0012-scene-1", "0011-office-2", "0010-nonsense-1"}
	got := sceneFolders(recs)
	if !slices.Equal(got, want) {
		t.Errorf("scene folders\n got %q\nwant %q", got, want)
	}
	for _, g := range got {
		if !annotate.ValidSceneName(g) {
			t.Errorf("%q does not follow NNNN-<type>-<k>", g)
		}
	}
}

// writeCountingSink is a MemSink that counts the write calls each file gets.
type writeCountingSink struct {
	MemSink
	mu     sync.Mutex
	writes map[string]int
}

func (s *writeCountingSink) Create(name string) (io.WriteCloser, error) {
	f, err := s.MemSink.Create(name)
	if err != nil {
		return nil, err
	}
	return &countedFile{WriteCloser: f, count: func() { s.mu.Lock(); s.writes[name]++; s.mu.Unlock() }}, nil
}

type countedFile struct {
	io.WriteCloser
	count func()
}

func (f *countedFile) Write(p []byte) (int, error) { f.count(); return f.WriteCloser.Write(p) }

// A format writing a record at a time does not make a write call per record:
// samples.jsonl of 2,000 records (about 300 KiB) reaches its file in writes of
// 64 KiB, with the bytes a write per record gives.
func TestWriteFileBuffersSmallWrites(t *testing.T) {
	recs, images := releaseFixture()
	var many []Record
	for i := range 2000 {
		r := recs[i%len(recs)]
		r.Sample.ID = fmt.Sprintf("%s-%04d", r.Sample.ID, i)
		many = append(many, r)
	}
	sink := &writeCountingSink{MemSink: MemSink{}, writes: map[string]int{}}
	if _, err := Export(context.Background(), sink, ExportRequest{Format: native{}, Records: many, Open: opener(images)}); err != nil {
		t.Fatal(err)
	}
	data := sink.MemSink["samples.jsonl"]
	if lines := bytes.Count(data, []byte("\n")); lines != len(many) {
		t.Fatalf("samples.jsonl has %d lines, want %d", lines, len(many))
	}
	if got, most := sink.writes["samples.jsonl"], len(data)/writeFileBuffer+1; got > most {
		t.Errorf("samples.jsonl (%d bytes) was written in %d calls, want at most %d", len(data), got, most)
	}
	// The same bytes as a line written at a time.
	var want bytes.Buffer
	sorted := slices.Clone(many)
	slices.SortFunc(sorted, func(a, b Record) int { return strings.Compare(a.Sample.ID, b.Sample.ID) })
	for _, r := range sorted {
		b, err := r.Sample.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want.Write(append(b, '\n'))
	}
	if !bytes.Equal(data, want.Bytes()) {
		t.Error("samples.jsonl differs from its records written a line at a time")
	}
}
