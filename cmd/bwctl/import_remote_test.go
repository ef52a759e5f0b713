package main

import (
	"image"
	"image/jpeg"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestImportImagesWithoutAReport: an import through a server whose answer holds
// no report (the server died mid-import, or something answered for it) says so
// and exits non-zero, instead of printing "imported 0" and exiting 0.
func TestImportImagesWithoutAReport(t *testing.T) {
	p := storetest.Seed(t, nil)
	h := remote.NewServer(p.DB, log.New(io.Discard, "", 0)).Handler()
	for _, c := range []struct {
		name   string
		answer func(w http.ResponseWriter)
	}{
		{"the connection is cut", func(w http.ResponseWriter) { panic(http.ErrAbortHandler) }},
		{"an empty answer", func(w http.ResponseWriter) { w.Write([]byte(`{}`)) }},
		{"a null answer", func(w http.ResponseWriter) { w.Write([]byte(`null`)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/ImportUploads") {
					c.answer(w)
					return
				}
				h.ServeHTTP(w, r)
			}))
			srv.Config.ErrorLog = log.New(io.Discard, "", 0)
			srv.StartTLS()
			defer srv.Close()
			dir := t.TempDir()
			f, err := os.Create(filepath.Join(dir, "a.jpg"))
			if err != nil {
				t.Fatal(err)
			}
			jpeg.Encode(f, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
			f.Close()
			setPasswords(t, pw(storetest.Password))
			code, out, errOut := bwctl("import-images", "--server", strings.TrimPrefix(srv.URL, "https://"),
				"--fingerprint", remote.Fingerprint(srv.Certificate().Raw), "--project", p.Project.Name, "--as", "ann1", dir)
			if code == exitOK || strings.Contains(out, "imported 0") || !strings.Contains(errOut, "without a report") {
				t.Errorf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
		})
	}
}
