-- Benchwright schema, version 35: the sample manager sorted by author. Sorting
-- by the author's name looked each sample's author up and sorted every sample.
-- With this index the search walks the project's authors in the order of their
-- names, and each one's samples in id order, and stops at the page
-- (store/manager.go, searchFrom): BenchmarkScaleSampleManager/sort-author (the
-- page, its count and its rows) at 100,000 samples 27.4 → 9.1 ms, the count's
-- cost; the page alone under 1 ms.
CREATE INDEX IF NOT EXISTS sample_search_author ON sample_search (project_id, author_id, sample_id);
