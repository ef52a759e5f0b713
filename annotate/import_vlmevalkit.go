package annotate

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchwright/benchwright/imagefile"
)

// VLMEvalKitOptions configures ImportVLMEvalKitTSV.
type VLMEvalKitOptions struct {
	// Folder is the slash-separated folder the extracted images are named under,
	// relative to the folder they will be imported from: "<Folder>/<index>.png".
	// Empty means "vlmevalkit".
	Folder string
}

// vlmMissing are the cells pandas' read_csv reads as missing (NaN) with the
// defaults VLMEvalKit loads a TSV with (vlmeval/smp/file.py load_tsv: read_csv(f,
// sep='\t')): whole cells, case-sensitive. "None" is one from pandas 2.0 on.
var vlmMissing = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "n/a": true, "nan": true, "null": true, "None": true,
}

// vlmRefMax is the longest image cell VLMEvalKit takes for the index of the row
// holding the image rather than for base64 (ImageBaseDataset.__init__).
const vlmRefMax = 64

var integerCell = regexp.MustCompile(`^[+-]?[0-9]+$`)

// ImportVLMEvalKitTSV converts a VLMEvalKit MCQ TSV, read as VLMEvalKit reads it
// (pandas read_csv with sep='\t' and its defaults: a cell in double quotes may hold
// tabs and newlines, a quote inside it is doubled; files written by VLMEvalKit's
// dump_tsv quote every cell). The first row names the columns:
//
//   - index (required): the row's key. When every index is an integer it is read as
//     one ("007" is 7), as pandas does.
//   - image: the image as base64, or, when the cell is 1 to 64 characters long, the
//     index of the row that holds it. A JPEG, PNG or WebP is required. A cell in
//     brackets is a Python list of base64 images, ['…', '…'], as VLMEvalKit's
//     toliststr reads it: the sample shows them in that order (a sample of several
//     images); a reference then stands for the whole list.
//   - image_path: with an image, the file name VLMEvalKit saves it under (used for
//     the extracted file when it is a safe relative path with the right ending), a
//     list of names for a list of images; without an image column, the sample's
//     image path as it is, or a list of paths.
//   - question (required), hint (kept in Extra).
//   - A, B, … Z: the options, the non-empty cells in letter order; a missing letter
//     before a present one is an error.
//   - answer (required): with options, the letter of the correct one (mcq); without,
//     Yes or No (judgment, any case) or any other text (open).
//   - category: the sample's task; l2-category and other columns are kept in Extra;
//     split: "train" and "test" are the sample's split, other values kept in Extra.
//   - id: the sample id; default "vlm-<index>".
//   - kind, hop, view, bbox, categories: the columns Benchwright's own export adds
//     (release/vlmevalkit.go). A row whose kind is filled is read back as the sample
//     it was: its kind (hop_qa rather than mcq), hop, view, box (bbox: pixel
//     [x1, y1, x2, y2] as JSON; bbox_1000 is then left out), categories ("att+pos")
//     and split, whatever its value. Its category is the task unless it is what the
//     export writes for a sample without one: the kind, or on a hop_qa row its
//     categories (without a categories column: a category made of att, pos and rel
//     only). An l2-category that follows from these columns is left out of Extra.
//     source_image, the image's path in the project, is kept in Extra. A file with
//     samples of several images adds image_labels (JSON list), box_image and frames
//     (JSON), read into the sample.
//
// A cell pandas would read as missing (empty, "NA", "N/A", "null", "NaN", "None", …)
// in index, question or answer, or standing for an option, is an error: VLMEvalKit
// would not see the text. A row whose image cell is missing is reported too:
// VLMEvalKit drops such rows.
//
// Each extracted image is returned once in images, keyed by the path the samples
// name: "<Folder>/<image_path>" or "<Folder>/<index>.<jpg|png|webp>" (the ending
// from the file's content); rows holding the same image share one path. A row that
// cannot be converted is returned as a RecordError with its 0-based row index and the
// line it starts on; the others are kept. err is for a file that cannot be read as a
// TSV with the required columns.
func ImportVLMEvalKitTSV(r io.Reader, opt VLMEvalKitOptions) (samples []Imported, images map[string][]byte, bad []RecordError, err error) {
	folder := strings.Trim(cmp.Or(opt.Folder, "vlmevalkit"), "/")
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.Comma = '\t'
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, nil, errors.New("line 1: the file is empty; want a header row naming the columns (index, image, question, A, B, …, answer)")
	}
	if err != nil {
		return nil, nil, nil, tsvFileError(err)
	}
	t := &vlmTable{cols: map[string]int{}, folder: folder}
	for i, name := range header {
		if !utf8.ValidString(name) {
			return nil, nil, nil, fmt.Errorf("line 1: column %d: the name is not UTF-8; save the file as UTF-8", i+1)
		}
		if _, dup := t.cols[name]; dup {
			return nil, nil, nil, fmt.Errorf("line 1: column %q appears twice", name)
		}
		t.cols[name] = i
		t.names = append(t.names, name)
	}
	var missingCols []string
	for _, name := range []string{"index", "question", "answer"} {
		if _, ok := t.cols[name]; !ok {
			missingCols = append(missingCols, name)
		}
	}
	_, t.hasImage = t.cols["image"]
	if _, ok := t.cols["image_path"]; !ok && !t.hasImage {
		missingCols = append(missingCols, "image (or image_path)")
	}
	if len(missingCols) > 0 {
		return nil, nil, nil, fmt.Errorf("line 1: the header has no column %s; a VLMEvalKit MCQ TSV has index, image, question, A, B, …, answer", strings.Join(missingCols, ", "))
	}

	for {
		cells, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		row := &vlmRow{pos: len(t.rows), cells: cells}
		var pe *csv.ParseError
		switch {
		case errors.As(err, &pe) && (errors.Is(err, csv.ErrBareQuote) || errors.Is(err, csv.ErrQuote)):
			row.line, row.err = pe.StartLine, quoteError(pe)
		case err != nil:
			return nil, nil, nil, tsvFileError(err)
		default:
			row.line, _ = cr.FieldPos(0)
			if len(cells) > len(header) {
				row.err = fmt.Errorf("the row has %d cells, the header %d; pandas refuses such a file", len(cells), len(header))
			}
		}
		for i, c := range cells {
			if row.err == nil && !utf8.ValidString(c) {
				row.err = fmt.Errorf("%s: byte %d of the cell is not UTF-8; save the file as UTF-8", t.colName(i), firstInvalidUTF8([]byte(c))+1)
			}
		}
		t.rows = append(t.rows, row)
	}
	t.readIndexes()
	t.extractImages()

	used := map[string]*vlmRow{}
	images = map[string][]byte{}
	for _, row := range t.rows {
		s, err := t.convert(row)
		if err == nil {
			if e := CheckID(s.ID); e != nil {
				err = fmt.Errorf("id: %w", e)
			} else if first, dup := used[s.ID]; dup {
				err = fmt.Errorf("id %q is already used by row %d (line %d)", s.ID, first.pos+1, first.line)
			}
		}
		if err != nil {
			bad = append(bad, RecordError{Index: row.pos, Line: row.line, Err: err})
			continue
		}
		used[s.ID] = row
		for _, img := range t.imageOf(row) {
			images[img.path] = img.data
		}
		samples = append(samples, Imported{Line: row.line, Sample: s})
	}
	return samples, images, bad, nil
}

// vlmTable is a TSV being converted.
type vlmTable struct {
	names    []string
	cols     map[string]int
	rows     []*vlmRow
	hasImage bool
	folder   string
	byIndex  map[string]*vlmRow // the first row of each index
	byPath   map[string]*vlmImage
	bySum    map[[32]byte]*vlmImage
}

type vlmRow struct {
	pos   int // 0-based among the data rows
	line  int
	cells []string
	err   error // the row could not be read

	index    string
	imgs     []*vlmImage // the images the row holds itself: one, or a list in order
	imgErr   error
	refIndex string // a short image cell: the index of the row holding the image
}

type vlmImage struct {
	path string
	data []byte
	sum  [32]byte
}

func (t *vlmTable) colName(i int) string {
	if i < len(t.names) {
		return t.names[i]
	}
	return fmt.Sprintf("column %d", i+1)
}

// cell is the text of column name in row, and whether the column is there and the
// cell is not one pandas reads as missing.
func (t *vlmTable) cell(row *vlmRow, name string) (string, bool) {
	i, ok := t.cols[name]
	if !ok || i >= len(row.cells) {
		return "", false
	}
	c := row.cells[i]
	return c, !vlmMissing[c]
}

// missingCell says why a required cell is missing.
func missingCell(name, text string) error {
	if text == "" {
		return fmt.Errorf("%s: the cell is empty", name)
	}
	since := ""
	if text == "None" {
		since = " (pandas 2.0 and later)"
	}
	return fmt.Errorf("%s: VLMEvalKit would read this as missing: pandas takes the cell %q for no value%s", name, text, since)
}

// readIndexes sets each row's index, as VLMEvalKit sees it: integers when every
// index is one.
func (t *vlmTable) readIndexes() {
	allInts := true
	for _, row := range t.rows {
		if v, ok := t.cell(row, "index"); ok && !integerCell.MatchString(v) {
			allInts = false
		}
	}
	t.byIndex = map[string]*vlmRow{}
	for _, row := range t.rows {
		v, ok := t.cell(row, "index")
		if !ok || row.err != nil {
			continue
		}
		if n, err := strconv.ParseInt(v, 10, 64); allInts && err == nil {
			v = strconv.FormatInt(n, 10)
		}
		row.index = v
		if _, dup := t.byIndex[v]; !dup {
			t.byIndex[v] = row
		}
	}
}

// extractImages decodes the image of every row that holds one and names its file.
func (t *vlmTable) extractImages() {
	t.byPath, t.bySum = map[string]*vlmImage{}, map[[32]byte]*vlmImage{}
	if !t.hasImage {
		return
	}
	for _, row := range t.rows {
		if row.err != nil {
			continue
		}
		cell, ok := t.cell(row, "image")
		cells := []string{cell}
		switch {
		case !ok:
			row.imgErr = vlmNoImage(cell)
			continue
		case utf8.RuneCountInString(cell) <= vlmRefMax:
			row.refIndex = cell
			continue
		case len(cell) > 1 && cell[0] == '[' && cell[len(cell)-1] == ']':
			// A list of images, as VLMEvalKit's toliststr reads it (vlmeval/smp/misc.py:
			// a cell in brackets is eval()ed), each saved by dump_image under the name
			// at its position in image_path (vlmeval/dataset/image_base.py).
			list, err := pythonStrings(cell)
			switch {
			case err != nil:
				row.imgErr = fmt.Errorf("image: the cell is in brackets, so VLMEvalKit reads it as a Python list, but %v", err)
			case len(list) == 0:
				row.imgErr = errors.New("image: the cell is an empty list; VLMEvalKit would show no image")
			case len(list) > MaxImages:
				row.imgErr = fmt.Errorf("image: the cell lists %d images; a sample shows at most %d", len(list), MaxImages)
			}
			if row.imgErr != nil {
				continue
			}
			cells = list
		}
		names := t.imagePaths(row, len(cells))
		var imgs []*vlmImage
		for k, c := range cells {
			data, format, err := decodeImageCell(c)
			if err != nil {
				if len(cells) > 1 {
					err = fmt.Errorf("image %d of the list: %w", k+1, err)
				}
				row.imgErr = fmt.Errorf("image: %w", err)
				break
			}
			sum := sha256.Sum256(data)
			if img, ok := t.bySum[sum]; ok {
				imgs = append(imgs, img)
				continue
			}
			img := &vlmImage{path: t.imagePath(row, names[k], k, len(cells), format), data: data, sum: sum}
			t.bySum[sum], t.byPath[img.path] = img, img
			imgs = append(imgs, img)
		}
		if row.imgErr == nil {
			row.imgs = imgs
		}
	}
}

// imagePaths are the names image_path gives a row's n images: its text for one
// image, the items of its list (toliststr) for several, "" where it names none.
func (t *vlmTable) imagePaths(row *vlmRow, n int) []string {
	out := make([]string, n)
	p, ok := t.cell(row, "image_path")
	if !ok {
		return out
	}
	if len(p) > 1 && p[0] == '[' && p[len(p)-1] == ']' {
		if list, err := pythonStrings(p); err == nil && len(list) == n {
			copy(out, list)
		}
		return out
	}
	if n == 1 {
		out[0] = p
	}
	return out
}

// pythonStrings reads a Python list literal of strings, ['a', "b"], as eval() does
// for the cells VLMEvalKit writes (toliststr): quoted strings separated by commas,
// with backslash escapes of a quote or a backslash.
func pythonStrings(cell string) ([]string, error) {
	rest := strings.TrimSpace(cell[1 : len(cell)-1])
	var out []string
	for rest != "" {
		q := rest[0]
		if q != '\'' && q != '"' {
			return nil, fmt.Errorf("item %d is not a quoted string", len(out)+1)
		}
		var b strings.Builder
		i := 1
		for ; i < len(rest) && rest[i] != q; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
			}
			b.WriteByte(rest[i])
		}
		if i >= len(rest) {
			return nil, fmt.Errorf("item %d has no closing quote", len(out)+1)
		}
		out = append(out, b.String())
		rest = strings.TrimSpace(rest[i+1:])
		if rest == "" {
			break
		}
		if rest[0] != ',' {
			return nil, fmt.Errorf("item %d is not followed by a comma", len(out))
		}
		rest = strings.TrimSpace(rest[1:])
	}
	return out, nil
}

func vlmNoImage(cell string) error {
	if cell == "" {
		return errors.New("image: the cell is empty; VLMEvalKit drops rows without an image")
	}
	return fmt.Errorf("image: pandas takes the cell %q for no value; VLMEvalKit drops rows without an image", cell)
}

// imageExt is the file ending of each image format image.DecodeConfig names.
var imageExt = map[string]string{"jpeg": "jpg", "png": "png", "webp": "webp"}

// imagePath names image k of a row's n extracted images: its image_path name p when
// it is a safe relative path whose ending fits the content, else <index>.<ext> (one
// image) or <index>_<k>.<ext> (several, as dump_image names them); a path already
// taken by another image gets a -2, -3, … suffix.
func (t *vlmTable) imagePath(row *vlmRow, p string, k, n int, format string) string {
	ext := imageExt[format]
	name := ""
	if safeImagePath(p) && extFits(path.Ext(p), format) {
		name = p
	}
	if name == "" {
		stem := row.index
		if stem == "" || !isIDText(stem) {
			stem = fmt.Sprintf("row%d", row.pos+1)
		}
		if n > 1 {
			stem += "_" + strconv.Itoa(k)
		}
		name = stem + "." + ext
	}
	p = t.folder + "/" + name
	if t.folder == "" {
		p = name
	}
	stem, dotExt := strings.TrimSuffix(p, path.Ext(p)), path.Ext(p)
	for k := 2; t.byPath[p] != nil; k++ {
		p = fmt.Sprintf("%s-%d%s", stem, k, dotExt)
	}
	return p
}

func extFits(ext, format string) bool {
	switch strings.ToLower(ext) {
	case ".jpg", ".jpeg":
		return format == "jpeg"
	case ".png":
		return format == "png"
	case ".webp":
		return format == "webp"
	}
	return false
}

// safeImagePath reports whether p can name a file below the import folder as it
// is: relative, clean, no "..", no hidden file or folder (an image import skips
// those), no backslash and no control character.
func safeImagePath(p string) bool {
	if p == "" || len(p) > 255 || path.IsAbs(p) || path.Clean(p) != p || strings.ContainsAny(p, "\\:") {
		return false
	}
	for _, r := range p {
		if r < ' ' || r == 0x7f {
			return false
		}
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || strings.HasPrefix(part, ".") || strings.TrimSpace(part) != part {
			return false
		}
	}
	return true
}

// isIDText reports whether s holds only characters a sample id may hold.
func isIDText(s string) bool {
	for i := 0; i < len(s); i++ {
		if !idByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// decodeImageCell decodes a base64 image cell and checks that it holds a JPEG, PNG
// or WebP header.
func decodeImageCell(cell string) ([]byte, string, error) {
	space := func(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }
	clean := strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && space(byte(r)) {
			return -1
		}
		return r
	}, cell)
	data, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		var ce base64.CorruptInputError
		if !errors.As(err, &ce) {
			return nil, "", fmt.Errorf("the cell is not base64: %v", err)
		}
		// The offset in the cell: the characters kept before the bad one, and the
		// white space between them.
		at, kept := 0, int64(0)
		for at < len(cell) && (kept < int64(ce) || space(cell[at])) {
			if !space(cell[at]) {
				kept++
			}
			at++
		}
		if at >= len(cell) {
			return nil, "", errors.New("the cell is not base64: it ends too early or lacks its = padding")
		}
		return nil, "", fmt.Errorf("the cell is not base64 (character %d, %q)", utf8.RuneCountInString(cell[:at])+1, []rune(cell[at:])[0])
	}
	_, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || imageExt[format] == "" {
		return nil, "", fmt.Errorf("the decoded file is %s, not a JPEG, PNG or WebP image", sniffKind(data))
	}
	if format == "jpeg" {
		if o := imagefile.Orientation(data); o > 1 {
			return nil, "", fmt.Errorf("the JPEG's EXIF orientation is %d: VLMEvalKit shows the pixels as stored, Benchwright turns them upright, "+
				"so left and right would differ; save the image upright without the orientation tag", o)
		}
	}
	return data, format, nil
}

// sniffKind names what a decoded image cell holds, for messages.
func sniffKind(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("GIF8")):
		return "a GIF"
	case bytes.HasPrefix(b, []byte("BM")):
		return "a BMP"
	case bytes.HasPrefix(b, []byte("II*\x00")), bytes.HasPrefix(b, []byte("MM\x00*")):
		return "a TIFF"
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8}):
		return "a JPEG with a broken header"
	case bytes.HasPrefix(b, []byte("\x89PNG")):
		return "a PNG with a broken header"
	case len(b) == 0:
		return "empty"
	}
	return "not an image this reader knows"
}

// imageOf is the images row shows, its own or those of the row its image cell
// refers to.
func (t *vlmTable) imageOf(row *vlmRow) []*vlmImage {
	if row.imgs != nil {
		return row.imgs
	}
	if target := t.byIndex[row.refIndex]; row.refIndex != "" && target != nil {
		return target.imgs
	}
	return nil
}

// imagePathsOf are the paths of imgs, in order.
func imagePathsOf(imgs []*vlmImage) []string {
	out := make([]string, len(imgs))
	for i, img := range imgs {
		out[i] = img.path
	}
	return out
}

// convert turns one row into a sample.
func (t *vlmTable) convert(row *vlmRow) (Sample, error) {
	if row.err != nil {
		return Sample{}, row.err
	}
	var errs []error
	s := Sample{}
	index, ok := t.cell(row, "index")
	if !ok {
		errs = append(errs, missingCell("index", index))
	} else if first := t.byIndex[row.index]; first != row {
		errs = append(errs, fmt.Errorf("index: %s is already the index of row %d (line %d)", row.index, first.pos+1, first.line))
	}

	// The image.
	if t.hasImage {
		switch {
		case row.imgErr != nil:
			errs = append(errs, row.imgErr)
		case row.imgs != nil:
			s.SetImages(imagePathsOf(row.imgs))
		default:
			target := t.byIndex[row.refIndex]
			switch {
			case target == nil:
				errs = append(errs, fmt.Errorf("image: the cell %q is short, so VLMEvalKit takes it for the index of the row holding the image, and no readable row has that index", row.refIndex))
			case target.err != nil:
				errs = append(errs, fmt.Errorf("image: the cell refers to row %d (line %d), which cannot be read", target.pos+1, target.line))
			case target.refIndex != "":
				errs = append(errs, fmt.Errorf("image: the cell refers to row %d (line %d), which holds no image of its own but refers to another row", target.pos+1, target.line))
			case target.imgErr != nil:
				errs = append(errs, fmt.Errorf("image: the cell refers to row %d (line %d), whose image cannot be used", target.pos+1, target.line))
			default:
				s.SetImages(imagePathsOf(target.imgs))
			}
		}
	} else if p, ok := t.cell(row, "image_path"); ok {
		s.Image = p
		if len(p) > 1 && p[0] == '[' && p[len(p)-1] == ']' {
			// Paths only, as toliststr reads them (dump_image without an image column).
			list, err := pythonStrings(p)
			switch {
			case err != nil:
				errs = append(errs, fmt.Errorf("image_path: the cell is in brackets, so VLMEvalKit reads it as a Python list, but %v", err))
			case len(list) == 0 || len(list) > MaxImages:
				errs = append(errs, fmt.Errorf("image_path: the cell lists %d images; a sample shows 1 to %d", len(list), MaxImages))
			default:
				s.SetImages(list)
			}
		}
	} else {
		errs = append(errs, missingCell("image_path", p))
	}

	q, ok := t.cell(row, "question")
	if !ok {
		errs = append(errs, missingCell("question", q))
	}
	s.Question = q

	// The options: letters in order, none missing before the last.
	var letters []string
	last := -1
	for i := range 26 {
		l := string(rune('A' + i))
		if v, ok := t.cell(row, l); ok {
			last = i
			s.Options = append(s.Options, v)
			letters = append(letters, l)
		} else if _, col := t.cols[l]; col && v != "" {
			errs = append(errs, missingCell("option "+l, v))
		}
	}
	if last >= 0 && len(letters) != last+1 {
		for i := range last {
			if l := string(rune('A' + i)); i >= len(letters) || letters[i] != l {
				errs = append(errs, fmt.Errorf("option %s: the cell is missing while option %s is there; VLMEvalKit would letter the options differently", l, AnswerLetter(last)))
				break
			}
		}
	}

	answer, ok := t.cell(row, "answer")
	switch {
	case !ok:
		errs = append(errs, missingCell("answer", answer))
	case len(s.Options) > 0:
		s.Kind = KindMCQ
		if len(answer) == 1 && answer[0] >= 'A' && int(answer[0]-'A') < len(s.Options) {
			s.AnswerIndex = int(answer[0] - 'A')
		} else {
			errs = append(errs, fmt.Errorf("answer: %q is not the letter of an option (A to %s)", answer, AnswerLetter(len(s.Options)-1)))
		}
	case strings.EqualFold(strings.TrimSpace(answer), "yes"), strings.EqualFold(strings.TrimSpace(answer), "no"):
		s.Kind, s.AnswerText = KindJudgment, strings.ToLower(strings.TrimSpace(answer))
	default:
		s.Kind, s.AnswerText = KindOpen, answer
	}

	if id, ok := t.cell(row, "id"); ok && id != "" {
		s.ID = id
	} else {
		s.ID = "vlm-" + row.index
	}
	s.Task, _ = t.cell(row, "category")
	if v, _ := t.cell(row, "split"); v == "train" || v == "test" {
		s.Split = v
	}
	used := map[string]bool{} // Benchwright's columns read into the sample
	if k, ok := t.cell(row, "kind"); ok {
		errs = append(errs, t.benchwright(row, &s, Kind(k), len(s.Options) > 0, answer, used)...)
	}
	for i, name := range t.names {
		if vlmKnownColumn(name) || used[name] || i >= len(row.cells) || name == "split" && s.Split != "" {
			continue
		}
		if v, ok := t.cell(row, name); ok {
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[name], _ = json.Marshal(v)
		}
	}
	return s, errors.Join(errs...)
}

// benchwright restores a sample from the columns Benchwright's own export adds to a
// row (release/vlmevalkit.go), which the row has when its kind cell is filled: the
// kind, hop, view, bbox (pixel [x1, y1, x2, y2] as JSON), categories ("att+pos")
// and any split. The export writes category as the sample's task, else for hop_qa
// the categories joined with "+", else the kind, so a category equal to the kind or
// to the row's categories (or, without a categories column, made only of att, pos
// and rel on a hop_qa row) is not a task; bbox_1000 and an l2-category that follow
// from the other columns are left out of Extra. It marks the columns it read in
// used and returns what is wrong with them.
func (t *vlmTable) benchwright(row *vlmRow, s *Sample, kind Kind, options bool, answer string, used map[string]bool) []error {
	var errs []error
	used["kind"] = true
	switch {
	case !kind.Valid():
		return []error{fmt.Errorf("kind: %q is not a sample kind", kind)}
	case kind.IndexAnswer() && !options:
		return []error{fmt.Errorf("kind: %s, but the row has no options", kind)}
	case kind == KindJudgment && options:
		return []error{errors.New("kind: a judgment has no options")}
	case kind == KindJudgment && s.Kind == KindOpen:
		return []error{fmt.Errorf("kind: a judgment answers Yes or No, not %q", answer)}
	case kind == KindOpen && options, kind == KindStepGraph:
		return []error{fmt.Errorf("kind: a %s sample has no VLMEvalKit row", kind)}
	case kind == KindOpen:
		s.AnswerText = answer // as written, even Yes or No
	}
	s.Kind = kind
	if v, ok := t.cell(row, "hop"); ok {
		used["hop"] = true
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1000 || f != math.Trunc(f) {
			errs = append(errs, fmt.Errorf("hop: %q is not a number of hops", v))
		} else {
			s.Hop = int(f)
		}
	}
	if v, ok := t.cell(row, "view"); ok {
		used["view"] = true
		switch View(v) {
		case ViewEgo, ViewExo:
			s.View = View(v)
		default:
			errs = append(errs, fmt.Errorf(`view: want "ego" or "exo", got %q`, v))
		}
	}
	if v, ok := t.cell(row, "bbox"); ok {
		used["bbox"], used["bbox_1000"] = true, true
		var b []float64
		if err := json.Unmarshal([]byte(v), &b); err != nil || len(b) != 4 {
			errs = append(errs, fmt.Errorf("bbox: %q is not a pixel box [x1, y1, x2, y2]", v))
		} else {
			box := Box(b)
			s.Box = &box
		}
	}
	cats, hasCats := t.cell(row, "categories")
	if _, col := t.cols["categories"]; col {
		used["categories"] = true
		if hasCats {
			s.Categories = categoryList(cats)
		}
	}
	// category: the task, unless it is what the export writes for a sample without one.
	switch _, col := t.cols["categories"]; {
	case s.Task == string(kind):
		s.Task = ""
	case kind != KindHopQA:
	case col && s.Task == cats:
		s.Task = ""
	case !col && onlyHopCategories(s.Task):
		s.Categories, s.Task = categoryList(s.Task), ""
	}
	if v, ok := t.cell(row, "split"); ok {
		s.Split = v
	}
	errs = append(errs, t.sequenceColumns(row, s, used)...)
	l2 := string(kind)
	switch {
	case kind != KindHopQA:
	case s.Hop > 0:
		l2 = strconv.Itoa(s.Hop) + "-hop"
	case s.View != "":
		l2 = string(s.View)
	}
	if v, _ := t.cell(row, "l2-category"); v == l2 {
		used["l2-category"] = true
	}
	return errs
}

// sequenceColumns reads the columns Benchwright's export adds to a file holding
// samples of several images: image_labels (a JSON list), box_image (an integer) and
// frames (the native record's frame objects, as JSON).
func (t *vlmTable) sequenceColumns(row *vlmRow, s *Sample, used map[string]bool) []error {
	var errs []error
	if v, ok := t.cell(row, "image_labels"); ok {
		used["image_labels"] = true
		if err := json.Unmarshal([]byte(v), &s.ImageLabels); err != nil {
			errs = append(errs, fmt.Errorf("image_labels: %q is not a JSON list of labels", v))
		}
	} else if _, col := t.cols["image_labels"]; col {
		used["image_labels"] = true
	}
	if v, ok := t.cell(row, "box_image"); ok {
		used["box_image"] = true
		f, err := strconv.ParseFloat(v, 64) // a float such as 1.0 where some rows have none
		if err != nil || f < 0 || f >= MaxImages || f != math.Trunc(f) {
			errs = append(errs, fmt.Errorf("box_image: %q is not the index of one of the sample's images", v))
		} else {
			s.BoxImage = int(f)
		}
	} else if _, col := t.cols["box_image"]; col {
		used["box_image"] = true
	}
	if v, ok := t.cell(row, "frames"); ok {
		used["frames"] = true
		if err := json.Unmarshal([]byte(v), &s.Frames); err != nil {
			errs = append(errs, fmt.Errorf("frames: %q is not a JSON list of frames", v))
		}
	} else if _, col := t.cols["frames"]; col {
		used["frames"] = true
	}
	return errs
}

// onlyHopCategories reports whether s is categories joined with "+", each att, pos
// or rel.
func onlyHopCategories(s string) bool {
	for _, c := range strings.Split(s, "+") {
		if c != string(CatAtt) && c != string(CatPos) && c != string(CatRel) {
			return false
		}
	}
	return true
}

// vlmKnownColumn reports whether a column is read into the sample's own fields.
func vlmKnownColumn(name string) bool {
	switch name {
	case "index", "image", "image_path", "question", "answer", "category", "id":
		return true
	}
	return len(name) == 1 && name[0] >= 'A' && name[0] <= 'Z'
}

// quoteError explains a quoting error of encoding/csv in words.
func quoteError(pe *csv.ParseError) error {
	if errors.Is(pe.Err, csv.ErrBareQuote) {
		return fmt.Errorf(`line %d, column %d: a " inside a cell that does not start with one; put the cell in quotes and double the quote (""), as VLMEvalKit's dump_tsv writes it`, pe.Line, pe.Column)
	}
	start := ""
	if pe.Line != pe.StartLine {
		start = fmt.Sprintf(" (the cell starts on line %d)", pe.StartLine)
	}
	return fmt.Errorf(`line %d, column %d: a quoted cell has a " that is not doubled (""), or its closing quote is missing or followed by more than a tab or the end of the line%s`, pe.Line, pe.Column, start)
}

// tsvFileError names the line of a TSV that cannot be read at all.
func tsvFileError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.Is(err, csv.ErrBareQuote) || errors.Is(err, csv.ErrQuote) {
			return quoteError(pe)
		}
		return fmt.Errorf("line %d: %v", pe.Line, pe.Err)
	}
	return err
}
