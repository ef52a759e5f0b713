package release

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// consumerRelease is a release of real images for the consumers' loaders: hop
// questions with 2 to 4 options on a PNG and on a JPEG stored sideways (EXIF
// orientation 6, displayed 20×40), one with 5 options, and the other kinds.
func consumerRelease(t *testing.T, split string) ([]Record, map[string][]byte) {
	t.Helper()
	var pngBuf bytes.Buffer
	if err := png.Encode(&pngBuf, image.NewGray(image.Rect(0, 0, 64, 48))); err != nil {
		t.Fatal(err)
	}
	images := map[string][]byte{
		"0001-office-1/a.png":  pngBuf.Bytes(),
		"0002-kitchen-1/b.jpg": exifJPEG(t, 40, 20, 6),
	}
	rec := func(s annotate.Sample, w, h int) Record {
		if s.Split == "" {
			s.Split = split
		}
		return Record{Sample: s, Width: w, Height: h, ImageSHA256: sha(images[s.Image])}
	}
	hop := func(id, img string, opts []string, ans int, box annotate.Box, hop int, view annotate.View, cats ...annotate.Category) annotate.Sample {
		return annotate.Sample{ID: id, Kind: annotate.KindHopQA, Image: img, Question: "Which object, seen from here, is nearest to the lamp?",
			Options: opts, AnswerIndex: ans, Categories: cats, Hop: hop, View: view, Box: &box}
	}
	h3 := hop("h3", "0001-office-1/a.png", []string{"a", "b", "c"}, 2, annotate.Box{0, 0, 64, 48}, 3, annotate.ViewExo, annotate.CatAtt, annotate.CatPos, annotate.CatRel)
	h3.QuestionTag = "Which <ATT>object</ATT>, <POS>seen from here</POS>, is <REL>nearest to the lamp</REL>?"
	return []Record{
		rec(hop("h1", "0001-office-1/a.png", []string{"the red mug", "the lamp, tall", "a book", "the pen"}, 1, annotate.Box{10.5, 4, 30, 40.25}, 1, annotate.ViewExo, annotate.CatPos), 64, 48),
		rec(hop("h2", "0002-kitchen-1/b.jpg", []string{"the bowl", "the apple"}, 0, annotate.Box{2, 21, 18, 39}, 2, annotate.ViewEgo, annotate.CatAtt, annotate.CatRel), 20, 40),
		rec(h3, 64, 48),
		rec(hop("h5", "0001-office-1/a.png", []string{"a", "b", "c", "d", "e"}, 4, annotate.Box{1, 1, 5, 5}, 1, annotate.ViewExo, annotate.CatAtt), 64, 48),
		rec(annotate.Sample{ID: "m1", Kind: annotate.KindMCQ, Image: "0001-office-1/a.png", Question: "Which is nearest?", Options: []string{"x", "y", "z"}, AnswerIndex: 2}, 64, 48),
		rec(annotate.Sample{ID: "y1", Kind: annotate.KindJudgment, Image: "0002-kitchen-1/b.jpg", Question: "Is the bowl left of the apple?", AnswerText: "yes"}, 20, 40),
		rec(annotate.Sample{ID: "y2", Kind: annotate.KindJudgment, Image: "0001-office-1/a.png", Question: "Is the mug on the book?", AnswerText: "no"}, 64, 48),
		rec(annotate.Sample{ID: "o1", Kind: annotate.KindOpen, Image: "0001-office-1/a.png", Question: "How far apart are they, in metres?", AnswerText: "2", AnswerNumber: true}, 64, 48),
		rec(annotate.Sample{ID: "s1", Kind: annotate.KindStepGraph, Image: "0001-office-1/a.png", Question: "Pick up the book",
			Steps: []annotate.Step{{ID: "a", Content: "Remove the pen from the book"}, {ID: "b", Content: "Pick up the book", Precondition: []string{"a"}}}}, 64, 48),
	}, images
}

// exportTo exports recs in format f into a new folder.
func exportTo(t *testing.T, f Format, recs []Record, images map[string][]byte) (string, Manifest) {
	t.Helper()
	dir := t.TempDir()
	m, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: f, Records: recs, Open: opener(images), Info: fixtureInfo(fixedTime)})
	if err != nil {
		t.Fatalf("export %s: %v", f.Name(), err)
	}
	return dir, m
}

// multihopResponse is what a perfect model answers to a hop question in the format
// the official scorer's prompt asks for: the option and the box on the 0–1 scale.
func multihopResponse(r Record) string {
	u := r.Sample.Box.ToUnit(r.Width, r.Height)
	return fmt.Sprintf("Answer: (%c) %s\nBounding Box: [%.4f, %.4f, %.4f, %.4f]", 'a'+r.Sample.AnswerIndex, r.Sample.Options[r.Sample.AnswerIndex], u[0], u[1], u[2], u[3])
}

// A perfect prediction file scores 100 % with the official MultihopSpatial scorer's
// logic (answer and box parse, IoU on the stored image size read by PIL) and with
// lmms-eval's (all documents as the denominator, image_resolution for the size).
func TestMultihopScoredByTheConsumers(t *testing.T) {
	for _, split := range []string{"", annotate.SplitTest} {
		t.Run("split="+split, func(t *testing.T) {
			recs, images := consumerRelease(t, split)
			dir, m := exportTo(t, Lookup0(t, "multihopspatial"), recs, images)
			var preds bytes.Buffer
			held := 0
			for _, r := range recs {
				if (multihop{}).Holds(r.Sample) {
					held++
					json.NewEncoder(&preds).Encode(map[string]string{"id": r.Sample.ID, "response": multihopResponse(r)})
				}
			}
			if held != 3 || m.Counts.Samples != 3 {
				t.Fatalf("%d held, manifest counts %d; want the 3 hop questions with at most 4 options", held, m.Counts.Samples)
			}
			predFile := filepath.Join(t.TempDir(), "preds.jsonl")
			if err := os.WriteFile(predFile, preds.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			var got struct {
				Official struct {
					Total    int     `json:"total_evaluated"`
					Accuracy float64 `json:"accuracy"`
					Acc50    float64 `json:"acc_at_iou50"`
					AvgIoU   float64 `json:"avg_iou"`
				} `json:"official"`
				LMMS struct {
					N      int     `json:"n"`
					MCQ    float64 `json:"mcq_acc"`
					Acc50  float64 `json:"acc50iou"`
					AvgIoU float64 `json:"avg_iou"`
				} `json:"lmms"`
			}
			runConsumer(t, "multihopspatial_scorer.py", &got, filepath.Join(dir, MultihopFile), filepath.Join(dir, MultihopImages), predFile)
			if o := got.Official; o.Total != 3 || o.Accuracy != 100 || o.Acc50 != 100 || o.AvgIoU < 0.999 {
				t.Errorf("official scorer: %+v, want 3 evaluated, 100, 100, IoU 1", o)
			}
			if l := got.LMMS; l.N != 3 || l.MCQ != 100 || l.Acc50 != 100 || l.AvgIoU < 99.9 {
				t.Errorf("lmms-eval: %+v, want 3 documents, 100, 100, 100", l)
			}
		})
	}
}

// Lookup0 is Lookup for a name that must exist.
func Lookup0(t *testing.T, name string) Format {
	t.Helper()
	f, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The export reads back as the samples it was made of, and its records have the
// official field types.
func TestMultihopOfficialRecords(t *testing.T) {
	recs, images := consumerRelease(t, annotate.SplitTest)
	dir, _ := exportTo(t, Lookup0(t, "multihopspatial"), recs, images)
	b, err := os.ReadFile(filepath.Join(dir, MultihopFile))
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	first := raw[0]
	want := map[string]any{
		"image_path": "0001-office-1/a.png", "image_resolution": "64x48", "view": "exo", "hop": "1hop",
		"question": "Which object, seen from here, is nearest to the lamp? <choice>(a) the red mug, (b) the lamp, tall, (c) a book, (d) the pen</choice> And provide the bounding box coordinate of the region related to your answer.",
		"answer":   "(b) the lamp, tall",
		"bbox":     []any{10.5, 4.0, 19.5, 36.25},
	}
	for k, v := range want {
		if !reflect.DeepEqual(first[k], v) {
			t.Errorf("%s = %#v, want %#v", k, first[k], v)
		}
	}
	if !strings.Contains(string(b), `"bbox": [10.50, 4.00, 19.50, 36.25]`) && !strings.Contains(string(b), `"bbox":[10.50, 4.00, 19.50, 36.25]`) {
		t.Errorf("bbox not written as plain decimals with a point:\n%s", b)
	}
	if _, ok := first["question_tag"]; ok {
		t.Errorf("an untagged question has a question_tag: %v", first["question_tag"])
	}
	if want := "Which <ATT>object</ATT>, <POS>seen from here</POS>, is <REL>nearest to the lamp</REL>? <choice>(a) a, (b) b, (c) c</choice> And provide the bounding box coordinate of the region related to your answer."; raw[2]["question_tag"] != want {
		t.Errorf("question_tag = %q, want %q", raw[2]["question_tag"], want)
	}
	if raw[1]["image_resolution"] != "20x40" {
		t.Errorf("the sideways JPEG's resolution is %v, want the displayed 20x40", raw[1]["image_resolution"])
	}
	f, err := os.Open(filepath.Join(dir, MultihopImages, "0002-kitchen-1", "b.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil || cfg.Width != 20 || cfg.Height != 40 {
		t.Errorf("stored image %dx%d (%v), want it upright at 20x40", cfg.Width, cfg.Height, err)
	}

	got, err := multihop{}.Read(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	var held []annotate.Sample
	for _, r := range recs {
		if (multihop{}).Holds(r.Sample) {
			held = append(held, r.Sample)
		}
	}
	if len(got) != len(held) {
		t.Fatalf("read %d samples, want %d", len(got), len(held))
	}
	for i := range got {
		g, w := got[i], held[i]
		g.Extra = nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("read back\n%+v\nwant\n%+v", g, w)
		}
	}
}

// The lmms-eval task folder runs as lmms-eval runs it (task discovery, !function
// hooks, the json builder's documents) and a perfect model scores 100.
func TestLMMSEvalTaskRuns(t *testing.T) {
	recs, images := consumerRelease(t, "")
	dir, _ := exportTo(t, Lookup0(t, "lmms-eval"), recs, images)
	var preds bytes.Buffer
	for _, r := range recs {
		if (lmmsEval{}).Holds(r.Sample) {
			json.NewEncoder(&preds).Encode(map[string]string{"id": r.Sample.ID, "response": multihopResponse(r)})
		}
	}
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	if err := os.WriteFile(predFile, preds.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Metrics   map[string]float64 `json:"metrics"`
		Documents int                `json:"documents"`
	}
	runConsumer(t, "lmms_eval_task.py", &got, dir, LMMSTaskName(fixtureInfo(fixedTime)), predFile)
	if got.Documents != 3 || got.Metrics["mcq_acc"] != 100 || got.Metrics["acc50iou"] != 100 || got.Metrics["avg_iou"] < 99.9 {
		t.Errorf("lmms-eval run: %+v, want 3 documents scoring 100, 100, 100", got)
	}
}
