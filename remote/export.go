package remote

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// Exporting a release from a team server: the server writes the export with the
// store's Export (its images are on the server's disk) into a temporary folder and
// sends it as a tar stream whose first entry is the export's result; the client
// unpacks it into the workstation's output folder, whole or not at all.

const exportResultEntry = ".benchwright-export.json"

func (s *Server) export(w http.ResponseWriter, r *http.Request, me bench.User, _ string) {
	var in bench.ExportInput
	if !s.decode(w, r, me, "export", &in) {
		return
	}
	tmp, err := os.MkdirTemp("", "benchwright-export-*")
	if err != nil {
		s.fail(w, r, fmt.Errorf("export: %w", err))
		return
	}
	defer os.RemoveAll(tmp)
	in.OutDir = filepath.Join(tmp, "out")
	res, err := s.db.Export(r.Context(), me, in, nil)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res.Dir = "" // the server's temporary folder means nothing to the workstation
	head, err := json.Marshal(res)
	if err != nil {
		s.fail(w, r, fmt.Errorf("export: %w", err))
		return
	}
	w.Header().Set("Content-Type", "application/x-tar")
	w.WriteHeader(http.StatusOK)
	tw := tar.NewWriter(w)
	if err := tw.WriteHeader(&tar.Header{Name: exportResultEntry, Mode: 0o644, Size: int64(len(head))}); err != nil {
		return
	}
	if _, err := tw.Write(head); err != nil {
		return
	}
	err = filepath.WalkDir(in.OutDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == in.OutDir {
			return err
		}
		rel, _ := filepath.Rel(in.OutDir, p)
		info, err := e.Info()
		if err != nil {
			return err
		}
		h, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		h.Name = filepath.ToSlash(rel)
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err != nil {
		s.log.Printf("benchwright server: sending an export to %s: %v", clientAddr(r), err)
		return // the stream is cut; the client sees an incomplete archive and keeps nothing
	}
	tw.Close()
}

// Export asks the server to export a frozen release and unpacks the files into
// in.OutDir on this workstation (a folder that does not exist yet or is empty). The
// files are unpacked into a hidden folder beside it and renamed at the end, so a
// broken transfer leaves nothing behind. progress, when set, is called as files
// arrive (total is 0: the server does not say in advance).
func (c *Client) Export(ctx context.Context, in bench.ExportInput, progress func(done, total int)) (bench.ExportResult, error) {
	var res bench.ExportResult
	out, err := filepath.Abs(in.OutDir)
	if in.OutDir == "" || err != nil {
		return res, fmt.Errorf("export: %w: no output folder", bench.ErrInvalid)
	}
	if err := store.CheckOutDir(out); err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+".part-*")
	if err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	defer os.RemoveAll(tmp)
	send := in
	send.OutDir = ""
	req, err := c.request(ctx, http.MethodPost, "/v1/export", send)
	if err != nil {
		return res, err
	}
	hc := *c.hc
	hc.Timeout = 0 // a big release takes as long as it takes; ctx cancels it
	resp, err := hc.Do(req)
	if err != nil {
		return res, c.offline(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return res, readError(resp)
	}
	tr := tar.NewReader(resp.Body)
	done := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return res, c.offline(fmt.Errorf("the export arrived incomplete: %w", err))
		}
		if h.Name == exportResultEntry {
			if err := json.NewDecoder(tr).Decode(&res); err != nil {
				return res, fmt.Errorf("export: the server's result is unreadable: %w", err)
			}
			continue
		}
		name := path.Clean(h.Name)
		if name == "." || !filepath.IsLocal(filepath.FromSlash(name)) || strings.Contains(h.Name, "\\") {
			return res, fmt.Errorf("export: the server sent a file outside the export (%q)", h.Name)
		}
		dst := filepath.Join(tmp, filepath.FromSlash(name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(dst, 0o755); err != nil {
				return res, fmt.Errorf("export: %w", err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return res, fmt.Errorf("export: %w", err)
			}
			f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				return res, fmt.Errorf("export: %w", err)
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return res, c.offline(fmt.Errorf("the export arrived incomplete: %w", err))
			}
			done++
			if progress != nil {
				progress(done, 0)
			}
		default:
			return res, fmt.Errorf("export: the server sent %q, which is not a file or a folder", h.Name)
		}
	}
	if res.Release.ID == 0 {
		return res, fmt.Errorf("export: the server's answer held no result")
	}
	if err := store.CheckOutDir(out); err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	os.Remove(out)
	if err := os.Rename(tmp, out); err != nil {
		return res, fmt.Errorf("export: %w", err)
	}
	res.Dir = out
	return res, nil
}
