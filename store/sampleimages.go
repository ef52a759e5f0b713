package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// A sample of several images (issue 26) keeps its first image in samples.image_id
// and the second onwards in sample_images (migration 25), whose triggers count
// them on images.sample_count. The order and the paths are the sample's content
// ("images" in its record); these rows are what the database needs to answer which
// samples show an image and whether an image is used.

// checkImageCount refuses a sample showing more images than a sample may.
func checkImageCount(s annotate.Sample) error {
	if n := s.NumImages(); n > annotate.MaxImages {
		return fmt.Errorf("%w: a sample shows at most %d images; %s has %d", bench.ErrInvalid, annotate.MaxImages, sampleName(s), n)
	}
	return nil
}

func sampleName(s annotate.Sample) string {
	if s.ID == "" {
		return "this sample"
	}
	return s.ID
}

// moreImageIDs resolves the paths of s.MoreImages to image ids of the project,
// refusing a path the project does not hold.
func moreImageIDs(ctx context.Context, tx *sql.Tx, projectID int64, s annotate.Sample) ([]int64, error) {
	if err := checkImageCount(s); err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(s.MoreImages))
	for _, p := range s.MoreImages {
		if p == "" {
			return nil, fmt.Errorf("%w: image %d of %s has no path", bench.ErrInvalid, len(ids)+2, sampleName(s))
		}
		id, err := imageIDFor(ctx, tx, projectID, p)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id.(int64))
	}
	return ids, nil
}

// setSampleImages makes the sample's further images those of s.MoreImages, in
// order, leaving the rows alone when they are already so.
func setSampleImages(ctx context.Context, tx *sql.Tx, projectID int64, sampleID string, s annotate.Sample) error {
	ids, err := moreImageIDs(ctx, tx, projectID, s)
	if err != nil {
		return err
	}
	var have []int64
	err = txDialect(tx).readAll(ctx, tx, read{`SELECT image_id FROM sample_images WHERE sample_id = ? ORDER BY pos`, []any{sampleID},
		func(r scanner) error {
			var id int64
			err := r.Scan(&id)
			have = append(have, id)
			return err
		}})
	if err != nil {
		return err
	}
	if slices.Equal(have, ids) {
		return nil
	}
	if len(have) > 0 {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sample_images WHERE sample_id = ?`, sampleID); err != nil {
			return err
		}
	}
	return addSampleImages(ctx, tx, sampleID, ids)
}

// addSampleImages writes the further images ids of a sample that has none, in
// order. The rows' checks (the images exist) fail the transaction's next statement
// at the latest (execLater).
func addSampleImages(ctx context.Context, tx *sql.Tx, sampleID string, ids []int64) error {
	for i, id := range ids {
		if err := execLater(ctx, tx, `INSERT INTO sample_images (sample_id, pos, image_id) VALUES (?, ?, ?)`, sampleID, i+1, id); err != nil {
			return err
		}
	}
	return nil
}
