package release

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// spatialScore is SpatialScore's own benchmark JSON (haoningwu3639/SpatialScore @
// 1995c4f5, version_0/dataset/SpatialScore-Hard.json and the SpatialScore.json its
// README downloads), with the images beside it, as its evaluation reads it
// (version_0/test_qwen.py main, process_model_input, generate_response):
//   - the file is one JSON list of items, each with index (an integer), category,
//     subcategory, question_type ("multi-choice", "judgment", "open-ended"),
//     input_modality ("single-image", "multi-images", "video"), question, answer,
//     img_paths and source;
//   - img_paths is always a list, opened in order with Image.open(path) relative to
//     the folder the script runs in ("./dataset/MMVP/MMVP/259.jpg"), every one shown
//     to the model before the question; the video items hold their sampled frames
//     (VSI-Bench_8: 8 frames, "./dataset/VSI-Bench/8_frames/…/frame_00.jpg");
//   - multi-choice is scored by utils/util.py extract_option on the answer and the
//     reply (letters A to F, so a question of more than 6 options is left out), the
//     options written into the question ("\n(A) train\n(B) street lights…"); judgment
//     by extract_yes_no ("Yes" or "No"); open-ended by extract_number, float() of the
//     gold answer (so only numeric open answers are held: a text answer stops the
//     script) compared exactly;
//   - results are grouped by source and by category.
//
// The export writes dataset/<Name>.json and the images under dataset/<Name>/ (their
// project paths), img_paths being "./dataset/<Name>/<path>": run SpatialScore's
// script from the export's folder with --dataset_json_path ./dataset/<Name>.json.
// index is the item's position; category is the sample's task (else, for a hop
// question, its categories "att+pos", else the kind) and subcategory its kind; source
// is the release name. index_origin and category_origin, which SpatialScore-Hard uses
// for an item's id and category in its source dataset, are the sample id and task.
// Benchwright's fields (id, kind, options, hop, view, categories, bbox on the image
// box_image names, image_labels, box_image, frames, split) ride along for reading
// back: the script reads only the fields above.
type spatialScore struct{}

func (spatialScore) Name() string { return "spatialscore" }

// spatialScoreOptions is the most options extract_option reads (A to F).
const spatialScoreOptions = 6

// Holds takes what SpatialScore's evaluation can score: choice questions (mcq and
// hop QA) of at most 6 options, judgments, and open questions with a numeric answer.
func (spatialScore) Holds(s annotate.Sample) bool {
	switch s.Kind {
	case annotate.KindMCQ, annotate.KindHopQA:
		return len(s.Options) <= spatialScoreOptions
	case annotate.KindJudgment:
		return true
	case annotate.KindOpen:
		_, err := strconv.ParseFloat(strings.TrimSpace(s.AnswerText), 64)
		return s.AnswerNumber && err == nil
	}
	return false
}

func (spatialScore) Layout() string {
	return "dataset/<Name>.json is a JSON list in SpatialScore's schema (index, category, subcategory, question_type multi-choice|judgment|open-ended, " +
		"input_modality single-image|multi-images|video, question with the options as (A) … lines, answer A–F, Yes/No or a number, img_paths, source); " +
		"dataset/<Name>/ holds the images upright, and img_paths (always a list, in the order shown) is ./dataset/<Name>/<path>, relative to this folder: " +
		"run SpatialScore's test script here with --dataset_json_path ./dataset/<Name>.json (it chooses its prompt by source and refuses names it does not know: " +
		"add <Name> to a list of process_model_input). Step graphs, text answers and questions of more than 6 options are left out (SpatialScore cannot score them). " +
		"id, kind, options, hop, view, categories, bbox (pixel [x1, y1, x2, y2] on image box_image), image_labels, frames and split are Benchwright's, for reading the samples back"
}

// spatialScoreBase is the folder and file stem of an export: the release name as
// VLMEvalKit files are named.
func spatialScoreBase(info ExportInfo) string { return tsvName(info) }

// spatialScoreType is a sample's question_type.
func spatialScoreType(k annotate.Kind) string {
	switch k {
	case annotate.KindJudgment:
		return "judgment"
	case annotate.KindOpen:
		return "open-ended"
	}
	return "multi-choice"
}

// spatialScoreModality is a sample's input_modality.
func spatialScoreModality(s annotate.Sample) string {
	switch s.Modality() {
	case annotate.ModalityVideo:
		return "video"
	case annotate.ModalityImages:
		return "multi-images"
	}
	return "single-image"
}

// spatialScoreQuestion writes the options into the question, one "(A) option" line
// each, as SpatialScore's multi-choice items do.
func spatialScoreQuestion(s annotate.Sample) string {
	q := strings.TrimSpace(s.Question)
	if !s.Kind.IndexAnswer() {
		return q
	}
	var b strings.Builder
	b.WriteString(q)
	for i, o := range s.Options {
		fmt.Fprintf(&b, "\n(%s) %s", annotate.AnswerLetter(i), o)
	}
	return b.String()
}

func (f spatialScore) Write(_ context.Context, w *Writer, recs []Record) error {
	base := spatialScoreBase(w.Info())
	root := "dataset/" + base + "/"
	items := make([][]byte, 0, len(recs))
	for i, r := range recs {
		s := r.Sample
		var answer string
		switch s.Kind {
		case annotate.KindJudgment:
			switch strings.ToLower(strings.TrimSpace(s.AnswerText)) {
			case "yes":
				answer = "Yes"
			case "no":
				answer = "No"
			default:
				return fmt.Errorf("sample %s: judgment answer %q is neither yes nor no", s.ID, s.AnswerText)
			}
		case annotate.KindOpen:
			answer = strings.TrimSpace(s.AnswerText)
		default:
			if s.AnswerIndex < 0 || s.AnswerIndex >= len(s.Options) {
				return fmt.Errorf("sample %s: answer %d is not one of its %d options", s.ID, s.AnswerIndex, len(s.Options))
			}
			answer = annotate.AnswerLetter(s.AnswerIndex)
		}
		paths := s.AllImages()
		for j, p := range paths {
			paths[j] = "./" + root + p
		}
		category := s.Task
		if category == "" && s.Kind == annotate.KindHopQA {
			category = joinCategories(s.Categories, "+")
		}
		b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
			o.Value("index", i)
			o.Value("category", cmpOr(category, string(s.Kind)))
			o.Value("subcategory", string(s.Kind))
			o.Value("question_type", spatialScoreType(s.Kind))
			o.Value("input_modality", spatialScoreModality(s))
			o.Value("question", spatialScoreQuestion(s))
			o.Value("answer", answer)
			o.Value("img_paths", paths)
			o.Value("source", base)
			o.Value("index_origin", s.ID)
			o.Value("category_origin", s.Task)
			o.Value("id", s.ID)
			o.Value("kind", s.Kind)
			if s.Kind.IndexAnswer() {
				o.Value("options", s.Options)
			}
			if s.Kind == annotate.KindHopQA {
				o.Value("hop", s.Hop)
				o.Str("view", string(s.View))
				o.Value("categories", orEmpty(s.Categories))
				o.Str("ego_subject", string(s.EgoSubject))
			}
			if s.AnswerNumber {
				o.Value("answer_number", true)
			}
			if s.Box != nil {
				o.Value("bbox", s.Box)
			}
			if s.NumImages() > 1 {
				if l := s.Labels(); !slices.Equal(l, annotate.DefaultLabels(len(l), s.Modality() == annotate.ModalityVideo)) {
					o.Value("image_labels", l)
				}
				if s.BoxImage != 0 {
					o.Value("box_image", s.BoxImage)
				}
			}
			if len(s.Frames) > 0 {
				o.Value("frames", s.Frames)
			}
			o.Str("split", s.Split)
		})
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		items = append(items, b)
	}
	if err := w.WriteFile("dataset/"+base+".json", func(out io.Writer) error { return writeJSONList(out, items) }); err != nil {
		return err
	}
	for _, r := range recs {
		ims, err := r.imageRecords()
		if err != nil {
			return err
		}
		for _, ir := range ims {
			// Image.open without exif_transpose: the pixels as stored, so upright.
			if err := w.CopyUprightImage(root+ir.Sample.Image, ir); err != nil {
				return err
			}
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

// cmpOr is cmp.Or for strings.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Read imports dataset/<Name>.json with annotate.ImportSpatialScore; image paths
// come back relative to dataset/<Name>/, the project paths.
func (spatialScore) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "dataset", "*.json"))
	if err != nil {
		return nil, err
	}
	switch len(matches) {
	case 0:
		if emptyExport(dir, spatialScore{}.Name()) {
			return nil, nil
		}
		return nil, fmt.Errorf("read %s: no dataset/<Name>.json", dir)
	case 1:
	default:
		return nil, fmt.Errorf("read %s: several dataset/*.json files", dir)
	}
	name := "dataset/" + filepath.Base(matches[0])
	root := "./dataset/" + strings.TrimSuffix(filepath.Base(matches[0]), ".json") + "/"
	if _, err := os.Stat(matches[0]); err != nil {
		return nil, err
	}
	return readImported(ctx, dir, name, func(r io.Reader) ([]annotate.Imported, []annotate.RecordError, error) {
		return annotate.ImportSpatialScore(r, annotate.SpatialScoreOptions{ImageRoot: root})
	})
}
