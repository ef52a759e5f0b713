-- Benchwright schema, version 11: facts about the database as a whole.
--
-- 'synthetic' = '1' marks a database made by the test-data generator (bwctl
-- gen-project, synth.Generate). Only such a database accepts the generator's bulk
-- writes, which put reviews under verifiers' names without their signing in; a
-- database holding real work can never be marked (store.MarkSynthetic).
CREATE TABLE IF NOT EXISTS database_info (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
