-- Benchwright schema, version 5: indexes in the order sample lists are shown.
--
-- Sample lists (store.Samples: the annotator's drafts and returned samples, the
-- accepted list, the lead's browser) are ordered newest first, then by id. Without an
-- index in exactly that order SQLite sorted every matching row before returning a
-- page: 0.3–2 s per page at 100k samples. (The 0003 queue index runs oldest first
-- for the review queue and cannot serve "updated_at DESC, id ASC".)
CREATE INDEX samples_page ON samples (project_id, updated_at DESC, id);
CREATE INDEX samples_status_page ON samples (project_id, status, updated_at DESC, id);
CREATE INDEX samples_author_page ON samples (author_id, status, updated_at DESC, id);
