package release

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// Samples of several images (issue 26) in the releases the format tests share.

// sequenceRecords adds to images, and returns, samples that show several images,
// on the images of realFixture (a.jpg 641×479, b.jpg 1200×800, c.png 33×17, the
// JPEG rot.jpg stored 60×40 with EXIF orientation 6) and three frames of a video:
//   - seq-mc-01: an mcq on three images with labels of its own, one of them the
//     EXIF-rotated JPEG, sharing a.jpg with single-image samples;
//   - seq-yn-01: a judgment on two images with the default labels, in the other order;
//   - seq-mh-01: a hop question on two images whose box is on the second (b.jpg), so
//     a format normalising by the first image's size would be wrong;
//   - seq-vid-01: an open question on three frames of one video (modality video),
//     with their provenance.
func sequenceRecords(t *testing.T, images map[string][]byte) []Record {
	t.Helper()
	frames := []string{"0005-video-1/v_f000.jpg", "0005-video-1/v_f001.jpg", "0005-video-1/v_f002.jpg"}
	for _, f := range frames {
		images[f] = realImage(t, f, 32, 24)
	}
	facts := map[string]ImageFacts{
		"0001-office-1/a.jpg": {Width: 641, Height: 479}, "0002-kitchen-1/b.jpg": {Width: 1200, Height: 800},
		"misc/c.png": {Width: 33, Height: 17}, "0003-hall-1/rot.jpg": {Width: 40, Height: 60},
	}
	for _, f := range frames {
		facts[f] = ImageFacts{Width: 32, Height: 24}
	}
	rec := func(s annotate.Sample) Record {
		all := s.AllImages()
		first := facts[all[0]]
		r := Record{Sample: s, Width: first.Width, Height: first.Height, ImageSHA256: sha(images[all[0]])}
		for _, p := range all[1:] {
			f := facts[p]
			r.More = append(r.More, ImageFacts{Path: p, Width: f.Width, Height: f.Height, SHA256: sha(images[p])})
		}
		return r
	}
	const video, videoSum = "0005-video-1/v.mp4", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	frame := func(i int, at float64) annotate.Frame {
		return annotate.Frame{Video: video, VideoSHA256: videoSum, Duration: 12, Time: at, Index: i}
	}
	return []Record{
		rec(annotate.Sample{ID: "seq-mc-01", Kind: annotate.KindMCQ, Image: "0001-office-1/a.jpg",
			MoreImages: []string{"0003-hall-1/rot.jpg", "misc/c.png"}, ImageLabels: []string{"desk", "hall", "drawer"},
			Question: "In which picture is the lamp lit?", Options: []string{"desk", "hall", "drawer"}, AnswerIndex: 1,
			Task: "lighting", Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "seq-yn-01", Kind: annotate.KindJudgment, Image: "0002-kitchen-1/b.jpg",
			MoreImages: []string{"0001-office-1/a.jpg"}, Question: "Was picture B taken after picture A?", AnswerText: "no",
			Split: annotate.SplitTrain}),
		rec(annotate.Sample{ID: "seq-mh-01", Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg",
			MoreImages: []string{"0002-kitchen-1/b.jpg"}, Question: "Which object in picture B is on the right of the kettle?",
			Options: []string{"the bowl", "the apple", "the cup"}, AnswerIndex: 2, Categories: []annotate.Category{annotate.CatPos},
			Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{600, 100, 1100, 700}, BoxImage: 1, Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "seq-vid-01", Kind: annotate.KindOpen, Image: frames[0], MoreImages: frames[1:],
			Frames: []annotate.Frame{frame(0, 0), frame(150, 6), frame(299, 11.96)}, Question: "How many people walk through the door?",
			AnswerText: "2", AnswerNumber: true, Split: annotate.SplitTest}),
	}
}

// seqPrediction is a perfect answer to a sample VLMEvalKit holds, as its scorer reads it.
func seqPrediction(s annotate.Sample) string {
	if s.Kind == annotate.KindJudgment {
		return map[string]string{"yes": "Yes", "no": "No"}[strings.ToLower(s.AnswerText)]
	}
	return annotate.AnswerLetter(s.AnswerIndex)
}

// A VLMEvalKit export of sequences loads as VLMEvalKit loads it (toliststr on the
// image and image_path cells, dump_image writing each image of a row under its name,
// in order): every image of a sample arrives, in its order, at its displayed size, a
// perfect prediction file scores 100 %, and bbox_1000 is on the box's image.
func TestVLMEvalKitSequencesThroughVLMEvalKit(t *testing.T) {
	recs, images := roundTripRelease(t)
	dir, _ := exportTo(t, vlmEvalKit{}, recs, images)
	byID := map[string]Record{}
	var mcqPreds, ynPreds []string
	for _, r := range recs {
		if !(vlmEvalKit{}).Holds(r.Sample) {
			continue
		}
		byID[r.Sample.ID] = r
		line := mustJSON(map[string]string{"id": r.Sample.ID, "prediction": seqPrediction(r.Sample)})
		if r.Sample.Kind == annotate.KindJudgment {
			ynPreds = append(ynPreds, line)
		} else {
			mcqPreds = append(mcqPreds, line)
		}
	}
	type seq struct {
		Names []string `json:"names"`
		Sizes [][2]int `json:"sizes"`
	}
	type result struct {
		Rows      int            `json:"rows"`
		Overall   any            `json:"Overall"`
		Sequences map[string]seq `json:"sequences"`
	}
	seen := map[string]bool{}
	for _, file := range []struct {
		kind, name string
		preds      []string
	}{
		{"mcq", "office-bench_MCQ.tsv", mcqPreds}, {"yorn", "office-bench_YN.tsv", ynPreds},
	} {
		predFile := filepath.Join(t.TempDir(), "preds.jsonl")
		if err := os.WriteFile(predFile, []byte(strings.Join(file.preds, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var got result
		runConsumer(t, "vlmevalkit_scorer.py", &got, file.kind, filepath.Join(dir, file.name), predFile)
		if got.Rows != len(file.preds) {
			t.Errorf("%s: %d rows scored, want %d", file.name, got.Rows, len(file.preds))
		}
		switch o := got.Overall.(type) {
		case float64:
			if o != 100 {
				t.Errorf("%s: Overall %v, want 100", file.name, o)
			}
		case map[string]any:
			for sp, v := range o {
				if v != 1.0 {
					t.Errorf("%s: Overall[%s] = %v, want 1", file.name, sp, v)
				}
			}
		}
		for id, sq := range got.Sequences {
			seen[id] = true
			r := byID[id]
			want := r.Images()
			if len(sq.Sizes) != len(want) || len(sq.Names) != len(want) {
				t.Errorf("%s %s: VLMEvalKit writes %d images (%v), the sample shows %d", file.name, id, len(sq.Sizes), sq.Names, len(want))
				continue
			}
			for i, f := range want {
				if sq.Sizes[i] != [2]int{f.Width, f.Height} {
					t.Errorf("%s %s: image %d (%s) arrives %v, displayed size of %s is %dx%d", file.name, id, i+1, sq.Names[i], sq.Sizes[i], f.Path, f.Width, f.Height)
				}
			}
			if len(slices.Compact(slices.Sorted(slices.Values(sq.Names)))) != len(sq.Names) {
				t.Errorf("%s %s: images share a name %v: dump_image would show one image twice", file.name, id, sq.Names)
			}
		}
	}
	for id, r := range byID {
		if r.Sample.NumImages() > 1 && !seen[id] {
			t.Errorf("%s shows %d images but VLMEvalKit reads one", id, r.Sample.NumImages())
		}
	}

	// bbox_1000 of the hop question is on its second image (1200×800), not its first.
	b, err := os.ReadFile(filepath.Join(dir, "office-bench_MCQ.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	header, rows := readTSV(t, b)
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, row := range rows {
		if row[col["id"]] == "seq-mh-01" {
			if got, want := row[col["bbox_1000"]], "[500,125,917,875]"; got != want {
				t.Errorf("seq-mh-01 bbox_1000 %s, want %s (on its box image, 1200×800)", got, want)
			}
		}
	}
}

// A spatialscore export loads as SpatialScore's evaluation loads it: every item's
// img_paths opened in order from the export's folder, each image at its displayed
// size, input_modality as the sample's, and a perfect prediction file scoring 100 %
// overall and in every category and modality; what it cannot score is counted out.
func TestSpatialScoreThroughItsEvaluation(t *testing.T) {
	recs, images := roundTripRelease(t)
	dir, m := exportTo(t, spatialScore{}, recs, images)
	var preds []string
	held := map[string]Record{}
	for _, r := range recs {
		if !(spatialScore{}).Holds(r.Sample) {
			continue
		}
		held[r.Sample.ID] = r
		p := r.Sample.AnswerText
		if r.Sample.Kind.IndexAnswer() {
			p = annotate.AnswerLetter(r.Sample.AnswerIndex)
		}
		preds = append(preds, mustJSON(map[string]string{"id": r.Sample.ID, "prediction": p}))
	}
	if want := map[string]int{"step_graph": 3, "open": 1}; !mapsEqual(m.Skipped, want) {
		t.Errorf("skipped %v, want %v (step graphs and the text answer)", m.Skipped, want)
	}
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	if err := os.WriteFile(predFile, []byte(strings.Join(preds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Total      int                 `json:"total"`
		Accuracy   float64             `json:"accuracy"`
		ByCategory map[string]float64  `json:"by_category"`
		ByModality map[string]float64  `json:"by_modality"`
		Images     map[string][][2]int `json:"images"`
		Errors     []string            `json:"errors"`
	}
	runConsumer(t, "spatialscore_eval.py", &got, dir, "./dataset/office-bench.json", predFile)
	if len(got.Errors) > 0 || got.Total != len(held) || got.Accuracy != 100 {
		t.Errorf("%d items scored, accuracy %v, errors %q; want %d, 100, none", got.Total, got.Accuracy, got.Errors, len(held))
	}
	for name, v := range got.ByCategory {
		if v != 100 {
			t.Errorf("category %s: %v, want 100", name, v)
		}
	}
	if want := []string{"multi-images", "single-image", "video"}; !slices.Equal(slices.Sorted(maps.Keys(got.ByModality)), want) {
		t.Errorf("modalities %v, want %v", slices.Sorted(maps.Keys(got.ByModality)), want)
	}
	for id, r := range held {
		want := r.Images()
		sizes := got.Images[id]
		if len(sizes) != len(want) {
			t.Errorf("%s: %d images opened, the sample shows %d", id, len(sizes), len(want))
			continue
		}
		for i, f := range want {
			if sizes[i] != [2]int{f.Width, f.Height} {
				t.Errorf("%s: image %d opens at %v, %s is displayed %dx%d", id, i+1, sizes[i], f.Path, f.Width, f.Height)
			}
		}
	}
}

// COCO annotates a sample of several images on the image its box is drawn on, with
// that image's size; a sample without a box is left out as before.
func TestCOCOSequenceBoxOnItsImage(t *testing.T) {
	recs, images := roundTripRelease(t)
	var seq []Record
	for _, r := range recs {
		if r.Sample.NumImages() > 1 {
			seq = append(seq, r)
		}
	}
	dir, m := exportTo(t, coco{}, seq, images)
	if m.Counts.Samples != 1 || m.Skipped["mcq"] != 1 || m.Skipped["judgment"] != 1 || m.Skipped["open"] != 1 {
		t.Fatalf("held %d, skipped %v; want the hop question with its box, the others left out", m.Counts.Samples, m.Skipped)
	}
	var got struct {
		Images []struct {
			ID            int    `json:"id"`
			FileName      string `json:"file_name"`
			Width, Height int
		} `json:"images"`
		Annotations []struct {
			ImageID int `json:"image_id"`
		} `json:"annotations"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "annotations", "instances_test.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Images) != 1 || got.Images[0].FileName != "0002-kitchen-1/b.jpg" || got.Images[0].Width != 1200 || got.Images[0].Height != 800 {
		t.Errorf("images %+v; want only the box's image 0002-kitchen-1/b.jpg, 1200×800", got.Images)
	}
	if _, err := os.Stat(filepath.Join(dir, "images", "0001-office-1", "a.jpg")); err == nil {
		t.Errorf("the sample's first image, which holds no box, was copied")
	}
}

// The lmms-eval task shows every image of a sample of several images, in order
// (doc_to_visual), and scores the box on the image box_image names: a perfect
// answer, its box on the 0–1 scale of that image, scores 100 on every metric.
func TestLMMSEvalTaskShowsSequences(t *testing.T) {
	recs, images := roundTripRelease(t)
	dir, _ := exportTo(t, lmmsEval{}, recs, images)
	var preds []string
	held := map[string]Record{}
	for _, r := range recs {
		if !(lmmsEval{}).Holds(r.Sample) {
			continue
		}
		held[r.Sample.ID] = r
		w, h := r.boxSize()
		u := r.Sample.Box.ToUnit(w, h)
		resp := fmt.Sprintf("Answer: (%c) %s\nBounding Box: [%.4f, %.4f, %.4f, %.4f]", 'a'+r.Sample.AnswerIndex, r.Sample.Options[r.Sample.AnswerIndex], u[0], u[1], u[2], u[3])
		preds = append(preds, mustJSON(map[string]string{"id": r.Sample.ID, "response": resp}))
	}
	predFile := filepath.Join(t.TempDir(), "preds.jsonl")
	if err := os.WriteFile(predFile, []byte(strings.Join(preds, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Metrics   map[string]float64  `json:"metrics"`
		Documents int                 `json:"documents"`
		Sizes     map[string][][2]int `json:"visual_sizes"`
	}
	runConsumer(t, "lmms_eval_task.py", &got, dir, LMMSTaskName(fixtureInfo(fixedTime)), predFile)
	if got.Documents != len(held) || got.Metrics["mcq_acc"] != 100 || got.Metrics["acc50iou"] != 100 || got.Metrics["avg_iou"] < 99 {
		// avg_iou: the 4-decimal answers of the tiny boxes cost a little.
		t.Errorf("lmms-eval run: %+v, want %d documents scoring 100", got, len(held))
	}
	if _, ok := held["seq-mh-01"]; !ok {
		t.Fatal("the hop question of two images is not held")
	}
	for id, r := range held {
		want := r.Images()
		sizes := got.Sizes[id]
		if len(sizes) != len(want) {
			t.Errorf("%s: doc_to_visual gives %d images, the sample shows %d", id, len(sizes), len(want))
			continue
		}
		for i, f := range want {
			if sizes[i] != [2]int{f.Width, f.Height} {
				t.Errorf("%s: visual %d is %v, %s is displayed %dx%d", id, i+1, sizes[i], f.Path, f.Width, f.Height)
			}
		}
	}
}

// The native export copies every image of every sample once, however many samples
// show it, and MANIFEST.json lists each file once.
func TestNativeCopiesEveryImageOnce(t *testing.T) {
	recs, images := roundTripRelease(t)
	dir, m := exportTo(t, native{}, recs, images)
	listed := map[string]int{}
	for _, f := range m.Files {
		listed[f.Path]++
	}
	for _, r := range recs {
		for _, f := range r.Images() {
			name := "images/" + f.Path
			if listed[name] != 1 {
				t.Errorf("%s (of %s) is listed %d times in the manifest, want once", name, r.Sample.ID, listed[name])
			}
			if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || sha(b) != f.SHA256 {
				t.Errorf("%s: not copied byte for byte (%v)", name, err)
			}
		}
	}
}
