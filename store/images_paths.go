package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/benchwright/benchwright/bench"
)

// MaxImagePaths is the most paths one ImagesByPaths call looks up: a team
// server's request stays bounded; a caller with more asks in parts.
const MaxImagePaths = 10_000

// ImagesByPaths finds a project's images by their relative paths, all in one call:
// what ImageByPath finds for each path, in a map by path. A path the project has no
// image at is left out of the map (not an error). An import that converts a file
// naming many images (a COCO file's annotations) asks once instead of once per
// record, which through a team server was one request each. More than
// MaxImagePaths paths is ErrInvalid.
func (d *DB) ImagesByPaths(ctx context.Context, actor bench.User, projectID int64, paths []string) (map[string]bench.Image, error) {
	out := map[string]bench.Image{}
	if len(paths) > MaxImagePaths {
		return nil, fmt.Errorf("images by path: %w: %d paths in one call; at most %d", bench.ErrInvalid, len(paths), MaxImagePaths)
	}
	want := slices.Compact(slices.Sorted(slices.Values(paths)))
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		for chunk := range slices.Chunk(want, importInList) {
			args := []any{projectID}
			for _, p := range chunk {
				args = append(args, p)
			}
			ims, err := queryAll(ctx, tx, scanImage, `SELECT `+imageCols+` FROM images i JOIN image_roots r ON r.id = i.root_id
				WHERE i.project_id = ? AND i.rel_path IN (`+placeholders(len(chunk))+`)`, args...)
			if err != nil {
				return err
			}
			for _, im := range ims {
				out[im.RelPath] = im
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("images by path: %w", err)
	}
	return out, nil
}
