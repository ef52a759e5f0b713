-- Benchwright schema, version 12: models' predictions on frozen releases.
--
-- A model run is one model's responses to the samples of one release, imported
-- from a file (store.ImportPredictions, bwctl predictions import). The raw
-- response text is kept, never a score: the scoring rules (package score) take
-- options and may be refined, so scores are computed again from the stored text
-- whenever they are asked for. Importing a model again replaces its run: the
-- run's rows are deleted and written anew in one transaction, and the audit log
-- says so (predictions.replace). A prediction can only name a sample of its
-- release (the foreign key into release_samples); predictions for other ids are
-- reported by the import and not stored.
CREATE TABLE IF NOT EXISTS model_runs (
	release_id  INTEGER NOT NULL REFERENCES releases(id),
	model       TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	created_by  INTEGER NOT NULL REFERENCES users(id),
	PRIMARY KEY (release_id, model)
);

CREATE TABLE IF NOT EXISTS predictions (
	release_id   INTEGER NOT NULL,
	model        TEXT NOT NULL,
	sample_id    TEXT NOT NULL,
	response     TEXT NOT NULL,  -- the model's raw text, as imported
	step_match   TEXT,           -- JSON 0/1 matrix for a step graph (score.Prediction.StepMatch), or NULL
	imported_at  TEXT NOT NULL,
	imported_by  INTEGER NOT NULL REFERENCES users(id),
	source       TEXT NOT NULL DEFAULT '', -- the name of the file it came from
	PRIMARY KEY (release_id, model, sample_id),
	FOREIGN KEY (release_id, model) REFERENCES model_runs (release_id, model),
	FOREIGN KEY (release_id, sample_id) REFERENCES release_samples (release_id, sample_id)
);
