-- Benchwright schema, version 34 (issue 31): nothing changes in SQLite. The
-- version is PostgreSQL's (store/migrations_pg/0034_words_by_replace.sql): its
-- stand-in for the words SQLite's FTS4 table splits, bw_words, gives the same
-- words with less work. The two engines keep one schema version.
SELECT 1;
