package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/store"
)

// Uploading a workstation's image folder to the team server: the client hashes
// its files, asks which the server lacks, sends only those (each checked against
// its hash on arrival and kept only whole), then asks the server to import its
// upload folder. A cut-off upload is resumed by running the import again.

// MaxUploadBytes is the largest image file the server accepts.
const MaxUploadBytes = 512 << 20

type uploadFile struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

type haveRequest struct {
	Files []uploadFile `json:"files"`
}

type haveResponse struct {
	Missing []string `json:"missing"`
}

func (s *Server) uploadHave(w http.ResponseWriter, r *http.Request, me bench.User, _ string) {
	pid, err := strconv.ParseInt(r.PathValue("project"), 10, 64)
	if err != nil {
		s.refuse(w, r, me, http.StatusBadRequest, "upload", "a project that is not a number")
		return
	}
	var in haveRequest
	if !s.decode(w, r, me, "upload", &in) {
		return
	}
	var out haveResponse
	rels := make([]string, len(in.Files))
	for i, f := range in.Files {
		rels[i] = f.Path
	}
	paths, err := s.db.UploadPaths(r.Context(), me, pid, rels)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i, f := range in.Files {
		if p := paths[i]; !sameFile(p, f.Size, f.SHA256) {
			out.Missing = append(out.Missing, f.Path)
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// sameFile reports whether the file at p has size and SHA-256 sum.
func sameFile(p string, size int64, sum string) bool {
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() || st.Size() != size {
		return false
	}
	got, err := fileSHA256(p)
	return err == nil && got == sum
}

func fileSHA256(p string) (string, error) {
	_, sum, err := release.HashFile(context.Background(), p)
	return sum, err
}

func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request, me bench.User, _ string) {
	pid, err := strconv.ParseInt(r.PathValue("project"), 10, 64)
	if err != nil {
		s.refuse(w, r, me, http.StatusBadRequest, "upload", "a project that is not a number")
		return
	}
	rel, want := r.URL.Query().Get("path"), r.URL.Query().Get("sha256")
	p, err := s.db.UploadPath(r.Context(), me, pid, rel)
	if err != nil {
		if errors.Is(err, bench.ErrInvalid) {
			s.refuse(w, r, me, http.StatusBadRequest, "upload", bench.Message(err))
			return
		}
		s.fail(w, r, err)
		return
	}
	s.sweepUploads(r.Context(), false)
	size := r.ContentLength
	if size < 0 {
		size = MaxUploadBytes
	}
	if !s.roomFor(w, r, rel, size) {
		return
	}
	if err := s.db.CheckUploadQuota(r.Context(), me, pid, rel, size, store.UploadLimits{Bytes: s.uploads.Bytes, Files: s.uploads.Files}); err != nil {
		if errors.Is(err, bench.ErrQuota) {
			s.refuse(w, r, me, http.StatusInsufficientStorage, "upload", strings.TrimSuffix(bench.Message(err), "."))
			return
		}
		s.fail(w, r, err)
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.fail(w, r, fmt.Errorf("upload %s: %w", rel, err))
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		s.fail(w, r, fmt.Errorf("upload %s: %w", rel, err))
		return
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	body := s.pacedBody(w, r, MaxUploadBytes)
	landed, err := io.Copy(io.MultiWriter(tmp, h), body)
	body.done()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		s.refuse(w, r, me, http.StatusRequestEntityTooLarge, "upload", fmt.Sprintf("%s is over %d MiB", rel, MaxUploadBytes>>20))
		return
	case errors.Is(body.err, errBodyTooSlow):
		s.refuseBody(w, r, me, "upload", MaxUploadBytes, body, err)
		return
	case err != nil && body.err == nil: // the body came whole: writing it failed (a full disk, say)
		s.fail(w, r, fmt.Errorf("upload %s: %w", rel, err))
		return
	case err != nil:
		s.fail(w, r, fmt.Errorf("upload %s: the transfer broke off: %w", rel, ErrOffline))
		return
	}
	got := hex.EncodeToString(h.Sum(nil))
	if got != want {
		writeJSON(w, http.StatusBadRequest, wireError{Codes: []string{"invalid"}, Text: "damaged upload",
			Message: fmt.Sprintf("The upload of %s arrived damaged (its SHA-256 is %s, the workstation's %s); it was not kept.", rel, short(got), short(want))})
		return
	}
	if err := probeImage(tmp.Name()); err != nil {
		s.refuse(w, r, me, http.StatusBadRequest, "upload", fmt.Sprintf("%s is %v", rel, err))
		return
	}
	// A path that already holds other bytes keeps them: an imported image that
	// changed under the project would make every release holding it fail to
	// export. The same bytes again are fine (a resumed upload).
	if old, err := fileSHA256(p); err == nil && old != got {
		writeJSON(w, http.StatusConflict, wireError{Codes: []string{"conflict"}, Text: "a different file is uploaded at " + rel,
			Message: fmt.Sprintf("A different file was already uploaded as %s; give yours another name.", rel)})
		return
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		s.fail(w, r, fmt.Errorf("upload %s: %w", rel, err))
		return
	}
	if err := s.db.RecordUpload(r.Context(), me, pid, rel, landed); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct{}{})
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// ImportImages uploads the images below dir that the server lacks and imports
// them on the server. Files this workstation cannot read are listed as rejected
// with the reason, as a local import lists them.
func (c *Client) ImportImages(ctx context.Context, projectID int64, dir string, progress func(bench.ImportProgress)) (bench.ImportResult, error) {
	var res bench.ImportResult
	var files []uploadFile
	report := func(p bench.ImportProgress) {
		if progress != nil {
			progress(p)
		}
	}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == dir {
				return err
			}
			res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: rel, Reason: "cannot be read: " + errors.Unwrap(err).Error()})
			return nil
		}
		if strings.HasPrefix(e.Name(), ".") && p != dir {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			return nil
		}
		if !imagefile.IsImageName(e.Name()) {
			res.Ignored++
			return nil
		}
		if !e.Type().IsRegular() {
			res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: rel, Reason: "not a regular file (a link or a device)"})
			return nil
		}
		files = append(files, uploadFile{Path: rel})
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("read %s: %w", dir, err)
	}
	total := 2 * len(files) // hashing, then uploading
	kept := files[:0]
	for i, f := range files {
		report(bench.ImportProgress{Total: total, Done: i, Current: f.Path})
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		st, err := os.Stat(p)
		if err == nil {
			f.Size = st.Size()
			f.SHA256, err = fileSHA256(p)
		}
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: f.Path, Reason: "cannot be read: " + err.Error()})
			continue
		}
		kept = append(kept, f)
	}
	files = kept
	var have haveResponse
	if err := c.do(ctx, http.MethodPost, fmt.Sprintf("/v1/upload/%d/have", projectID), haveRequest{Files: files}, &have); err != nil {
		return res, err
	}
	missing := map[string]bool{}
	for _, m := range have.Missing {
		missing[m] = true
	}
	for i, f := range files {
		report(bench.ImportProgress{Total: total, Done: len(files) + i, Current: f.Path})
		if !missing[f.Path] {
			continue
		}
		if err := c.upload(ctx, projectID, dir, f); err != nil {
			var re *Error
			if errors.As(err, &re) && (re.Is(bench.ErrInvalid) || re.Is(bench.ErrConflict)) {
				res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: f.Path, Reason: re.Message()})
				continue
			}
			return res, err // offline or refused: what was sent is kept, the next run resumes
		}
	}
	report(bench.ImportProgress{Total: total, Done: total})
	// The import's report is asked for by pointer: an answer without one (a
	// server that died or was cut off mid-import, a proxy's empty page) is an
	// import that did not end, never an import of nothing.
	var out struct {
		R0 *bench.ImportResult `json:"r0"`
	}
	err = c.call(ctx, "ImportUploads", inImportUploads{ProjectID: projectID}, &out)
	if err == nil && out.R0 == nil {
		err = fmt.Errorf("%w: its answer held no report", ErrOffline)
	}
	if err != nil {
		if errors.Is(err, ErrOffline) {
			err = fmt.Errorf("the import on the server ended without a report, so what it imported is unknown (the uploaded files are kept there; run the import again to finish it): %w", err)
		}
		return res, err
	}
	got := *out.R0
	got.Rejected = append(res.Rejected, got.Rejected...)
	got.Ignored += res.Ignored
	return got, nil
}

func (c *Client) upload(ctx context.Context, projectID int64, dir string, f uploadFile) error {
	fh, err := os.Open(filepath.Join(dir, filepath.FromSlash(f.Path)))
	if err != nil {
		return err
	}
	defer fh.Close()
	q := url.Values{"path": {f.Path}, "sha256": {f.SHA256}}
	req, err := c.request(ctx, http.MethodPut, fmt.Sprintf("/v1/upload/%d?%s", projectID, q.Encode()), nil)
	if err != nil {
		return err
	}
	req.Body = fh
	req.ContentLength = f.Size
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.offline(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return readError(resp)
	}
	return nil
}
