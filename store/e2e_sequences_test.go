package store_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// seqE2E is the project of TestSequencesEndToEnd: an LRR-Bench task (yes/no
// questions about sequences A–D, positives authored and negatives shuffled) and a
// SpatialScore slice (a single image, a set of two, eight frames of a video),
// every sample through the three rounds and frozen as one release.
type seqE2E struct {
	augmentFixture
	release bench.Release
	frames  []string
}

func newSeqE2E(t *testing.T) seqE2E {
	t.Helper()
	ctx := context.Background()
	f := seqE2E{augmentFixture: newAugmentFixture(t)}
	dir := t.TempDir()
	var paths []string
	add := func(p string, w, h int, c color.Color) string {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), encodeJPEG(t, w, h, c))
		paths = append(paths, p)
		return p
	}
	var rot, mov []string
	for i, l := range []string{"A", "B", "C", "D"} {
		rot = append(rot, add("lrr/rotation-1/"+l+".jpg", 40+2*i, 30, color.Gray{uint8(30 + 40*i)}))
		mov = append(mov, add("lrr/movement-1/"+l+".jpg", 48, 36-2*i, color.RGBA{uint8(40 * i), 90, 30, 255}))
	}
	single := add("spatialscore/depth/room.jpg", 64, 48, color.RGBA{200, 10, 10, 255})
	pair := []string{add("spatialscore/multi/left.jpg", 50, 40, color.RGBA{10, 200, 10, 255}), add("spatialscore/multi/right.jpg", 52, 40, color.RGBA{10, 10, 200, 255})}
	for i := range 8 {
		f.frames = append(f.frames, add(fmt.Sprintf("spatialscore/walk/frame-%02d.jpg", i+1), 32, 24, color.Gray{uint8(20 * i)}))
	}
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	var vf []bench.VideoFrame
	var frames []annotate.Frame
	for i, p := range f.frames {
		fr := annotate.Frame{Video: "walk.mp4", VideoSHA256: strings.Repeat("5a", 32), Duration: 14, Time: 2 * float64(i), Index: 50 * i}
		vf = append(vf, bench.VideoFrame{Path: p, Frame: fr})
		frames = append(frames, fr)
	}
	if err := f.db.RecordVideoFrames(ctx, f.lead, f.project.ID, vf); err != nil {
		t.Fatal(err)
	}

	seq := func(s annotate.Sample, images []string) annotate.Sample { s.SetImages(images); return s }
	samples := []annotate.Sample{
		seq(annotate.Sample{ID: "lrr-rot-1", Kind: annotate.KindJudgment, Question: "Is the camera rotating clockwise from A to D?",
			AnswerText: "yes", Task: "camera-rotation"}, rot),
		seq(annotate.Sample{ID: "lrr-mov-1", Kind: annotate.KindJudgment, Question: "Is the camera moving forward from A to D?",
			AnswerText: "yes", Task: "camera-movement"}, mov),
		{ID: "ss-single-1", Kind: annotate.KindMCQ, Image: single, Question: "Which object is closer to the camera?",
			Options: []string{"the chair", "the table", "the lamp"}, AnswerIndex: 0, Task: "depth"},
		seq(annotate.Sample{ID: "ss-multi-1", Kind: annotate.KindMCQ, Question: "Where is the sofa in B relative to A?",
			Options: []string{"left", "right", "behind"}, AnswerIndex: 1, Task: "multi-view"}, pair),
		seq(annotate.Sample{ID: "ss-video-1", Kind: annotate.KindMCQ, Question: "Which way does the camera turn at the door?",
			Options: []string{"left", "right", "it does not turn"}, AnswerIndex: 2, Task: "ego-motion", Frames: frames}, f.frames),
	}
	for _, s := range samples {
		si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, s)
		if err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
		if si, err = f.db.Submit(ctx, f.ann, si.ID, si.Version, nil); err != nil {
			t.Fatalf("submit %s: %v", s.ID, err)
		}
		f.verifyThrough(t, si.ID)
	}
	// LRR-Bench's negatives: each positive shuffled, the answer flipped, verified.
	cs, err := f.db.AugmentCandidates(ctx, f.ann2, f.project.ID, bench.CandidateFilter{Transform: augment.Shuffle})
	if err != nil || len(cs) != 2 {
		t.Fatalf("shuffle candidates: %v, %v", refKeys(cs), err)
	}
	for _, c := range cs {
		si, err := f.db.AcceptCandidate(ctx, f.ann2, f.project.ID, c.CandidateRef, false)
		if err != nil {
			t.Fatal(err)
		}
		if si.Status == verify.StateDraft {
			if si, err = f.db.Submit(ctx, f.ann2, si.ID, si.Version, nil); err != nil {
				t.Fatal(err)
			}
		}
		f.verifyThrough(t, si.ID)
	}
	if f.release, err = f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "lrr-ss", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSequencesEndToEnd(t *testing.T) {
	ctx := context.Background()
	f := newSeqE2E(t)
	items, err := f.db.ReleaseItems(ctx, f.lead, f.release.ID)
	if err != nil || len(items) != 7 {
		t.Fatalf("release items: %d, %v", len(items), err)
	}
	modalities := map[annotate.Modality]int{}
	answers := map[string]int{}
	for _, it := range items {
		modalities[it.Content.Modality()]++
		if it.Content.Kind == annotate.KindJudgment {
			answers[it.Content.AnswerText]++
		}
		if n := len(it.Record().Images()); n != it.Content.NumImages() {
			t.Errorf("%s: the release knows %d of its %d images", it.SampleID, n, it.Content.NumImages())
		}
	}
	if want := map[annotate.Modality]int{annotate.ModalityImage: 1, annotate.ModalityImages: 5, annotate.ModalityVideo: 1}; !maps.Equal(modalities, want) {
		t.Errorf("modalities %v, want %v", modalities, want)
	}
	if answers["yes"] != 2 || answers["no"] != 2 {
		t.Errorf("yes/no answers %v, want two positives and their two negatives", answers)
	}

	// Every format: what it holds and what it leaves out add up, the files match the
	// manifest, and the formats that can hold sequences hold every image.
	outs := map[string]string{}
	for _, format := range release.Formats() {
		name := format.Name()
		out := filepath.Join(t.TempDir(), name)
		res, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: "lrr-ss@1", Format: name, OutDir: out}, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		outs[name] = out
		m := res.Manifest
		held := 0
		for _, it := range items {
			if format.Holds(it.Content) {
				held++
			}
		}
		if m.Counts.Samples+sum(m.Skipped) != held+sum(m.Skipped) || m.Counts.Samples > 7 {
			t.Errorf("%s: %d samples, skipped %v", name, m.Counts.Samples, m.Skipped)
		}
		if d, err := release.VerifyRelease(ctx, out); err != nil || !d.OK() {
			t.Errorf("%s: verify-release %+v %v", name, d, err)
		}
		switch name {
		case "multihopspatial", "spatialqa":
			if m.Counts.Samples > 1 {
				t.Errorf("%s holds %d samples, but only one shows a single image", name, m.Counts.Samples)
			}
		case "native", "vlmevalkit", "lmms-eval", "hf-imagefolder", "spatialscore":
			if m.Counts.Samples+sum(m.Skipped) != 7 {
				t.Errorf("%s: %d samples and %v left out, want all 7 accounted for", name, m.Counts.Samples, m.Skipped)
			}
		}
	}

	// native: the records read back with every image in order, labels and frames.
	if out := outs["native"]; out != "" {
		recs := readNativeRecords(t, filepath.Join(out, "samples.jsonl"))
		for _, it := range items {
			r, ok := recs[it.SampleID]
			if !ok {
				t.Errorf("native: %s missing", it.SampleID)
				continue
			}
			if !slices.Equal(r.AllImages(), it.Content.AllImages()) || r.Modality() != it.Content.Modality() || !slices.Equal(r.Frames, it.Content.Frames) {
				t.Errorf("native %s: images %v (%s), want %v (%s)", it.SampleID, r.AllImages(), r.Modality(), it.Content.AllImages(), it.Content.Modality())
			}
		}
	}

	// SpatialScore's own evaluation opens every image of each item in order and a
	// perfect model scores 100 % in every modality.
	if out := outs["spatialscore"]; out != "" {
		var items []map[string]any
		var dataset string
		matches, _ := filepath.Glob(filepath.Join(out, "dataset", "*.json"))
		if len(matches) != 1 {
			t.Fatalf("spatialscore: dataset files %v", matches)
		}
		dataset = "./" + filepath.ToSlash(must(filepath.Rel(out, matches[0])))
		b, err := os.ReadFile(matches[0])
		if err != nil || json.Unmarshal(b, &items) != nil {
			t.Fatalf("spatialscore dataset: %v", err)
		}
		var preds bytes.Buffer
		byModality := map[string]int{}
		for _, it := range items {
			byModality[fmt.Sprint(it["input_modality"])]++
			key := it["index"]
			if id, ok := it["id"]; ok {
				key = id
			}
			fmt.Fprintf(&preds, "{\"id\": %q, \"prediction\": %q}\n", fmt.Sprint(key), fmt.Sprint(it["answer"]))
		}
		if byModality["single-image"] != 1 || byModality["multi-images"] != 5 || byModality["video"] != 1 {
			t.Errorf("spatialscore input_modality counts %v", byModality)
		}
		pred := filepath.Join(t.TempDir(), "preds.jsonl")
		writeFile(t, pred, preds.Bytes())
		var got struct {
			Accuracy   float64             `json:"accuracy"`
			Images     map[string][][2]int `json:"images"`
			ByModality map[string]float64  `json:"by_modality"`
			Errors     []string            `json:"errors"`
		}
		runConsumerScript(t, "spatialscore_eval.py", &got, out, dataset, pred)
		if got.Accuracy != 100 || len(got.Errors) > 0 || len(got.ByModality) != 3 {
			t.Errorf("a perfect model in SpatialScore's evaluation: %v %% (%v), errors %v", got.Accuracy, got.ByModality, got.Errors)
		}
		opened := 0
		for _, sizes := range got.Images {
			opened += len(sizes)
		}
		want := 0
		for _, it := range items {
			want += len(it["img_paths"].([]any))
		}
		if opened != want || want != 1+2+8+4*4 {
			t.Errorf("SpatialScore's evaluation opened %d images of %d (want 27)", opened, want)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// readNativeRecords reads a native samples.jsonl by sample id.
func readNativeRecords(t *testing.T, path string) map[string]annotate.Sample {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	out := map[string]annotate.Sample{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var s annotate.Sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[s.ID] = s
	}
	return out
}

// runConsumerScript runs one of release's consumer scripts (the consumers' own
// loading and scoring logic, release/testdata/consumers) and decodes its JSON.
func runConsumerScript(t *testing.T, script string, out any, args ...string) {
	t.Helper()
	if os.Getenv("BENCHWRIGHT_SKIP_CONSUMERS") == "1" {
		t.Skip("BENCHWRIGHT_SKIP_CONSUMERS=1: the consumers' loaders were not run")
	}
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import pandas, PIL").Run() != nil {
		t.Fatal("no python3 with pandas and PIL: apt-get install python3-pandas python3-pil (scripts/dev test does), or set BENCHWRIGHT_SKIP_CONSUMERS=1")
	}
	abs, err := filepath.Abs(filepath.Join("..", "release", "testdata", "consumers", script))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, append([]string{abs}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", script, args, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("%s printed %q: %v", script, stdout.String(), err)
	}
}

// TestSequencesScored: a model's answers on the LRR-Bench task and the SpatialScore
// slice, scored with LRR-Bench's yes/no rule: lrr_score per task with the project's
// weights (camera rotation counts twice), and every figure by modality.
func TestSequencesScored(t *testing.T) {
	ctx := context.Background()
	f := newSeqE2E(t)
	items, err := f.db.ReleaseItems(ctx, f.lead, f.release.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"lrr_weight.camera-rotation": "2"}); err != nil {
		t.Fatal(err)
	}
	var preds []score.Prediction
	for _, it := range items {
		c := it.Content
		var r string
		switch {
		case c.Task == "camera-rotation": // both right: 100 %
			r = map[string]string{"yes": "Yes, it turns clockwise.", "no": "No."}[c.AnswerText]
		case c.Task == "camera-movement": // the positive right, the negative wrong: 50 %, which scores 0
			r = "Yes."
		case c.Modality() == annotate.ModalityImages: // the pair: wrong
			r = "Answer: C"
		default: // the single image and the video: right
			r = "Answer: " + string(rune('A'+c.AnswerIndex))
		}
		preds = append(preds, score.Prediction{SampleID: it.SampleID, Response: r})
	}
	if _, err := f.db.ImportPredictions(ctx, f.lead, "lrr-ss@1", "model-x", preds, "test", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	reps, err := f.db.Score(ctx, f.lead, "lrr-ss@1", []string{"model-x"}, score.Options{YesNo: score.YesNoLRR, Draws: -1})
	if err != nil || len(reps) != 1 {
		t.Fatalf("score: %v, %v", reps, err)
	}
	r := reps[0]
	// lrr_score = 2·2(100−50) + 1·0 = 200 of 100·(2+1) = 300.
	if m := r.Overall.LRRScore; m == nil || m.Value != 200 || r.Overall.LRRScoreMax == nil || *r.Overall.LRRScoreMax != 300 || r.YesNo != score.YesNoLRR {
		t.Errorf("lrr_score %+v of %v (rule %s), want 200 of 300", r.Overall.LRRScore, r.Overall.LRRScoreMax, r.YesNo)
	}
	byModality := map[string]score.Figures{}
	for _, g := range r.By["modality"] {
		byModality[g.Label] = g.Figures
	}
	mcq := func(m string) float64 {
		if f, ok := byModality[m]; ok && f.MCQAcc != nil {
			return f.MCQAcc.Value
		}
		return -1
	}
	judg := byModality["images"].JudgmentAcc
	if mcq("image") != 100 || mcq("images") != 0 || mcq("video") != 100 || judg == nil || judg.Value != 75 || judg.N != 4 {
		t.Errorf("by modality: mcq image %v images %v video %v, judgment on images %+v", mcq("image"), mcq("images"), mcq("video"), judg)
	}
}
