-- Benchwright schema, version 35: the sample manager sorted by author. Sorting
-- by the author's name looked each sample's author up and sorted every sample:
-- 50–100 ms at 100,000 samples. With this index the search joins the project's
-- authors, in the order of their names, to their samples in id order
-- (store/manager.go, searchOrder) and stops at the page: under 1 ms for the
-- first page, 2 ms for the page at offset 50,000.
CREATE INDEX IF NOT EXISTS sample_search_author ON sample_search (project_id, author_id, sample_id);
