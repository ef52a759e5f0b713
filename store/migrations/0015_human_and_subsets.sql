-- Benchwright schema, version 15: hard subsets curated from models' failures, and
-- the human baseline of a release.
--
-- A hard subset (SpatialScore-Hard) is a candidate list: the samples of a frozen
-- release that at least k of n models fail, balanced over categories to a target
-- count by a seeded draw (score.SelectHard), one list per (release, models, k,
-- target, seed, strict). A lead keeps or drops each candidate with a reason; the
-- kept samples are then frozen into a release of their own (frozen_release_id),
-- after which the list and its decisions take no change. The new release's
-- MANIFEST records this provenance (release.Curation).
CREATE TABLE IF NOT EXISTS hard_subsets (
	id                INTEGER PRIMARY KEY,
	release_id        INTEGER NOT NULL REFERENCES releases(id),
	models            TEXT NOT NULL,            -- JSON array of the n model names, in the order given
	k                 INTEGER NOT NULL,
	target            INTEGER NOT NULL,         -- 0: every candidate
	seed              INTEGER NOT NULL,
	strict            INTEGER NOT NULL DEFAULT 0, -- a hop answer whose box misses counts as failed
	pool              INTEGER NOT NULL,         -- samples failed by at least k models, before the draw
	created_by        INTEGER NOT NULL REFERENCES users(id),
	created_at        TEXT NOT NULL,
	frozen_release_id INTEGER REFERENCES releases(id),
	UNIQUE (release_id, models, k, target, seed, strict)
);

CREATE TABLE IF NOT EXISTS hard_candidates (
	subset_id   INTEGER NOT NULL REFERENCES hard_subsets(id),
	sample_id   TEXT NOT NULL,
	category    TEXT NOT NULL,                 -- score.HardCategory
	failed_by   TEXT NOT NULL,                 -- JSON array of the models that failed it
	decision    TEXT NOT NULL DEFAULT '' CHECK (decision IN ('', 'keep', 'drop')),
	reason      TEXT NOT NULL DEFAULT '',
	decided_by  INTEGER REFERENCES users(id),
	decided_at  TEXT,
	PRIMARY KEY (subset_id, sample_id)
);

CREATE TRIGGER IF NOT EXISTS hard_candidates_frozen BEFORE UPDATE ON hard_candidates
WHEN (SELECT frozen_release_id FROM hard_subsets WHERE id = OLD.subset_id) IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'the hard subset is frozen'); END;
CREATE TRIGGER IF NOT EXISTS hard_candidates_no_delete BEFORE DELETE ON hard_candidates
BEGIN SELECT RAISE(ABORT, 'candidates are kept'); END;
CREATE TRIGGER IF NOT EXISTS hard_subsets_frozen BEFORE UPDATE ON hard_subsets
WHEN OLD.frozen_release_id IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'the hard subset is frozen'); END;

-- The human baseline of a release: a stratified, seeded sample of its samples
-- (score.DrawHuman), one per release, that signed-in people answer blind. Each
-- answer is stored as the response text the scoring rules read
-- (score.HumanResponse), one per person and item; answering again replaces it.
CREATE TABLE IF NOT EXISTS human_baselines (
	id          INTEGER PRIMARY KEY,
	release_id  INTEGER NOT NULL UNIQUE REFERENCES releases(id),
	size        INTEGER NOT NULL,   -- the size asked for
	seed        INTEGER NOT NULL,
	created_by  INTEGER NOT NULL REFERENCES users(id),
	created_at  TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS human_items (
	baseline_id INTEGER NOT NULL REFERENCES human_baselines(id),
	sample_id   TEXT NOT NULL,
	PRIMARY KEY (baseline_id, sample_id)
);

CREATE TABLE IF NOT EXISTS human_answers (
	baseline_id INTEGER NOT NULL,
	sample_id   TEXT NOT NULL,
	user_id     INTEGER NOT NULL REFERENCES users(id),
	response    TEXT NOT NULL,
	answered_at TEXT NOT NULL,
	PRIMARY KEY (baseline_id, sample_id, user_id),
	FOREIGN KEY (baseline_id, sample_id) REFERENCES human_items (baseline_id, sample_id)
);
