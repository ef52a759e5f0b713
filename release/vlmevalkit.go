package release

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchwright/benchwright/annotate"
)

// vlmEvalKit writes a release as VLMEvalKit custom datasets: TSV files with the
// images embedded as base64. Every choice follows open-compass/VLMEvalKit @ e8e78f05;
// comments name the file and function.
//
// build_dataset (vlmeval/dataset/__init__.py) picks one class per file — a file with
// A and B columns and images is a CustomMCQDataset, scored by exact matching — so
// each answer style gets its own file: <Name>_MCQ.tsv for hop_qa and mcq,
// <Name>_YN.tsv for judgments (loaded as ImageYORNDataset). Open answers and step
// graphs are not held: CustomVQADataset.evaluate raises NotImplementedError
// (image_vqa.py) and nothing scores a step graph.
//
// VLMEvalKit reads a TSV with pd.read_csv(path, sep='\t') and pandas' defaults
// (vlmeval/smp/file.py load), so a cell equal to an NA token arrives as NaN and a
// column of numbers or true/false words arrives retyped; quoting protects nothing.
// Write therefore checks every cell with the same inference before writing anything
// (pandasColumn) and refuses a value that would not arrive as written.
//
// Beside VLMEvalKit's columns each row carries Benchwright's (kind, hop, view,
// categories, bbox, bbox_1000, id, source_image), which VLMEvalKit carries along
// without reading, so that annotate.ImportVLMEvalKitTSV can give the samples back
// (Read). source_image is the image's path in the project. It is not named
// image_path: with an image column VLMEvalKit saves each decoded image under
// $LMUData/images/<Name>/<image_path> (ImageBaseDataset.dump_image, its extension
// choosing the format: a JPEG saved again at PIL's quality 75 instead of as
// <index>.png) and eval()s a value shaped like a list (toliststr).
//
// The circular variant ("vlmevalkit-circular", bwctl export --circular) writes each
// question of n options n times, its options rotated, in <Name>_circular_MCQ.tsv:
// the copy rotated by k has the index of the question + k·1,000,000, which is how
// VLMEvalKit's circular evaluation groups them (multiple_choice.py
// mcq_circular_eval), and a question counts only when every copy is answered right.
type vlmEvalKit struct{ circular bool }

func (f vlmEvalKit) Name() string {
	if f.circular {
		return "vlmevalkit-circular"
	}
	return "vlmevalkit"
}

// Holds takes the kinds VLMEvalKit scores by exact matching: hop_qa and mcq
// (ImageMCQDataset: the answer letter) and judgments (ImageYORNDataset: Yes or No).
func (vlmEvalKit) Holds(s annotate.Sample) bool {
	switch s.Kind {
	case annotate.KindHopQA, annotate.KindMCQ, annotate.KindJudgment:
		return true
	}
	return false
}

// Layout ends without a period, as the other formats' (the GUI adds one).
func (vlmEvalKit) Layout() string {
	return "<Name>_MCQ.tsv holds the hop_qa and mcq samples (options A…, answer letter) and <Name>_YN.tsv the judgments " +
		"(answer Yes or No), each only when it has samples; <Name> is the release name. Every row has a split (test when " +
		"unsplit); the image column holds the base64 of the upright image, or for a repeated image the index of the row of " +
		"the same file holding it. Put the files in $LMUData and run VLMEvalKit's run.py --judge exact_matching with " +
		`--data <Name>_MCQ, and with --data <Name>_YN --data-config '{"<Name>_YN": {"class": "ImageYORNDataset", "dataset": "<Name>_YN"}}' ` +
		"(when replacing a file, delete $LMUData/images/<Name>_MCQ/ and _YN/: VLMEvalKit reuses the images there). " +
		"Open answers and step graphs are left out: VLMEvalKit cannot score them with exact matching. " +
		"The columns kind, hop, view, categories, bbox (pixel [x1, y1, x2, y2]), bbox_1000, id and source_image (the image's path in the project) " +
		"are Benchwright's, for reading the samples back; VLMEvalKit ignores them. A file holding a sample of several images has an image_path column: " +
		"such a row's image cell is the list ['<base64>', …] of its images in order and its image_path the list of names VLMEvalKit saves them under " +
		"(<index>_<i>.png; <index>.png for a row of one image), which build_prompt shows the model in that order; its source_image is the JSON list of the project paths, " +
		"and image_labels, box_image (bbox and bbox_1000 are on that image) and frames are Benchwright's"
}

// Read imports <Name>_MCQ.tsv and <Name>_YN.tsv with annotate.ImportVLMEvalKitTSV,
// which gives the samples back from Benchwright's columns; a row it cannot convert
// is an error. The images are embedded in the files, so each sample's Image is its
// source_image, the image's path in the project (for a sample of several images the
// JSON list of them, in order); the embedded images are decoded and checked, not
// returned. A sample exported without a split comes back in test, and a
// judgment answered "Yes" as "yes".
func (f vlmEvalKit) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	files, err := f.files(dir)
	if err != nil {
		return nil, err
	}
	var out []annotate.Sample
	for _, name := range files {
		samples, err := readImported(ctx, dir, name, func(r io.Reader) ([]annotate.Imported, []annotate.RecordError, error) {
			if f.circular && strings.HasSuffix(name, "_MCQ.tsv") {
				var err error
				if r, err = questionsOnly(r); err != nil {
					return nil, nil, err
				}
			}
			ok, _, bad, err := annotate.ImportVLMEvalKitTSV(r, annotate.VLMEvalKitOptions{})
			return ok, bad, err
		})
		if err != nil {
			return nil, err
		}
		for i := range samples {
			s := &samples[i]
			var p string
			if err := json.Unmarshal(s.Extra["source_image"], &p); err != nil || p == "" {
				return nil, fmt.Errorf("read %s: sample %s has no source_image", filepath.Join(dir, name), s.ID)
			}
			paths := []string{p}
			if strings.HasPrefix(p, "[") {
				// A sample of several images: the JSON list of their project paths.
				if err := json.Unmarshal([]byte(p), &paths); err != nil || len(paths) != s.NumImages() {
					return nil, fmt.Errorf("read %s: sample %s: source_image does not list its %d images", filepath.Join(dir, name), s.ID, s.NumImages())
				}
			}
			s.SetImages(paths)
			delete(s.Extra, "source_image")
			if len(s.Extra) == 0 {
				s.Extra = nil
			}
		}
		out = append(out, samples...)
	}
	return out, nil
}

// questionsOnly is a circular TSV without the rotated copies: the rows whose index
// is under circularStride. A copy's image cell may name its question's row, never
// the other way round, so the questions' images stay whole.
func questionsOnly(r io.Reader) (io.Reader, error) {
	cr := csv.NewReader(r)
	cr.Comma, cr.FieldsPerRecord = '\t', -1
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Comma = '\t'
	for i, row := range rows {
		if i > 0 && len(row) > 0 {
			if n, err := strconv.Atoi(row[0]); err == nil && n >= circularStride {
				continue
			}
		}
		if err := cw.Write(row); err != nil {
			return nil, err
		}
	}
	cw.Flush()
	return &b, cw.Error()
}

// files names the TSVs of a VLMEvalKit export in dir: <Name>_MCQ.tsv (circular:
// <Name>_circular_MCQ.tsv), then <Name>_YN.tsv, whichever are there, of one <Name>.
func (f vlmEvalKit) files(dir string) ([]string, error) {
	mcq := "_MCQ.tsv"
	if f.circular {
		mcq = "_circular_MCQ.tsv"
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var bases []string
	files := map[string][]string{}
	for _, suffix := range []string{mcq, "_YN.tsv"} {
		for _, e := range entries {
			if base, ok := strings.CutSuffix(e.Name(), suffix); ok && base != "" && e.Type().IsRegular() {
				if !slices.Contains(bases, base) {
					bases = append(bases, base)
				}
				files[base] = append(files[base], e.Name())
			}
		}
	}
	switch len(bases) {
	case 0:
		if emptyExport(dir, f.Name()) {
			return nil, nil // a release of no sample VLMEvalKit holds: no file
		}
		return nil, fmt.Errorf("read %s: no <Name>_MCQ.tsv or <Name>_YN.tsv", dir)
	case 1:
		return files[bases[0]], nil
	}
	slices.Sort(bases)
	return nil, fmt.Errorf("read %s: the TSVs of several releases (%s)", dir, strings.Join(bases, ", "))
}

// vlmTable is one TSV being built: its header and rows. Index and image cells (and
// image_path in a file with sequences) are filled in when the file is written.
type vlmTable struct {
	suffix string   // "_MCQ" or "_YN"
	header []string // index, image, [image_path,] then the columns the rows fill
	labels []string // what an error calls each column's cell: "question", "option B", ...
	rows   []vlmRow
	// seq is set when a row shows several images: the file then has an image_path
	// column (the names VLMEvalKit saves each image under) and Benchwright's
	// image_labels, box_image and frames.
	seq bool
}

// vlmSeqColumns are Benchwright's columns of a file with sequences, after its others.
var vlmSeqColumns = []string{"image_labels", "box_image", "frames"}

type vlmRow struct {
	rec   Record
	cells []string // one per header column
	// rot is, for a circular export's copy of a question, how far its options are
	// rotated (1…n−1), and of the row of the question itself (0).
	rot, of int
}

// circularStride is what VLMEvalKit adds to a question's index for each rotated
// copy (multiple_choice.py mcq_circular_eval: g_index = index % 1e6).
const circularStride = 1_000_000

// rotated is r with its options rotated by k: option L of the copy is option
// (L + k) mod n of the question, as MMBench's circular copies are, and its answer
// moves with it.
func rotated(r Record, k int) Record {
	n := len(r.Sample.Options)
	r.Sample.Options = append(slices.Clone(r.Sample.Options[k:]), r.Sample.Options[:k]...)
	r.Sample.AnswerIndex = (r.Sample.AnswerIndex - k + n) % n
	return r
}

// vlmUnchecked are the columns whose values are numbers by design: index (integers
// from 1), image (base64, or the index of the row that holds it:
// ImageBaseDataset.__init__ turns it back with str()) and hop (a number; a float such
// as 2.0 where some rows have none).
var vlmUnchecked = map[string]bool{"index": true, "image": true, "hop": true, "image_path": true, "box_image": true}

func (f vlmEvalKit) Write(_ context.Context, w *Writer, recs []Record) error {
	base := tsvName(w.Info())
	if err := checkVLMName(w.Info().Release.Name, base); err != nil {
		return err
	}
	options := 0
	for _, r := range recs {
		if r.Sample.Kind.IndexAnswer() {
			options = max(options, len(r.Sample.Options))
		}
	}
	if options > 26 {
		for _, r := range recs {
			if len(r.Sample.Options) > 26 {
				return fmt.Errorf("sample %s: %d options; VLMEvalKit reads the options from the columns A to Z only "+
					"(image_mcq.py build_prompt)", r.Sample.ID, len(r.Sample.Options))
			}
		}
	}
	var mcqSeq, ynSeq bool
	for _, r := range recs {
		if r.Sample.NumImages() > 1 {
			mcqSeq = mcqSeq || r.Sample.Kind != annotate.KindJudgment
			ynSeq = ynSeq || r.Sample.Kind == annotate.KindJudgment
		}
	}
	lead := func(seq bool) []string {
		if seq {
			return []string{"index", "image", "image_path", "question"}
		}
		return []string{"index", "image", "question"}
	}
	mcq := &vlmTable{suffix: "_MCQ", header: lead(mcqSeq), labels: lead(mcqSeq), seq: mcqSeq}
	if f.circular {
		mcq.suffix = "_circular_MCQ" // the name switches VLMEvalKit to circular evaluation (image_mcq.py evaluate_heuristic)
	}
	for i := range options {
		mcq.header = append(mcq.header, annotate.AnswerLetter(i))
		mcq.labels = append(mcq.labels, "option "+annotate.AnswerLetter(i))
	}
	extra := []string{"answer", "category", "l2-category", "split", "hop", "view", "categories", "bbox", "bbox_1000", "kind", "id", "source_image"}
	if mcqSeq {
		extra = append(extra, vlmSeqColumns...)
	}
	mcq.header = append(mcq.header, extra...)
	mcq.labels = append(mcq.labels, extra...)
	yn := &vlmTable{suffix: "_YN", seq: ynSeq,
		header: append(lead(ynSeq), "answer", "category", "l2-category", "split", "kind", "id", "source_image")}
	if ynSeq {
		yn.header = append(yn.header, vlmSeqColumns...)
	}
	yn.labels = yn.header
	for _, r := range recs {
		var err error
		if r.Sample.Kind == annotate.KindJudgment {
			err = yn.add(r, ynCells)
		} else {
			of := len(mcq.rows)
			err = mcq.add(r, func(r Record) *vlmCells { return mcqCells(r, options) })
			for k := 1; f.circular && err == nil && k < len(r.Sample.Options); k++ {
				if err = mcq.add(rotated(r, k), func(r Record) *vlmCells { return mcqCells(r, options) }); err == nil {
					mcq.rows[len(mcq.rows)-1].rot, mcq.rows[len(mcq.rows)-1].of = k, of
				}
			}
		}
		if err != nil {
			return err
		}
	}
	// Check both files before writing either.
	for _, t := range []*vlmTable{mcq, yn} {
		if err := t.checkColumns(base + t.suffix + ".tsv"); err != nil {
			return err
		}
	}
	for _, t := range []*vlmTable{mcq, yn} {
		if len(t.rows) == 0 {
			continue // a file is written only when it has rows
		}
		if err := w.WriteFile(base+t.suffix+".tsv", func(out io.Writer) error { return t.write(w, out) }); err != nil {
			return err
		}
	}
	return nil
}

func (t *vlmTable) add(r Record, cells func(Record) *vlmCells) error {
	c := cells(r)
	if t.seq {
		seqCells(c, r)
	}
	if c.err != nil {
		return c.err
	}
	lead := []string{"", ""}
	if t.seq {
		lead = append(lead, "")
	}
	t.rows = append(t.rows, vlmRow{rec: r, cells: append(lead, c.cells...)})
	return nil
}

// seqCells adds Benchwright's image_labels (JSON, empty for the default labels),
// box_image (empty for the first image) and frames (JSON, empty without) cells.
func seqCells(c *vlmCells, r Record) {
	s := r.Sample
	labels := ""
	if l := s.Labels(); s.NumImages() > 1 && !slices.Equal(l, annotate.DefaultLabels(len(l), s.Modality() == annotate.ModalityVideo)) {
		b, _ := annotate.MarshalPlain(l)
		labels = string(b)
	}
	box := ""
	if s.BoxImage != 0 {
		box = strconv.Itoa(s.BoxImage)
	}
	frames := ""
	if len(s.Frames) > 0 {
		b, _ := annotate.MarshalPlain(s.Frames)
		frames = string(b)
	}
	c.may("image_labels", labels, vlmLost[""])
	c.may("box_image", box, vlmLost[""])
	c.may("frames", frames, vlmLost[""])
}

// sourceImages is the source_image cell: the image's path in the project, or for a
// sample of several images the JSON list of their paths in order.
func sourceImages(s annotate.Sample) string {
	if s.NumImages() <= 1 {
		return s.Image
	}
	b, _ := annotate.MarshalPlain(s.AllImages())
	return string(b)
}

// write writes the table. Indices are 1, 2, ... (the file's own: an image reference
// names a row of the same file, ImageBaseDataset.__init__); the first row with an
// image holds its base64, turned upright because VLMEvalKit decodes it with PIL and
// re-saves it without applying EXIF orientation (vlmeval/smp/vlm.py
// decode_base64_to_image), and the later rows hold that row's index.
//
// A row of several images holds the list of their base64, in order, written as a
// Python list ['…', '…'] (base64 has no quote): ImageBaseDataset.__init__ turns the
// cell into a list with toliststr (vlmeval/smp/misc.py: a cell starting with [ and
// ending with ] is eval()ed), and dump_image writes each image of the list under the
// name at the same position of image_path, also a list (image_base.py dump_image:
// zip(line['image'], line['image_path'])), in order, and build_prompt gives the
// model the images in that order. A reference stands for a whole cell, so a row
// refers only to an earlier row with the same images in the same order. The names
// are <index>_<i>.png (what dump_image names them without image_path), and a row of
// one image in such a file is named <index>.png: with an image_path column
// dump_image saves a single image under its image_path, which must be a string.
func (t *vlmTable) write(w *Writer, out io.Writer) error {
	cw := csv.NewWriter(out) // quotes only where needed; pandas reads either way (smp/file.py dump_tsv quotes all)
	cw.Comma = '\t'
	if err := cw.Write(t.header); err != nil {
		return err
	}
	firstRow := map[string]int{} // project image(s) → index of the row holding their base64
	indexes := make([]int, len(t.rows))
	main := 0
	for i, row := range t.rows {
		if row.rot == 0 {
			main++
			indexes[i] = main
		} else {
			indexes[i] = indexes[row.of] + row.rot*circularStride
		}
	}
	if main >= circularStride {
		return fmt.Errorf("%d questions: VLMEvalKit's circular evaluation numbers a question's copies from its index + 1,000,000 and takes fewer", main)
	}
	for i, row := range t.rows {
		index := indexes[i]
		s := row.rec.Sample
		key := strings.Join(s.AllImages(), "\x00")
		var image string
		if j, ok := firstRow[key]; ok {
			image = strconv.Itoa(j)
		} else {
			ims, err := row.rec.imageRecords()
			if err != nil {
				return err
			}
			cells := make([]string, len(ims))
			for k, ir := range ims {
				b, err := w.ReadUprightImage(ir)
				if err != nil {
					return err
				}
				cells[k] = base64.StdEncoding.EncodeToString(b)
				if len(ims) == 1 && len(cells[k]) <= 64 {
					// ImageBaseDataset.__init__ takes an image cell of at most 64 characters
					// for the index of another row.
					return fmt.Errorf("sample %s: image %s is only %d bytes; VLMEvalKit would take its base64 for a row index",
						s.ID, ir.Sample.Image, len(b))
				}
			}
			image = cells[0]
			if len(cells) > 1 {
				image = pythonList(cells)
			}
			firstRow[key] = index
		}
		row.cells[0], row.cells[1] = strconv.Itoa(index), image
		if t.seq {
			row.cells[2] = strconv.Itoa(index) + ".png"
			if n := s.NumImages(); n > 1 {
				names := make([]string, n)
				for k := range names {
					names[k] = fmt.Sprintf("%d_%d.png", index, k)
				}
				row.cells[2] = pythonList(names)
			}
		}
		if err := cw.Write(row.cells); err != nil {
			return err
		}
		if row.rot != 0 {
			continue // a copy: its question counted once
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// pythonList writes items (free of quotes and backslashes: base64 and file names) as
// the Python list literal toliststr eval()s: ['a', 'b'].
func pythonList(items []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('\'')
		b.WriteString(it)
		b.WriteByte('\'')
	}
	b.WriteByte(']')
	return b.String()
}

// mcqCells are a hop_qa or mcq sample's cells after index and image, in the MCQ
// header's order.
func mcqCells(r Record, options int) *vlmCells {
	s := r.Sample
	c := &vlmCells{id: s.ID}
	c.need("question", s.Question, vlmLost["question"])
	for j := range options {
		letter := annotate.AnswerLetter(j)
		if j < len(s.Options) {
			c.need("option "+letter, s.Options[j], vlmLost["option"])
		} else {
			c.may("option "+letter, "", "") // no such option: NaN, which build_prompt leaves out
		}
	}
	if s.AnswerIndex < 0 || s.AnswerIndex >= len(s.Options) {
		c.fail(fmt.Errorf("sample %s: answer %d is not one of its %d options", s.ID, s.AnswerIndex, len(s.Options)))
	}
	c.need("answer", annotate.AnswerLetter(s.AnswerIndex), vlmLost["answer"])
	category := s.Task
	if category == "" && s.Kind == annotate.KindHopQA {
		category = joinCategories(s.Categories, "+")
	}
	l2 := ""
	switch {
	case s.Kind != annotate.KindHopQA:
	case s.Hop > 0:
		l2 = strconv.Itoa(s.Hop) + "-hop"
	default:
		l2 = string(s.View)
	}
	c.group("category", cmp.Or(category, string(s.Kind)))
	c.group("l2-category", cmp.Or(l2, string(s.Kind)))
	c.need("split", splitOf(s), vlmLost["split"])
	hop, b1000 := "", ""
	if s.Hop != 0 {
		hop = strconv.Itoa(s.Hop)
	}
	if bw, bh := r.boxSize(); s.Box != nil && bw > 0 && bh > 0 {
		// On the image the box is drawn on (images[box_image]).
		v := s.Box.To1000(bw, bh)
		b1000 = boxText(&v)
	}
	c.may("hop", hop, vlmLost[""])
	c.may("view", string(s.View), vlmLost[""])
	c.may("categories", joinCategories(s.Categories, "+"), vlmLost[""])
	c.may("bbox", boxText(s.Box), vlmLost[""])
	c.may("bbox_1000", b1000, vlmLost[""])
	c.need("kind", string(s.Kind), vlmLost[""])
	c.need("id", s.ID, vlmLost["id"])
	c.need("source_image", sourceImages(s), vlmLost[""])
	return c
}

// ynCells are a judgment's cells after index and image. The answer is Yes or No,
// capitalised: ImageYORNDataset.evaluate scores answer == YOrN_Extraction(prediction),
// which gives exactly 'Yes' or 'No' (dataset/utils/yorn.py).
func ynCells(r Record) *vlmCells {
	s := r.Sample
	c := &vlmCells{id: s.ID}
	c.need("question", s.Question, vlmLost["question"])
	var answer string
	switch strings.ToLower(strings.TrimSpace(s.AnswerText)) {
	case "yes":
		answer = "Yes"
	case "no":
		answer = "No"
	default:
		c.fail(fmt.Errorf("sample %s: judgment answer %q is neither yes nor no", s.ID, s.AnswerText))
	}
	c.need("answer", answer, vlmLost["answer"])
	c.group("category", cmp.Or(s.Task, string(s.Kind)))
	c.group("l2-category", string(s.Kind))
	c.need("split", splitOf(s), vlmLost["split"])
	c.need("kind", string(s.Kind), vlmLost[""])
	c.need("id", s.ID, vlmLost["id"])
	c.need("source_image", sourceImages(s), vlmLost[""])
	return c
}

// vlmLost says what VLMEvalKit does with a field that arrives as NaN.
var vlmLost = map[string]string{
	"question": "VLMEvalKit would ask \"Question: nan\" (image_mcq.py build_prompt)",
	"option":   "VLMEvalKit would drop the option",
	"answer":   "VLMEvalKit could never score the row right",
	"group":    "VLMEvalKit could not group the row (report_acc sorts the groups and fails on NaN)",
	"split":    "report_acc would give the split an Overall of NaN",
	"id":       "the row could not be matched to its sample",
	"":         "the value would be lost",
}

// vlmCells collects one row's cells and the first value that would not arrive.
type vlmCells struct {
	id    string
	cells []string
	err   error
}

func (c *vlmCells) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// need adds a cell that must arrive as written: empty is refused too.
func (c *vlmCells) need(label, v, lost string) {
	if v == "" {
		c.fail(fmt.Errorf("sample %s: %s is empty, which pandas reads as a missing value; %s", c.id, label, lost))
	}
	c.may(label, v, lost)
}

// may adds a cell that may be empty (a missing value on purpose) but must otherwise
// arrive as written.
func (c *vlmCells) may(label, v, lost string) {
	switch {
	case v != "" && pandasNA[v]:
		since := ""
		if v == "None" {
			since = " (pandas 2 and later)"
		}
		c.fail(fmt.Errorf("sample %s: %s is %q, which pandas reads as a missing value%s; %s", c.id, label, v, since, lost))
	case !utf8.ValidString(v):
		c.fail(fmt.Errorf("sample %s: %s is not UTF-8, which pandas cannot read", c.id, label))
	case strings.ContainsRune(v, 0):
		c.fail(fmt.Errorf("sample %s: %s holds a NUL byte, where pandas' C parser ends the text", c.id, label))
	}
	c.cells = append(c.cells, v)
}

// group adds a category or l2-category cell: never empty, and neither of the names
// report_acc (dataset/utils/multiple_choice.py) and default_rating (utils/yorn.py)
// keep their own results under in the same dictionary.
func (c *vlmCells) group(label, v string) {
	if v == "Overall" || v == "split" {
		c.fail(fmt.Errorf("sample %s: %s is %q, the name under which VLMEvalKit's report keeps its own %s results: they would be overwritten",
			c.id, label, v, v))
	}
	c.need(label, v, vlmLost["group"])
}

// checkColumns refuses a column pandas would retype so that a cell arrives other
// than written: VLMEvalKit shows and matches the value's str() (build_prompt's
// f-string, can_infer_text's str(v).lower()), so a retyped cell is accepted when str()
// of what pandas makes of it is the text — a column of plain integers such as 3 — and
// refused otherwise: 007 or a 3 that arrives as 3.0, a true that arrives as True.
func (t *vlmTable) checkColumns(file string) error {
	cells := make([]string, len(t.rows))
	for j, col := range t.header {
		if vlmUnchecked[col] {
			continue
		}
		for i, r := range t.rows {
			cells[i] = r.cells[j]
		}
		dtype, got := pandasColumn(cells, len(t.header), pandasNA)
		for i, v := range cells {
			g := got[i]
			if v == "" && g.missing || v != "" && !g.missing && g.exact && g.str == v {
				continue
			}
			arrival := "as " + strconv.Quote(g.str)
			switch {
			case g.missing:
				arrival = "as a missing value"
			case v == "":
				arrival = "as text instead of a missing value"
			case !g.exact:
				arrival = "as a float pandas may round differently"
			}
			return fmt.Errorf("%s column %s: pandas reads the column as %s, so sample %s's %s %q would arrive %s "+
				"(VLMEvalKit shows and matches str() of the value); reword the cell so the column stays text",
				file, col, dtype, t.rows[i].rec.Sample.ID, t.labels[j], v, arrival)
		}
	}
	return nil
}

// joinCategories joins category names with sep.
func joinCategories(cats []annotate.Category, sep string) string {
	s := make([]string, len(cats))
	for i, c := range cats {
		s[i] = string(c)
	}
	return strings.Join(s, sep)
}

// tsvName is the base of the VLMEvalKit file names: the release name, which the
// toolkit takes as the dataset name, with _MCQ or _YN added.
func tsvName(info ExportInfo) string {
	var b strings.Builder
	for _, r := range info.Release.Name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return cmp.Or(strings.Trim(b.String(), "."), "benchmark")
}

// vlmNameWords are the words by which VLMEvalKit switches evaluation on a dataset
// name, and what each switches to. As upstream, the lower-case words are looked
// for in the lower-cased name (listinstr(..., dataset.lower())) and the others as
// written (listinstr(['MMT'], dataset)), so "summer" is a fine name and "MMEval" is not.
var vlmNameWords = []struct{ word, why string }{
	{"mmbench", "circular evaluation (image_mcq.py evaluate_heuristic)"},
	{"ccbench", "circular evaluation (image_mcq.py evaluate_heuristic)"},
	{"circular", "circular evaluation (image_mcq.py evaluate_heuristic)"},
	{"mmcr", "circular evaluation (image_mcq.py evaluate_heuristic)"},
	{"MMT", "MMT-Bench's report (report_acc_MMT)"},
	{"MMSci", "MMSci's report (report_acc_MMSci)"},
	{"MMVP", "MMVP's report (report_acc_MMVP)"},
	{"MMMU", "MMMU's answer rewriting (multiple_choice.py MMMU_preproc)"},
	{"openended", "an open-ended VQA type (dataset/__init__.py DATASET_TYPE)"},
	{"MME", "MME's Y/N rating (image_yorn.py evaluate)"},
	{"Hallusion", "HallusionBench's Y/N rating (image_yorn.py evaluate)"},
	{"POPE", "POPE's Y/N rating (image_yorn.py evaluate)"},
	{"AMBER", "AMBER's Y/N rating (image_yorn.py evaluate)"},
	{"VSR", "VSR's Y/N rating (image_yorn.py evaluate)"},
}

// checkVLMName refuses a release whose dataset names would make VLMEvalKit score it
// other than as a plain custom MCQ or Y/N set.
func checkVLMName(release, base string) error {
	for _, n := range vlmNameWords {
		name := base
		if n.word == strings.ToLower(n.word) {
			name = strings.ToLower(base)
		}
		if strings.Contains(name, n.word) {
			return fmt.Errorf("release name %q contains %q: VLMEvalKit chooses its evaluation by dataset name and would switch "+
				"%s_MCQ or %s_YN to %s instead of scoring it by exact matching; export a release with another name",
				release, n.word, base, base, n.why)
		}
	}
	return nil
}

// boxText is a box as compact JSON, "" without one.
func boxText[T any](b *T) string {
	if b == nil {
		return ""
	}
	out, _ := annotate.MarshalPlain(*b)
	return string(out)
}

// What pandas' read_csv makes of a TSV's cells, with the defaults VLMEvalKit uses
// (vlmeval/smp/file.py load: pd.read_csv(path, sep='\t')). Modelled on pandas' C
// parser (pandas/_libs/parsers.pyx TextReader, 1.5 and 2.x): and checked against the
// real pandas by TestPandasReads.

// pandasNA are the cells pandas reads as missing (NaN): its STR_NA_VALUES, whole-cell
// and case-sensitive, with "None", which pandas added in 2.0 (VLMEvalKit does not pin
// pandas).
var pandasNA = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true, "-NaN": true, "-nan": true,
	"1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true, "NA": true, "NULL": true, "NaN": true, "n/a": true, "nan": true,
	"null": true, "None": true,
}

// pandasReads is the dtype pandas gives a column of cells read in one chunk,
// following TextReader._convert_tokens: it tries int64, then float64, then bool, and
// keeps the text (object) when none fits every cell that is not an NA token.
//   - int64: every cell is an integer (ASCII space around it and a sign allowed,
//     str_to_int64). An NA token among them makes it float64 (_maybe_upcast). An
//     integer beyond int64 makes it uint64 when every cell fits uint64 and none is
//     negative or missing (_try_uint64), object otherwise.
//   - float64: every cell is a decimal number, with an exponent or not (xstrtod), or
//     inf, +inf, -inf, Infinity, +Infinity, -Infinity in any case (_try_double).
//   - bool: every cell is true or false in any case (_try_bool_flex, to_boolean); with
//     an NA token the column is object holding True, False and NaN.
//   - object: anything else; the cells keep their text.
//
// A column of NA tokens only is float64.
func pandasReads(cells []string) (kind string) {
	_, dtype := pandasInfer(cells, pandasNA)
	return dtype
}

// pandasCell is how one cell arrives.
type pandasCell struct {
	missing bool   // NaN
	str     string // Python's str() of the value pandas made of it
	exact   bool   // false for a float pandas may parse an ulp away from the closest one
}

// pandasInfer is pandasReads with its NA set, also returning the conversion applied
// to the cells: int64, uint64, float64, bool, object, or "raw" (object without NA
// filtering: pandas' fallback when integers beyond int64 meet a negative one or an NA
// token, _convert_tokens' ValueError branch).
func pandasInfer(cells []string, na map[string]bool) (conv, dtype string) {
	missing := false
	for _, c := range cells {
		missing = missing || na[c]
	}
	switch ints := pandasInts(cells, na); {
	case ints == "int64" && missing:
		return "float64", "float64"
	case ints == "raw":
		return "raw", "object"
	case ints != "":
		return ints, ints
	}
	floats, bools := true, true
	for _, c := range cells {
		if !na[c] {
			floats = floats && isFloatText(c)
			bools = bools && (asciiFold(c, "true") || asciiFold(c, "false"))
		}
	}
	switch {
	case floats:
		return "float64", "float64"
	case bools && missing:
		return "bool", "object"
	case bools:
		return "bool", "bool"
	}
	return "object", "object"
}

// pandasInts follows _try_int64 and, when it overflows, _try_uint64, each stopping
// at its first error: "int64"; "uint64"; "object" when a cell is beyond uint64 or
// negative (OverflowError); "raw" when a cell beyond int64 meets a negative or an NA
// cell (uint64_conflict, ValueError: object without NA filtering); "" when a cell is
// not an integer (float64 is tried next).
func pandasInts(cells []string, na map[string]bool) string {
	overflow := false
	for _, c := range cells {
		if na[c] {
			continue
		}
		t := trimASCIISpace(c)
		if !isIntText(t) {
			return ""
		}
		if _, err := strconv.ParseInt(t, 10, 64); err != nil {
			overflow = true
			break
		}
	}
	if !overflow {
		return "int64"
	}
	var seenNull, seenSint, seenUint bool
	for _, c := range cells {
		if na[c] {
			seenNull = true
			continue
		}
		t := trimASCIISpace(c)
		if strings.HasPrefix(t, "-") {
			seenSint = true // str_to_uint64 looks no further
			continue
		}
		t = strings.TrimPrefix(t, "+")
		if !isIntText(t) || t[0] == '+' || t[0] == '-' {
			return ""
		}
		u, err := strconv.ParseUint(t, 10, 64)
		if err != nil {
			return "object"
		}
		seenUint = seenUint || u > math.MaxInt64
	}
	switch {
	case seenUint && (seenSint || seenNull):
		return "raw"
	case seenSint:
		return "object"
	}
	return "uint64"
}

// pandasChunkRows is how many rows pandas' C parser infers types over at a time
// (low_memory=True, the default): TextReader.buffer_lines, the largest power of two
// whose double is below 2**20 // columns (TextReader.__cinit__).
func pandasChunkRows(columns int) int {
	heuristic := (1 << 20) / max(columns, 1)
	n := 1
	for n*2 < heuristic {
		n *= 2
	}
	return n
}

// pandasColumn is how each cell of a column arrives, and the column's dtype, in a file
// of the given number of columns. pandas infers each chunk of pandasChunkRows rows on
// its own and concatenates the chunks (c_parser_wrapper _concatenate_chunks): the same
// dtype stays; numbers of different dtypes become float64; a chunk of text makes the
// column object with each chunk's values as they were converted (an integer chunk
// stays integers: the DtypeWarning case). Bools meeting numbers without text is
// modelled as pandas 1.x does it (numpy coerces the bools to 1 and 0; pandas 2 keeps
// them as objects).
func pandasColumn(cells []string, columns int, na map[string]bool) (dtype string, out []pandasCell) {
	n := pandasChunkRows(columns)
	type chunk struct {
		conv, dtype string
		lo, hi      int
	}
	var chunks []chunk
	dtypes := map[string]bool{}
	for lo := 0; lo < len(cells); lo += n {
		hi := min(lo+n, len(cells))
		conv, dt := pandasInfer(cells[lo:hi], na)
		chunks = append(chunks, chunk{conv, dt, lo, hi})
		dtypes[dt] = true
	}
	out = make([]pandasCell, len(cells))
	for _, ch := range chunks {
		for i := ch.lo; i < ch.hi; i++ {
			out[i] = pandasValue(ch.conv, cells[i], na)
		}
	}
	switch {
	case len(dtypes) <= 1:
		for dt := range dtypes {
			dtype = dt
		}
		return cmp.Or(dtype, "object"), out
	case dtypes["object"]:
		return "object", out
	}
	// Only int64, uint64, float64 and bool: numpy's common type.
	dtype = "int64"
	switch {
	case dtypes["float64"] || dtypes["int64"] && dtypes["uint64"]:
		dtype = "float64"
	case dtypes["uint64"]:
		dtype = "uint64"
	}
	for _, ch := range chunks {
		for i := ch.lo; i < ch.hi; i++ {
			out[i] = pandasCast(out[i], ch.conv, cells[i], dtype)
		}
	}
	return dtype, out
}

// pandasValue is a cell converted as conv converts it.
func pandasValue(conv, cell string, na map[string]bool) pandasCell {
	if conv == "raw" {
		return pandasCell{str: cell, exact: true}
	}
	if na[cell] {
		return pandasCell{missing: true, exact: true}
	}
	t := trimASCIISpace(cell)
	switch conv {
	case "int64":
		v, _ := strconv.ParseInt(t, 10, 64)
		return pandasCell{str: strconv.FormatInt(v, 10), exact: true}
	case "uint64":
		v, _ := strconv.ParseUint(strings.TrimPrefix(t, "+"), 10, 64)
		return pandasCell{str: strconv.FormatUint(v, 10), exact: true}
	case "float64":
		f := pandasFloat(cell)
		return pandasCell{str: pythonFloatStr(f), exact: fastPathFloat(t)}
	case "bool":
		if asciiFold(cell, "true") {
			return pandasCell{str: "True", exact: true}
		}
		return pandasCell{str: "False", exact: true}
	}
	return pandasCell{str: cell, exact: true}
}

// pandasCast is a converted cell cast to a numeric dtype when chunks are concatenated.
func pandasCast(c pandasCell, conv, cell, dtype string) pandasCell {
	if c.missing {
		return c
	}
	if conv == "bool" {
		c.str = map[bool]string{true: "1", false: "0"}[c.str == "True"]
		conv = "int64"
	}
	if dtype == "float64" && conv != "float64" {
		f, _ := strconv.ParseFloat(c.str, 64)
		c.str = pythonFloatStr(f)
	}
	return c
}

// pandasFloat parses a cell isFloatText accepts.
func pandasFloat(cell string) float64 {
	switch strings.ToLower(cell) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1)
	case "-inf", "-infinity":
		return math.Inf(-1)
	}
	f, _ := strconv.ParseFloat(trimASCIISpace(cell), 64) // ±Inf past the range, as pandas
	return f
}

// fastPathFloat reports whether a decimal has at most 15 significant digits and a
// power of ten within ±22: then pandas' precise_xstrtod, which multiplies or divides
// the digits by an exact power of ten, gives the correctly rounded float (Clinger's
// fast path). Beyond it pandas 1.x may land an ulp away.
func fastPathFloat(t string) bool {
	mant, exp, _ := strings.Cut(strings.ToLower(t), "e")
	e := 0
	if exp != "" {
		v, err := strconv.Atoi(exp)
		if err != nil {
			return false
		}
		e = v
	}
	intPart, frac, _ := strings.Cut(strings.TrimLeft(mant, "+-"), ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	e -= len(frac)
	trimmed := strings.TrimRight(digits, "0")
	e += len(digits) - len(trimmed)
	return len(trimmed) <= 15 && (trimmed == "" || e >= -22 && e <= 22)
}

// pythonFloatStr is Python's str() (repr) of a float: the shortest digits that read
// back the same, in fixed notation with at least one decimal when the decimal point
// falls between -4 and 16 digits from the first, else as d.ddde±XX
// (PyOS_double_to_string, format code 'r').
func pythonFloatStr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, exp, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	decpt := e + 1
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			return sign + "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			return sign + digits[:decpt] + "." + digits[decpt:]
		}
	}
	out := digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	esign := "+"
	if e < 0 {
		esign, e = "-", -e
	}
	return fmt.Sprintf("%s%se%s%02d", sign, out, esign, e)
}

// isIntText reports whether t (trimmed) is an optional sign and ASCII digits.
func isIntText(t string) bool {
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// isFloatText reports whether pandas reads cell as a float: ASCII space, a sign,
// digits with at most one decimal point (at least one digit), an optional exponent
// e or E with a sign and digits, ASCII space; or an infinity word as a whole cell.
func isFloatText(cell string) bool {
	switch strings.ToLower(cell) {
	case "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity":
		return true
	}
	t := trimASCIISpace(cell)
	i := 0
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		digits++
	}
	if i < len(t) && t[i] == '.' {
		for i++; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		j := i + 1
		if j < len(t) && (t[j] == '+' || t[j] == '-') {
			j++
		}
		k := j
		for ; k < len(t) && t[k] >= '0' && t[k] <= '9'; k++ {
		}
		if k > j {
			i = k
		}
	}
	return i == len(t)
}

// trimASCIISpace trims what pandas' tokenizer skips around a number: space, \t, \n,
// \v, \f, \r (isspace_ascii).
func trimASCIISpace(s string) string {
	return strings.Trim(s, " \t\n\v\f\r")
}

// asciiFold reports whether s equals word ignoring ASCII case (strcasecmp).
func asciiFold(s, word string) bool {
	if len(s) != len(word) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], word[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}
