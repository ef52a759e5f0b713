package annotate

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// Format is a file layout a frozen release can be exported in.
type Format string

// The export formats.
const (
	// FormatNative is samples.jsonl (spec §5) and images/.
	FormatNative Format = "native"
	// FormatMultihop is a MultihopSpatial-style JSON list of hop-QA samples.
	FormatMultihop Format = "multihopspatial"
	// FormatSpatialQA is a SpatiaLQA-style JSON list of step graphs, images under scene folders.
	FormatSpatialQA Format = "spatialqa"
	// FormatVLMEvalKit is one VLMEvalKit TSV with the images embedded as base64.
	FormatVLMEvalKit Format = "vlmevalkit"
	// FormatHFImageFolder is a Hugging Face imagefolder: split folders with metadata.jsonl.
	FormatHFImageFolder Format = "hf-imagefolder"
	// FormatCOCO is COCO instances JSON of the answer boxes.
	FormatCOCO Format = "coco"
)

// Formats lists every export format.
var Formats = []Format{FormatNative, FormatMultihop, FormatSpatialQA, FormatVLMEvalKit, FormatHFImageFolder, FormatCOCO}

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	f := Format(s)
	if !slices.Contains(Formats, f) {
		return "", fmt.Errorf("unknown export format %q (one of %s)", s, formatNames())
	}
	return f, nil
}

func formatNames() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// Holds reports whether f can hold s: multihopspatial takes hop QA, spatialqa step
// graphs, coco the samples with a box; the others take every kind.
func (f Format) Holds(s Sample) bool {
	switch f {
	case FormatMultihop:
		return s.Kind == KindHopQA
	case FormatSpatialQA:
		return s.Kind == KindStepGraph
	case FormatCOCO:
		return s.Box != nil
	}
	return true
}

// Layout says in words where f puts what, for MANIFEST.json.
func (f Format) Layout() string {
	switch f {
	case FormatNative:
		return "samples.jsonl holds one spec §5 record per line; images/ holds the images, and record image paths are relative to it"
	case FormatMultihop:
		return "multihopspatial.json is a JSON list; images/ holds the images, and image paths are relative to it"
	case FormatSpatialQA:
		return "spatialqa.json is a JSON list; images/ holds the images in scene folders NNNN-<type>-<k>, and image paths are relative to it"
	case FormatVLMEvalKit:
		return "One TSV; the image column holds the base64 of the image, or for a repeated image the index of the row that holds it"
	case FormatHFImageFolder:
		return "One folder per split holding metadata.jsonl and the images; file_name is relative to the split folder"
	case FormatCOCO:
		return "annotations/instances_<split>.json; images/ holds the images, and file_name is relative to it"
	}
	return ""
}

// ReleaseRecord is one sample of a frozen release as an export sees it.
type ReleaseRecord struct {
	// Sample is the frozen revision's content. Its Image is the image's path in the
	// project (relative to the imported folder) and its Split the release's split.
	Sample Sample
	// Width and Height are the image's displayed size (EXIF orientation applied).
	Width, Height int
	// ImageSHA256 is the hex SHA-256 the image had when the release was frozen; an
	// export refuses a file whose bytes no longer match. Empty skips the check.
	ImageSHA256 string
}

// Sink receives the files of an export. Names are slash-separated paths relative
// to the export's root. Export creates image files from a few goroutines at once, so
// Create must be safe for concurrent use; each writer it returns is used by one
// goroutine.
type Sink interface {
	Create(name string) (io.WriteCloser, error)
}

// DirSink writes an export into a folder, creating sub-folders as needed.
type DirSink string

// Create creates the file name below the folder; a name that would leave the folder
// is refused.
func (d DirSink) Create(name string) (io.WriteCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	p := filepath.Join(string(d), filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	return os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// checkName refuses a path that is absolute, empty or climbs out of its root.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "../") ||
		strings.Contains(name, "\\") || path.Clean(name) != name {
		return fmt.Errorf("file name %q is not a clean relative path", name)
	}
	return nil
}

// MemSink keeps an export's files in memory, by name.
type MemSink map[string][]byte

// Create returns a buffer stored under name when closed.
func (m MemSink) Create(name string) (io.WriteCloser, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	memSinkMu.Lock()
	defer memSinkMu.Unlock()
	if _, ok := m[name]; ok {
		return nil, fmt.Errorf("%s: %w", name, os.ErrExist)
	}
	m[name] = nil
	return &memFile{m: m, name: name}, nil
}

// memSinkMu guards every MemSink's map (a map type cannot carry its own lock).
var memSinkMu sync.Mutex

type memFile struct {
	bytes.Buffer
	m    MemSink
	name string
}

func (f *memFile) Close() error {
	memSinkMu.Lock()
	defer memSinkMu.Unlock()
	f.m[f.name] = f.Bytes()
	return nil
}

// ExportRequest is what Export needs.
type ExportRequest struct {
	Format  Format
	Records []ReleaseRecord
	// Open opens an image by its project path (ReleaseRecord.Sample.Image).
	Open func(image string) (io.ReadCloser, error)
	// Info describes the release for MANIFEST.json.
	Info ExportInfo
	// Progress, when set, is called with the records done so far and the total
	// (the records plus one for the manifest).
	Progress func(done, total int)
}

// ErrImageChanged is wrapped when an image's bytes differ from the frozen hash.
var ErrImageChanged = errors.New("image content differs from the frozen release")

// Export writes req.Records in req.Format into sink, then MANIFEST.json, and returns
// the manifest. Records are written in sample-id order; records the format cannot
// hold (see Holds) are left out and counted in Manifest.Skipped. Images are copied
// byte for byte (each once per destination) and checked against their frozen hash.
// Nothing depends on map order or the clock except the manifest's Created field, so
// the same request gives the same bytes. It stops with ctx's error when cancelled.
func Export(ctx context.Context, sink Sink, req ExportRequest) (Manifest, error) {
	if !slices.Contains(Formats, req.Format) {
		return Manifest{}, fmt.Errorf("export: unknown format %q (one of %s)", req.Format, formatNames())
	}
	recs := slices.Clone(req.Records)
	slices.SortFunc(recs, func(a, b ReleaseRecord) int { return cmp.Compare(a.Sample.ID, b.Sample.ID) })
	skipped := map[string]int{}
	var kept []ReleaseRecord
	for i, r := range recs {
		if i > 0 && r.Sample.ID == recs[i-1].Sample.ID {
			return Manifest{}, fmt.Errorf("export: sample id %q appears twice", r.Sample.ID)
		}
		if req.Format.Holds(r.Sample) {
			kept = append(kept, r)
		} else {
			skipped[string(r.Sample.Kind)]++
		}
	}
	rec := &recorder{sink: sink}
	e := &exporter{ctx: ctx, sink: rec, open: req.Open, progress: req.Progress, total: len(kept) + 1, copied: map[string]string{}, info: req.Info}
	e.report()
	err := encoders[req.Format](e, kept)
	if werr := e.waitCopies(); err == nil {
		err = werr
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("export %s: %w", req.Format, err)
	}
	m := newManifest(req.Format, req.Info, kept, rec.files)
	if len(skipped) > 0 {
		m.Skipped = skipped
	}
	if err := writeManifest(sink, m); err != nil {
		return Manifest{}, fmt.Errorf("export %s: %w", req.Format, err)
	}
	e.done = e.total
	e.report()
	return m, nil
}

// recorder hashes every file written through it (from any goroutine).
type recorder struct {
	sink  Sink
	mu    sync.Mutex
	files []FileEntry
}

func (r *recorder) Create(name string) (io.WriteCloser, error) {
	if name == ManifestName {
		return nil, fmt.Errorf("%s is written last, by Export", ManifestName)
	}
	w, err := r.sink.Create(name)
	if err != nil {
		return nil, err
	}
	return &hashingWriter{w: w, h: sha256.New(), done: func(size int64, sum string) {
		r.mu.Lock()
		r.files = append(r.files, FileEntry{Path: name, Size: size, SHA256: sum})
		r.mu.Unlock()
	}}, nil
}

type hashingWriter struct {
	w    io.WriteCloser
	h    hash.Hash
	n    int64
	done func(size int64, sum string)
}

func (w *hashingWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.h.Write(p[:n])
	w.n += int64(n)
	return n, err
}

func (w *hashingWriter) Close() error {
	if err := w.w.Close(); err != nil {
		return err
	}
	w.done(w.n, hex.EncodeToString(w.h.Sum(nil)))
	return nil
}

// exporter is the state of one running export.
type exporter struct {
	ctx         context.Context
	sink        Sink
	open        func(string) (io.ReadCloser, error)
	progress    func(done, total int)
	done, total int
	copied      map[string]string // destination → project image path
	info        ExportInfo

	// Image copies run on copyWorkers goroutines (creating files is most of an
	// export's time, and the kernel does it in parallel); the first error stops them.
	copies  chan func() error
	copyWG  sync.WaitGroup
	copyMu  sync.Mutex
	copyErr error
}

// copyWorkers is how many image copies an export runs at once.
const copyWorkers = 4

func (e *exporter) report() {
	if e.progress != nil {
		e.progress(e.done, e.total)
	}
}

// step marks one record done and checks for cancellation.
func (e *exporter) step() error {
	e.done++
	e.report()
	return e.ctx.Err()
}

// writeFile creates name and fills it with fill.
func (e *exporter) writeFile(name string, fill func(w io.Writer) error) error {
	if err := e.ctx.Err(); err != nil {
		return err
	}
	f, err := e.sink.Create(name)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}

// openImage opens r's image, checking its bytes against the frozen hash as they are read.
func (e *exporter) openImage(r ReleaseRecord) (io.ReadCloser, error) {
	if e.open == nil {
		return nil, fmt.Errorf("image %s: no image source", r.Sample.Image)
	}
	f, err := e.open(r.Sample.Image)
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", r.Sample.Image, err)
	}
	if r.ImageSHA256 == "" {
		return f, nil
	}
	return &checkedReader{ReadCloser: f, h: sha256.New(), want: r.ImageSHA256, name: r.Sample.Image}, nil
}

// checkedReader fails at the end of the file when its hash is not the expected one.
type checkedReader struct {
	io.ReadCloser
	h    hash.Hash
	want string
	name string
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.h.Write(p[:n])
	if errors.Is(err, io.EOF) {
		if got := hex.EncodeToString(c.h.Sum(nil)); got != c.want {
			return n, fmt.Errorf("image %s: %w (sha256 %s…, frozen %s…)", c.name, ErrImageChanged, got[:12], c.want[:min(12, len(c.want))])
		}
	}
	return n, err
}

// copyImage copies r's image to dest once; a second record naming the same
// destination and image is a no-op.
func (e *exporter) copyImage(dest string, r ReleaseRecord) error {
	if src, ok := e.copied[dest]; ok {
		if src != r.Sample.Image {
			return fmt.Errorf("images %s and %s would both be written to %s", src, r.Sample.Image, dest)
		}
		return nil
	}
	e.copied[dest] = r.Sample.Image
	if err := e.copyFailed(); err != nil {
		return err
	}
	if e.copies == nil {
		e.copies = make(chan func() error)
		for range copyWorkers {
			e.copyWG.Add(1)
			go func() {
				defer e.copyWG.Done()
				for job := range e.copies {
					if e.copyFailed() != nil {
						continue // drain: the export has failed
					}
					if err := job(); err != nil {
						e.copyMu.Lock()
						if e.copyErr == nil {
							e.copyErr = err
						}
						e.copyMu.Unlock()
					}
				}
			}()
		}
	}
	e.copies <- func() error {
		in, err := e.openImage(r)
		if err != nil {
			return err
		}
		defer in.Close()
		return e.writeFile(dest, func(w io.Writer) error {
			_, err := io.Copy(w, in)
			return err
		})
	}
	return nil
}

// copyFailed is the first error of an image copy so far.
func (e *exporter) copyFailed() error {
	e.copyMu.Lock()
	defer e.copyMu.Unlock()
	return e.copyErr
}

// waitCopies waits for the image copies started and returns the first error.
func (e *exporter) waitCopies() error {
	if e.copies != nil {
		close(e.copies)
		e.copyWG.Wait()
		e.copies = nil
	}
	return e.copyFailed()
}

// readImage reads r's whole image, checked against its frozen hash.
func (e *exporter) readImage(r ReleaseRecord) ([]byte, error) {
	in, err := e.openImage(r)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return io.ReadAll(in)
}

var encoders = map[Format]func(*exporter, []ReleaseRecord) error{
	FormatNative:        encodeNative,
	FormatMultihop:      encodeMultihop,
	FormatSpatialQA:     encodeSpatialQA,
	FormatVLMEvalKit:    encodeVLMEvalKit,
	FormatHFImageFolder: encodeHFImageFolder,
	FormatCOCO:          encodeCOCO,
}

// jsonObject builds one JSON object with keys in the order fill writes them.
func jsonObject(fill func(w *objectWriter)) ([]byte, error) {
	w := objectWriter{buf: new(bytes.Buffer), keys: map[string]bool{}}
	w.buf.WriteByte('{')
	fill(&w)
	if w.err != nil {
		return nil, w.err
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}

// writeJSONList writes items as a JSON list, one item per line.
func writeJSONList(w io.Writer, items [][]byte) error {
	var b bytes.Buffer
	b.WriteString("[")
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		b.Write(it)
	}
	if len(items) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}

// AnswerLetter is the letter of option i: 0 → "A".
func AnswerLetter(i int) string {
	if i < 0 || i >= 26 {
		return strconv.Itoa(i)
	}
	return string(rune('A' + i))
}

// ObjectName is the name of the object a sample's box is on, for the category of
// COCO and Hugging Face annotations: the correct option without a leading article,
// lower-cased ("The red mug" → "red mug"), or "object" when there is no option.
func ObjectName(s Sample) string {
	if !s.Kind.indexAnswer() || s.AnswerIndex < 0 || s.AnswerIndex >= len(s.Options) {
		return "object"
	}
	name := strings.Join(strings.Fields(strings.ToLower(s.Options[s.AnswerIndex])), " ")
	for _, a := range []string{"the ", "a ", "an "} {
		if rest, ok := strings.CutPrefix(name, a); ok && rest != "" {
			name = rest
			break
		}
	}
	return cmp.Or(name, "object")
}

// answerString is a sample's answer as text: the option letter, the text answer, or
// for a step graph the SpatiaLQA answer object as compact JSON.
func answerString(s Sample) (string, error) {
	switch {
	case s.Kind.indexAnswer():
		return AnswerLetter(s.AnswerIndex), nil
	case s.Kind == KindStepGraph:
		b, err := stepsObject(s.Steps)
		return string(b), err
	}
	return s.AnswerText, nil
}

// stepsObject is the SpatiaLQA answer: {"step1": {"content": ..., "precondition": [...]}, ...}
// with the steps renumbered step1…stepN in their order and preconditions renamed to match.
func stepsObject(steps []Step) ([]byte, error) {
	rename := map[string]string{}
	for i, st := range steps {
		if _, dup := rename[st.ID]; !dup {
			rename[st.ID] = "step" + strconv.Itoa(i+1)
		}
	}
	return jsonObject(func(w *objectWriter) {
		for i, st := range steps {
			pre := make([]string, len(st.Precondition))
			for j, p := range st.Precondition {
				pre[j] = cmp.Or(rename[p], p)
			}
			b, err := jsonObject(func(o *objectWriter) {
				o.value("content", st.Content)
				o.value("precondition", pre)
			})
			if err != nil {
				w.err = err
				return
			}
			w.raw("step"+strconv.Itoa(i+1), b)
		}
	})
}

// optional writes the fields every format carries when set.
func optional(w *objectWriter, s Sample) {
	w.str("task", s.Task)
	w.str("split", s.Split)
	if len(s.Tags) > 0 {
		w.value("tags", s.Tags)
	}
	w.str("parent", s.Parent)
}

func encodeNative(e *exporter, recs []ReleaseRecord) error {
	err := e.writeFile("samples.jsonl", func(w io.Writer) error {
		for _, r := range recs {
			b, err := r.Sample.MarshalJSON()
			if err != nil {
				return err
			}
			if _, err := w.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.Sample.Image != "" {
			if err := e.copyImage("images/"+r.Sample.Image, r); err != nil {
				return err
			}
		}
		if err := e.step(); err != nil {
			return err
		}
	}
	return nil
}

func encodeMultihop(e *exporter, recs []ReleaseRecord) error {
	items := make([][]byte, 0, len(recs))
	for _, r := range recs {
		s := r.Sample
		b, err := jsonObject(func(w *objectWriter) {
			w.value("id", s.ID)
			w.value("image", s.Image)
			w.value("width", r.Width)
			w.value("height", r.Height)
			w.value("question", s.Question)
			w.value("options", orEmpty(s.Options))
			w.value("answer", AnswerLetter(s.AnswerIndex))
			w.value("hop", s.Hop)
			w.value("categories", orEmpty(s.Categories))
			w.value("view", s.View)
			w.str("ego_subject", string(s.EgoSubject))
			if s.Box != nil {
				w.value("bbox", *s.Box)
				if r.Width > 0 && r.Height > 0 {
					w.value("bbox_1000", s.Box.To1000(r.Width, r.Height))
				}
			}
			optional(w, s)
		})
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		items = append(items, b)
	}
	if err := e.writeFile("multihopspatial.json", func(w io.Writer) error { return writeJSONList(w, items) }); err != nil {
		return err
	}
	for _, r := range recs {
		if err := e.copyImage("images/"+r.Sample.Image, r); err != nil {
			return err
		}
		if err := e.step(); err != nil {
			return err
		}
	}
	return nil
}

// sceneFolders gives each record the scene folder its image goes into in a SpatiaLQA
// export: the sample's scene, else its image's folder, when it follows NNNN-<type>-<k>;
// otherwise a new name in that pattern, numbered after the highest NNNN in use.
func sceneFolders(recs []ReleaseRecord) []string {
	raw := make([]string, len(recs))
	highest := 0
	typeCount := map[string]int{}
	used := map[string]bool{}
	note := func(name string) {
		if used[name] {
			return
		}
		used[name] = true
		n, _ := strconv.Atoi(name[:4])
		highest = max(highest, n)
		typeCount[sceneType(name)]++
	}
	for i, r := range recs {
		dir := path.Base(path.Dir(r.Sample.Image))
		switch {
		case ValidSceneName(r.Sample.Scene):
			raw[i] = r.Sample.Scene
		case ValidSceneName(dir):
			raw[i] = dir
		default:
			raw[i] = "\x00" + cmp.Or(r.Sample.Scene, strings.Trim(dir, "."), "scene")
			continue
		}
		note(raw[i])
	}
	var invalid []string
	for _, n := range raw {
		if strings.HasPrefix(n, "\x00") && !slices.Contains(invalid, n) {
			invalid = append(invalid, n)
		}
	}
	slices.Sort(invalid)
	renamed := map[string]string{}
	for _, n := range invalid {
		t := sanitizeType(n[1:])
		typeCount[t]++
		highest++
		renamed[n] = fmt.Sprintf("%04d-%s-%d", highest, t, typeCount[t])
	}
	out := make([]string, len(recs))
	for i, n := range raw {
		out[i] = cmp.Or(renamed[n], n)
	}
	return out
}

// sceneType is the <type> of a scene folder NNNN-<type>-<k>.
func sceneType(name string) string {
	t := name[5:]
	return t[:strings.LastIndexByte(t, '-')]
}

// sanitizeType turns a free scene name into a scene type: lower-case letters, digits
// and dashes, starting with a letter ("Living Room" → "living-room").
func sanitizeType(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	t := strings.Trim(b.String(), "-")
	switch {
	case t == "":
		return "scene"
	case !unicode.IsLetter(rune(t[0])):
		return "scene-" + t
	}
	return t
}

// orEmpty is s, or an empty list instead of nil (JSON [] rather than null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func encodeSpatialQA(e *exporter, recs []ReleaseRecord) error {
	scenes := sceneFolders(recs)
	dests := make([]string, len(recs))
	owner := map[string]string{} // destination → project image
	items := make([][]byte, 0, len(recs))
	for i, r := range recs {
		s := r.Sample
		dest := scenes[i] + "/" + path.Base(s.Image)
		if o, ok := owner[dest]; ok && o != s.Image {
			dest = scenes[i] + "/" + strings.ReplaceAll(s.Image, "/", "_")
		}
		owner[dest] = s.Image
		dests[i] = dest
		answer, err := stepsObject(s.Steps)
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		b, err := jsonObject(func(w *objectWriter) {
			w.value("id", s.ID)
			w.value("question", s.Question)
			w.raw("answer", answer)
			w.value("image", dest)
			w.value("scene", scenes[i])
			w.value("scene_category", sceneType(scenes[i]))
			optional(w, s)
		})
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		items = append(items, b)
	}
	if err := e.writeFile("spatialqa.json", func(w io.Writer) error { return writeJSONList(w, items) }); err != nil {
		return err
	}
	for i, r := range recs {
		if err := e.copyImage("images/"+dests[i], r); err != nil {
			return err
		}
		if err := e.step(); err != nil {
			return err
		}
	}
	return nil
}

// tsvName is the VLMEvalKit file: the release name, which the toolkit takes as the
// dataset name.
func tsvName(info ExportInfo) string {
	var b strings.Builder
	for _, r := range info.Release.Name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return cmp.Or(strings.Trim(b.String(), "."), "benchmark") + ".tsv"
}

// boxText is a box as compact JSON, "" without one.
func boxText[T any](b *T) string {
	if b == nil {
		return ""
	}
	out, _ := marshalPlain(*b)
	return string(out)
}

func encodeVLMEvalKit(e *exporter, recs []ReleaseRecord) error {
	options := 0
	for _, r := range recs {
		if r.Sample.Kind.indexAnswer() {
			options = max(options, len(r.Sample.Options))
		}
	}
	header := []string{"index", "image", "question"}
	for i := range options {
		header = append(header, AnswerLetter(i))
	}
	header = append(header, "answer", "category", "hop", "view", "bbox", "bbox_1000", "kind", "split", "id")
	return e.writeFile(tsvName(e.info), func(out io.Writer) error {
		w := csv.NewWriter(out)
		w.Comma = '\t'
		if err := w.Write(header); err != nil {
			return err
		}
		firstRow := map[string]int{} // project image → index of the row holding its base64
		for i, r := range recs {
			s := r.Sample
			var image string
			if j, ok := firstRow[s.Image]; ok {
				image = strconv.Itoa(j)
			} else {
				b, err := e.readImage(r)
				if err != nil {
					return err
				}
				image = base64.StdEncoding.EncodeToString(b)
				firstRow[s.Image] = i
			}
			answer, err := answerString(s)
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			row := []string{strconv.Itoa(i), image, s.Question}
			for j := range options {
				opt := ""
				if s.Kind.indexAnswer() && j < len(s.Options) {
					opt = s.Options[j]
				}
				row = append(row, opt)
			}
			category := s.Task
			if category == "" && s.Kind == KindHopQA {
				category = joinCategories(s.Categories, "+")
			}
			hop, b1000 := "", ""
			if s.Hop != 0 {
				hop = strconv.Itoa(s.Hop)
			}
			if s.Box != nil && r.Width > 0 && r.Height > 0 {
				v := s.Box.To1000(r.Width, r.Height)
				b1000 = boxText(&v)
			}
			row = append(row, answer, cmp.Or(category, string(s.Kind)), hop, string(s.View), boxText(s.Box), b1000,
				string(s.Kind), s.Split, s.ID)
			if err := w.Write(row); err != nil {
				return err
			}
			if err := e.step(); err != nil {
				return err
			}
		}
		w.Flush()
		return w.Error()
	})
}

func joinCategories(cats []Category, sep string) string {
	s := make([]string, len(cats))
	for i, c := range cats {
		s[i] = string(c)
	}
	return strings.Join(s, sep)
}

// splitOf is the folder a record goes to in split-wise formats; an unsplit release
// is a test set.
func splitOf(s Sample) string { return cmp.Or(s.Split, SplitTest) }

// splitsOf returns the splits present in recs, sorted.
func splitsOf(recs []ReleaseRecord) []string {
	var out []string
	for _, r := range recs {
		if sp := splitOf(r.Sample); !slices.Contains(out, sp) {
			out = append(out, sp)
		}
	}
	slices.Sort(out)
	return out
}

func encodeHFImageFolder(e *exporter, recs []ReleaseRecord) error {
	for _, split := range splitsOf(recs) {
		var lines bytes.Buffer
		var in []ReleaseRecord
		for _, r := range recs {
			if splitOf(r.Sample) != split {
				continue
			}
			in = append(in, r)
			s := r.Sample
			answer, err := answerString(s)
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			bboxes, names := [][4]float64{}, []string{}
			if s.Box != nil {
				bboxes, names = append(bboxes, s.Box.ToCOCO()), append(names, ObjectName(s))
			}
			objects, err := jsonObject(func(w *objectWriter) {
				w.value("bbox", bboxes)
				w.value("category", names)
			})
			if err != nil {
				return err
			}
			b, err := jsonObject(func(w *objectWriter) {
				w.value("file_name", s.Image)
				w.value("id", s.ID)
				w.value("kind", s.Kind)
				w.value("question", s.Question)
				w.value("options", orEmpty(s.Options))
				w.value("answer", answer)
				w.value("categories", orEmpty(s.Categories))
				w.value("hop", s.Hop)
				w.value("view", s.View)
				w.value("task", s.Task)
				w.value("width", r.Width)
				w.value("height", r.Height)
				w.raw("objects", objects)
			})
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			lines.Write(b)
			lines.WriteByte('\n')
		}
		if err := e.writeFile(split+"/metadata.jsonl", func(w io.Writer) error {
			_, err := w.Write(lines.Bytes())
			return err
		}); err != nil {
			return err
		}
		for _, r := range in {
			if err := e.copyImage(split+"/"+r.Sample.Image, r); err != nil {
				return err
			}
			if err := e.step(); err != nil {
				return err
			}
		}
	}
	return nil
}

func encodeCOCO(e *exporter, recs []ReleaseRecord) error {
	// Ids are shared by every split's file: images by path, categories by name.
	imageID, catID := map[string]int{}, map[string]int{}
	var paths, names []string
	for _, r := range recs {
		if _, ok := imageID[r.Sample.Image]; !ok {
			imageID[r.Sample.Image] = 0
			paths = append(paths, r.Sample.Image)
		}
		if n := ObjectName(r.Sample); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(paths)
	slices.Sort(names)
	for i, p := range paths {
		imageID[p] = i + 1
	}
	var categories [][]byte
	for i, n := range names {
		catID[n] = i + 1
		b, err := jsonObject(func(w *objectWriter) {
			w.value("id", i+1)
			w.value("name", n)
			w.value("supercategory", "object")
		})
		if err != nil {
			return err
		}
		categories = append(categories, b)
	}
	annID := map[string]int{}
	for i, r := range recs {
		annID[r.Sample.ID] = i + 1
	}
	info, err := jsonObject(func(w *objectWriter) {
		w.value("description", fmt.Sprintf("%s@%s, Benchwright project %s", e.info.Release.Name, e.info.Release.Version, e.info.Release.Project))
		w.value("version", e.info.Release.Version)
	})
	if err != nil {
		return err
	}
	for _, split := range splitsOf(recs) {
		var images, anns [][]byte
		var in []ReleaseRecord
		listed := map[string]bool{}
		for _, r := range recs {
			if splitOf(r.Sample) == split {
				in = append(in, r)
			}
		}
		sorted := slices.Clone(in)
		slices.SortStableFunc(sorted, func(a, b ReleaseRecord) int { return cmp.Compare(a.Sample.Image, b.Sample.Image) })
		for _, r := range sorted {
			if listed[r.Sample.Image] {
				continue
			}
			listed[r.Sample.Image] = true
			b, err := jsonObject(func(w *objectWriter) {
				w.value("id", imageID[r.Sample.Image])
				w.value("file_name", r.Sample.Image)
				w.value("width", r.Width)
				w.value("height", r.Height)
			})
			if err != nil {
				return err
			}
			images = append(images, b)
		}
		for _, r := range in {
			s := r.Sample
			b, err := jsonObject(func(w *objectWriter) {
				w.value("id", annID[s.ID])
				w.value("image_id", imageID[s.Image])
				w.value("category_id", catID[ObjectName(s)])
				w.value("bbox", s.Box.ToCOCO())
				w.value("area", s.Box.Area())
				w.value("iscrowd", 0)
				w.value("sample_id", s.ID)
			})
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			anns = append(anns, b)
		}
		err := e.writeFile("annotations/instances_"+split+".json", func(w io.Writer) error {
			var b bytes.Buffer
			b.WriteString("{\n\"info\": ")
			b.Write(info)
			for _, part := range []struct {
				key   string
				items [][]byte
			}{{"images", images}, {"annotations", anns}, {"categories", categories}} {
				b.WriteString(",\n\"" + part.key + "\": ")
				if err := writeJSONList(&b, part.items); err != nil {
					return err
				}
				b.Truncate(b.Len() - 1) // the list's newline
			}
			b.WriteString("\n}\n")
			_, err := w.Write(b.Bytes())
			return err
		})
		if err != nil {
			return err
		}
		for _, r := range in {
			if err := e.copyImage("images/"+r.Sample.Image, r); err != nil {
				return err
			}
			if err := e.step(); err != nil {
				return err
			}
		}
	}
	return nil
}
