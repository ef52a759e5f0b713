-- Benchwright schema, version 1. Migrations are append-only: never edit a released file,
-- add a new numbered one.

CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL UNIQUE,
	role          TEXT NOT NULL CHECK (role IN ('annotator', 'verifier', 'lead')),
	grp           TEXT NOT NULL DEFAULT '',
	password_hash TEXT NOT NULL,
	disabled      INTEGER NOT NULL DEFAULT 0,
	created_at    TEXT NOT NULL
);

CREATE TABLE projects (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	settings   TEXT NOT NULL DEFAULT '{}',
	created_by INTEGER NOT NULL REFERENCES users(id),
	created_at TEXT NOT NULL
);

-- A folder an import read from; images are referenced in place, relative to it.
CREATE TABLE image_roots (
	id         INTEGER PRIMARY KEY,
	project_id INTEGER NOT NULL REFERENCES projects(id),
	path       TEXT NOT NULL,
	UNIQUE (project_id, path)
);

CREATE TABLE images (
	id          INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL REFERENCES projects(id),
	root_id     INTEGER NOT NULL REFERENCES image_roots(id),
	rel_path    TEXT NOT NULL,
	sha256      TEXT NOT NULL,
	size_bytes  INTEGER NOT NULL,
	mtime_ns    INTEGER NOT NULL,
	width       INTEGER NOT NULL,
	height      INTEGER NOT NULL,
	scene       TEXT NOT NULL DEFAULT '',
	imported_by INTEGER NOT NULL REFERENCES users(id),
	imported_at TEXT NOT NULL,
	UNIQUE (project_id, rel_path),
	UNIQUE (project_id, sha256)
);
CREATE INDEX images_project_scene ON images (project_id, scene, rel_path);

CREATE TABLE samples (
	id           TEXT PRIMARY KEY,
	project_id   INTEGER NOT NULL REFERENCES projects(id),
	image_id     INTEGER REFERENCES images(id),
	kind         TEXT NOT NULL,
	status       TEXT NOT NULL,
	prev_status  TEXT NOT NULL DEFAULT '',
	author_id    INTEGER NOT NULL REFERENCES users(id),
	draft        TEXT NOT NULL DEFAULT '{}',
	current_rev  INTEGER,
	version      INTEGER NOT NULL DEFAULT 1,
	created_at   TEXT NOT NULL,
	updated_at   TEXT NOT NULL
);
CREATE INDEX samples_project_status ON samples (project_id, status);
CREATE INDEX samples_author ON samples (author_id, status);
CREATE INDEX samples_image ON samples (image_id);

-- Immutable: a revision is the full content of a sample as submitted or corrected.
CREATE TABLE revisions (
	id         INTEGER PRIMARY KEY,
	sample_id  TEXT NOT NULL REFERENCES samples(id),
	number     INTEGER NOT NULL,
	content    TEXT NOT NULL,
	author_id  INTEGER NOT NULL REFERENCES users(id),
	change     TEXT NOT NULL,
	reason     TEXT NOT NULL DEFAULT '',
	created_at TEXT NOT NULL,
	UNIQUE (sample_id, number)
);
CREATE TRIGGER revisions_immutable_update BEFORE UPDATE ON revisions
BEGIN SELECT RAISE(ABORT, 'revisions are immutable'); END;
CREATE TRIGGER revisions_immutable_delete BEFORE DELETE ON revisions
BEGIN SELECT RAISE(ABORT, 'revisions are immutable'); END;

CREATE TABLE reviews (
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
	UNIQUE (revision_id, verifier_id)
);
CREATE INDEX reviews_sample ON reviews (sample_id, round);
CREATE INDEX reviews_verifier ON reviews (verifier_id, created_at);

CREATE TABLE claims (
	sample_id   TEXT NOT NULL REFERENCES samples(id),
	round       INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL REFERENCES users(id),
	expires_at  TEXT NOT NULL,
	PRIMARY KEY (sample_id, verifier_id)
);

-- Append-only: who did what to which row, when.
CREATE TABLE audit_log (
	id         INTEGER PRIMARY KEY,
	at         TEXT NOT NULL,
	actor_id   INTEGER REFERENCES users(id),
	action     TEXT NOT NULL,
	entity     TEXT NOT NULL,
	entity_id  TEXT NOT NULL,
	detail     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_entity ON audit_log (entity, entity_id);
CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
