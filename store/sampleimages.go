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
	have, err := queryAll(ctx, tx, func(r scanner) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	}, `SELECT image_id FROM sample_images WHERE sample_id = ? ORDER BY pos`, sampleID)
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
	for i, id := range ids {
		if _, err := tx.ExecContext(ctx, `INSERT INTO sample_images (sample_id, pos, image_id) VALUES (?, ?, ?)`, sampleID, i+1, id); err != nil {
			return err
		}
	}
	return nil
}
