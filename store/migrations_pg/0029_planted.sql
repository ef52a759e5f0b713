-- Benchwright schema on PostgreSQL, version 29: the tables of SQLite's migration
-- 29 (planted samples, issue 30), so that the schemas match.
CREATE TABLE IF NOT EXISTS planted (
	sample_id   TEXT COLLATE "C" PRIMARY KEY REFERENCES samples(id),
	project_id  BIGINT NOT NULL REFERENCES projects(id),
	origin_id   TEXT COLLATE "C" NOT NULL REFERENCES samples(id),
	mutation    TEXT COLLATE "C" NOT NULL,
	field       TEXT COLLATE "C" NOT NULL DEFAULT '',
	verifier_id BIGINT NOT NULL REFERENCES users(id),
	round       BIGINT NOT NULL CHECK (round BETWEEN 1 AND 3),
	created_at  TEXT COLLATE "C" NOT NULL,
	review_id   BIGINT REFERENCES reviews(id),
	outcome     TEXT COLLATE "C" NOT NULL DEFAULT '',
	feedback    TEXT COLLATE "C" NOT NULL DEFAULT '',
	reviewed_at TEXT COLLATE "C"
);
CREATE INDEX IF NOT EXISTS planted_verifier ON planted (project_id, verifier_id, round);

CREATE TABLE IF NOT EXISTS plant_salts (
	project_id BIGINT NOT NULL UNIQUE REFERENCES projects(id),
	salt       TEXT COLLATE "C" NOT NULL
);

CREATE TABLE IF NOT EXISTS plant_pauses (
	project_id  BIGINT NOT NULL REFERENCES projects(id),
	verifier_id BIGINT NOT NULL REFERENCES users(id),
	paused      BIGINT NOT NULL DEFAULT 0,
	reason      TEXT COLLATE "C" NOT NULL DEFAULT '',
	since       TEXT COLLATE "C" NOT NULL DEFAULT '',
	PRIMARY KEY (project_id, verifier_id)
);
