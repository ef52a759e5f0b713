-- Benchwright schema, version 16: the lead's sample manager (store/manager.go).
--
-- The manager filters and sorts every sample of a project by what its content says
-- (hop, view, category set, task, split, words of its text) as well as by its row
-- (state, kind, author, dates). Reading that out of each sample's JSON on every page
-- costs a scan of the whole table: 190 ms for a hop filter at 100k samples. So the
-- store keeps, in the transaction of every write that changes a sample (the same
-- places that keep the dashboard's summaries, stats.go), one narrow row per sample
-- here and its words in a full-text index. Filters and the count of a page read only
-- these rows; the page's samples are then read by id.
--
-- categories is the sorted category set as the dashboard names it ("att+rel",
-- "none"); reasons holds every reason any rejection of the sample gave, each
-- between spaces (" box_on_answer other "); acked is 1 when the current revision
-- was submitted with lint warnings acknowledged; derived is 1 when the sample names
-- a parent. The store fills the table for every project right after this migration
-- (IF NOT EXISTS: tests wind the schema version back and run it again).
CREATE TABLE IF NOT EXISTS sample_search (
	doc        INTEGER PRIMARY KEY, -- the docid of the sample's words in sample_words
	sample_id  TEXT NOT NULL UNIQUE,
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	status     TEXT NOT NULL,
	author_id  INTEGER NOT NULL,
	image_id   INTEGER NOT NULL,
	hop        INTEGER NOT NULL,
	view       TEXT NOT NULL,
	categories TEXT NOT NULL,
	task       TEXT NOT NULL,
	split      TEXT NOT NULL,
	reasons    TEXT NOT NULL,
	acked      INTEGER NOT NULL,
	derived    INTEGER NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
-- Pages in the sort orders (ties by id), and a covering index of every filter
-- column: a count that cannot use a range scans it instead of the table (7 ms
-- against 45 ms at 100k samples).
CREATE INDEX IF NOT EXISTS sample_search_updated ON sample_search (project_id, updated_at DESC, sample_id);
CREATE INDEX IF NOT EXISTS sample_search_created ON sample_search (project_id, created_at DESC, sample_id);
CREATE INDEX IF NOT EXISTS sample_search_id ON sample_search (project_id, sample_id);
-- Hop has four values: without these the sort reads a whole hop (half the project
-- for hop 0) and sorts it by id for every page. SQLite walks an index one way, so a
-- descending sort with ties by ascending id needs the second. State and kind sort
-- every sample in about 10 ms at 100k and go without.
CREATE INDEX IF NOT EXISTS sample_search_hop ON sample_search (project_id, hop, sample_id);
CREATE INDEX IF NOT EXISTS sample_search_hop_desc ON sample_search (project_id, hop DESC, sample_id);
CREATE INDEX IF NOT EXISTS sample_search_facets ON sample_search (project_id, hop, view, categories, status, kind, author_id, task,
	split, acked, derived, reasons);
CREATE INDEX IF NOT EXISTS sample_search_image ON sample_search (image_id);

-- The words of each sample: its id, question, options, text answer and step contents.
CREATE VIRTUAL TABLE IF NOT EXISTS sample_words USING fts4(body, tokenize=unicode61, prefix="2,4");

-- "Reviewed by V (in round N)" and "reviewed in round N" without walking every review.
CREATE INDEX IF NOT EXISTS reviews_verifier_round ON reviews (verifier_id, round, sample_id);
CREATE INDEX IF NOT EXISTS reviews_round ON reviews (round, sample_id);
