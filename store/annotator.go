package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Reads for the annotation workspace: the images still waiting for a first sample, and
// a sample's revisions with the lint warnings their author acknowledged.

// withoutSamples selects the images no sample uses (images.sample_count, kept by the
// triggers of migration 7, over its partial index).
const withoutSamples = ` FROM images i JOIN image_roots r ON r.id = i.root_id
	WHERE i.project_id = ? AND i.sample_count = 0`

// ImagesWithoutSamples lists a project's images that no sample uses yet (in any state),
// by scene and path, a page at a time.
func (d *DB) ImagesWithoutSamples(ctx context.Context, actor bench.User, projectID int64, offset, limit int) ([]bench.Image, error) {
	var out []bench.Image
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		var err error
		out, err = queryAll(ctx, tx, scanImage, `SELECT `+imageCols+withoutSamples+`
			ORDER BY i.scene, i.rel_path LIMIT ? OFFSET ?`, projectID, limit, offset)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list images without samples: %w", err)
	}
	return out, nil
}

// CountImagesWithoutSamples counts a project's images that no sample uses yet.
func (d *DB) CountImagesWithoutSamples(ctx context.Context, actor bench.User, projectID int64) (int, error) {
	var n int
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT count(*)`+withoutSamples, projectID).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("count images without samples: %w", err)
	}
	return n, nil
}

// SampleRevisions lists a sample's revisions, oldest first, to any member of its project.
func (d *DB) SampleRevisions(ctx context.Context, actor bench.User, sampleID string) ([]bench.RevisionInfo, error) {
	var out []bench.RevisionInfo
	err := d.readAs(ctx, actor, "sample.revisions", func(tx *sql.Tx) error {
		if _, err := requireSampleAction(ctx, tx, actor, sampleID, verify.ActionReadSamples); err != nil {
			return err
		}
		var err error
		out, err = queryAll(ctx, tx, scanRevision, `SELECT r.number, r.change, u.name, r.created_at, r.reason, r.content
			FROM revisions r JOIN users u ON u.id = r.author_id WHERE r.sample_id = ? ORDER BY r.number`, sampleID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("revisions of %s: %w", sampleID, err)
	}
	return out, nil
}

func scanRevision(r scanner) (bench.RevisionInfo, error) {
	var ri bench.RevisionInfo
	var reason, content string
	if err := r.Scan(&ri.Number, &ri.Change, &ri.AuthorName, &ri.CreatedAt, &reason, &content); err != nil {
		return bench.RevisionInfo{}, err
	}
	if ri.Change == "correction" {
		ri.Comment = reason
	} else if reason != "" {
		ri.Acknowledged = strings.Split(reason, ",")
	}
	if err := json.Unmarshal([]byte(content), &ri.Content); err != nil {
		return bench.RevisionInfo{}, fmt.Errorf("decode revision %d: %w", ri.Number, err)
	}
	return ri, nil
}
