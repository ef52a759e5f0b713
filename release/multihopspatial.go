package release

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// multihop is the MultihopSpatial release schema, as the official scorer
// (youngwanLEE/multihopspatial eval/benchmark_qwen_vllm.py @ 9d8bcfb1, run_benchmark)
// and lmms-eval's task (lmms_eval/tasks/multihopspatial/utils.py @ 75571cfe) read
// data/multihop_test_4500.json: a JSON list of records holding image_path,
// image_resolution "WxH", view, hop "Nhop", a question whose text carries the
// options as <choice>(a) …, (b) …</choice>, question_tag the same with the
// category tags, answer "(x) option text" and bbox as pixel [x, y, w, h]. Benchwright's richer fields (id, options, categories, split,
// task, ego_subject) ride along: both scorers copy a record whole ({**item}) and
// read only the fields above.
type multihop struct{}

func (multihop) Name() string { return "multihopspatial" }

// Holds takes hop QA with 2 to 4 options on one image: every parser of the official
// scorer and of lmms-eval reads letters a–d only (`\(([a-d])\)`), so a fifth option
// could never be scored, and run_benchmark opens one image_path per record
// (Image.open(os.path.join(image_root, item["image_path"]))), so a sample of several
// images is left out (counted in the manifest as "hop_qa, several images").
func (multihop) Holds(s annotate.Sample) bool {
	return hopHeld(s) && s.NumImages() <= 1
}

// hopHeld is what the MultihopSpatial scorers can score, whatever the images: hop
// QA with at most 4 options.
func hopHeld(s annotate.Sample) bool {
	return s.Kind == annotate.KindHopQA && len(s.Options) <= maxMultihopOptions
}

// maxMultihopOptions is the most options the MultihopSpatial scorers can read.
const maxMultihopOptions = 4

// MultihopFile and MultihopImages are where the format puts the records and the
// images, as the Hugging Face dataset etri-vilab/MultihopSpatial lays them out.
const (
	MultihopFile   = "data/multihopspatial.json"
	MultihopImages = "data/images"
)

// multihopSuffix ends every official question: the scorers' prompt relies on it.
const multihopSuffix = " And provide the bounding box coordinate of the region related to your answer."

func (multihop) Layout() string {
	return MultihopFile + " is a JSON list in the official MultihopSpatial schema (answer \"(x) option\", bbox pixel [x, y, w, h] on the stored image, " +
		"image_resolution \"WxH\", hop \"Nhop\"); " + MultihopImages + "/ holds the images upright (EXIF orientation applied), and image_path is relative to it. " +
		"Score with the official eval/benchmark_qwen_vllm.py run_benchmark(json_path, image_root, …) or lmms-eval; hop QA with more than 4 options is left out (the scorers read a–d), and so are samples of several images (run_benchmark opens one image_path)"
}

// MultihopQuestion is a hop question as the official release writes it: the
// question, its options inline between <choice> tags, then the box instruction.
func MultihopQuestion(question string, options []string) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(question))
	b.WriteString(" <choice>")
	for i, o := range options {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%c) %s", 'a'+i, o)
	}
	b.WriteString("</choice>")
	b.WriteString(multihopSuffix)
	return b.String()
}

// multihopAnswer is the official answer, "(c) frame of the reed picture":
// extract_choice_letter reads the letter in parentheses.
func multihopAnswer(s annotate.Sample) string {
	return fmt.Sprintf("(%c) %s", 'a'+s.AnswerIndex, s.Options[s.AnswerIndex])
}

// pixelNumber writes a coordinate as a plain decimal with two places: the scorers'
// number pattern ([\d.]+) has no sign or exponent, and a decimal point on every
// value keeps the JSON type one float type for Arrow (lmms-eval loads through
// datasets).
func pixelNumber(v float64) []byte {
	return strconv.AppendFloat(nil, v, 'f', 2, 64)
}

// multihopRecord is one record of the official schema. image_resolution is the size
// of the image the box is drawn on (Sample.BoxImage): the scorers turn a model's 0–1
// box into pixels with it. With sequence (lmms-eval), a sample of several images
// also carries the native record's images (all of them, in order; image_path is the
// first), image_labels, box_image and frames (annotate.TakeSequenceFields).
func multihopRecord(r Record, sequence bool) ([]byte, error) {
	s := r.Sample
	if s.AnswerIndex < 0 || s.AnswerIndex >= len(s.Options) {
		return nil, fmt.Errorf("sample %s: answer %d is not one of its %d options", s.ID, s.AnswerIndex, len(s.Options))
	}
	if s.Box == nil {
		return nil, fmt.Errorf("sample %s: a MultihopSpatial record needs its box", s.ID)
	}
	bw, bh := r.boxSize()
	if bw <= 0 || bh <= 0 {
		return nil, fmt.Errorf("sample %s: the size of image %s, which the box is on, is unknown", s.ID, s.BoxImagePath())
	}
	b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
		o.Value("id", s.ID)
		o.Value("image_path", s.Image)
		if sequence && s.NumImages() > 1 {
			o.Value("images", s.AllImages())
			if labels := s.Labels(); !slices.Equal(labels, annotate.DefaultLabels(len(labels), s.Modality() == annotate.ModalityVideo)) {
				o.Value("image_labels", labels)
			}
			if s.BoxImage != 0 {
				o.Value("box_image", s.BoxImage)
			}
			if len(s.Frames) > 0 {
				o.Value("frames", s.Frames)
			}
		}
		o.Value("image_resolution", fmt.Sprintf("%dx%d", bw, bh))
		o.Value("view", s.View)
		o.Value("hop", fmt.Sprintf("%dhop", s.Hop))
		o.Value("question", MultihopQuestion(s.Question, s.Options))
		if s.QuestionTag != "" {
			// The release's tagged copy, which its training code reads
			// (train/prepare_data.py); the scorers read question.
			o.Value("question_tag", MultihopQuestion(s.QuestionTag, s.Options))
		}
		o.Value("answer", multihopAnswer(s))
		box := []byte("[")
		for i, v := range s.Box.ToCOCO() {
			if i > 0 {
				box = append(box, ", "...)
			}
			box = append(box, pixelNumber(v)...)
		}
		o.Raw("bbox", append(box, ']'))
		o.Value("options", orEmpty(s.Options))
		o.Value("categories", orEmpty(s.Categories))
		o.Str("ego_subject", string(s.EgoSubject))
		optional(o, s)
	})
	if err != nil {
		return nil, fmt.Errorf("sample %s: %w", s.ID, err)
	}
	return b, nil
}

func (multihop) Write(_ context.Context, w *Writer, recs []Record) error {
	items := make([][]byte, 0, len(recs))
	for _, r := range recs {
		b, err := multihopRecord(r, false)
		if err != nil {
			return err
		}
		items = append(items, b)
	}
	if err := w.WriteFile(MultihopFile, func(out io.Writer) error { return writeJSONList(out, items) }); err != nil {
		return err
	}
	for _, r := range recs {
		if err := w.CopyUprightImage(MultihopImages+"/"+r.Sample.Image, r); err != nil {
			return err
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Read imports the records with annotate.ImportMultihop, which reads the official
// schema.
func (multihop) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	return readImported(ctx, dir, MultihopFile, func(r io.Reader) ([]annotate.Imported, []annotate.RecordError, error) {
		return annotate.ImportMultihop(r, annotate.ImportOptions{})
	})
}
