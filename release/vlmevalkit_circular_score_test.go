package release

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
)

// TestCircularScoreMatchesVLMEvalKit: Benchwright's circular scoring
// (score/circular.go: the result file read by score.ReadPredictions, the copies
// folded into one prediction per sample, each copy read against its rotated
// options and mapped back) gives every question the hit VLMEvalKit's own circular
// evaluation gives it (testdata/consumers/vlmevalkit_scorer.py mcq_circular, after
// multiple_choice.py mcq_circular_eval), for a model right on every copy, one
// answering the question's own letter on every copy (right only where nothing was
// rotated) and seeded models answering each row by letter, by option text, wrongly,
// declining or not at all (a row missing from the result file).
func TestCircularScoreMatchesVLMEvalKit(t *testing.T) {
	if circularStride != score.CircularStride {
		t.Fatalf("the export numbers copies by %d, the scorer by %d", circularStride, score.CircularStride)
	}
	recs, images := vlmRelease(t, func(int) string { return "" })
	dir := t.TempDir()
	info := fixtureInfo(fixedTime)
	info.Release.Name = "mixed bench"
	if _, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: vlmEvalKit{circular: true}, Records: recs, Open: opener(images), Info: info}); err != nil {
		t.Fatal(err)
	}
	tsv := filepath.Join(dir, "mixed_bench_circular_MCQ.tsv")
	b, err := os.ReadFile(tsv)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma = '\t'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	header := rows[0]
	col := func(name string) int { return slices.Index(header, name) }
	type row struct {
		cells    []string
		index    int
		id, kind string
		options  []string // the row's own (rotated) options
		answer   string   // the row's own answer letter
	}
	var all []row
	gold := map[string]string{} // sample id → the question's answer letter
	for _, cells := range rows[1:] {
		rw := row{cells: cells, id: cells[col("id")], kind: cells[col("kind")], answer: cells[col("answer")]}
		if rw.index, err = strconv.Atoi(cells[col("index")]); err != nil {
			t.Fatal(err)
		}
		for l := 'A'; l <= 'Z'; l++ {
			if c := col(string(l)); c >= 0 && cells[c] != "" {
				rw.options = append(rw.options, cells[c])
			}
		}
		if rw.index < circularStride {
			gold[rw.id] = rw.answer
		}
		all = append(all, rw)
	}
	letter := func(rw row, l string) string {
		if rw.kind == string(annotate.KindHopQA) {
			return "Answer: (" + l + ")" // hop_qa's own rule and can_infer both read it
		}
		return l
	}
	const missing = "\x00"
	models := map[string]func(row) string{
		"right on every copy":                 func(rw row) string { return letter(rw, rw.answer) },
		"the question's letter on every copy": func(rw row) string { return letter(rw, gold[rw.id]) },
	}
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 29))
		good := map[string]bool{} // questions this model knows: right on every copy, by letter or text
		models[fmt.Sprintf("seed %d", seed)] = func(rw row) string {
			if _, ok := good[rw.id]; !ok {
				good[rw.id] = rng.IntN(3) == 0
			}
			if len(rw.options) == 0 {
				return ""
			}
			x := rng.Float64()
			if good[rw.id] {
				x *= 0.55
			}
			switch {
			case x < 0.4:
				return letter(rw, rw.answer)
			case x < 0.55 && rw.kind == string(annotate.KindMCQ):
				return rw.options[rw.answer[0]-'A'] // the option's text: read against this copy's options
			case x < 0.55:
				return letter(rw, rw.answer)
			case x < 0.7:
				return letter(rw, gold[rw.id])
			case x < 0.8:
				return letter(rw, annotate.AnswerLetter(rng.IntN(len(rw.options))))
			case x < 0.9:
				return missing
			case x < 0.95:
				return "Cannot determine the answer"
			}
			return ""
		}
	}
	golds := make([]score.Gold, len(recs))
	for i, rc := range recs {
		golds[i] = score.Gold{Sample: rc.Sample, Width: rc.Width, Height: rc.Height}
	}
	right, wrong := 0, 0
	for name, answer := range models {
		t.Run(name, func(t *testing.T) {
			// The result file VLMEvalKit writes (PRED_FORMAT=tsv): the dataset's
			// columns without the image, and the prediction; the JSON Lines the
			// reference scorer joins on index.
			var result bytes.Buffer
			w := csv.NewWriter(&result)
			w.Comma = '\t'
			img := col("image")
			w.Write(append(slices.Delete(slices.Clone(header), img, img+1), "prediction"))
			var jsonl []string
			for _, rw := range all {
				a := answer(rw)
				if a == missing {
					continue
				}
				w.Write(append(slices.Delete(slices.Clone(rw.cells), img, img+1), a))
				jsonl = append(jsonl, mustJSON(map[string]any{"index": rw.index, "prediction": a}))
			}
			w.Flush()
			preds := filepath.Join(t.TempDir(), "preds.jsonl")
			if err := os.WriteFile(preds, []byte(strings.Join(jsonl, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var ref struct {
				Hits map[string]int `json:"hits"`
			}
			runConsumer(t, "vlmevalkit_scorer.py", &ref, "mcq_circular", tsv, preds)

			ps, _, err := score.ReadPredictions("model_mixed_bench_circular_MCQ.tsv", result.Bytes(), score.PredictionsAuto)
			if err != nil {
				t.Fatal(err)
			}
			results, err := score.ScoreAll(context.Background(), golds, ps, score.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(ref.Hits) != len(gold) {
				t.Fatalf("VLMEvalKit scored %d questions, the file has %d", len(ref.Hits), len(gold))
			}
			for _, res := range results {
				hit, ok := ref.Hits[res.SampleID]
				if !ok {
					continue // a judgment: in the YN file, not rotated
				}
				if res.Correct != (hit == 1) {
					t.Errorf("%s (%s): Benchwright says correct=%v (copies read as %q), VLMEvalKit hit %d", res.SampleID, res.Kind, res.Correct, res.Circular, hit)
				}
				if res.Correct {
					right++
				} else {
					wrong++
				}
			}
		})
	}
	if right < 10 || wrong < 10 {
		t.Fatalf("%d questions right and %d wrong over the models: the test tests little", right, wrong)
	}
}
