-- Benchwright schema on PostgreSQL, version 20: roles belong to project
-- memberships, as store/migrations/0020_member_roles.sql builds it on SQLite (its
-- comments say why). Every existing membership gets the account's current role
-- and group.
ALTER TABLE project_members ADD COLUMN IF NOT EXISTS role TEXT COLLATE "C" NOT NULL DEFAULT 'annotator' CHECK (role IN ('annotator', 'verifier', 'lead'));
ALTER TABLE project_members ADD COLUMN IF NOT EXISTS grp TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE project_members m SET role = u.role, grp = u.grp FROM users u WHERE u.id = m.user_id;
CREATE INDEX IF NOT EXISTS project_members_role ON project_members (project_id, role);
