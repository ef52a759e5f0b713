package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// RecordVideoFrames records, for each frame, that the project image at its Path
// is that frame of that video, replacing what was recorded for the image before.
// Every path must be an image of the project; otherwise nothing is recorded. Only
// those who may import images into the project may record frames.
func (d *DB) RecordVideoFrames(ctx context.Context, actor bench.User, projectID int64, frames []bench.VideoFrame) error {
	err := d.act(ctx, actor, "video.frames", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionImportImages)
		if err != nil {
			return err
		}
		for _, f := range frames {
			if f.Video == "" || len(f.VideoSHA256) != 64 || f.Duration < 0 || f.Time < 0 || f.Index < 0 {
				return fmt.Errorf("%w: the frame %s needs its video, the video's SHA-256, a duration, a time and an index", bench.ErrInvalid, f.Path)
			}
			var id int64
			err := tx.QueryRowContext(ctx, `SELECT id FROM images WHERE project_id = ? AND rel_path = ?`, projectID, f.Path).Scan(&id)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("%w: no image %s in the project", bench.ErrNotFound, f.Path)
			}
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO video_frames (image_id, video_path, video_sha256, duration, time, frame_index)
				VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (image_id) DO UPDATE SET video_path = excluded.video_path, video_sha256 = excluded.video_sha256,
					duration = excluded.duration, time = excluded.time, frame_index = excluded.frame_index`,
				id, f.Video, f.VideoSHA256, f.Duration, f.Time, f.Index); err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
		}
		return d.audit(ctx, tx, a.ID, "video.frames", "project", fmt.Sprint(projectID), fmt.Sprintf("%d frames", len(frames)))
	})
	if err != nil {
		return fmt.Errorf("record video frames: %w", err)
	}
	return nil
}

// VideoFrames returns the recorded provenance of the project images at paths, in
// the order of paths; an image that is not a recorded frame (or no image of the
// project) is left out.
func (d *DB) VideoFrames(ctx context.Context, actor bench.User, projectID int64, paths []string) ([]bench.VideoFrame, error) {
	var out []bench.VideoFrame
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		out = nil
		for _, p := range paths {
			f := bench.VideoFrame{Path: p}
			err := tx.QueryRowContext(ctx, `SELECT v.video_path, v.video_sha256, v.duration, v.time, v.frame_index
				FROM video_frames v JOIN images i ON i.id = v.image_id WHERE i.project_id = ? AND i.rel_path = ?`, projectID, p).
				Scan(&f.Video, &f.VideoSHA256, &f.Duration, &f.Time, &f.Index)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, f)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read video frames: %w", err)
	}
	return out, nil
}
