-- Benchwright schema, version 14: sampled validation of generated sets (store/validation.go).
--
-- A generated set is imported as a batch; its items wait here, outside the
-- protocol, until they are drawn into the validation sample (then they are
-- samples in round 1, sample_id names them) or accepted by sampling with the
-- batch's rest (then they are accepted samples, by_sampling = 1).
CREATE TABLE IF NOT EXISTS validation_batches (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL REFERENCES projects(id),
	name        TEXT NOT NULL,
	source      TEXT NOT NULL DEFAULT '',       -- the file it was imported from
	author_id   INTEGER NOT NULL REFERENCES users(id), -- whose samples its items become
	imported_by INTEGER NOT NULL REFERENCES users(id),
	imported_at TEXT NOT NULL,
	findings    TEXT NOT NULL DEFAULT '[]',     -- the import audit's findings (JSON)
	stratify    TEXT NOT NULL DEFAULT '',       -- fixed by the first draw: task, kind or hop_view
	seed        INTEGER NOT NULL DEFAULT 0,
	method      TEXT NOT NULL DEFAULT '',       -- clopper-pearson or wilson
	level       REAL NOT NULL DEFAULT 0,
	threshold   REAL NOT NULL DEFAULT 0,        -- the error rate the upper bound must be below
	draws       TEXT NOT NULL DEFAULT '[]',     -- every draw: its size rule and when (JSON)
	accepted_by INTEGER REFERENCES users(id),
	accepted_at TEXT NOT NULL DEFAULT '',
	acceptance  TEXT NOT NULL DEFAULT '',       -- the estimates the rest was accepted on (JSON)
	UNIQUE (project_id, name)
);

CREATE TABLE IF NOT EXISTS validation_items (
	batch_id    INTEGER NOT NULL REFERENCES validation_batches(id),
	line        INTEGER NOT NULL,               -- where the record starts in the file
	sample_id   TEXT NOT NULL UNIQUE,           -- the record's id: its sample's, once it is one
	content     TEXT NOT NULL,                  -- the record (annotate.Sample JSON)
	warnings    TEXT NOT NULL DEFAULT '',       -- its lint warnings, acknowledged by the import
	stratum     TEXT NOT NULL DEFAULT '',       -- set by the first draw
	draw        INTEGER NOT NULL DEFAULT 0,     -- 0 unsampled, n: drawn by the batch's n-th draw
	by_sampling INTEGER NOT NULL DEFAULT 0,     -- 1: accepted by sampling with the rest
	PRIMARY KEY (batch_id, line)
);
CREATE INDEX IF NOT EXISTS validation_items_draw ON validation_items (batch_id, draw, stratum);
