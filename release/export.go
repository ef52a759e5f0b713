package release

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
)

// Record is one sample of a frozen release as an export sees it.
type Record struct {
	// Sample is the frozen revision's content. Its Image is the image's path in the
	// project (relative to the imported folder) and its Split the release's split.
	Sample annotate.Sample
	// Width and Height are the image's displayed size (EXIF orientation applied).
	Width, Height int
	// ImageSHA256 is the hex SHA-256 the image had when the release was frozen; an
	// export refuses a file whose bytes no longer match. Empty skips the check.
	ImageSHA256 string
	// BySampling marks a sample accepted by sampling (SampledValidation), counted
	// in the manifest.
	BySampling bool
	// More describes the images after the first (Sample.MoreImages), in the same
	// order; it is empty for a sample of one image.
	More []ImageFacts
}

// ImageFacts is what a release knows of one image of a sample: its path in the
// project, its displayed size (EXIF orientation applied) and the hex SHA-256 it had
// when the release was frozen (empty skips the check).
type ImageFacts struct {
	Path          string
	Width, Height int
	SHA256        string
}

// Images returns the facts of every image of the record in order: the first from
// Sample.Image, Width, Height and ImageSHA256, then More. It is nil for a record
// without an image.
func (r Record) Images() []ImageFacts {
	if r.Sample.Image == "" {
		return nil
	}
	return append([]ImageFacts{{Path: r.Sample.Image, Width: r.Width, Height: r.Height, SHA256: r.ImageSHA256}}, r.More...)
}

// imageRecord is r seen through its image i (0 is the first): a record whose
// Sample.Image, size and frozen hash are that image's, so that the Writer's image
// methods copy or read it. It fails when r has no facts for image i (More is
// shorter than Sample.MoreImages) or they name another path.
func (r Record) imageRecord(i int) (Record, error) {
	if i == 0 {
		return r, nil
	}
	paths := r.Sample.AllImages()
	if i < 0 || i >= len(paths) {
		return Record{}, fmt.Errorf("sample %s: it has no image %d", r.Sample.ID, i)
	}
	if i-1 >= len(r.More) || r.More[i-1].Path != paths[i] {
		return Record{}, fmt.Errorf("sample %s: the release has no size and hash of image %d (%s)", r.Sample.ID, i+1, paths[i])
	}
	f := r.More[i-1]
	out := r
	out.Sample.Image, out.Width, out.Height, out.ImageSHA256 = f.Path, f.Width, f.Height, f.SHA256
	return out, nil
}

// imageRecords is imageRecord of every image of r, in order.
func (r Record) imageRecords() ([]Record, error) {
	n := r.Sample.NumImages()
	out := make([]Record, 0, n)
	for i := range n {
		ir, err := r.imageRecord(i)
		if err != nil {
			return nil, err
		}
		out = append(out, ir)
	}
	return out, nil
}

// boxSize is the displayed size of the image a sample's box is drawn on
// (Sample.BoxImage, 0 for the first): every format that writes box coordinates
// normalises them by it. It is 0×0 when the release does not know it.
func (r Record) boxSize() (w, h int) {
	ims := r.Images()
	if i := r.Sample.BoxImage; i >= 0 && i < len(ims) {
		return ims[i].Width, ims[i].Height
	}
	return 0, 0
}

// single is s with only its first image: the sample a format that holds one image
// per sample would hold in its place (Export uses it to name why a sequence is left
// out).
func single(s annotate.Sample) annotate.Sample {
	s.MoreImages, s.ImageLabels, s.Frames, s.BoxImage = nil, nil, nil, 0
	return s
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
	Format  Format // one of Formats, or any other implementation
	Records []Record
	// Open opens an image by its project path (Record.Sample.Image).
	Open func(image string) (io.ReadCloser, error)
	// Info describes the release for MANIFEST.json.
	Info ExportInfo
	// Progress, when set, is called with the records done so far and the total
	// (the records plus one for the manifest).
	Progress func(done, total int)
}

// SkippedSequence ends the Manifest.Skipped key of the samples of a kind a format
// left out only because they show several images ("hop_qa, several images"): the
// format holds one image per sample.
const SkippedSequence = ", several images"

// ErrImageChanged is wrapped when an image's bytes differ from the frozen hash.
var ErrImageChanged = errors.New("image content differs from the frozen release")

// Export writes req.Records in req.Format into sink, then MANIFEST.json, and returns
// the manifest. Records are written in sample-id order; records the format cannot
// hold (see Format.Holds) are left out and counted in Manifest.Skipped. Images are
// copied byte for byte (each once per destination) and checked against their frozen
// hash.
// Nothing depends on map order or the clock except the manifest's Created field, so
// the same request gives the same bytes. It stops with ctx's error when cancelled.
func Export(ctx context.Context, sink Sink, req ExportRequest) (Manifest, error) {
	f := req.Format
	if f == nil {
		return Manifest{}, fmt.Errorf("export: no format (one of %s)", formatNames())
	}
	recs := slices.Clone(req.Records)
	slices.SortFunc(recs, func(a, b Record) int { return cmp.Compare(a.Sample.ID, b.Sample.ID) })
	skipped := map[string]int{}
	var kept []Record
	for i, r := range recs {
		if i > 0 && r.Sample.ID == recs[i-1].Sample.ID {
			return Manifest{}, fmt.Errorf("export: sample id %q appears twice", r.Sample.ID)
		}
		switch {
		case f.Holds(r.Sample):
			kept = append(kept, r)
		case r.Sample.NumImages() > 1 && f.Holds(single(r.Sample)):
			// Left out for its images alone: counted apart, so the manifest says so.
			skipped[string(r.Sample.Kind)+SkippedSequence]++
		default:
			skipped[string(r.Sample.Kind)]++
		}
	}
	rec := &recorder{sink: sink}
	w := &Writer{ctx: ctx, sink: rec, rec: rec, open: req.Open, progress: req.Progress, total: len(kept) + 1, copied: map[string]string{}, info: req.Info}
	w.report()
	err := f.Write(ctx, w, kept)
	if werr := w.waitCopies(); err == nil {
		err = werr
	}
	if err != nil {
		return Manifest{}, fmt.Errorf("export %s: %w", f.Name(), err)
	}
	m := newManifest(f, req.Info, kept, rec.files)
	if len(skipped) > 0 {
		m.Skipped = skipped
	}
	if err := writeManifest(sink, m); err != nil {
		return Manifest{}, fmt.Errorf("export %s: %w", f.Name(), err)
	}
	w.done = w.total
	w.report()
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

// createHashed creates name for a writer that hashes what it writes itself (a
// plain image copy, checked against its frozen hash as it goes): the file is
// recorded with the size and hash given to done, and not hashed a second time.
func (r *recorder) createHashed(name string) (io.WriteCloser, func(size int64, sum string), error) {
	if name == ManifestName {
		return nil, nil, fmt.Errorf("%s is written last, by Export", ManifestName)
	}
	w, err := r.sink.Create(name)
	if err != nil {
		return nil, nil, err
	}
	return w, func(size int64, sum string) {
		r.mu.Lock()
		r.files = append(r.files, FileEntry{Path: name, Size: size, SHA256: sum})
		r.mu.Unlock()
	}, nil
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

// Writer is the state of one running export, through which a Format writes its
// files: WriteFile for the files it builds, CopyImage and ReadImage for the images
// (checked against their frozen hash), Step after each record. Every file is hashed
// for the manifest. A Writer is made by Export and used from the goroutine that
// called Format.Write.
type Writer struct {
	ctx         context.Context
	sink        Sink
	rec         *recorder // sink, for the image copies that hash what they copy once
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

func (w *Writer) report() {
	if w.progress != nil {
		w.progress(w.done, w.total)
	}
}

// Step marks one record done, reports progress and returns ctx's error when the
// export was cancelled. A format calls it once per record it writes.
func (w *Writer) Step() error {
	w.done++
	w.report()
	return w.ctx.Err()
}

// Info describes the release being exported (for file names and headers).
func (w *Writer) Info() ExportInfo { return w.info }

// WriteFile creates name (a slash-separated path from the export's root) and fills
// it with fill. What fill writes reaches the file in writes of writeFileBuffer
// bytes: a format that writes a record at a time (samples.jsonl, a line a sample)
// costs a write call per 64 KiB, not one per record (11,801 for the freeze
// benchmark's release).
func (w *Writer) WriteFile(name string, fill func(io.Writer) error) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	f, err := w.sink.Create(name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, writeFileBuffer)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	return f.Close()
}

// writeFileBuffer is how many bytes WriteFile gathers before writing them.
const writeFileBuffer = 64 << 10

// openImage opens r's image, checking its bytes against the frozen hash as they are read.
func (w *Writer) openImage(r Record) (io.ReadCloser, error) {
	if w.open == nil {
		return nil, fmt.Errorf("image %s: no image source", r.Sample.Image)
	}
	f, err := w.open(r.Sample.Image)
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

// CopyImage copies r's image byte for byte to dest (a path from the export's root)
// once; a second record naming the same destination and image is a no-op, another
// image for the same destination an error. The copy runs in the background: its
// error is returned by a later call or by Export.
func (w *Writer) CopyImage(dest string, r Record) error { return w.copyImage(dest, r, false) }

// CopyUprightImage is CopyImage for consumers that ignore EXIF orientation: a JPEG
// that is not stored upright is written re-encoded upright (see Upright), so its
// stored size is the displayed size the record's box is drawn on.
func (w *Writer) CopyUprightImage(dest string, r Record) error { return w.copyImage(dest, r, true) }

// ReadUprightImage is ReadImage, turned upright as CopyUprightImage does.
func (w *Writer) ReadUprightImage(r Record) ([]byte, error) {
	b, err := w.ReadImage(r)
	if err != nil {
		return nil, err
	}
	out, _, err := Upright(b)
	if err != nil {
		return nil, fmt.Errorf("image %s: %w", r.Sample.Image, err)
	}
	return out, nil
}

// runCopy runs one image copy of the export's workers; a panic in it (a
// decoder's, on a hostile file) fails the export instead of ending the process,
// which on a team server is every person's.
func runCopy(job func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("copy an image: a fault in Benchwright: %v", v)
		}
	}()
	return job()
}

// orientationHead is how much of an image is read to find its EXIF orientation.
const orientationHead = 128 << 10

func (w *Writer) copyImage(dest string, r Record, upright bool) error {
	if src, ok := w.copied[dest]; ok {
		if src != r.Sample.Image {
			return fmt.Errorf("images %s and %s would both be written to %s", src, r.Sample.Image, dest)
		}
		return nil
	}
	w.copied[dest] = r.Sample.Image
	if err := w.copyFailed(); err != nil {
		return err
	}
	if w.copies == nil {
		w.copies = make(chan func() error)
		for range copyWorkers {
			w.copyWG.Add(1)
			go func() {
				defer w.copyWG.Done()
				for job := range w.copies {
					if w.copyFailed() != nil {
						continue // drain: the export has failed
					}
					if err := runCopy(job); err != nil {
						w.copyMu.Lock()
						if w.copyErr == nil {
							w.copyErr = err
						}
						w.copyMu.Unlock()
					}
				}
			}()
		}
	}
	w.copies <- func() error {
		if !upright && w.rec != nil {
			return w.copyPlain(dest, r)
		}
		in, err := w.openImage(r)
		if err != nil {
			return err
		}
		defer in.Close()
		var src io.Reader = in
		if upright {
			br := bufio.NewReaderSize(in, orientationHead)
			head, err := br.Peek(orientationHead)
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
				return err
			}
			if imagefile.Orientation(head) > 1 {
				data, err := io.ReadAll(br)
				if err != nil {
					return err
				}
				if data, _, err = Upright(data); err != nil {
					return fmt.Errorf("image %s: %w", r.Sample.Image, err)
				}
				src = bytes.NewReader(data)
			} else {
				src = br
			}
		}
		return w.WriteFile(dest, func(out io.Writer) error {
			_, err := io.Copy(out, src)
			return err
		})
	}
	return nil
}

// copyPlain copies r's image byte for byte to dest, hashing the bytes once: the
// hash that checks them against the frozen one is the hash MANIFEST.json lists
// for dest (the bytes are the same). The checks and errors are openImage's and
// WriteFile's.
func (w *Writer) copyPlain(dest string, r Record) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if w.open == nil {
		return fmt.Errorf("image %s: no image source", r.Sample.Image)
	}
	in, err := w.open(r.Sample.Image)
	if err != nil {
		return fmt.Errorf("image %s: %w", r.Sample.Image, err)
	}
	defer in.Close()
	out, done, err := w.rec.createHashed(dest)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(out, io.TeeReader(in, h))
	sum := hex.EncodeToString(h.Sum(nil))
	if err == nil && r.ImageSHA256 != "" && sum != r.ImageSHA256 {
		err = fmt.Errorf("image %s: %w (sha256 %s…, frozen %s…)", r.Sample.Image, ErrImageChanged, sum[:12], r.ImageSHA256[:min(12, len(r.ImageSHA256))])
	}
	if err != nil {
		out.Close()
		return fmt.Errorf("%s: %w", dest, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	done(n, sum)
	return nil
}

// copyFailed is the first error of an image copy so far.
func (w *Writer) copyFailed() error {
	w.copyMu.Lock()
	defer w.copyMu.Unlock()
	return w.copyErr
}

// waitCopies waits for the image copies started and returns the first error.
func (w *Writer) waitCopies() error {
	if w.copies != nil {
		close(w.copies)
		w.copyWG.Wait()
		w.copies = nil
	}
	return w.copyFailed()
}

// ReadImage reads r's whole image, checked against its frozen hash.
func (w *Writer) ReadImage(r Record) ([]byte, error) {
	in, err := w.openImage(r)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return io.ReadAll(in)
}
