-- Benchwright schema on PostgreSQL, version 32: debiased subsets, as SQLite's
-- migration 32 adds them (its comments say why).
ALTER TABLE hard_subsets ADD COLUMN IF NOT EXISTS kind TEXT COLLATE "C" NOT NULL DEFAULT 'hard';
ALTER TABLE hard_subsets ADD COLUMN IF NOT EXISTS pruning TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE hard_candidates ADD COLUMN IF NOT EXISTS bias DOUBLE PRECISION;
ALTER TABLE hard_candidates ADD COLUMN IF NOT EXISTS prune_round BIGINT NOT NULL DEFAULT 0;
