-- Benchwright schema on PostgreSQL, version 22: uploads not imported yet, as
-- store/migrations/0022_pending_uploads.sql builds it on SQLite (its comments say why).
CREATE TABLE IF NOT EXISTS pending_uploads (
	project_id BIGINT NOT NULL REFERENCES projects(id),
	rel_path   TEXT COLLATE "C" NOT NULL,
	user_id    BIGINT NOT NULL REFERENCES users(id),
	size_bytes BIGINT NOT NULL,
	at_unix    BIGINT NOT NULL,
	PRIMARY KEY (project_id, rel_path)
);
CREATE INDEX IF NOT EXISTS pending_uploads_user ON pending_uploads (user_id, project_id);
CREATE INDEX IF NOT EXISTS pending_uploads_at ON pending_uploads (at_unix);
