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

	"github.com/benchwright/benchwright/verify"
)

// Images uploaded from workstations to a team server live in one folder per
// project beside the database (uploads/p<ID>/…, the relative paths the
// workstation's folder had); ImportUploads imports that folder like any other, so
// an image's path in the project is the same as on the workstation it came from.

// IsImageName reports whether a file name has an ending the image import reads.
func IsImageName(name string) bool { return isImageName(name) }

// UploadDir is the folder of project projectID's uploaded images.
func (d *DB) UploadDir(projectID int64) string {
	return filepath.Join(d.files, "uploads", "p"+strconv.FormatInt(projectID, 10))
}

// UploadPath checks that actor may import images into project projectID and that
// rel is a clean relative path of an image (no "..", not absolute, an image
// ending), and returns where its upload is kept.
func (d *DB) UploadPath(ctx context.Context, actor User, projectID int64, rel string) (string, error) {
	ps, err := d.UploadPaths(ctx, actor, projectID, []string{rel})
	if err != nil {
		return "", err
	}
	return ps[0], nil
}

// UploadPaths is UploadPath for many files, the permission checked once.
func (d *DB) UploadPaths(ctx context.Context, actor User, projectID int64, rels []string) ([]string, error) {
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
			return nil, fmt.Errorf("upload %q: %w: %w", rel, ErrInvalid, err)
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
	case !isImageName(path.Base(rel)):
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
func (d *DB) ImportUploads(ctx context.Context, actor User, projectID int64) (ImportResult, error) {
	// The permission first: a stranger to the project learns nothing of its uploads.
	if _, err := d.UploadPaths(ctx, actor, projectID, nil); err != nil {
		return ImportResult{}, fmt.Errorf("import uploads: %w", err)
	}
	dir := d.UploadDir(projectID)
	res, err := d.ImportImages(ctx, actor, projectID, dir, nil)
	// A file the import did not take is not kept on the server's disk: it would
	// only take room (the workstation still has it, and the result names it).
	for _, r := range res.Rejected {
		if checkUploadPath(r.RelPath) == nil {
			os.Remove(filepath.Join(dir, filepath.FromSlash(r.RelPath)))
		}
	}
	return res, err
}
