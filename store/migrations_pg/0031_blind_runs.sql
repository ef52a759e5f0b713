-- Benchwright schema on PostgreSQL, version 31: model_runs.blind and
-- model_runs.base_model, as SQLite's migration 31 adds them (its comments say why).
ALTER TABLE model_runs ADD COLUMN IF NOT EXISTS blind BIGINT NOT NULL DEFAULT 0;
ALTER TABLE model_runs ADD COLUMN IF NOT EXISTS base_model TEXT COLLATE "C";
