-- Benchwright schema on PostgreSQL, version 28: images.phash, as SQLite's
-- migration 28 adds it (its comments say why).
ALTER TABLE images ADD COLUMN IF NOT EXISTS phash BIGINT;
