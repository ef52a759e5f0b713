-- Benchwright schema, version 23: video frames (issue 26). An image imported as
-- a frame of a video (bwctl import-video) keeps where it came from: the video's
-- path as imported, the SHA-256 of the video file, its duration in seconds, and
-- the frame's presentation time in seconds and 0-based index among the video's
-- decoded frames (annotate.Frame). One row per frame image; an ordinary image has
-- none.
CREATE TABLE IF NOT EXISTS video_frames (
	image_id     INTEGER PRIMARY KEY REFERENCES images(id),
	video_path   TEXT NOT NULL,
	video_sha256 TEXT NOT NULL,
	duration     REAL NOT NULL,
	time         REAL NOT NULL,
	frame_index  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS video_frames_video ON video_frames (video_sha256, frame_index);
