-- Benchwright schema on PostgreSQL, version 35: the sample manager sorted by
-- author (issue 17's 50 ms for a page of 100,000 samples). Sorting by the
-- author's name read every sample's search row and looked its author up, one
-- subquery per row, and sorted them all: 230–250 ms at 100,000 samples. With
-- this index the search walks the project's authors in the order of their
-- names, and each one's samples in id order, and stops at the page
-- (store/manager.go, searchFrom): 6 ms for the first page in psql, 28 ms for
-- BenchmarkScaleSampleManager/sort-author (the page, its count and its rows).
CREATE INDEX IF NOT EXISTS sample_search_author ON sample_search (project_id, author_id, sample_id);
