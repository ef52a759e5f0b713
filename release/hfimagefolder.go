package release

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
)

// hfImageFolder is a Hugging Face imagefolder: a README.md whose YAML declares the
// splits and column types, and one folder per split with metadata.jsonl and images.
//
// What it follows, in huggingface/datasets @ b7cb10b0 (5.0.2.dev0), compared with the
// tags 3.3.0 and 3.4.0:
//   - data_files.py SPLIT_KEYWORDS and KEYWORDS_IN_DIR_NAME_BASE_PATTERNS (lines
//     43–72): a folder named train, validation or test is that split. So is any
//     folder or file whose name holds a split keyword between separators ("val2017",
//     "test_x.jpg"), which is why the images get neutral names (images/000001.jpg).
//   - packaged_modules/folder_based_builder/folder_based_builder.py
//     _split_generators (lines 180–209): the features pyarrow infers from the first
//     chunk of every split's metadata file must be equal, or loading fails with
//     "have different features". Floats are therefore always written with a
//     fraction (Go writes 12.0 as 12, which pyarrow reads as int64), and Write
//     refuses a release whose splits would still infer different types (see
//     hfCheckTypes).
//   - the same file, _generate_examples (lines 415–441): file_name is relative to the
//     metadata file's folder. From 3.4.0 there is one row per metadata row; up to
//     3.3.x one row per image file, with the rows that share a file_name collapsed.
//     Every row therefore gets its own image file, even when samples share an
//     image.
//   - utils/metadata.py MetadataConfigs.from_dataset_card_data (lines 141–164) and
//     load.py LocalDatasetModuleFactory.get_module (lines 429–515): the README's
//     configs[].data_files and configs[].features apply to load_dataset("<folder>").
//     dataset_info.features, written too for the Hub's viewer, is overridden by the
//     folder builder unless configs[].features is set (builder.py 370–380).
//   - features/features.py Features._from_yaml_list: "list: <type>" reads as a list
//     both in 3.x (a Python list feature) and from 4.0 (List); "list:" over a list of
//     named fields is a list of structs (frames).
//
// Samples of several images (issue 26) follow the same builder at 3.4.0
// (14fb15ade27dd8a2cdc4e5992e8d1b9fd1347f1c, where #7424 added file_names) and at
// b7cb10b0: _split_generators' _set_feature (lines 213–243 at b7cb10b0, 198– at
// 3.4.0) turns a metadata column file_names of type list<string> into images, a
// list of Image features, and file_name of type string into image; _generate_examples'
// set_feature (lines 393–435) fills each from its column, every path relative to the
// metadata file's folder, in the list's order. The columns come from the Arrow
// schema of the whole chunk, so a file whose rows mix file_name and file_names has
// both, and each row misses one: at 3.4.0 os.path.normpath(None) (line 373) raises
// TypeError for the missing file_name, at b7cb10b0 _nested_apply's len(None) (line
// 469) for the missing file_names. And the splits' metadata must type alike. So when a release holds any
// sample of several images, every row of every split is written with file_names
// (a one-image sample as a list of one), and the per-image columns become lists:
// widths, heights, source_images, with image_labels, box_image and frames (one per
// image, video "" when the image is no video frame, so the column types alike in
// every split). Up to 3.3.x datasets knows no file_names ("`file_name` ... must be
// present"): such a release needs datasets 3.4 or later; one without sequences is
// written as before, with file_name.
type hfImageFolder struct{}

func (hfImageFolder) Name() string { return "hf-imagefolder" }

// Holds takes every kind, of one image or several (a row's file_names list).
func (hfImageFolder) Holds(annotate.Sample) bool { return true }

func (hfImageFolder) Layout() string {
	return `README.md declares the splits and column types for datasets.load_dataset("<this folder>"); ` +
		"one folder per split (train, validation, test) holds metadata.jsonl and images/NNNNNN.<ext>, one image file per row " +
		"(an image shared by several samples is written once for each), turned upright so width and height are the stored size; " +
		"file_name is relative to the split folder, source_image is the image's path in the project, objects.bbox is [x, y, width, height] in pixels; " +
		"the other columns are the sample's fields (split is the release's split, empty when unsplit), from which the samples can be read back; " +
		"a release holding samples of several images writes every row with file_names (the images in order, loaded as the images column; datasets 3.4 or later), " +
		"widths, heights, source_images, image_labels, box_image (objects.bbox is in pixels of that image) and frames (one per image, video empty when not a video frame), " +
		"images/NNNNNN-K.<ext> for the K-th image of a row of several"
}

// hfSplitFolders maps a release's split to the folder datasets reads as that split
// (data_files.py SPLIT_KEYWORDS): the folders are named exactly train, validation
// and test; val, valid and dev go to validation. Any other split is refused: a
// folder named after it would be read as part of train, or not at all.
var hfSplitFolders = map[string]string{
	"train": "train", "test": "test",
	"validation": "validation", "val": "validation", "valid": "validation", "dev": "validation",
}

// hfSplitOrder is datasets' DEFAULT_SPLITS order.
var hfSplitOrder = []string{"train", "validation", "test"}

// hfColumns are the metadata columns in order, with their declared features
// (README YAML, one entry per line below the "- name:" line; file_name becomes
// the image column).
var hfColumns = []struct{ name, feature string }{
	{"image", "dtype: image"},
	{"id", "dtype: string"},
	{"kind", "dtype: string"},
	{"question", "dtype: string"},
	{"question_tag", "dtype: string"},
	{"options", "list: string"},
	{"answer", "dtype: string"},
	{"answer_number", "dtype: bool"},
	{"categories", "list: string"},
	{"hop", "dtype: int32"},
	{"view", "dtype: string"},
	{"ego_subject", "dtype: string"},
	{"scene", "dtype: string"},
	{"task", "dtype: string"},
	{"split", "dtype: string"},
	{"parent", "dtype: string"},
	{"width", "dtype: int32"},
	{"height", "dtype: int32"},
	{"source_image", "dtype: string"},
	{"objects", "struct:\n- name: bbox\n  list:\n    list: float64\n- name: category\n  list: string"},
}

// hfSequenceColumns are hfColumns for a release holding a sample of several images:
// file_names becomes the images column (a list of images, datasets 3.4 or later),
// the per-image columns are lists in the images' order, and the sequence's fields
// follow.
var hfSequenceColumns = func() []struct{ name, feature string } {
	out := make([]struct{ name, feature string }, 0, len(hfColumns)+3)
	for _, c := range hfColumns {
		switch c.name {
		case "image":
			c = struct{ name, feature string }{"images", "list: image"}
		case "width", "height", "source_image":
			c.name += "s"
			c.feature = "list: " + strings.TrimPrefix(c.feature, "dtype: ")
		}
		out = append(out, c)
		if c.name == "source_images" {
			out = append(out,
				struct{ name, feature string }{"image_labels", "list: string"},
				struct{ name, feature string }{"box_image", "dtype: int32"},
				struct{ name, feature string }{"frames", "list:\n- name: video\n  dtype: string\n- name: video_sha256\n  dtype: string\n" +
					"- name: duration\n  dtype: float64\n- name: time\n  dtype: float64\n- name: index\n  dtype: int64"})
		}
	}
	return out
}()

// hfFrame is a frames entry: annotate.Frame, or the zero frame (video "") for an
// image that is not a video frame.
type hfFrame struct {
	Video       string  `json:"video"`
	VideoSHA256 string  `json:"video_sha256"`
	Duration    float64 `json:"duration"`
	Time        float64 `json:"time"`
	Index       int     `json:"index"`
}

// hfFrames is the frames column of s: one object per image, in order, floats with a
// fraction so that pyarrow types them double in every split.
func hfFrames(s annotate.Sample) ([]byte, error) {
	n := s.NumImages()
	if len(s.Frames) != 0 && len(s.Frames) != n {
		return nil, fmt.Errorf("%d frames for %d images", len(s.Frames), n)
	}
	b := []byte{'['}
	for i := range n {
		var f annotate.Frame
		if len(s.Frames) > 0 {
			f = s.Frames[i]
		}
		dur, err := floatJSON(f.Duration)
		if err != nil {
			return nil, fmt.Errorf("frame %d duration: %w", i+1, err)
		}
		at, err := floatJSON(f.Time)
		if err != nil {
			return nil, fmt.Errorf("frame %d time: %w", i+1, err)
		}
		obj, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
			o.Value("video", f.Video)
			o.Value("video_sha256", f.VideoSHA256)
			o.Raw("duration", dur)
			o.Raw("time", at)
			o.Value("index", f.Index)
		})
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, obj...)
	}
	return append(b, ']'), nil
}

func (hfImageFolder) Write(_ context.Context, w *Writer, recs []Record) error {
	bySplit := map[string][]Record{}
	from := map[string]string{} // folder → the release's split written there
	for _, r := range recs {
		sp := splitOf(r.Sample)
		folder, ok := hfSplitFolders[sp]
		if !ok {
			return fmt.Errorf("sample %s: split %q has no Hugging Face split: datasets reads only folders named train, validation (from val, valid, dev) and test as splits", r.Sample.ID, sp)
		}
		if prev, ok := from[folder]; ok && prev != sp {
			return fmt.Errorf("splits %q and %q would both be written as the %s split", prev, sp, folder)
		}
		from[folder] = sp
		bySplit[folder] = append(bySplit[folder], r)
	}
	var folders []string
	for _, f := range hfSplitOrder {
		if len(bySplit[f]) > 0 {
			folders = append(folders, f)
		}
	}
	// One sample of several images makes every row of every split a file_names
	// row (see hfImageFolder).
	seq := slices.ContainsFunc(recs, func(r Record) bool { return r.Sample.NumImages() > 1 })
	columns := hfColumns
	if seq {
		columns = hfSequenceColumns
	}
	metadata := map[string][]byte{}
	names := map[string][][]string{}  // folder → the file names of each record's images
	images := map[string][][]Record{} // folder → each record's images (imageRecord)
	for _, folder := range folders {
		var lines bytes.Buffer
		for i, r := range bySplit[folder] {
			s := r.Sample
			ims, err := r.imageRecords()
			if err != nil {
				return err
			}
			var files []string
			for k, ir := range ims {
				name := hfImageName(i, ir.Sample.Image)
				if len(ims) > 1 {
					name = hfSequenceImageName(i, k, ir.Sample.Image)
				}
				files = append(files, name)
			}
			names[folder] = append(names[folder], files)
			images[folder] = append(images[folder], ims)
			var frames []byte
			if seq {
				if frames, err = hfFrames(s); err != nil {
					return fmt.Errorf("sample %s: %w", s.ID, err)
				}
			}
			answer, err := answerString(s)
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			var bboxes []byte
			var categories []string
			if s.Box != nil {
				c := s.Box.ToCOCO()
				if bboxes, err = floatList(c[:]...); err != nil {
					return fmt.Errorf("sample %s: box: %w", s.ID, err)
				}
				bboxes = append(append([]byte("[["), bboxes...), "]]"...)
				categories = []string{ObjectName(s)}
			} else {
				bboxes = []byte("[]")
			}
			objects, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
				o.Raw("bbox", bboxes)
				o.Value("category", orEmpty(categories))
			})
			if err != nil {
				return err
			}
			b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
				if seq {
					o.Value("file_names", files)
				} else {
					o.Value("file_name", files[0])
				}
				o.Value("id", s.ID)
				o.Value("kind", s.Kind)
				o.Value("question", s.Question)
				o.Value("question_tag", s.QuestionTag)
				o.Value("options", orEmpty(s.Options))
				o.Value("answer", answer)
				o.Value("answer_number", s.AnswerNumber)
				o.Value("categories", orEmpty(s.Categories))
				o.Value("hop", s.Hop)
				o.Value("view", s.View)
				o.Value("ego_subject", s.EgoSubject)
				o.Value("scene", s.Scene)
				o.Value("task", s.Task)
				o.Value("split", s.Split)
				o.Value("parent", s.Parent)
				if seq {
					var ws, hs []int
					for _, f := range r.Images() {
						ws, hs = append(ws, f.Width), append(hs, f.Height)
					}
					o.Value("widths", ws)
					o.Value("heights", hs)
					o.Value("source_images", s.AllImages())
					o.Value("image_labels", s.Labels())
					o.Value("box_image", s.BoxImage)
					o.Raw("frames", frames)
				} else {
					o.Value("width", r.Width)
					o.Value("height", r.Height)
					o.Value("source_image", s.Image)
				}
				o.Raw("objects", objects)
			})
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			lines.Write(b)
			lines.WriteByte('\n')
		}
		metadata[folder] = lines.Bytes()
	}
	if err := hfCheckTypes(folders, metadata); err != nil {
		return err
	}
	if err := w.WriteFile("README.md", func(out io.Writer) error {
		_, err := io.WriteString(out, hfReadme(w.Info(), folders, columns))
		return err
	}); err != nil {
		return err
	}
	for _, folder := range folders {
		if err := w.WriteFile(folder+"/metadata.jsonl", func(out io.Writer) error {
			_, err := out.Write(metadata[folder])
			return err
		}); err != nil {
			return err
		}
		for i := range bySplit[folder] {
			for k, ir := range images[folder][i] {
				if err := w.CopyUprightImage(folder+"/"+names[folder][i][k], ir); err != nil {
					return err
				}
			}
			if err := w.Step(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Read reads each split folder's metadata.jsonl (train, validation, test), one
// sample per row, in the order of the rows: kind, question, question_tag, options,
// the answer (the option letter, the text with answer_number, or the step graph's
// SpatiaLQA object, whose steps come back as step1…stepN), categories, hop, view,
// ego_subject, scene, task, split (else the folder's name), parent and the box from
// objects.bbox. Image is source_image, the image's path in the project; a row of a
// release holding samples of several images (file_names) gives the images from
// source_images in order, image_labels (when not the default ones), box_image and
// frames (none when no entry names a video). Columns other than the export's are
// kept in Extra. A row that cannot be read is an error naming its file and line.
func (hfImageFolder) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	var out []annotate.Sample
	found := false
	for _, folder := range hfSplitOrder {
		p := filepath.Join(dir, folder, "metadata.jsonl")
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		found = true
		err = annotate.ReadJSONL(ctxReader{ctx, f}, func(_ int, raw []byte) error {
			s, err := hfSample(raw, folder)
			if err == nil {
				out = append(out, s)
			}
			return err
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
	}
	if !found && !emptyExport(dir, hfImageFolder{}.Name()) {
		return nil, fmt.Errorf("read %s: no train/, validation/ or test/ folder holding metadata.jsonl", dir)
	}
	return out, nil
}

// hfSample is the sample of one metadata row of the split folder.
func hfSample(raw []byte, folder string) (annotate.Sample, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return annotate.Sample{}, errors.New("want a row object")
	}
	var row struct {
		FileName     string              `json:"file_name"`
		FileNames    []string            `json:"file_names"`
		ID           string              `json:"id"`
		Kind         annotate.Kind       `json:"kind"`
		Question     string              `json:"question"`
		QuestionTag  string              `json:"question_tag"`
		Options      []string            `json:"options"`
		Answer       string              `json:"answer"`
		AnswerNumber bool                `json:"answer_number"`
		Categories   []annotate.Category `json:"categories"`
		Hop          int                 `json:"hop"`
		View         annotate.View       `json:"view"`
		EgoSubject   annotate.EgoSubject `json:"ego_subject"`
		Scene        string              `json:"scene"`
		Task         string              `json:"task"`
		Split        *string             `json:"split"`
		Parent       string              `json:"parent"`
		SourceImage  string              `json:"source_image"`
		SourceImages []string            `json:"source_images"`
		ImageLabels  []string            `json:"image_labels"`
		BoxImage     int                 `json:"box_image"`
		Frames       []hfFrame           `json:"frames"`
		Objects      struct {
			BBox [][]float64 `json:"bbox"`
		} `json:"objects"`
	}
	if err := json.Unmarshal(raw, &row); err != nil {
		return annotate.Sample{}, err
	}
	s := annotate.Sample{ID: row.ID, Kind: row.Kind, Image: row.SourceImage, Question: row.Question, QuestionTag: row.QuestionTag,
		Categories: row.Categories, Hop: row.Hop, View: row.View, EgoSubject: row.EgoSubject, Scene: row.Scene, Task: row.Task,
		Split: folder, Parent: row.Parent}
	if s.ID == "" {
		return s, errors.New("the row has no id")
	}
	if row.FileNames != nil {
		// A row of a release holding samples of several images (hfSequenceColumns).
		images := row.SourceImages
		if len(images) == 0 {
			for _, f := range row.FileNames {
				images = append(images, folder+"/"+f)
			}
		}
		switch {
		case len(images) == 0:
			return s, fmt.Errorf("sample %s: file_names lists no image", s.ID)
		case len(images) != len(row.FileNames):
			return s, fmt.Errorf("sample %s: %d source_images for %d file_names", s.ID, len(images), len(row.FileNames))
		case len(images) > annotate.MaxImages:
			return s, fmt.Errorf("sample %s: %d images; a sample shows at most %d", s.ID, len(images), annotate.MaxImages)
		}
		s.SetImages(images)
		if len(row.Frames) != 0 && len(row.Frames) != len(images) {
			return s, fmt.Errorf("sample %s: %d frames for %d images", s.ID, len(row.Frames), len(images))
		}
		if slices.ContainsFunc(row.Frames, func(f hfFrame) bool { return f.Video != "" }) {
			for _, f := range row.Frames {
				s.Frames = append(s.Frames, annotate.Frame(f))
			}
		}
		if labels := row.ImageLabels; len(labels) > 0 && !slices.Equal(labels, annotate.DefaultLabels(len(images), s.Modality() == annotate.ModalityVideo)) {
			s.ImageLabels = labels
		}
		s.BoxImage = row.BoxImage
	}
	if s.Image == "" {
		s.Image = folder + "/" + row.FileName
	}
	if row.Split != nil {
		s.Split = *row.Split
	}
	if len(row.Options) > 0 {
		s.Options = row.Options
	}
	if len(s.Categories) == 0 {
		s.Categories = nil
	}
	switch {
	case !s.Kind.Valid():
		return s, fmt.Errorf("sample %s: kind %q is not a sample kind", s.ID, s.Kind)
	case s.Kind.IndexAnswer():
		i, ok := letterIndex(row.Answer)
		if !ok || i >= len(s.Options) {
			return s, fmt.Errorf("sample %s: answer %q is not the letter of one of its %d options", s.ID, row.Answer, len(s.Options))
		}
		s.AnswerIndex = i
	case s.Kind == annotate.KindStepGraph:
		steps, err := parseStepsObject([]byte(row.Answer))
		if err != nil {
			return s, fmt.Errorf("sample %s: answer: %w", s.ID, err)
		}
		s.Steps = steps
	default:
		s.AnswerText, s.AnswerNumber = row.Answer, row.AnswerNumber
	}
	switch len(row.Objects.BBox) {
	case 0:
	case 1:
		c := row.Objects.BBox[0]
		if len(c) != 4 {
			return s, fmt.Errorf("sample %s: objects.bbox holds %d numbers, not [x, y, width, height]", s.ID, len(c))
		}
		b := annotate.BoxFromCOCO([4]float64(c))
		s.Box = &b
	default:
		return s, fmt.Errorf("sample %s: %d boxes; a sample has one", s.ID, len(row.Objects.BBox))
	}
	for k, v := range obj {
		isColumn := func(c struct{ name, feature string }) bool { return c.name == k }
		if !slices.ContainsFunc(hfColumns, isColumn) && !slices.ContainsFunc(hfSequenceColumns, isColumn) && k != "file_name" && k != "file_names" {
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[k] = v
		}
	}
	return s, nil
}

// letterIndex is the option index of an answer as AnswerLetter writes it: A to Z,
// or the number from the 27th option on.
func letterIndex(a string) (int, bool) {
	if len(a) == 1 && a[0] >= 'A' && a[0] <= 'Z' {
		return int(a[0] - 'A'), true
	}
	i, err := strconv.Atoi(a)
	return i, err == nil && i >= 26
}

// parseStepsObject reads a SpatiaLQA answer object {"step1": {"content": ...,
// "precondition": [...]}, ...} as stepsObject writes it, the steps in the object's
// order.
func parseStepsObject(b []byte) ([]annotate.Step, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a SpatiaLQA answer object")
	}
	var steps []annotate.Step
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var st struct {
			Content      string   `json:"content"`
			Precondition []string `json:"precondition"`
		}
		if err := dec.Decode(&st); err != nil {
			return nil, fmt.Errorf("step %v: %w", tok, err)
		}
		steps = append(steps, annotate.Step{ID: tok.(string), Content: st.Content, Precondition: orEmpty(st.Precondition)})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return steps, nil
}

// hfImageName is the file of the i-th row of a split: images/NNNNNN plus the
// image's extension, lower-cased. Digits hold no split keyword, so neither
// data_files.py's folder nor its file-name patterns can mistake it for a split; an
// extension that is not short letters and digits, or is .eval (data_files.py reads
// **/*.eval as a "logs" split before anything else), is left off.
func hfImageName(i int, image string) string {
	ext := strings.ToLower(path.Ext(image))
	if !imageExt.MatchString(ext) || ext == ".eval" {
		ext = ""
	}
	return fmt.Sprintf("images/%06d%s", i+1, ext)
}

var imageExt = regexp.MustCompile(`^\.[a-z0-9]{1,5}$`)

// hfSequenceImageName is the file of the k-th image (0-based) of the i-th row of a
// split when the row shows several: images/NNNNNN-K plus the extension as
// hfImageName writes it, digits and a dash only.
func hfSequenceImageName(i, k int, image string) string {
	base := hfImageName(i, image)
	ext := path.Ext(base)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(base, ext), k+1, ext)
}

// hfReadme is the dataset card: YAML front matter with the splits' data_files and the
// column types (configs[].features, which load_dataset("<folder>") applies, and
// dataset_info.features for the Hub), then how to load it.
func hfReadme(info ExportInfo, folders []string, columns []struct{ name, feature string }) string {
	seq := len(columns) > 0 && columns[0].name == "images"
	var features strings.Builder
	for _, c := range columns {
		features.WriteString("- name: " + c.name + "\n")
		for _, l := range strings.Split(c.feature, "\n") {
			features.WriteString("  " + l + "\n")
		}
	}
	indent := func(s, pad string) string {
		return pad + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+pad) + "\n"
	}
	var b strings.Builder
	b.WriteString("---\nconfigs:\n- config_name: default\n  data_files:")
	if len(folders) == 0 {
		b.WriteString(" []")
	}
	b.WriteString("\n")
	for _, f := range folders {
		fmt.Fprintf(&b, "  - split: %s\n    path: \"%s/**\"\n", f, f)
	}
	b.WriteString("  features:\n")
	b.WriteString(indent(features.String(), "  "))
	b.WriteString("dataset_info:\n  config_name: default\n  features:\n")
	b.WriteString(indent(features.String(), "  "))
	b.WriteString("---\n\n")
	rel := info.Release
	title := strings.TrimSpace(rel.Name + " " + rel.Version)
	if title == "" {
		title = "Benchwright release"
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	b.WriteString("A Benchwright release exported as a Hugging Face imagefolder: one row per sample.\n\n")
	b.WriteString("```python\nfrom datasets import load_dataset\nds = load_dataset(\"path/to/this/folder\")\n```\n\n")
	b.WriteString("Load the folder itself: `load_dataset(\"imagefolder\", data_dir=...)` ignores this card and its column types.\n")
	b.WriteString("Images are stored upright (EXIF orientation applied), so `width` and `height` are the stored size and\n")
	b.WriteString("`objects.bbox` ([x, y, width, height] in pixels) is drawn on it. `answer` is the option letter, the text answer,\n")
	b.WriteString("or for a step graph the SpatiaLQA answer object as JSON; `answer_number` marks an open answer that is a number.\n")
	b.WriteString("`source_image` is the image's path in the project: samples that share it share an image. `split` is the\n")
	b.WriteString("release's split, empty when the release is unsplit (its samples are in the test folder).\n")
	if seq {
		b.WriteString("\nSome samples show several images: every row lists its images in order in `file_names`, loaded as the\n")
		b.WriteString("`images` column (a list of images; needs `datasets` 3.4 or later). `widths`, `heights` and `source_images`\n")
		b.WriteString("follow the same order, `image_labels` names each image as the question does, `objects.bbox` is drawn on\n")
		b.WriteString("image `box_image` (0 is the first), and `frames` says for each image which video frame it is (`video` empty\n")
		b.WriteString("when it is none).\n")
	}
	return b.String()
}

// floatList writes numbers as a comma-separated JSON list body, each with a fraction
// ("12.0", never "12"), so that pyarrow reads every one as a double; never an
// exponent. NaN and infinities are refused.
func floatList(vs ...float64) ([]byte, error) {
	var b []byte
	for i, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%v is not a number JSON can hold", v)
		}
		if i > 0 {
			b = append(b, ',')
		}
		start := len(b)
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
		if !bytes.ContainsRune(b[start:], '.') {
			b = append(b, ".0"...)
		}
	}
	return b, nil
}

// floatJSON is one number as floatList writes it.
func floatJSON(v float64) ([]byte, error) { return floatList(v) }

// hfChunk is how much of a metadata.jsonl datasets hands pyarrow at once
// (folder_based_builder.py _read_metadata: 10 MB, then the rest of the line).
const hfChunk = 10 << 20

// hfCheckTypes refuses metadata whose types pyarrow would infer differently in two
// splits, or as timestamps. It follows pyarrow.json's documented inference (null
// falls back to any type, int64 to double, a "YYYY-MM-DD[ hh:mm:ss]" string is a
// timestamp unless another value of the column is not) over each chunk datasets
// reads: the first chunk of every split must agree (folder_based_builder.py
// _split_generators compares them), and no chunk may hold a column of dates, which
// datasets would hand on as datetimes and print back differently. Only an empty list
// in every row of a split (say, no sample with options) or text that is all dates
// can trip it: floats are always written with a fraction.
func hfCheckTypes(folders []string, metadata map[string][]byte) error {
	first := map[string]*arrowType{}
	for _, folder := range folders {
		data := metadata[folder]
		for start, n := 0, 0; start < len(data); n++ {
			end := min(start+hfChunk, len(data))
			if end < len(data) {
				if nl := bytes.IndexByte(data[end:], '\n'); nl >= 0 {
					end += nl + 1
				} else {
					end = len(data)
				}
			}
			t, err := inferArrowRows(data[start:end])
			if err != nil {
				return fmt.Errorf("%s/metadata.jsonl: %w", folder, err)
			}
			if n == 0 {
				first[folder] = t
			}
			for _, f := range t.fields {
				if f.t.has(arrowTimestamp) {
					return fmt.Errorf("%s split: every %s value of a chunk of metadata.jsonl reads as a date, which pyarrow types %s and datasets hands on as a datetime, not the text: use another format", folder, f.name, f.t)
				}
			}
			start = end
		}
	}
	for _, folder := range folders[min(1, len(folders)):] {
		a, b := first[folders[0]], first[folder]
		for _, f := range unifyArrow(a, b).fields {
			fa, fb := a.field(f.name), b.field(f.name)
			if fa.String() != fb.String() {
				return fmt.Errorf("the %s and %s splits would type column %s as %s and %s, and datasets refuses splits whose metadata types differ "+
					"(folder_based_builder.py _split_generators); a list that is empty in every row of a split is the cause: "+
					"give every split a sample with %s, or use another format", folders[0], folder, f.name, fa, fb, f.name)
			}
		}
	}
	return nil
}

// arrowType is a type as pyarrow.json infers it.
type arrowType struct {
	kind   arrowKind
	elem   *arrowType   // a list's
	fields []arrowField // a struct's, in order of appearance
}

type arrowField struct {
	name string
	t    *arrowType
}

type arrowKind int

const (
	arrowNull arrowKind = iota
	arrowBool
	arrowInt
	arrowDouble
	arrowTimestamp
	arrowString
	arrowList
	arrowStruct
	arrowConflict
)

func (t *arrowType) String() string {
	switch t.kind {
	case arrowList:
		return "list<" + t.elem.String() + ">"
	case arrowStruct:
		parts := make([]string, len(t.fields))
		for i, f := range t.fields {
			parts[i] = f.name + ": " + f.t.String()
		}
		return "struct<" + strings.Join(parts, ", ") + ">"
	}
	return [...]string{"null", "bool", "int64", "double", "timestamp[s]", "string", "", "", "conflict"}[t.kind]
}

// field is the type of a struct's field name, null when it has none.
func (t *arrowType) field(name string) *arrowType {
	for _, f := range t.fields {
		if f.name == name {
			return f.t
		}
	}
	return &arrowType{kind: arrowNull}
}

// has reports whether t or a type inside it is of kind k.
func (t *arrowType) has(k arrowKind) bool {
	if t.kind == k {
		return true
	}
	if t.elem != nil && t.elem.has(k) {
		return true
	}
	for _, f := range t.fields {
		if f.t.has(k) {
			return true
		}
	}
	return false
}

// inferArrowRows is the struct type of JSON lines.
func inferArrowRows(data []byte) (*arrowType, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	t := &arrowType{kind: arrowStruct}
	for {
		var row map[string]any
		err := dec.Decode(&row)
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, err
		}
		// A map has no key order: fields come sorted, the same in every split.
		t = unifyArrow(t, inferArrow(row))
	}
}

var dateLike = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$`)

// inferArrow is the type pyarrow.json gives one JSON value.
func inferArrow(v any) *arrowType {
	switch v := v.(type) {
	case nil:
		return &arrowType{kind: arrowNull}
	case bool:
		return &arrowType{kind: arrowBool}
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return &arrowType{kind: arrowDouble}
		}
		return &arrowType{kind: arrowInt}
	case string:
		if dateLike.MatchString(v) {
			layout := "2006-01-02 15:04:05"
			if _, err := time.Parse(layout[:len(v)], v); err == nil {
				return &arrowType{kind: arrowTimestamp}
			}
		}
		return &arrowType{kind: arrowString}
	case []any:
		t := &arrowType{kind: arrowList, elem: &arrowType{kind: arrowNull}}
		for _, e := range v {
			t.elem = unifyArrow(t.elem, inferArrow(e))
		}
		return t
	case map[string]any:
		t := &arrowType{kind: arrowStruct}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.fields = append(t.fields, arrowField{k, inferArrow(v[k])})
		}
		return t
	}
	return &arrowType{kind: arrowConflict}
}

// unifyArrow is the type of a column holding values of types a and b: null gives way
// to anything, int64 to double, timestamp to string; lists and structs unify inside.
func unifyArrow(a, b *arrowType) *arrowType {
	switch {
	case a.kind == arrowNull:
		return b
	case b.kind == arrowNull:
		return a
	case a.kind == b.kind && a.kind == arrowList:
		return &arrowType{kind: arrowList, elem: unifyArrow(a.elem, b.elem)}
	case a.kind == b.kind && a.kind == arrowStruct:
		t := &arrowType{kind: arrowStruct, fields: slices.Clone(a.fields)}
		for _, f := range b.fields {
			i := slices.IndexFunc(t.fields, func(g arrowField) bool { return g.name == f.name })
			if i < 0 {
				t.fields = append(t.fields, f)
			} else {
				t.fields[i].t = unifyArrow(t.fields[i].t, f.t)
			}
		}
		return t
	case a.kind == b.kind:
		return a
	case min(a.kind, b.kind) == arrowInt && max(a.kind, b.kind) == arrowDouble:
		return &arrowType{kind: arrowDouble}
	case min(a.kind, b.kind) == arrowTimestamp && max(a.kind, b.kind) == arrowString:
		return &arrowType{kind: arrowString}
	}
	return &arrowType{kind: arrowConflict}
}
