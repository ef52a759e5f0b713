-- Benchwright schema on PostgreSQL, version 36: the agreement reads every
-- revision's sample, author and number in one walk of this index
-- (store/agreement_packed.go), where it read them in two queries (the numbers,
-- then the samples and authors): 108 against 156 ms at 100,000 samples (pgbench).
-- Every query the old index served, it serves. The same index as SQLite's.
DROP INDEX IF EXISTS stat_revisions_author;
CREATE INDEX stat_revisions_author ON revisions (sample_id, author_id, number);
