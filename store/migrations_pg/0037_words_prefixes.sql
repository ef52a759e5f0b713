-- Benchwright schema on PostgreSQL, version 37: nothing. SQLite's migration 37
-- makes its full-text index keep more prefixes; PostgreSQL's GIN index of the
-- words (sample_words_body) finds any prefix from the ordered words it holds.
SELECT 1;
