package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/verify"
)

var _ bench.Service = (*DB)(nil)

// As is the project file as u works on it: each call of the Session is the DB's
// own with u as its actor (session_gen.go, written by go generate ./remote from
// bench.Session). The file believes u, as its methods do: the screens and bwctl
// pass the account signing in returned, and a team server the user of the
// request's session token.
func (d *DB) As(u bench.User) bench.Session { return session{db: d, user: u} }

// SignOut does nothing for a local file: there is no session to end.
func (d *DB) SignOut(ctx context.Context) error { return nil }

// Where is the database file's path.
func (d *DB) Where() string { return RedactURL(d.path) }

// ImageFile returns the path of the cached preview or thumbnail, or of the
// original file, of the image with content hash sha, which must be an image of a
// project actor is a member of (ErrForbidden, audited, when it is only in
// others'). A preview the import did not make (or that was deleted) is made again
// from the file; a file that is gone, or an image in no project, is
// ErrImageMissing, and an original that changed since its import ErrImageChanged.
func (d *DB) ImageFile(ctx context.Context, actor bench.User, sha string, size bench.ImageSize) (string, error) {
	if !size.Valid() {
		return "", fmt.Errorf("image %q: %w: no image size %q", sha, bench.ErrInvalid, size)
	}
	if !annotate.IsSHA256Hex(sha) {
		return "", fmt.Errorf("image %q: %w: not a SHA-256", sha, bench.ErrInvalid)
	}
	var files []bench.Image // the image's files, in the projects that hold it
	err := d.readAs(ctx, actor, "image.read", func(tx *sql.Tx) error {
		if err := requireImageAction(ctx, tx, actor, sha, verify.ActionReadProject); err != nil {
			return err
		}
		var err error
		files, err = queryAll(ctx, tx, scanImage, `SELECT `+imageCols+` FROM images i JOIN image_roots r ON r.id = i.root_id
			WHERE i.sha256 = ? ORDER BY i.id`, sha)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("image %s: %w", sha[:12], err)
	}
	if size == bench.ImageOriginal {
		// The file as imported: the first of its copies that still is.
		err := fmt.Errorf("image %s: %w", sha[:12], bench.ErrImageMissing)
		for _, im := range files {
			if cerr := im.CheckFile(); cerr == nil {
				return im.Path(), nil
			} else if errors.Is(cerr, bench.ErrImageChanged) {
				err = fmt.Errorf("image %s: %w", sha[:12], cerr)
			}
		}
		return "", err
	}
	p := imagefile.PreviewPath(d.PreviewDir(), sha)
	if size == bench.ImageThumb {
		p = imagefile.ThumbPath(d.PreviewDir(), sha)
	}
	if _, err := os.Stat(p); err != nil {
		// Previews are a cache: made again from the image file itself when they
		// are not there (a server whose --files is new, a copied database), as
		// long as the file still holds what was imported.
		for _, im := range files {
			if pr, err := probeImage(im.Path(), im.RelPath, d.PreviewDir()); err == nil && pr.SHA256 == sha {
				break
			}
		}
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("preview of image %s: %w", sha[:12], bench.ErrImageMissing)
		}
	}
	return p, nil
}

// CheckOutDir is the rule for an export's output folder: one that does not exist
// yet or is empty. A team server's client checks it on its workstation before it
// asks the server for the files.
func CheckOutDir(dir string) error { return checkOutDir(dir) }
