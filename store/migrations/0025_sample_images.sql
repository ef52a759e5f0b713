-- Benchwright schema, version 25: samples of several images (issue 26).
--
-- A sample shows an ordered list of 1–64 images. The first stays in
-- samples.image_id (every sample of one image is unchanged); the second onwards are
-- rows of sample_images at positions 1–63, in the order the sample's content lists
-- them ("images" in its record). They count on images.sample_count as the first
-- image does, so an image in any position of a sequence is "used".
--
-- A release keeps what it froze of every image, not just the first:
-- release_images holds positions 1–63 beside release_samples' first image, written
-- before the release is sealed and never changed after.
CREATE TABLE IF NOT EXISTS sample_images (
	sample_id TEXT NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
	pos       INTEGER NOT NULL CHECK (pos BETWEEN 1 AND 63),
	image_id  INTEGER NOT NULL REFERENCES images(id),
	PRIMARY KEY (sample_id, pos)
);
CREATE INDEX IF NOT EXISTS sample_images_image ON sample_images (image_id);

CREATE TRIGGER IF NOT EXISTS sample_images_use_insert AFTER INSERT ON sample_images
BEGIN UPDATE images SET sample_count = sample_count + 1 WHERE id = NEW.image_id; END;
CREATE TRIGGER IF NOT EXISTS sample_images_use_delete AFTER DELETE ON sample_images
BEGIN UPDATE images SET sample_count = sample_count - 1 WHERE id = OLD.image_id; END;

CREATE TABLE IF NOT EXISTS release_images (
	release_id   INTEGER NOT NULL,
	sample_id    TEXT NOT NULL,
	pos          INTEGER NOT NULL CHECK (pos BETWEEN 1 AND 63),
	image_path   TEXT NOT NULL,
	image_sha256 TEXT NOT NULL,
	width        INTEGER NOT NULL,
	height       INTEGER NOT NULL,
	PRIMARY KEY (release_id, sample_id, pos),
	FOREIGN KEY (release_id, sample_id) REFERENCES release_samples (release_id, sample_id)
);

CREATE TRIGGER IF NOT EXISTS release_images_sealed BEFORE INSERT ON release_images
WHEN (SELECT sealed FROM releases WHERE id = NEW.release_id) IS NOT 0
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
CREATE TRIGGER IF NOT EXISTS release_images_immutable_update BEFORE UPDATE ON release_images
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
CREATE TRIGGER IF NOT EXISTS release_images_immutable_delete BEFORE DELETE ON release_images
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;

-- LRR-Bench's shuffled negatives (augment.Shuffle) are a third transform a
-- derived sample's lineage may name. SQLite cannot change a CHECK in place: the
-- table is rebuilt with its rows, index and trigger.
DROP TABLE IF EXISTS lineage_new;
CREATE TABLE lineage_new (
	sample_id       TEXT PRIMARY KEY REFERENCES samples(id),
	parent_id       TEXT NOT NULL REFERENCES samples(id),
	parent_revision INTEGER NOT NULL,
	transform       TEXT NOT NULL CHECK (transform IN ('subgraph', 'expand', 'shuffle')),
	anchor          TEXT NOT NULL,
	created_by      INTEGER NOT NULL REFERENCES users(id),
	created_at      TEXT NOT NULL
);
INSERT INTO lineage_new SELECT sample_id, parent_id, parent_revision, transform, anchor, created_by, created_at FROM lineage;
DROP TABLE lineage;
ALTER TABLE lineage_new RENAME TO lineage;
CREATE INDEX IF NOT EXISTS lineage_parent ON lineage (parent_id, transform, anchor);
CREATE TRIGGER IF NOT EXISTS lineage_immutable_update BEFORE UPDATE ON lineage
BEGIN SELECT RAISE(ABORT, 'lineage is append-only'); END;
