package remote

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/benchwright/benchwright/bench"
)

// Uploads wait in the server's files folder until someone imports them: what
// lands must be an image (its header read as the import reads it), each account
// keeps at most a share of pending bytes and files, what is not imported is
// deleted after a while, and nothing is taken when the disk is nearly full (a
// full disk breaks every write of every person).

// UploadLimits bound what waits in the upload folder.
type UploadLimits struct {
	Bytes int64         // pending (not imported) bytes per account
	Files int           // pending files per account
	TTL   time.Duration // how long an upload waits for an import before it is deleted
	// DiskMargin is the free room an upload must leave on the files folder's
	// disk; 0: the smaller of 1 GiB and 5 % of the disk.
	DiskMargin int64
}

// DefaultUploadLimits are a server's limits until SetUploadLimits.
var DefaultUploadLimits = UploadLimits{Bytes: 4 << 30, Files: 20000, TTL: 7 * 24 * time.Hour}

// SetUploadLimits changes the limits on uploads (tests use small ones).
func (s *Server) SetUploadLimits(l UploadLimits) { s.uploads = l }

// uploadSweep runs ExpireUploads at most once an interval per server.
type uploadSweep struct {
	mu   sync.Mutex
	last time.Time
}

const sweepEvery = time.Hour

// sweepUploads deletes the uploads that waited longer than the limits' TTL,
// unless this server did so within the last hour (force: now).
func (s *Server) sweepUploads(ctx context.Context, force bool) {
	s.sweep.mu.Lock()
	if !force && time.Since(s.sweep.last) < sweepEvery {
		s.sweep.mu.Unlock()
		return
	}
	s.sweep.last = time.Now()
	s.sweep.mu.Unlock()
	n, err := s.db.ExpireUploads(context.WithoutCancel(ctx), s.db.Now().Add(-s.uploads.TTL))
	switch {
	case err != nil:
		s.log.Printf("benchwright server: delete old uploads: %v", err)
	case n > 0:
		s.log.Printf("benchwright server: deleted %d uploads not imported within %s", n, s.uploads.TTL)
	}
}

// roomFor checks that size more bytes leave the margin free on the disk of the
// server's files; it answers the request and returns false when they do not.
func (s *Server) roomFor(w http.ResponseWriter, r *http.Request, rel string, size int64) bool {
	dir := s.db.FilesDir()
	free, total, err := diskFree(dir)
	if err != nil {
		s.log.Printf("benchwright server: free room on %s: %v", dir, err)
		return true // not known: the write itself will say
	}
	margin := uint64(s.uploads.DiskMargin)
	if margin == 0 {
		margin = min(1<<30, total/20)
	}
	if free < margin+uint64(max(size, 0)) {
		s.fail(w, r, fmt.Errorf("upload %s: %d MiB free, the upload folder keeps %d MiB: %w", rel, free>>20, margin>>20, bench.ErrDiskFull))
		return false
	}
	return true
}

// probeImage reads the header of the file at p as the import does, and says
// why it is not an image the import reads (nil: it is).
func probeImage(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, _, err := image.DecodeConfig(bufio.NewReader(io.LimitReader(f, 8<<20))); err != nil {
		return fmt.Errorf("not an image the import reads (JPEG, PNG, WebP or GIF)")
	}
	return nil
}
