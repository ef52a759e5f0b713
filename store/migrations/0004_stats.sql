-- Benchwright schema, version 4: summary tables for the dashboard and indexes for
-- the agreement.
--
-- The dashboard (store/dashboard.go) reads these small tables instead of grouping a
-- project's samples, revisions, reviews and audit log at read time, which took
-- seconds at 100k samples. Triggers keep them current on every write of samples,
-- revisions, reviews and audit rows; the end of this file fills them from the rows
-- that exist. Every count is per project and is a plain sum of n (rows may reach
-- n = 0; readers skip them). Only store/dashboard.go and store/agreement.go (which
-- takes the revisions with round-3 votes from stat_rev3) read them.
--
-- A sample's project and kind never change (the store sets them once): the review,
-- activity and submission summaries keep the project and kind a sample had when the
-- row was written.

-- Samples per kind, state and author: the funnel, each author's samples and accepted ones.
CREATE TABLE stat_samples (
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	status     TEXT NOT NULL,
	author_id  INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, kind, status, author_id)
) WITHOUT ROWID;

-- Samples per kind, state and their current revision's hop, view and task: the balance.
-- hop, view and task hold json_extract's value as it is (no type affinity).
CREATE TABLE stat_balance (
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	hop        NOT NULL,
	view       NOT NULL,
	task       NOT NULL,
	status     TEXT NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, kind, hop, view, task, status)
) WITHOUT ROWID;

-- Samples created (state 'draft') and moved into each state per UTC day, from the
-- audit rows 'sample.create' and 'sample.status' ("from → to").
CREATE TABLE stat_activity (
	project_id INTEGER NOT NULL,
	day        TEXT NOT NULL,
	state      TEXT NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, day, state)
) WITHOUT ROWID;

-- Revisions submitted (change 'submit' or 'revise') per day and author.
CREATE TABLE stat_submissions (
	project_id INTEGER NOT NULL,
	day        TEXT NOT NULL,
	author_id  INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, day, author_id)
) WITHOUT ROWID;

-- Reject reasons per author of the rejected revision. A rejection is never secret (an
-- open round 3 has none), so these need no class.
CREATE TABLE stat_reasons (
	project_id INTEGER NOT NULL,
	author_id  INTEGER NOT NULL,
	reason     NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, author_id, reason)
) WITHOUT ROWID;

-- Per revision, what a review of it is counted under: its sample's project and kind,
-- its author and its categories (JSON as stored, '[]' without). A review's sample is
-- its revision's sample (the store writes both so).
CREATE TABLE stat_revisions (
	revision_id INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	author_id   INTEGER NOT NULL,
	categories  TEXT NOT NULL
);

-- The round-3 votes of each revision that has any, and the class its round-3 reviews
-- are counted under in the review summaries below:
--   open_a  = approvals when the revision may have an open round 3 (it is the current
--             revision of a sample that is not a draft, in round 1 or 2 or returned,
--             and no round-3 vote rejected it), else 0. The dashboard leaves a
--             review out when open_a is between 1 and the panel size - 1: the
--             round-3 votes of an open round are secret (verify.CanSeeRound3Votes).
--   panel_a = -1 when a round-3 vote rejected, else approvals: the panel's result is
--             'reject' at -1 and 'approve' from the panel size up.
-- Reviews of rounds 1 and 2 are counted with open_a = panel_a = 0.
CREATE TABLE stat_rev3 (
	revision_id INTEGER PRIMARY KEY,
	approvals   INTEGER NOT NULL DEFAULT 0,
	rejections  INTEGER NOT NULL DEFAULT 0,
	open_a      INTEGER NOT NULL DEFAULT 0,
	panel_a     INTEGER NOT NULL DEFAULT 0,
	next_open   INTEGER NOT NULL DEFAULT 0, -- the class a refresh moves the votes to;
	next_panel  INTEGER NOT NULL DEFAULT 0  -- between refreshes open_a and panel_a
);

-- Reviews per author of the reviewed revision, round, decision and class.
CREATE TABLE stat_review_authors (
	project_id INTEGER NOT NULL,
	author_id  INTEGER NOT NULL,
	round      INTEGER NOT NULL,
	decision   TEXT NOT NULL,
	open_a     INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, author_id, round, decision, open_a)
) WITHOUT ROWID;

-- Reviews per verifier, round, decision and class.
CREATE TABLE stat_review_verifiers (
	project_id  INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL,
	round       INTEGER NOT NULL,
	decision    TEXT NOT NULL,
	open_a      INTEGER NOT NULL,
	panel_a     INTEGER NOT NULL,
	n           INTEGER NOT NULL,
	PRIMARY KEY (project_id, verifier_id, round, decision, open_a, panel_a)
) WITHOUT ROWID;

-- Reviews per sample kind, categories of the reviewed revision (JSON as stored,
-- '[]' without), decision and class.
CREATE TABLE stat_review_kinds (
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	categories TEXT NOT NULL,
	decision   TEXT NOT NULL,
	open_a     INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, kind, categories, decision, open_a)
) WITHOUT ROWID;

-- Timed reviews (seconds > 0) per verifier, whole second (bucket = CAST(seconds AS
-- INTEGER)) and class: the dashboard finds the second of a median or percentile here
-- and reads that second's exact times from stat_review_times.
CREATE TABLE stat_review_seconds (
	project_id  INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL,
	bucket      INTEGER NOT NULL,
	open_a      INTEGER NOT NULL,
	n           INTEGER NOT NULL,
	PRIMARY KEY (project_id, verifier_id, bucket, open_a)
) WITHOUT ROWID;

-- Every timed review's seconds in order per project and verifier (review_id is the
-- review's id); round and revision_id tell whether it is visible (stat_rev3).
CREATE TABLE stat_review_times (
	project_id  INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL,
	seconds     REAL NOT NULL,
	review_id   INTEGER NOT NULL,
	round       INTEGER NOT NULL,
	revision_id INTEGER NOT NULL,
	PRIMARY KEY (project_id, verifier_id, seconds, review_id)
) WITHOUT ROWID;

-- A sample's project, kind, current revision and state without reading the sample's
-- row (it holds the draft): for the agreement's pass over the reviews
-- (store/agreement.go) and the class of a revision (stat_rev3_class).
CREATE INDEX stat_samples_of ON samples (id, project_id, kind, current_rev, status);

-- The samples whose revisions have two or more authors, for the box agreement
-- (store/agreement.go), without reading the revisions.
CREATE INDEX stat_revisions_author ON revisions (sample_id, author_id);

-- The class a revision's round-3 reviews belong to now (see stat_rev3).
CREATE VIEW stat_rev3_class (revision_id, open_a, panel_a) AS
SELECT t.revision_id,
	CASE WHEN t.rejections = 0 AND EXISTS (SELECT 1 FROM revisions r JOIN samples s ON s.id = r.sample_id
		WHERE r.id = t.revision_id AND s.current_rev = t.revision_id AND s.status <> 'draft' AND s.status <> 'round1'
			AND s.status <> 'round2' AND s.status <> 'returned')
	THEN t.approvals ELSE 0 END,
	CASE WHEN t.rejections > 0 THEN -1 ELSE t.approvals END
FROM stat_rev3 t;

-- The tables below are procedures, always empty: inserting one row into one (with
-- VALUES: SQLite runs INSERT … SELECT into a table with triggers through a temporary
-- table) runs its trigger, which deletes the row again. A null argument makes the
-- call do nothing.

-- stat_sample_event counts (sign 1) or uncounts (-1) one sample in stat_samples and,
-- when its current revision exists, in stat_balance.
CREATE TABLE stat_sample_event (project_id, kind, status, author_id, current_rev, sign);
CREATE TRIGGER stat_sample_event_apply AFTER INSERT ON stat_sample_event
BEGIN
	INSERT INTO stat_samples (project_id, kind, status, author_id, n)
		VALUES (NEW.project_id, NEW.kind, NEW.status, NEW.author_id, NEW.sign)
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_balance (project_id, kind, hop, view, task, status, n)
		SELECT NEW.project_id, NEW.kind, COALESCE(json_extract(r.content, '$.hop'), 0), COALESCE(json_extract(r.content, '$.view'), ''),
			COALESCE(json_extract(r.content, '$.task'), ''), NEW.status, NEW.sign
		FROM revisions r WHERE r.id = NEW.current_rev AND json_valid(r.content)
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	DELETE FROM stat_sample_event WHERE rowid = NEW.rowid;
END;

-- stat_review_count counts (sign 1) or uncounts (-1) one review under the class
-- (open_a, panel_a) in the review summaries; a null sign does nothing.
CREATE TABLE stat_review_count (revision_id, round, verifier_id, decision, seconds, open_a, panel_a, sign);
CREATE TRIGGER stat_review_count_apply AFTER INSERT ON stat_review_count WHEN NEW.sign IS NOT NULL
BEGIN
	INSERT INTO stat_review_authors (project_id, author_id, round, decision, open_a, n)
		SELECT r.project_id, r.author_id, NEW.round, NEW.decision, NEW.open_a, NEW.sign
		FROM stat_revisions r WHERE r.revision_id = NEW.revision_id
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_verifiers (project_id, verifier_id, round, decision, open_a, panel_a, n)
		SELECT r.project_id, NEW.verifier_id, NEW.round, NEW.decision, NEW.open_a, NEW.panel_a, NEW.sign
		FROM stat_revisions r WHERE r.revision_id = NEW.revision_id
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_kinds (project_id, kind, categories, decision, open_a, n)
		SELECT r.project_id, r.kind, r.categories, NEW.decision, NEW.open_a, NEW.sign
		FROM stat_revisions r WHERE r.revision_id = NEW.revision_id
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_seconds (project_id, verifier_id, bucket, open_a, n)
		SELECT r.project_id, NEW.verifier_id, CAST(NEW.seconds AS INTEGER), NEW.open_a, NEW.sign
		FROM stat_revisions r WHERE r.revision_id = NEW.revision_id AND NEW.seconds > 0
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	DELETE FROM stat_review_count WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER stat_review_count_skip AFTER INSERT ON stat_review_count WHEN NEW.sign IS NULL
BEGIN
	DELETE FROM stat_review_count WHERE rowid = NEW.rowid;
END;

-- stat_rev3_refresh moves a revision's round-3 reviews (but the one with id skip_id,
-- which the caller counts itself) from the class recorded in stat_rev3 to the class
-- the revision has now (stat_rev3_class), and records the new class. A table whose
-- part of the class stays the same is left alone. A null revision does nothing.
CREATE TABLE stat_rev3_refresh (revision_id, skip_id);
CREATE TRIGGER stat_rev3_refresh_apply AFTER INSERT ON stat_rev3_refresh WHEN NEW.revision_id IS NOT NULL
BEGIN
	UPDATE stat_rev3 SET (next_open, next_panel) = (SELECT c.open_a, c.panel_a FROM stat_rev3_class c WHERE c.revision_id = NEW.revision_id)
		WHERE revision_id = NEW.revision_id;
	INSERT INTO stat_review_authors (project_id, author_id, round, decision, open_a, n)
		SELECT r.project_id, r.author_id, 3, rv.decision, t.open_a, -1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND t.open_a IS NOT t.next_open
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_authors (project_id, author_id, round, decision, open_a, n)
		SELECT r.project_id, r.author_id, 3, rv.decision, t.next_open, 1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND t.open_a IS NOT t.next_open
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_verifiers (project_id, verifier_id, round, decision, open_a, panel_a, n)
		SELECT r.project_id, rv.verifier_id, 3, rv.decision, t.open_a, t.panel_a, -1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND (t.open_a IS NOT t.next_open OR t.panel_a IS NOT t.next_panel)
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_verifiers (project_id, verifier_id, round, decision, open_a, panel_a, n)
		SELECT r.project_id, rv.verifier_id, 3, rv.decision, t.next_open, t.next_panel, 1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND (t.open_a IS NOT t.next_open OR t.panel_a IS NOT t.next_panel)
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_kinds (project_id, kind, categories, decision, open_a, n)
		SELECT r.project_id, r.kind, r.categories, rv.decision, t.open_a, -1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND t.open_a IS NOT t.next_open
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_kinds (project_id, kind, categories, decision, open_a, n)
		SELECT r.project_id, r.kind, r.categories, rv.decision, t.next_open, 1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND t.open_a IS NOT t.next_open
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_seconds (project_id, verifier_id, bucket, open_a, n)
		SELECT r.project_id, rv.verifier_id, CAST(rv.seconds AS INTEGER), t.open_a, -1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND t.open_a IS NOT t.next_open AND rv.seconds > 0
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_review_seconds (project_id, verifier_id, bucket, open_a, n)
		SELECT r.project_id, rv.verifier_id, CAST(rv.seconds AS INTEGER), t.next_open, 1
		FROM stat_rev3 t
			JOIN stat_revisions r ON r.revision_id = t.revision_id JOIN reviews rv ON rv.revision_id = t.revision_id AND rv.round = 3
		WHERE t.revision_id = NEW.revision_id AND rv.id IS NOT NEW.skip_id AND t.open_a IS NOT t.next_open AND rv.seconds > 0
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	UPDATE stat_rev3 SET open_a = next_open, panel_a = next_panel WHERE revision_id = NEW.revision_id;
	DELETE FROM stat_rev3_refresh WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER stat_rev3_refresh_skip AFTER INSERT ON stat_rev3_refresh WHEN NEW.revision_id IS NULL
BEGIN
	DELETE FROM stat_rev3_refresh WHERE rowid = NEW.rowid;
END;

-- stat_review_event counts (sign 1) or uncounts (-1) one review: a round-3 review
-- changes its revision's tallies, which may move the revision's other round-3
-- reviews to another class. An uncounted review leaves the class it was counted in;
-- a counted one joins the class that follows from it.
CREATE TABLE stat_review_event (id, skip_id, revision_id, round, verifier_id, decision, seconds, reasons, sign);
CREATE TRIGGER stat_review_event_apply AFTER INSERT ON stat_review_event
BEGIN
	-- First: SQLite copies INSERT … SELECT through a temporary table once the
	-- trigger has read the target table.
	INSERT INTO stat_rev3 (revision_id) SELECT NEW.revision_id WHERE NEW.round = 3
		ON CONFLICT DO NOTHING;
	INSERT INTO stat_review_count VALUES (NEW.revision_id, NEW.round, NEW.verifier_id, NEW.decision, NEW.seconds,
		COALESCE((SELECT open_a FROM stat_rev3 WHERE NEW.round = 3 AND revision_id = NEW.revision_id), 0),
		COALESCE((SELECT panel_a FROM stat_rev3 WHERE NEW.round = 3 AND revision_id = NEW.revision_id), 0), IIF(NEW.sign < 0, -1, NULL));
	UPDATE stat_rev3 SET approvals = approvals + NEW.sign * (NEW.decision = 'approve'),
			rejections = rejections + NEW.sign * (NEW.decision = 'reject')
		WHERE NEW.round = 3 AND revision_id = NEW.revision_id;
	INSERT INTO stat_rev3_refresh VALUES (IIF(NEW.round = 3, NEW.revision_id, NULL), NEW.skip_id);
	INSERT INTO stat_review_count VALUES (NEW.revision_id, NEW.round, NEW.verifier_id, NEW.decision, NEW.seconds,
		COALESCE((SELECT open_a FROM stat_rev3 WHERE NEW.round = 3 AND revision_id = NEW.revision_id), 0),
		COALESCE((SELECT panel_a FROM stat_rev3 WHERE NEW.round = 3 AND revision_id = NEW.revision_id), 0), IIF(NEW.sign > 0, 1, NULL));
	INSERT INTO stat_reasons (project_id, author_id, reason, n)
		SELECT r.project_id, r.author_id, j.value, NEW.sign
		FROM stat_revisions r, json_each(CASE WHEN NEW.decision = 'reject' AND json_valid(NEW.reasons) THEN NEW.reasons ELSE '[]' END) j
		WHERE r.revision_id = NEW.revision_id AND j.value IS NOT NULL
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	DELETE FROM stat_review_times WHERE NEW.sign < 0 AND NEW.seconds > 0
		AND project_id = (SELECT project_id FROM stat_revisions WHERE revision_id = NEW.revision_id) AND verifier_id = NEW.verifier_id
		AND seconds = NEW.seconds AND review_id = NEW.id;
	INSERT INTO stat_review_times (project_id, verifier_id, seconds, review_id, round, revision_id)
		SELECT r.project_id, NEW.verifier_id, NEW.seconds, NEW.id, NEW.round, NEW.revision_id
		FROM stat_revisions r WHERE NEW.sign > 0 AND NEW.seconds > 0 AND r.revision_id = NEW.revision_id;
	DELETE FROM stat_review_event WHERE rowid = NEW.rowid;
END;

CREATE TRIGGER stat_samples_insert AFTER INSERT ON samples
BEGIN
	INSERT INTO stat_sample_event VALUES (NEW.project_id, NEW.kind, NEW.status, NEW.author_id, NEW.current_rev, 1);
END;

CREATE TRIGGER stat_samples_update AFTER UPDATE OF project_id, kind, status, author_id, current_rev ON samples
WHEN OLD.project_id IS NOT NEW.project_id OR OLD.kind IS NOT NEW.kind OR OLD.status IS NOT NEW.status
	OR OLD.author_id IS NOT NEW.author_id OR OLD.current_rev IS NOT NEW.current_rev
BEGIN
	INSERT INTO stat_sample_event VALUES (OLD.project_id, OLD.kind, OLD.status, OLD.author_id, OLD.current_rev, -1);
	INSERT INTO stat_sample_event VALUES (NEW.project_id, NEW.kind, NEW.status, NEW.author_id, NEW.current_rev, 1);
	INSERT INTO stat_rev3_refresh VALUES (OLD.current_rev, NULL);
	INSERT INTO stat_rev3_refresh VALUES (IIF(NEW.current_rev IS NOT OLD.current_rev, NEW.current_rev, NULL), NULL);
END;

CREATE TRIGGER stat_samples_delete AFTER DELETE ON samples
BEGIN
	INSERT INTO stat_sample_event VALUES (OLD.project_id, OLD.kind, OLD.status, OLD.author_id, OLD.current_rev, -1);
	INSERT INTO stat_rev3_refresh VALUES (OLD.current_rev, NULL);
END;

-- Revisions are immutable. A new one gets its stat_revisions row, may be a
-- submission, and joins the balance when a sample already names it as its current
-- revision (a sample inserted together with its revisions, as store.Generate does).
CREATE TRIGGER stat_revisions_insert AFTER INSERT ON revisions
BEGIN
	INSERT INTO stat_revisions (revision_id, project_id, kind, author_id, categories)
		SELECT NEW.id, s.project_id, s.kind, NEW.author_id,
			CASE WHEN json_valid(NEW.content) THEN COALESCE(json_extract(NEW.content, '$.categories'), '[]') ELSE '[]' END
		FROM samples s WHERE s.id = NEW.sample_id;
	INSERT INTO stat_submissions (project_id, day, author_id, n)
		SELECT s.project_id, substr(NEW.created_at, 1, 10), NEW.author_id, 1
		FROM samples s WHERE s.id = NEW.sample_id AND NEW.change IN ('submit', 'revise')
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
	INSERT INTO stat_balance (project_id, kind, hop, view, task, status, n)
		SELECT s.project_id, s.kind, COALESCE(json_extract(NEW.content, '$.hop'), 0), COALESCE(json_extract(NEW.content, '$.view'), ''),
			COALESCE(json_extract(NEW.content, '$.task'), ''), s.status, 1
		FROM samples s WHERE s.id = NEW.sample_id AND s.current_rev = NEW.id AND json_valid(NEW.content)
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
END;

CREATE TRIGGER stat_reviews_insert AFTER INSERT ON reviews
BEGIN
	INSERT INTO stat_review_event VALUES (NEW.id, NEW.id, NEW.revision_id, NEW.round, NEW.verifier_id, NEW.decision, NEW.seconds, NEW.reasons, 1);
END;

CREATE TRIGGER stat_reviews_update AFTER UPDATE ON reviews
BEGIN
	INSERT INTO stat_review_event VALUES (OLD.id, NEW.id, OLD.revision_id, OLD.round, OLD.verifier_id, OLD.decision, OLD.seconds, OLD.reasons, -1);
	INSERT INTO stat_review_event VALUES (NEW.id, NEW.id, NEW.revision_id, NEW.round, NEW.verifier_id, NEW.decision, NEW.seconds, NEW.reasons, 1);
END;

CREATE TRIGGER stat_reviews_delete AFTER DELETE ON reviews
BEGIN
	INSERT INTO stat_review_event VALUES (OLD.id, OLD.id, OLD.revision_id, OLD.round, OLD.verifier_id, OLD.decision, OLD.seconds, OLD.reasons, -1);
END;

-- The audit log is append-only; setStatus writes "from → to".
CREATE TRIGGER stat_audit_insert AFTER INSERT ON audit_log
WHEN NEW.entity = 'sample' AND NEW.action IN ('sample.create', 'sample.status')
BEGIN
	INSERT INTO stat_activity (project_id, day, state, n)
		SELECT s.project_id, substr(NEW.at, 1, 10),
			CASE WHEN NEW.action = 'sample.create' THEN 'draft'
				WHEN instr(NEW.detail, '→ ') > 0 THEN substr(NEW.detail, instr(NEW.detail, '→ ') + 2) ELSE '' END, 1
		FROM samples s WHERE s.id = NEW.entity_id
		ON CONFLICT DO UPDATE SET n = n + excluded.n;
END;

-- Fill the summaries from the rows that exist.
INSERT INTO stat_samples (project_id, kind, status, author_id, n)
	SELECT project_id, kind, status, author_id, count(*) FROM samples GROUP BY 1, 2, 3, 4;

INSERT INTO stat_balance (project_id, kind, hop, view, task, status, n)
	SELECT s.project_id, s.kind, COALESCE(json_extract(r.content, '$.hop'), 0), COALESCE(json_extract(r.content, '$.view'), ''),
		COALESCE(json_extract(r.content, '$.task'), ''), s.status, count(*)
	FROM samples s JOIN revisions r ON r.id = s.current_rev WHERE json_valid(r.content)
	GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO stat_activity (project_id, day, state, n)
	SELECT s.project_id, substr(l.at, 1, 10),
		CASE WHEN l.action = 'sample.create' THEN 'draft'
			WHEN instr(l.detail, '→ ') > 0 THEN substr(l.detail, instr(l.detail, '→ ') + 2) ELSE '' END, count(*)
	FROM audit_log l JOIN samples s ON s.id = l.entity_id
	WHERE l.entity = 'sample' AND l.action IN ('sample.create', 'sample.status')
	GROUP BY 1, 2, 3;

INSERT INTO stat_submissions (project_id, day, author_id, n)
	SELECT s.project_id, substr(r.created_at, 1, 10), r.author_id, count(*)
	FROM revisions r JOIN samples s ON s.id = r.sample_id WHERE r.change IN ('submit', 'revise')
	GROUP BY 1, 2, 3;

INSERT INTO stat_revisions (revision_id, project_id, kind, author_id, categories)
	SELECT r.id, s.project_id, s.kind, r.author_id,
		CASE WHEN json_valid(r.content) THEN COALESCE(json_extract(r.content, '$.categories'), '[]') ELSE '[]' END
	FROM revisions r JOIN samples s ON s.id = r.sample_id;

INSERT INTO stat_reasons (project_id, author_id, reason, n)
	SELECT r.project_id, r.author_id, j.value, count(*)
	FROM reviews rv JOIN stat_revisions r ON r.revision_id = rv.revision_id,
		json_each(CASE WHEN json_valid(rv.reasons) THEN rv.reasons ELSE '[]' END) j
	WHERE rv.decision = 'reject' AND j.value IS NOT NULL
	GROUP BY 1, 2, 3;

INSERT INTO stat_rev3 (revision_id, approvals, rejections)
	SELECT revision_id, sum(decision = 'approve'), sum(decision = 'reject') FROM reviews WHERE round = 3 GROUP BY revision_id;
UPDATE stat_rev3 SET (open_a, panel_a, next_open, next_panel) =
	(SELECT c.open_a, c.panel_a, c.open_a, c.panel_a FROM stat_rev3_class c WHERE c.revision_id = stat_rev3.revision_id);

INSERT INTO stat_review_authors (project_id, author_id, round, decision, open_a, n)
	SELECT r.project_id, r.author_id, rv.round, rv.decision, COALESCE(t.open_a, 0), count(*)
	FROM reviews rv JOIN stat_revisions r ON r.revision_id = rv.revision_id
		LEFT JOIN stat_rev3 t ON rv.round = 3 AND t.revision_id = rv.revision_id
	GROUP BY 1, 2, 3, 4, 5;

INSERT INTO stat_review_verifiers (project_id, verifier_id, round, decision, open_a, panel_a, n)
	SELECT r.project_id, rv.verifier_id, rv.round, rv.decision, COALESCE(t.open_a, 0), COALESCE(t.panel_a, 0), count(*)
	FROM reviews rv JOIN stat_revisions r ON r.revision_id = rv.revision_id
		LEFT JOIN stat_rev3 t ON rv.round = 3 AND t.revision_id = rv.revision_id
	GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO stat_review_kinds (project_id, kind, categories, decision, open_a, n)
	SELECT r.project_id, r.kind, r.categories, rv.decision, COALESCE(t.open_a, 0), count(*)
	FROM reviews rv JOIN stat_revisions r ON r.revision_id = rv.revision_id
		LEFT JOIN stat_rev3 t ON rv.round = 3 AND t.revision_id = rv.revision_id
	GROUP BY 1, 2, 3, 4, 5;

INSERT INTO stat_review_seconds (project_id, verifier_id, bucket, open_a, n)
	SELECT r.project_id, rv.verifier_id, CAST(rv.seconds AS INTEGER), COALESCE(t.open_a, 0), count(*)
	FROM reviews rv JOIN stat_revisions r ON r.revision_id = rv.revision_id
		LEFT JOIN stat_rev3 t ON rv.round = 3 AND t.revision_id = rv.revision_id
	WHERE rv.seconds > 0
	GROUP BY 1, 2, 3, 4;

INSERT INTO stat_review_times (project_id, verifier_id, seconds, review_id, round, revision_id)
	SELECT r.project_id, rv.verifier_id, rv.seconds, rv.id, rv.round, rv.revision_id
	FROM reviews rv JOIN stat_revisions r ON r.revision_id = rv.revision_id WHERE rv.seconds > 0;
