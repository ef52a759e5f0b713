package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/verify"
)

// Images uploaded from workstations to a team server live in one folder per
// project beside the database (uploads/p<ID>/…, the relative paths the
// workstation's folder had); ImportUploads imports that folder like any other, so
// an image's path in the project is the same as on the workstation it came from.

// UploadDir is the folder of project projectID's uploaded images.
func (d *DB) UploadDir(projectID int64) string {
	return filepath.Join(d.files, "uploads", "p"+strconv.FormatInt(projectID, 10))
}

// UploadPath checks that actor may import images into project projectID and that
// rel is a clean relative path of an image (no "..", not absolute, an image
// ending), and returns where its upload is kept.
func (d *DB) UploadPath(ctx context.Context, actor bench.User, projectID int64, rel string) (string, error) {
	ps, err := d.UploadPaths(ctx, actor, projectID, []string{rel})
	if err != nil {
		return "", err
	}
	return ps[0], nil
}

// UploadPaths is UploadPath for many files, the permission checked once.
func (d *DB) UploadPaths(ctx context.Context, actor bench.User, projectID int64, rels []string) ([]string, error) {
	err := d.readAs(ctx, actor, string(verify.ActionImportImages), func(tx *sql.Tx) error {
		_, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionImportImages)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	out := make([]string, len(rels))
	for i, rel := range rels {
		if err := checkUploadPath(rel); err != nil {
			return nil, fmt.Errorf("upload %q: %w: %w", rel, bench.ErrInvalid, err)
		}
		out[i] = filepath.Join(d.UploadDir(projectID), filepath.FromSlash(rel))
	}
	return out, nil
}

func checkUploadPath(rel string) error {
	switch {
	case rel == "" || len(rel) > 1024:
		return fmt.Errorf("the path is empty or too long")
	case strings.ContainsAny(rel, "\\\x00") || strings.HasPrefix(rel, "/") || filepath.IsAbs(rel):
		return fmt.Errorf("the path must be relative, with / between folders")
	case path.Clean(rel) != rel || rel == "." || strings.HasPrefix(rel, "../") || rel == "..":
		return fmt.Errorf("the path must stay inside the upload folder")
	case !imagefile.IsImageName(path.Base(rel)):
		return fmt.Errorf("not an image file name")
	}
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return fmt.Errorf("hidden files and folders are not uploaded")
		}
	}
	return nil
}

// ImportUploads imports the images uploaded to project projectID (see UploadDir)
// exactly as ImportImages imports a folder: new files are added, unchanged ones
// kept, bad ones listed with the reason.
func (d *DB) ImportUploads(ctx context.Context, actor bench.User, projectID int64) (bench.ImportResult, error) {
	// The permission first: a stranger to the project learns nothing of its uploads.
	if _, err := d.UploadPaths(ctx, actor, projectID, nil); err != nil {
		return bench.ImportResult{}, fmt.Errorf("import uploads: %w", err)
	}
	dir := d.UploadDir(projectID)
	start := d.Now().Unix()
	res, err := d.ImportImages(ctx, actor, projectID, dir, nil)
	// A file the import did not take is not kept on the server's disk: it would
	// only take room (the workstation still has it, and the result names it).
	for _, r := range res.Rejected {
		if checkUploadPath(r.RelPath) == nil {
			os.Remove(filepath.Join(dir, filepath.FromSlash(r.RelPath)))
		}
	}
	if err == nil {
		// Everything that had landed when the import began was imported or
		// removed: no longer pending, whoever uploaded it.
		if cerr := d.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `DELETE FROM pending_uploads WHERE project_id = ? AND at_unix <= ?`, projectID, start)
			return err
		}); cerr != nil {
			return res, fmt.Errorf("import uploads: %w", cerr)
		}
	}
	return res, err
}

// UploadLimits bound what one account may keep uploaded and not imported yet.
type UploadLimits struct {
	Bytes int64 // pending bytes, all projects together
	Files int   // pending files
}

// CheckUploadQuota tells whether actor may upload size more bytes as rel of
// project projectID (replacing what they uploaded there before) within lim;
// beyond it the error wraps ErrQuota and says what to do. Call it after
// UploadPath, which checks the permission.
func (d *DB) CheckUploadQuota(ctx context.Context, actor bench.User, projectID int64, rel string, size int64, lim UploadLimits) error {
	var bytes int64
	var files int
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(size_bytes), 0), COUNT(*) FROM pending_uploads
			WHERE user_id = ? AND NOT (project_id = ? AND rel_path = ?)`, actor.ID, projectID, rel).Scan(&bytes, &files)
	})
	switch {
	case err != nil:
		return fmt.Errorf("upload %s: %w", rel, err)
	case bytes+size > lim.Bytes:
		return fmt.Errorf("upload %s: %w: %d MiB of %s's uploads wait for an import, at most %d MiB may; import them first",
			rel, bench.ErrQuota, bytes>>20, actor.Name, lim.Bytes>>20)
	case files+1 > lim.Files:
		return fmt.Errorf("upload %s: %w: %d files of %s's uploads wait for an import, the most one account may have; import them first",
			rel, bench.ErrQuota, files, actor.Name)
	}
	return nil
}

// RecordUpload notes that actor's upload of size bytes landed at rel of project
// projectID: pending until an import of the project's uploads.
func (d *DB) RecordUpload(ctx context.Context, actor bench.User, projectID int64, rel string, size int64) error {
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO pending_uploads (project_id, rel_path, user_id, size_bytes, at_unix) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (project_id, rel_path) DO UPDATE SET user_id = excluded.user_id, size_bytes = excluded.size_bytes, at_unix = excluded.at_unix`,
			projectID, rel, actor.ID, size, d.Now().Unix())
		return err
	})
	if err != nil {
		return fmt.Errorf("upload %s: %w", rel, err)
	}
	return nil
}

// ExpireUploads deletes the uploads that landed before cutoff and were not
// imported since, and forgets them; it returns how many files it deleted. A
// file an import of the folder holds is kept (its row only is dropped).
func (d *DB) ExpireUploads(ctx context.Context, cutoff time.Time) (int, error) {
	type pending struct {
		project int64
		rel     string
	}
	var old []pending
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		old, err = queryAll(ctx, tx, func(r scanner) (pending, error) {
			var p pending
			return p, r.Scan(&p.project, &p.rel)
		}, `SELECT project_id, rel_path FROM pending_uploads WHERE at_unix < ? ORDER BY project_id, rel_path`, cutoff.Unix())
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("expire uploads: %w", err)
	}
	removed := 0
	for _, p := range old {
		dir := d.UploadDir(p.project)
		abs, err := filepath.Abs(dir)
		if err != nil {
			abs = dir
		}
		var imported int
		var dropped int64
		err = d.inTx(ctx, func(tx *sql.Tx) error {
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM images i JOIN image_roots r ON r.id = i.root_id
				WHERE i.project_id = ? AND i.rel_path = ? AND r.path IN (?, ?)`, p.project, p.rel, abs, dir).Scan(&imported); err != nil {
				return err
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM pending_uploads WHERE project_id = ? AND rel_path = ? AND at_unix < ?`, p.project, p.rel, cutoff.Unix())
			if err == nil {
				dropped, err = res.RowsAffected()
			}
			return err
		})
		if err != nil {
			return removed, fmt.Errorf("expire uploads: %w", err)
		}
		// Landed again meanwhile (dropped 0): the new file stays.
		if dropped > 0 && imported == 0 && checkUploadPath(p.rel) == nil {
			if os.Remove(filepath.Join(dir, filepath.FromSlash(p.rel))) == nil {
				removed++
			}
		}
	}
	return removed, nil
}
