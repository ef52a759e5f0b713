-- Benchwright schema, version 3: the review queue.

-- The review queue walks a project's samples in the rounds oldest change first
-- (store.ReviewQueueLimit); this partial index holds only those, in that order, so a
-- page of the queue stops after its limit instead of sorting every sample in review.
CREATE INDEX samples_queue ON samples (project_id, updated_at, id)
	WHERE status IN ('round1', 'round2', 'round3');

-- A review is one verifier's decision in one round of a revision. Version 1 allowed
-- one review per verifier and revision, which refused to store the round-3 vote of a
-- round-1 or round-2 verifier that the round3_allow_earlier setting permits. The
-- table is rebuilt with the round in its key; nothing references it.
CREATE TABLE reviews_v3 (
	id          INTEGER PRIMARY KEY,
	sample_id   TEXT NOT NULL REFERENCES samples(id),
	revision_id INTEGER NOT NULL REFERENCES revisions(id),
	round       INTEGER NOT NULL CHECK (round BETWEEN 1 AND 3),
	verifier_id INTEGER NOT NULL REFERENCES users(id),
	criteria    TEXT NOT NULL DEFAULT '{}',
	decision    TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
	reasons     TEXT NOT NULL DEFAULT '[]',
	comment     TEXT NOT NULL DEFAULT '',
	seconds     REAL NOT NULL DEFAULT 0,
	created_at  TEXT NOT NULL,
	UNIQUE (revision_id, round, verifier_id)
);
INSERT INTO reviews_v3 (id, sample_id, revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at)
	SELECT id, sample_id, revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at FROM reviews;
DROP TABLE reviews;
ALTER TABLE reviews_v3 RENAME TO reviews;
CREATE INDEX reviews_sample ON reviews (sample_id, round);
CREATE INDEX reviews_verifier ON reviews (verifier_id, created_at);
