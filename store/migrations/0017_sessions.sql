-- Benchwright schema, version 17: team-server sessions, and where an action came from.
--
-- A workstation signs in to a team server (package remote) with a name and a password
-- and gets a session token; every later request carries the token and acts as its
-- user, never as a user the client names. Only the token's SHA-256 is stored, so a
-- copy of the database does not hold working tokens. A session ends when it expires
-- or is revoked (sign-out, a disabled account); rows are kept for the audit trail.
CREATE TABLE IF NOT EXISTS sessions (
	token_sha256  TEXT PRIMARY KEY,
	user_id       INTEGER NOT NULL REFERENCES users(id),
	created_at    TEXT NOT NULL,
	expires_at    TEXT NOT NULL,
	client        TEXT NOT NULL DEFAULT '',  -- the address it was opened from
	revoked_at    TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);

-- The audit log gains a column, client: the network address an audited action came
-- from ('' for the local app and bwctl on the database file itself). SQLite has no
-- ADD COLUMN IF NOT EXISTS, so store/sessions.go adds it in this migration's
-- transaction when it is missing.
