package store_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
)

func encodeJPEG(t testing.TB, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withOrientation inserts an EXIF APP1 segment holding the orientation tag after SOI.
func withOrientation(jpg []byte, orientation uint16) []byte {
	var tiff bytes.Buffer
	tiff.WriteString("MM\x00\x2a")
	binary.Write(&tiff, binary.BigEndian, uint32(8))
	binary.Write(&tiff, binary.BigEndian, uint16(1))      // one entry
	binary.Write(&tiff, binary.BigEndian, uint16(0x0112)) // Orientation
	binary.Write(&tiff, binary.BigEndian, uint16(3))      // SHORT
	binary.Write(&tiff, binary.BigEndian, uint32(1))
	binary.Write(&tiff, binary.BigEndian, orientation)
	binary.Write(&tiff, binary.BigEndian, uint16(0))
	binary.Write(&tiff, binary.BigEndian, uint32(0)) // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	seg = append(seg, payload...)
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	return append(out, jpg[2:]...)
}

// hugePNGHeader is a valid PNG signature and IHDR declaring w×h, with no image data.
func hugePNGHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportImages(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	good := encodeJPEG(t, 64, 48, color.RGBA{200, 0, 0, 255})
	writeFile(t, filepath.Join(dir, "0001-office-1", "a.jpg"), good)
	writeFile(t, filepath.Join(dir, "0001-office-1", "b.PNG"), encodePNG(t, 30, 20))
	writeFile(t, filepath.Join(dir, "0002-kitchen-1", "rotated.jpg"), withOrientation(encodeJPEG(t, 80, 40, color.White), 6))
	writeFile(t, filepath.Join(dir, "0002-kitchen-1", "copy.jpg"), good)
	writeFile(t, filepath.Join(dir, "top.jpg"), encodeJPEG(t, 10, 10, color.Black))
	writeFile(t, filepath.Join(dir, "bad", "empty.jpg"), nil)
	writeFile(t, filepath.Join(dir, "bad", "truncated.jpg"), good[:len(good)/2])
	writeFile(t, filepath.Join(dir, "bad", "text.jpg"), []byte("this is not an image\n"))
	writeFile(t, filepath.Join(dir, "bad", "huge.png"), hugePNGHeader(60000, 60000))
	writeFile(t, filepath.Join(dir, "notes.txt"), []byte("ignored"))
	writeFile(t, filepath.Join(dir, ".hidden", "x.jpg"), good)

	var last bench.ImportProgress
	res, err := f.db.ImportImages(ctx, f.ann, f.project.ID, dir, func(p bench.ImportProgress) { last = p })
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 4 || len(res.Duplicate) != 1 || res.Ignored != 1 {
		t.Fatalf("imported %d, duplicates %v, ignored %d", res.Imported, res.Duplicate, res.Ignored)
	}
	wantReasons := map[string]string{
		"bad/empty.jpg":     "empty file",
		"bad/truncated.jpg": "truncated",
		"bad/text.jpg":      "not a readable image",
		"bad/huge.png":      "60000×60000",
	}
	if len(res.Rejected) != len(wantReasons) {
		t.Fatalf("rejected %v", res.Rejected)
	}
	for _, r := range res.Rejected {
		if want, ok := wantReasons[r.RelPath]; !ok || !strings.Contains(r.Reason, want) {
			t.Errorf("rejected %s: %q, want it to say %q", r.RelPath, r.Reason, want)
		}
	}
	if last.Done != last.Total || last.Total != 9 || last.Imported != 4 || last.Rejected != 4 {
		t.Errorf("final progress %+v", last)
	}

	rot, err := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, "0002-kitchen-1/rotated.jpg")
	if err != nil {
		t.Fatal(err)
	}
	if rot.Width != 40 || rot.Height != 80 || rot.Scene != "0002-kitchen-1" {
		t.Errorf("EXIF-rotated image stored as %d×%d scene %q, want 40×80 in 0002-kitchen-1", rot.Width, rot.Height, rot.Scene)
	}
	if _, err := os.Stat(imagefile.ThumbPath(f.db.PreviewDir(), rot.SHA256)); err != nil {
		t.Errorf("thumbnail missing: %v", err)
	}
	if top, err := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, "top.jpg"); err != nil || top.Scene != "" {
		t.Errorf("top-level image: %+v %v", top, err)
	}

	// Importing again changes nothing and loses nothing.
	res2, err := f.db.ImportImages(ctx, f.ann, f.project.ID, dir, nil)
	if err != nil || res2.Imported != 0 || res2.Unchanged != 4 {
		t.Fatalf("re-import: %+v %v", res2, err)
	}
	if n, _ := f.db.CountImages(ctx, bench.Owner(), f.project.ID); n != 4 {
		t.Fatalf("after re-import %d images, want 4", n)
	}

	// A referenced file that changes or vanishes is detected.
	a, _ := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, "0001-office-1/a.jpg")
	if err := a.CheckFile(); err != nil {
		t.Fatalf("fresh file: %v", err)
	}
	writeFile(t, a.Path(), encodeJPEG(t, 64, 48, color.RGBA{0, 0, 200, 255}))
	if err := a.CheckFile(); !errors.Is(err, bench.ErrImageChanged) {
		t.Errorf("changed file: got %v", err)
	}
	res3, err := f.db.ImportImages(ctx, f.ann, f.project.ID, dir, nil)
	if err != nil || len(res3.Rejected) != 5 || !strings.Contains(res3.Rejected[0].Reason, "changed on disk") {
		t.Errorf("re-import of a changed file: %+v %v", res3.Rejected, err)
	}
	os.Remove(a.Path())
	if err := a.CheckFile(); !errors.Is(err, bench.ErrImageMissing) {
		t.Errorf("vanished file: got %v", err)
	}
}

func TestImportRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	if _, err := f.db.ImportImages(ctx, f.ver, f.project.ID, t.TempDir(), nil); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("verifier import: got %v, want ErrForbidden", err)
	}
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, filepath.Join(t.TempDir(), "nope"), nil); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("missing folder: got %v, want ErrInvalid", err)
	}
}

func TestImportCancel(t *testing.T) {
	f := newFixture(t)
	dir := t.TempDir()
	for i := 0; i < 40; i++ {
		writeFile(t, filepath.Join(dir, "s", string(rune('a'+i%26))+strings.Repeat("x", i/26)+".jpg"),
			encodeJPEG(t, 32+i, 32, color.RGBA{uint8(i), 0, 0, 255}))
	}
	ctx, cancel := context.WithCancel(context.Background())
	res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, func(p bench.ImportProgress) {
		if p.Done == 5 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	n, _ := f.db.CountImages(context.Background(), bench.Owner(), f.project.ID)
	if n != res.Imported || n >= 40 {
		t.Errorf("after cancel %d stored, %d reported imported", n, res.Imported)
	}
	// Finishing the import later takes the rest.
	res2, err := f.db.ImportImages(context.Background(), f.lead, f.project.ID, dir, nil)
	if err != nil || res2.Imported+res2.Unchanged != 40 {
		t.Errorf("resume: %+v %v", res2, err)
	}
}

// Two imports of one folder racing (both have listed the folder and read what the
// project holds before either stores anything) report every file once as imported
// and once as already imported, never as a duplicate of itself.
func TestConcurrentImportsOfOneFolder(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	const n = 6
	for i := 0; i < n; i++ {
		writeFile(t, filepath.Join(dir, "s", fmt.Sprintf("%d.jpg", i)), encodeJPEG(t, 20+i, 20, color.RGBA{uint8(40 * i), 0, 0, 255}))
	}
	var ready sync.WaitGroup // the start barrier: both imports at their first progress report
	ready.Add(2)
	var results [2]bench.ImportResult
	var errs [2]error
	var done sync.WaitGroup
	for i := range results {
		done.Add(1)
		go func() {
			defer done.Done()
			var once sync.Once
			results[i], errs[i] = f.db.ImportImages(ctx, f.lead, f.project.ID, dir, func(bench.ImportProgress) {
				once.Do(func() { ready.Done(); ready.Wait() })
			})
		}()
	}
	done.Wait()
	imported, unchanged := 0, 0
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("import %d: %v", i, errs[i])
		}
		if len(r.Duplicate) != 0 || len(r.Rejected) != 0 {
			t.Errorf("import %d: duplicates %v, rejected %v", i, r.Duplicate, r.Rejected)
		}
		imported += r.Imported
		unchanged += r.Unchanged
	}
	if imported != n || unchanged != n {
		t.Errorf("imported %d and already imported %d in all, want %d and %d", imported, unchanged, n, n)
	}
	if c, _ := f.db.CountImages(ctx, bench.Owner(), f.project.ID); c != n {
		t.Errorf("%d images stored, want %d", c, n)
	}
}

// A file whose time changed but not its content is already imported, not a duplicate
// of itself; its recorded time follows the file.
func TestReimportTouchedFile(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jpg")
	writeFile(t, path, encodeJPEG(t, 16, 16, color.White))
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil)
	if err != nil || res.Unchanged != 1 || len(res.Duplicate) != 0 || len(res.Rejected) != 0 {
		t.Fatalf("re-import of a touched file: %+v %v", res, err)
	}
	im, err := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, "a.jpg")
	if err != nil || im.CheckFile() != nil {
		t.Errorf("after re-import: %v, check %v", err, im.CheckFile())
	}
}

// Previews are a cache: a server started with a new --files folder, or a database
// copied elsewhere, has none, and ImageFile makes them again from the image file —
// but not from a file that no longer holds what was imported.
func TestImageFileRemakesMissingPreviews(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "a.jpg")
	writeFile(t, path, encodeJPEG(t, 640, 480, color.White))
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	im, err := f.db.ImageByPath(ctx, f.lead, f.project.ID, "a.jpg")
	if err != nil {
		t.Fatal(err)
	}
	f.db.SetFilesDir(t.TempDir()) // no previews there
	for _, thumb := range []bench.ImageSize{bench.ImagePreview, bench.ImageThumb} {
		p, err := f.db.ImageFile(ctx, f.ann, im.SHA256, thumb)
		if err != nil {
			t.Fatalf("thumb %v: %v", thumb, err)
		}
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("thumb %v: %s: %v", thumb, p, err)
		}
	}
	f.db.SetFilesDir(t.TempDir())
	writeFile(t, path, encodeJPEG(t, 640, 480, color.Black)) // other bytes now
	if _, err := f.db.ImageFile(ctx, f.ann, im.SHA256, bench.ImagePreview); !errors.Is(err, bench.ErrImageMissing) {
		t.Errorf("a changed file: %v, want ErrImageMissing", err)
	}
}
