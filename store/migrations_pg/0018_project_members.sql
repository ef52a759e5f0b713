-- Benchwright schema on PostgreSQL, version 18: who belongs to which project, as
-- store/migrations/0018_project_members.sql builds it on SQLite (its comments say
-- why). Every account of an existing database becomes a member of every existing
-- project; re-runnable.
CREATE TABLE IF NOT EXISTS project_members (
	project_id BIGINT NOT NULL REFERENCES projects(id),
	user_id    BIGINT NOT NULL REFERENCES users(id),
	added_by   BIGINT REFERENCES users(id),
	added_at   TEXT COLLATE "C" NOT NULL,
	PRIMARY KEY (project_id, user_id)
);
CREATE INDEX IF NOT EXISTS project_members_user ON project_members (user_id, project_id);

INSERT INTO project_members (project_id, user_id, added_by, added_at)
	SELECT p.id, u.id, NULL, CASE WHEN u.created_at > p.created_at THEN u.created_at ELSE p.created_at END
	FROM projects p, users u WHERE true
	ON CONFLICT (project_id, user_id) DO NOTHING;
