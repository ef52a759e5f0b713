package remote_test

import (
	"encoding/json"
	"image/color"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store/storetest"
)

func quotaServer(t *testing.T, p *storetest.Project, lim remote.UploadLimits) rawClient {
	t.Helper()
	s := remote.NewServer(p.DB, log.New(io.Discard, "", 0))
	s.SetUploadLimits(lim)
	srv := httptest.NewTLSServer(s.Handler())
	t.Cleanup(srv.Close)
	return rawClient{t: t, url: srv.URL, hc: srv.Client()}
}

func messageOf(body string) string {
	var we struct{ Message string }
	json.Unmarshal([]byte(body), &we)
	return we.Message
}

// TestUploadsMustBeImages: bytes that are no image the import reads are refused
// when they land (400, audited) and not kept, whatever their name.
func TestUploadsMustBeImages(t *testing.T) {
	p := storetest.Seed(t, nil)
	raw := quotaServer(t, p, remote.DefaultUploadLimits)
	tok := raw.signIn("ann1")
	for _, junk := range [][]byte{[]byte(strings.Repeat("random bytes ", 1000)), {0xff, 0xd8, 0xff, 0xe0, 0, 0}, {}} {
		before := deniedRows(t, p.DB)
		status, body := raw.put(tok, "s1/junk.jpg", sha256Hex(junk), junk)
		if status != http.StatusBadRequest || !strings.Contains(messageOf(body), "not an image") {
			t.Errorf("%d bytes of junk named .jpg: %d %s", len(junk), status, body)
		}
		if n := deniedRows(t, p.DB) - before; n != 1 {
			t.Errorf("%d refusals audited, want 1", n)
		}
		if _, err := os.Stat(filepath.Join(p.DB.UploadDir(p.Project.ID), "s1", "junk.jpg")); err == nil {
			t.Error("the junk was kept")
		}
	}
	img := jpegBytes(t, 8, 8, color.White)
	if status, body := raw.put(tok, "s1/real.jpg", sha256Hex(img), img); status != http.StatusOK {
		t.Errorf("a JPEG: %d %s", status, body)
	}
}

// TestUploadQuota: an account's uploads waiting for an import are bounded in
// bytes and in files (507 with a sentence, audited); sending one file again
// does not count twice; an import frees the quota.
func TestUploadQuota(t *testing.T) {
	files := map[string][]byte{"a.jpg": jpegBytes(t, 9, 8, color.White), "b.jpg": jpegBytes(t, 10, 8, color.Black),
		"c.jpg": jpegBytes(t, 11, 8, color.White), "d.jpg": jpegBytes(t, 12, 8, color.Black)}
	size := func(rel string) int64 { return int64(len(files[rel])) }
	for _, c := range []struct {
		name string
		lim  remote.UploadLimits
	}{
		{"bytes", remote.UploadLimits{Bytes: size("a.jpg") + size("b.jpg") + size("c.jpg")/2, Files: 100, TTL: time.Hour}},
		{"files", remote.UploadLimits{Bytes: 1 << 30, Files: 2, TTL: time.Hour}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := storetest.Seed(t, nil)
			raw := quotaServer(t, p, c.lim)
			tok, other := raw.signIn("ann1"), raw.signIn("ann2")
			put := func(tok, rel string) (int, string) {
				return raw.put(tok, c.name+"/"+rel, sha256Hex(files[rel]), files[rel])
			}
			for _, rel := range []string{"a.jpg", "b.jpg", "b.jpg"} { // b again: a resumed upload
				if status, body := put(tok, rel); status != http.StatusOK {
					t.Fatalf("upload %s: %d %s", rel, status, body)
				}
			}
			before := deniedRows(t, p.DB)
			status, body := put(tok, "c.jpg")
			if status != http.StatusInsufficientStorage || !strings.Contains(messageOf(body), "import them first") {
				t.Errorf("an upload beyond the quota: %d %s", status, body)
			}
			if n := deniedRows(t, p.DB) - before; n != 1 {
				t.Errorf("%d refusals audited, want 1", n)
			}
			if status, body := put(other, "d.jpg"); status != http.StatusOK {
				t.Errorf("another account's upload: %d %s", status, body)
			}
			if status, body := raw.post("/v1/call/ImportUploads", tok, []byte(`{"projectID":`+jsonInt(p.Project.ID)+`}`)); status != http.StatusOK {
				t.Fatalf("import: %d %s", status, body)
			}
			if status, body := put(tok, "c.jpg"); status != http.StatusOK {
				t.Errorf("an upload after the import: %d %s", status, body)
			}
		})
	}
}

// TestUnimportedUploadsExpire: uploads not imported within the limits' time are
// deleted (at the server's start and, at most hourly, on an upload); imported
// ones stay.
func TestUnimportedUploadsExpire(t *testing.T) {
	p := storetest.Seed(t, nil)
	raw := quotaServer(t, p, remote.DefaultUploadLimits)
	tok := raw.signIn("ann1")
	a, b, c := jpegBytes(t, 9, 8, color.White), jpegBytes(t, 10, 8, color.Black), jpegBytes(t, 11, 8, color.Black)
	for rel, data := range map[string][]byte{"old/a.jpg": a, "old/b.jpg": b} {
		if status, body := raw.put(tok, rel, sha256Hex(data), data); status != http.StatusOK {
			t.Fatalf("upload %s: %d %s", rel, status, body)
		}
	}
	if status, body := raw.post("/v1/call/ImportUploads", tok, []byte(`{"projectID":`+jsonInt(p.Project.ID)+`}`)); status != http.StatusOK {
		t.Fatalf("import: %d %s", status, body)
	}
	if status, body := raw.put(tok, "old/c.jpg", sha256Hex(c), c); status != http.StatusOK {
		t.Fatalf("upload c: %d %s", status, body)
	}
	p.DB.Now = func() time.Time { return time.Now().UTC().Add(8 * 24 * time.Hour) }
	defer func() { p.DB.Now = func() time.Time { return time.Now().UTC() } }()
	// A server started now sweeps on its first upload.
	raw2 := quotaServer(t, p, remote.DefaultUploadLimits)
	tok2 := raw2.signIn("ann2")
	d := jpegBytes(t, 12, 8, color.White)
	if status, body := raw2.put(tok2, "new/d.jpg", sha256Hex(d), d); status != http.StatusOK {
		t.Fatalf("upload d: %d %s", status, body)
	}
	dir := p.DB.UploadDir(p.Project.ID)
	for rel, want := range map[string]bool{"old/a.jpg": true, "old/b.jpg": true, "old/c.jpg": false, "new/d.jpg": true} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); (err == nil) != want {
			t.Errorf("%s kept: %v, want %v", rel, err == nil, want)
		}
	}
}

// TestUploadsLeaveTheDiskRoom: an upload that would leave less than the margin
// free on the server's disk is refused with 503 and a sentence.
func TestUploadsLeaveTheDiskRoom(t *testing.T) {
	p := storetest.Seed(t, nil)
	lim := remote.DefaultUploadLimits
	lim.DiskMargin = 1 << 60 // more than any disk has
	raw := quotaServer(t, p, lim)
	tok := raw.signIn("ann1")
	data := jpegBytes(t, 8, 8, color.White)
	status, body := raw.put(tok, "s/a.jpg", sha256Hex(data), data)
	if status != http.StatusServiceUnavailable || !strings.Contains(messageOf(body), "disk is full") {
		t.Errorf("an upload onto a nearly full disk: %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(p.DB.UploadDir(p.Project.ID), "s", "a.jpg")); err == nil {
		t.Error("the upload was kept")
	}
	_ = bench.ErrDiskFull
}
