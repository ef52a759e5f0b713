-- Benchwright schema, version 13: lineage of derived samples (package augment).
-- Idempotent (IF NOT EXISTS): tests replay migrations on a database that has them.

-- Never updated (a draft's row goes with the draft): the sample a derived sample was made from, the parent's revision
-- number it was derived from, the transform and the parent's step it started at.
CREATE TABLE IF NOT EXISTS lineage (
	sample_id       TEXT PRIMARY KEY REFERENCES samples(id),
	parent_id       TEXT NOT NULL REFERENCES samples(id),
	parent_revision INTEGER NOT NULL,
	transform       TEXT NOT NULL CHECK (transform IN ('subgraph', 'expand')),
	anchor          TEXT NOT NULL,
	created_by      INTEGER NOT NULL REFERENCES users(id),
	created_at      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lineage_parent ON lineage (parent_id, transform, anchor);
CREATE TRIGGER IF NOT EXISTS lineage_immutable_update BEFORE UPDATE ON lineage
BEGIN SELECT RAISE(ABORT, 'lineage is append-only'); END;

-- Candidates a person discarded, so that they are not offered again for that
-- revision of the parent.
CREATE TABLE IF NOT EXISTS augment_discards (
	parent_id       TEXT NOT NULL REFERENCES samples(id),
	parent_revision INTEGER NOT NULL,
	transform       TEXT NOT NULL,
	anchor          TEXT NOT NULL,
	discarded_by    INTEGER NOT NULL REFERENCES users(id),
	discarded_at    TEXT NOT NULL,
	PRIMARY KEY (parent_id, parent_revision, transform, anchor)
);
