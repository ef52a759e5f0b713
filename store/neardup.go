package store

// Near-duplicate images (issue 29 item 5): each image's 64-bit perceptual hash
// (shortcut.ImageHash) is computed by the import from the thumbnail it makes and
// kept in images.phash (migration 28); images imported before get theirs on the
// first audit that needs it. The audit's check (audit.go) pairs the hashes in Go
// (shortcut.NearDuplicates).

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

func init() { afterMigration[28] = addImageHashes }

// ImageHashes returns the perceptual hashes of a project's images and the
// project's near-duplicate distance. Only a lead may (the audit's right); images
// imported before migration 28 get their hash now, as on an audit.
func (d *DB) ImageHashes(ctx context.Context, actor bench.User, projectID int64) (bench.ImageHashes, error) {
	var out bench.ImageHashes
	var images map[string]bench.Image
	err := d.readAs(ctx, actor, "images.hashes", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAuditRelease); err != nil {
			return err
		}
		p, err := scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, projectID))
		if err != nil {
			return err
		}
		out.MaxDistance = p.Settings.NearDistance()
		if _, images, err = acceptedSelection(ctx, tx, projectID); err != nil {
			return err
		}
		out.Hashes, err = imageHashes(ctx, tx, projectID)
		return err
	})
	if err == nil {
		err = d.completeImageHashes(ctx, images, out.Hashes)
	}
	if err != nil {
		return bench.ImageHashes{}, fmt.Errorf("image hashes: %w", err)
	}
	for k := range d.notAlike(images, out.Hashes, out.MaxDistance) {
		out.NotAlike = append(out.NotAlike, k)
	}
	slices.SortFunc(out.NotAlike, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return out, nil
}

// nearInput completes what the near-duplicate check needs after the audit's
// transaction: every image's hash (completeImageHashes), and the candidate pairs
// their thumbnails refute (notAlike).
func (d *DB) nearInput(ctx context.Context, in *auditData) error {
	if err := d.completeImageHashes(ctx, in.Images, in.PHash); err != nil {
		return err
	}
	in.NotAlike = d.notAlike(in.Images, in.PHash, in.Settings.NearDistance())
	return nil
}

// notAlike returns the pairs of images (by path, the smaller first) whose hashes
// are within dist yet whose thumbnails shortcut.Alike refutes: two pictures that
// share a layout, not one picture. Missing thumbnails are made again from the
// image file; a pair whose thumbnails cannot be had stays a pair: the hash
// decides.
func (d *DB) notAlike(images map[string]bench.Image, hashes map[string]uint64, dist int) map[[2]string]bool {
	names, hs := shortcut.Hashed(images, hashes)
	thumbs := map[string]image.Image{}
	thumb := func(p string) image.Image {
		if im, ok := thumbs[p]; ok {
			return im
		}
		im := images[p]
		read := func() image.Image { return imagefile.ReadThumb(d.PreviewDir(), im.SHA256) }
		img := read()
		if img == nil { // previews are a cache: made again while the file holds what was imported
			_ = caught("thumbnail of "+p, func() error {
				if pr, err := probeImage(im.Path(), im.RelPath, d.PreviewDir()); err == nil && pr.SHA256 == im.SHA256 {
					img = read()
				}
				return nil
			})
		}
		thumbs[p] = img
		return img
	}
	out := map[[2]string]bool{}
	for _, pr := range shortcut.NearPairs(hs, dist) {
		a, b := names[pr.A], names[pr.B]
		ia, ib := thumb(a), thumb(b)
		if ia != nil && ib != nil && !shortcut.Alike(ia, ib) {
			out[[2]string{a, b}] = true
		}
	}
	return out
}

// addImageHashes is migration 28's part on SQLite (the SQL file says why).
// Re-runnable; on PostgreSQL the SQL file does it all.
func addImageHashes(d *DB, ctx context.Context, tx *sql.Tx) error {
	if d.pg {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('images') WHERE name = 'phash'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE images ADD COLUMN phash INTEGER`); err != nil {
			return fmt.Errorf("add images.phash: %w", err)
		}
	}
	return nil
}

// nullHash is a perceptual hash as the database keeps it (a signed 64-bit
// integer, its bits the hash's), or NULL.
type nullHash = sql.NullInt64

// hashOnImport is whether the import hashes each image's thumbnail; only
// BenchmarkImportImageHash turns it off, to measure what hashing adds.
var hashOnImport = true

// importHash is the import's perceptual hash (probeImage), after the previews
// are made: of thumb, the thumbnail imagefile.Read just made, as it was before
// its JPEG encoding, when there is one; otherwise (the previews were there
// already) thumbHash, of the thumbnail file.
//
// Hashing thumb spares decoding the file just written (issue 29: hashing must add
// less than 15 % to an import; decoding the thumbnail again was half of the
// hash's cost). The two inputs differ by the JPEG encoding of the thumbnail
// (quality 85), which moves a hash by at most a bit or two
// (TestImportHashMatchesThumbHash measures it), far within the near-duplicate
// distance; images imported before migration 28 get thumbHash's on the audit.
func importHash(previewDir, sha string, thumb image.Image) nullHash {
	if !hashOnImport {
		return nullHash{}
	}
	if thumb != nil {
		return hashOf(thumb)
	}
	return thumbHash(previewDir, sha)
}

// hashOf is img's perceptual hash as the database keeps it, not Valid when it
// has none.
func hashOf(img image.Image) nullHash {
	h, err := shortcut.ImageHash(img)
	if err != nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(h), Valid: true}
}

// thumbHash is the perceptual hash of the thumbnail cached under previewDir for
// the image of content sha, stored as the database's signed 64-bit integer; not
// Valid when the thumbnail cannot be read (the audit computes it again later).
func thumbHash(previewDir, sha string) nullHash {
	img := imagefile.ReadThumb(previewDir, sha)
	if img == nil {
		return sql.NullInt64{}
	}
	return hashOf(img)
}

// imageHashes reads the perceptual hashes the project's images have, by path.
func imageHashes(ctx context.Context, tx *sql.Tx, projectID int64) (map[string]uint64, error) {
	out := map[string]uint64{}
	rows, err := tx.QueryContext(ctx, `SELECT rel_path, phash FROM images WHERE project_id = ? AND phash IS NOT NULL`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var h int64
		if err := rows.Scan(&p, &h); err != nil {
			return nil, err
		}
		out[p] = uint64(h)
	}
	return out, rows.Err()
}

// completeImageHashes computes the perceptual hash of every image of images that
// has none in have (imported before migration 28) from its thumbnail, making the
// previews again from the image file when they are gone and the file still holds
// what was imported, and stores them (one write transaction), adding them to
// have. An image whose thumbnail cannot be made (its file is gone or changed:
// the audit's image checks say so) stays without a hash.
func (d *DB) completeImageHashes(ctx context.Context, images map[string]bench.Image, have map[string]uint64) error {
	var todo []bench.Image
	for p, im := range images {
		if _, ok := have[p]; !ok {
			todo = append(todo, im)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	dir := d.PreviewDir()
	got := make([]sql.NullInt64, len(todo))
	err := imagefile.Each(ctx, len(todo), func(i int) {
		im := todo[i]
		_ = caught("hash "+im.RelPath, func() error {
			if got[i] = thumbHash(dir, im.SHA256); !got[i].Valid {
				if pr, err := probeImage(im.Path(), im.RelPath, dir); err == nil && pr.SHA256 == im.SHA256 {
					got[i] = thumbHash(dir, im.SHA256)
				}
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	err = d.inTx(ctx, func(tx *sql.Tx) error {
		for i, im := range todo {
			if !got[i].Valid {
				continue
			}
			// Only the content hashed: an image imported again meanwhile keeps its own.
			if _, err := tx.ExecContext(ctx, `UPDATE images SET phash = ? WHERE id = ? AND sha256 = ?`, got[i], im.ID, im.SHA256); err != nil {
				return fmt.Errorf("store the perceptual hash of %s: %w", im.RelPath, err)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	for i, im := range todo {
		if got[i].Valid {
			have[im.RelPath] = uint64(got[i].Int64)
		}
	}
	return err
}
