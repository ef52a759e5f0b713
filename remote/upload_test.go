package remote_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store/storetest"
)

func jpegBytes(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func write(t *testing.T, dir, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUploadImages: a workstation's folder is uploaded (only what the server
// lacks), hash-checked and imported on the server, keeping the folder's paths;
// bad files are reported per file.
func TestUploadImages(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	var puts, requests atomic.Int32
	h := remote.NewServer(p.DB, log.New(io.Discard, "", 0)).Handler()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Method == http.MethodPut {
			puts.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := remote.Dial(ctx, srv.URL, remote.Options{Fingerprint: remote.Fingerprint(srv.Certificate().Raw), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Authenticate(ctx, "ann1", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, "0002-kitchen-1/b.jpg", jpegBytes(t, 40, 30, color.RGBA{200, 10, 10, 255}))
	write(t, dir, "0002-kitchen-1/c.jpg", jpegBytes(t, 30, 40, color.RGBA{10, 200, 10, 255}))
	write(t, dir, "0003-garage-1/broken.jpg", []byte("not a jpeg at all"))
	write(t, dir, "notes.txt", []byte("ignored"))
	write(t, dir, ".cache/hidden.jpg", jpegBytes(t, 8, 8, color.Black))

	res, err := c.ImportImages(ctx, p.Project.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 2 || len(res.Rejected) != 1 || res.Rejected[0].RelPath != "0003-garage-1/broken.jpg" || res.Ignored != 1 {
		t.Fatalf("first upload: %+v", res)
	}
	if n := puts.Load(); n != 3 {
		t.Errorf("%d files sent, want 3 (two images and the broken one; not the text or the hidden file)", n)
	}
	im, err := c.ImageByPath(ctx, p.Project.ID, "0002-kitchen-1/c.jpg")
	if err != nil || im.Width != 30 || im.Height != 40 {
		t.Fatalf("the uploaded image on the server: %+v, %v", im, err)
	}
	if f, err := c.ImageFile(ctx, im.SHA256, bench.ImageThumb); err != nil || f == "" {
		t.Errorf("its thumbnail through the server: %q, %v", f, err)
	}
	// What is not a content hash as Benchwright writes one never reaches the
	// server (nor names a file of the cache).
	for _, bad := range []string{"", strings.ToUpper(im.SHA256), im.SHA256[:63], "../" + im.SHA256[3:], im.SHA256[:63] + "g"} {
		before := requests.Load()
		if _, err := c.ImageFile(ctx, bad, bench.ImageThumb); !errors.Is(err, bench.ErrInvalid) {
			t.Errorf("ImageFile(%q): %v, want ErrInvalid", bad, err)
		}
		if n := requests.Load() - before; n != 0 {
			t.Errorf("ImageFile(%q) sent %d requests", bad, n)
		}
	}

	// The file the import refused is not kept on the server's disk.
	if _, err := os.Stat(filepath.Join(p.DB.UploadDir(p.Project.ID), "0003-garage-1", "broken.jpg")); err == nil {
		t.Error("the refused upload stays on the server's disk")
	}
	// Again: the images are not sent twice (only the refused file, which is
	// refused again); the server keeps what it has.
	puts.Store(0)
	res, err = c.ImportImages(ctx, p.Project.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := puts.Load(); n != 1 || res.Imported != 0 || res.Unchanged != 2 || len(res.Rejected) != 1 {
		t.Errorf("second upload: %d files sent, %+v; want only the refused one, 2 unchanged", n, res)
	}
	// Other bytes under a path already uploaded are refused, and the image stays.
	write(t, dir, "0002-kitchen-1/c.jpg", jpegBytes(t, 30, 40, color.RGBA{0, 0, 200, 255}))
	res, err = c.ImportImages(ctx, p.Project.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Rejected, func(r bench.RejectedFile) bool {
		return r.RelPath == "0002-kitchen-1/c.jpg" && strings.Contains(r.Reason, "different file")
	}) {
		t.Errorf("another file under an uploaded path: %+v", res)
	}
	if again, _ := c.ImageByPath(ctx, p.Project.ID, "0002-kitchen-1/c.jpg"); again.SHA256 != im.SHA256 {
		t.Error("the uploaded image was replaced")
	}

	// A verifier may not upload.
	v, _ := remote.Dial(ctx, srv.URL, remote.Options{Fingerprint: remote.Fingerprint(srv.Certificate().Raw), CacheDir: t.TempDir()})
	defer v.Close()
	v.Authenticate(ctx, "a1", storetest.Password)
	if _, err := v.ImportImages(ctx, p.Project.ID, dir, nil); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("a verifier's upload: %v, want a refusal", err)
	}
}

// TestUploadRefusals: paths outside the upload folder and damaged files are
// refused, and nothing is written.
func TestUploadRefusals(t *testing.T) {
	p := storetest.Seed(t, nil)
	srv := httptest.NewTLSServer(remote.NewServer(p.DB, log.New(io.Discard, "", 0)).Handler())
	t.Cleanup(srv.Close)
	raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}
	tok := raw.signIn("ann1")
	data := jpegBytes(t, 10, 10, color.White)
	sum := sha256.Sum256(data)
	good := hex.EncodeToString(sum[:])
	put := func(rel, sha string) (int, string) { return raw.put(tok, rel, sha, data) }
	root := filepath.Dir(p.DB.Path())
	for _, rel := range []string{"../../escape.jpg", "/etc/escape.jpg", "a/../../escape.jpg", "a\\..\\escape.jpg", "evil.sh", ".hidden/x.jpg"} {
		before := deniedRows(t, p.DB)
		status, body := put(rel, good)
		if status != http.StatusBadRequest {
			t.Errorf("upload to %q: %d %s, want 400", rel, status, body)
		}
		if n := deniedRows(t, p.DB) - before; n != 1 {
			t.Errorf("upload to %q: %d refusals audited, want 1", rel, n)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "escape.jpg")); err == nil {
		t.Error("a file was written outside the upload folder")
	}
	status, body := put("ok/damaged.jpg", strings.Repeat("0", 64))
	if status != http.StatusBadRequest || !strings.Contains(body, "arrived damaged") {
		t.Errorf("a damaged upload: %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(p.DB.UploadDir(p.Project.ID), "ok", "damaged.jpg")); err == nil {
		t.Error("the damaged upload was kept")
	}
	if status, body := put("ok/fine.jpg", good); status != http.StatusOK {
		t.Errorf("a whole upload: %d %s", status, body)
	}
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
