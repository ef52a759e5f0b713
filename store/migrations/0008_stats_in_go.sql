-- Benchwright schema, version 8: the dashboard's summaries are kept in Go.
--
-- Version 4 kept the summary tables by triggers, and the triggers and a view decided
-- which round-3 votes count: a second copy of the protocol's rule, which had drifted
-- from verify's (it counted the votes of a round 3 closed by a reject while another
-- panel member could still vote late), and a schema only SQLite can run. Now
-- store/stats.go updates the summaries in the transaction of every write that
-- changes them, and verify (Round3.Settled) decides each revision's round-3 votes.
--
-- Every trigger, procedure table and view of version 4 goes, and the summary tables
-- are made anew: the store fills them for every project from the samples,
-- revisions, reviews, claims and audit log right after this migration, in its
-- transaction (stats.go, rebuildStats). The indexes stat_samples_of and
-- stat_revisions_author on the base tables stay (the agreement reads through them).
-- Migration 7's image_use triggers stay: they count rows, nothing of the protocol.
--
-- The drops are IF EXISTS so that the migration also runs on a database that has it
-- already (a test winds user_version back to rerun an earlier migration).
--
-- Every count is per project and a plain sum of n; rows may reach n = 0, and readers
-- skip them. Review summaries hold only the reviews that count (rounds 1 and 2, and
-- the round-3 votes of revisions whose stat_rev3.counted is 1).

DROP TRIGGER IF EXISTS stat_samples_insert;
DROP TRIGGER IF EXISTS stat_samples_update;
DROP TRIGGER IF EXISTS stat_samples_delete;
DROP TRIGGER IF EXISTS stat_revisions_insert;
DROP TRIGGER IF EXISTS stat_reviews_insert;
DROP TRIGGER IF EXISTS stat_reviews_update;
DROP TRIGGER IF EXISTS stat_reviews_delete;
DROP TRIGGER IF EXISTS stat_audit_insert;
DROP TRIGGER IF EXISTS stat_sample_event_apply;
DROP TRIGGER IF EXISTS stat_review_count_apply;
DROP TRIGGER IF EXISTS stat_review_count_skip;
DROP TRIGGER IF EXISTS stat_rev3_refresh_apply;
DROP TRIGGER IF EXISTS stat_rev3_refresh_skip;
DROP TRIGGER IF EXISTS stat_review_event_apply;

DROP VIEW IF EXISTS stat_rev3_class;

DROP TABLE IF EXISTS stat_sample_event;
DROP TABLE IF EXISTS stat_review_count;
DROP TABLE IF EXISTS stat_rev3_refresh;
DROP TABLE IF EXISTS stat_review_event;

DROP TABLE IF EXISTS stat_samples;
DROP TABLE IF EXISTS stat_balance;
DROP TABLE IF EXISTS stat_activity;
DROP TABLE IF EXISTS stat_submissions;
DROP TABLE IF EXISTS stat_reasons;
DROP TABLE IF EXISTS stat_revisions;
DROP TABLE IF EXISTS stat_rev3;
DROP TABLE IF EXISTS stat_review_authors;
DROP TABLE IF EXISTS stat_review_verifiers;
DROP TABLE IF EXISTS stat_review_kinds;
DROP TABLE IF EXISTS stat_review_seconds;
DROP TABLE IF EXISTS stat_review_times;
DROP TABLE IF EXISTS stat_policy;

-- Samples per kind, state and author: the funnel, each author's samples and accepted ones.
CREATE TABLE stat_samples (
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	status     TEXT NOT NULL,
	author_id  INTEGER NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, kind, status, author_id)
) WITHOUT ROWID;

-- Samples per kind, state and their current revision's hop, view and task (as
-- annotate.Sample reads the revision): the balance. A sample whose current revision
-- cannot be read is left out.
CREATE TABLE stat_balance (
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	hop        INTEGER NOT NULL,
	view       TEXT NOT NULL,
	task       TEXT NOT NULL,
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

-- Reject reasons per author of the rejected revision, of every rejection.
CREATE TABLE stat_reasons (
	project_id INTEGER NOT NULL,
	author_id  INTEGER NOT NULL,
	reason     TEXT NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, author_id, reason)
) WITHOUT ROWID;

-- Per revision, what a review of it is counted under and what the balance reads of
-- it: its sample's project and kind, its author, its category set ("att+rel", sorted;
-- "none"), and, when annotate.Sample reads its content (balanced = 1), its hop, view
-- and task.
CREATE TABLE stat_revisions (
	revision_id INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	author_id   INTEGER NOT NULL,
	categories  TEXT NOT NULL,
	balanced    INTEGER NOT NULL,
	hop         INTEGER NOT NULL,
	view        TEXT NOT NULL,
	task        TEXT NOT NULL
);
CREATE INDEX stat_revisions_project ON stat_revisions (project_id);

-- Every revision with round-3 votes, and how verify decided them at the last write
-- that could change it: counted = 1 when they are settled (verify.Round3.Settled) and
-- so in the review summaries; result is the panel's result then ('approve',
-- 'reject', or '' without one or when not counted); waiting = 1 when they are not
-- settled only because panel members may still vote late on a round 3 closed by a
-- reject. Such a round settles when the last late voter's claim runs out, with no
-- write: the dashboard decides the waiting revisions again when it reads.
CREATE TABLE stat_rev3 (
	revision_id INTEGER PRIMARY KEY,
	project_id  INTEGER NOT NULL,
	counted     INTEGER NOT NULL,
	result      TEXT NOT NULL,
	waiting     INTEGER NOT NULL
);
CREATE INDEX stat_rev3_waiting ON stat_rev3 (project_id, waiting);

-- The round-3 panel size stat_rev3 of a project was decided with. When the project's
-- setting differs, the store decides every revision again before using them.
CREATE TABLE stat_policy (
	project_id INTEGER PRIMARY KEY,
	panel      INTEGER NOT NULL
);

-- Counted reviews per author of the reviewed revision, round and decision.
CREATE TABLE stat_review_authors (
	project_id INTEGER NOT NULL,
	author_id  INTEGER NOT NULL,
	round      INTEGER NOT NULL,
	decision   TEXT NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, author_id, round, decision)
) WITHOUT ROWID;

-- Counted reviews per verifier, round, decision and the panel's result (round 3;
-- '' otherwise).
CREATE TABLE stat_review_verifiers (
	project_id  INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL,
	round       INTEGER NOT NULL,
	decision    TEXT NOT NULL,
	result      TEXT NOT NULL,
	n           INTEGER NOT NULL,
	PRIMARY KEY (project_id, verifier_id, round, decision, result)
) WITHOUT ROWID;

-- Counted reviews per sample kind, category set of the reviewed revision and decision.
CREATE TABLE stat_review_kinds (
	project_id INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	categories TEXT NOT NULL,
	decision   TEXT NOT NULL,
	n          INTEGER NOT NULL,
	PRIMARY KEY (project_id, kind, categories, decision)
) WITHOUT ROWID;

-- Counted timed reviews (seconds > 0) per verifier and whole second (bucket, the
-- seconds rounded down): the dashboard finds the second of a median or percentile
-- here and reads that second's exact times from stat_review_times.
CREATE TABLE stat_review_seconds (
	project_id  INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL,
	bucket      INTEGER NOT NULL,
	n           INTEGER NOT NULL,
	PRIMARY KEY (project_id, verifier_id, bucket)
) WITHOUT ROWID;

-- Every counted timed review's seconds in order per project and verifier
-- (review_id is the review's id).
CREATE TABLE stat_review_times (
	project_id  INTEGER NOT NULL,
	verifier_id INTEGER NOT NULL,
	seconds     REAL NOT NULL,
	review_id   INTEGER NOT NULL,
	PRIMARY KEY (project_id, verifier_id, seconds, review_id)
) WITHOUT ROWID;
