-- Benchwright schema, version 18: who belongs to which project.
--
-- A project is a boundary: every action on it, reading it included, is its
-- members' alone, leads too (verify.PermitMember; store/members.go). An account
-- may belong to many projects; its role is the same in all. added_by is the lead
-- who added the member (NULL for the rows this migration writes and for a
-- project's creator, who joins it).
--
-- Every account of an existing database becomes a member of every existing
-- project, so that a database written before this version works exactly as it
-- did; a lead narrows the lists afterwards (the Users screen, bwctl users leave).
-- Re-runnable: IF NOT EXISTS, and the backfill skips the pairs already there.
CREATE TABLE IF NOT EXISTS project_members (
	project_id INTEGER NOT NULL REFERENCES projects(id),
	user_id    INTEGER NOT NULL REFERENCES users(id),
	added_by   INTEGER REFERENCES users(id),
	added_at   TEXT NOT NULL,
	PRIMARY KEY (project_id, user_id)
) WITHOUT ROWID;
-- A user's projects (the project list, the check of every call).
CREATE INDEX IF NOT EXISTS project_members_user ON project_members (user_id, project_id);

INSERT INTO project_members (project_id, user_id, added_by, added_at)
	SELECT p.id, u.id, NULL, CASE WHEN u.created_at > p.created_at THEN u.created_at ELSE p.created_at END
	FROM projects p, users u WHERE true
	ON CONFLICT (project_id, user_id) DO NOTHING;
