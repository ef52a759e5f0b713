-- Benchwright schema, version 29 (issue 30): planted samples, the defective (or
-- clean) copies of accepted samples that measure how well each verifier catches
-- errors (package plant, store/planted.go).
--
-- A planted copy is a sample row like any other (its id drawn like real ones, its
-- revisions, earlier reviews and history copied from its origin), so that every
-- call a verifier can make shows it as a real sample. planted, which only a lead
-- reads, says which rows are copies: of what, with which error, for which
-- verifier and round, and how their one review came out. Every listing that must
-- not show a copy (queues, the sample manager, statistics, agreement) excludes the
-- rows named here.
CREATE TABLE IF NOT EXISTS planted (
	sample_id   TEXT PRIMARY KEY REFERENCES samples(id),
	project_id  INTEGER NOT NULL REFERENCES projects(id),
	origin_id   TEXT NOT NULL REFERENCES samples(id),
	mutation    TEXT NOT NULL,
	field       TEXT NOT NULL DEFAULT '',
	verifier_id INTEGER NOT NULL REFERENCES users(id),
	round       INTEGER NOT NULL CHECK (round BETWEEN 1 AND 3),
	created_at  TEXT NOT NULL,
	review_id   INTEGER REFERENCES reviews(id),
	outcome     TEXT NOT NULL DEFAULT '',
	feedback    TEXT NOT NULL DEFAULT '',
	reviewed_at TEXT
);
CREATE INDEX IF NOT EXISTS planted_verifier ON planted (project_id, verifier_id, round);

-- plant_salts: a secret per project that the draws of planting start from, so
-- that no one who knows the code and their review's id can tell whether it
-- planted a copy.
CREATE TABLE IF NOT EXISTS plant_salts (
	project_id INTEGER NOT NULL UNIQUE REFERENCES projects(id),
	salt       TEXT NOT NULL
);

-- plant_pauses: a verifier paused by the lead's rule (plant_pause_below); since is
-- when their figures start counting again after a lead resumed them.
CREATE TABLE IF NOT EXISTS plant_pauses (
	project_id  INTEGER NOT NULL REFERENCES projects(id),
	verifier_id INTEGER NOT NULL REFERENCES users(id),
	paused      INTEGER NOT NULL DEFAULT 0,
	reason      TEXT NOT NULL DEFAULT '',
	since       TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (project_id, verifier_id)
);
