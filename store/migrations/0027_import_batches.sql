-- Benchwright schema, version 27 (issue 25 item 3): an import of samples on SQLite
-- writes its rows in short write transactions, each one batch of records, so that
-- the team's other writes commit between them; until its last, short transaction
-- marks it done, no reader sees any of its rows (store/import_batches.go).
--
-- import_batches holds one row per import that wrote in batches; done_at is NULL
-- while it is under way. Each row an import writes carries its batch's id in
-- import_batch; readers see a row whose import_batch is a batch under way through
-- no table (the reader connections' views, store/store.go). The rows keep the id
-- once the import is done: which import made a sample stays known.
--
-- A failed or interrupted import's rows are removed (store/import_batches.go, and
-- at the next open after a crash), so the revisions and the audit log, which
-- refuse deletes, let go of the rows of a batch under way, which nobody saw.
CREATE TABLE IF NOT EXISTS import_batches (
	id         INTEGER PRIMARY KEY, -- kept once done, so never given again to rows that exist
	project_id INTEGER NOT NULL REFERENCES projects(id),
	actor_id   INTEGER NOT NULL REFERENCES users(id),
	started_at TEXT NOT NULL,
	touched_at TEXT NOT NULL, -- each batch's write; an import still under way long after is a lost one's
	done_at    TEXT
);
-- SQLite has no ADD COLUMN IF NOT EXISTS, so store/import_batches.go
-- (addImportBatches) adds the column import_batch to samples, sample_images,
-- revisions, stat_revisions, sample_search and audit_log, and makes the triggers
-- anew, in this migration's Go part.
