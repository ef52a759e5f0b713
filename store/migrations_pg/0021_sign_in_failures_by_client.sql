-- Benchwright schema on PostgreSQL, version 21: wrong passwords in a row, per user
-- name and client address, as store/migrations/0021_sign_in_failures_by_client.sql
-- builds it on SQLite (its comments say why).
CREATE TABLE IF NOT EXISTS sign_in_failures_new (
	name      TEXT COLLATE "C" NOT NULL,
	client    TEXT COLLATE "C" NOT NULL DEFAULT '',  -- '' for local work
	failures  BIGINT NOT NULL,
	last_at   TEXT COLLATE "C" NOT NULL,
	PRIMARY KEY (name, client)
);
INSERT INTO sign_in_failures_new (name, client, failures, last_at) SELECT name, '', failures, last_at FROM sign_in_failures
	ON CONFLICT (name, client) DO NOTHING;
DROP TABLE sign_in_failures;
ALTER TABLE sign_in_failures_new RENAME TO sign_in_failures;
ALTER INDEX sign_in_failures_new_pkey RENAME TO sign_in_failures_pkey;
