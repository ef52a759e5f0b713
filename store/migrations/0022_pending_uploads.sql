-- Benchwright schema, version 22: uploads not imported yet, and whose they are.
--
-- A team server kept every file uploaded into a project's upload folder until
-- someone imported it: an account could park any number of any bytes there and
-- fill the disk (issue 25). Each upload that lands is noted here with its account
-- and size; the server bounds each account's pending bytes and files, forgets
-- (and deletes) what was not imported after a while, and an import of the folder
-- clears the rows of what it found (store/uploads.go).
CREATE TABLE IF NOT EXISTS pending_uploads (
	project_id INTEGER NOT NULL REFERENCES projects(id),
	rel_path   TEXT NOT NULL,
	user_id    INTEGER NOT NULL REFERENCES users(id),
	size_bytes INTEGER NOT NULL,
	at_unix    INTEGER NOT NULL,
	PRIMARY KEY (project_id, rel_path)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS pending_uploads_user ON pending_uploads (user_id, project_id);
CREATE INDEX IF NOT EXISTS pending_uploads_at ON pending_uploads (at_unix);
