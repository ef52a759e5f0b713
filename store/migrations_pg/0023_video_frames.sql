-- Benchwright schema on PostgreSQL, version 23: video frames, as
-- store/migrations/0023_video_frames.sql builds it on SQLite (its comments say why).
CREATE TABLE IF NOT EXISTS video_frames (
	image_id     BIGINT PRIMARY KEY REFERENCES images(id),
	video_path   TEXT COLLATE "C" NOT NULL,
	video_sha256 TEXT COLLATE "C" NOT NULL,
	duration     DOUBLE PRECISION NOT NULL,
	time         DOUBLE PRECISION NOT NULL,
	frame_index  BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS video_frames_video ON video_frames (video_sha256, frame_index);
