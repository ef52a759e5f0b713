-- Benchwright schema, version 2: frozen releases.

-- A release is a named, versioned, frozen selection of a project's accepted samples.
-- Nothing about it changes once written: the triggers below refuse updates and
-- deletes, and a release takes exactly sample_count rows of release_samples, all
-- inserted by the freeze that created it.
CREATE TABLE releases (
	id           INTEGER PRIMARY KEY,
	project_id   INTEGER NOT NULL REFERENCES projects(id),
	name         TEXT NOT NULL,
	version      TEXT NOT NULL,
	filter       TEXT NOT NULL DEFAULT '{}', -- JSON: {"kinds": [...], "tasks": [...]}
	split        TEXT NOT NULL DEFAULT '',   -- JSON {"test_ratio": r, "seed": s}, or '' for none
	sample_count INTEGER NOT NULL,
	created_by   INTEGER NOT NULL REFERENCES users(id),
	created_at   TEXT NOT NULL,
	UNIQUE (project_id, name, version)
);
CREATE TRIGGER releases_immutable_update BEFORE UPDATE ON releases
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
CREATE TRIGGER releases_immutable_delete BEFORE DELETE ON releases
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;

-- Which revision of each sample went in, its split, and the image as it was frozen.
CREATE TABLE release_samples (
	release_id   INTEGER NOT NULL REFERENCES releases(id),
	sample_id    TEXT NOT NULL REFERENCES samples(id),
	revision_id  INTEGER NOT NULL REFERENCES revisions(id),
	split        TEXT NOT NULL DEFAULT '',
	image_path   TEXT NOT NULL,
	image_sha256 TEXT NOT NULL,
	width        INTEGER NOT NULL,
	height       INTEGER NOT NULL,
	PRIMARY KEY (release_id, sample_id)
);
CREATE INDEX release_samples_sample ON release_samples (sample_id);
CREATE TRIGGER release_samples_immutable_update BEFORE UPDATE ON release_samples
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
CREATE TRIGGER release_samples_immutable_delete BEFORE DELETE ON release_samples
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
CREATE TRIGGER release_samples_sealed BEFORE INSERT ON release_samples
WHEN (SELECT count(*) FROM release_samples WHERE release_id = NEW.release_id)
	>= (SELECT sample_count FROM releases WHERE id = NEW.release_id)
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
