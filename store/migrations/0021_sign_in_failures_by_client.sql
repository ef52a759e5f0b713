-- Benchwright schema, version 21: wrong passwords in a row, per user name and
-- client address.
--
-- Counted per name alone, four wrong guesses from anywhere made the account's real
-- owner wait too (issue 25): anyone could lock anyone out. A name's wait now holds
-- for the address that guessed (store.Authenticate); a right password from an
-- address that has not been guessing signs in. The team server's own limit per
-- address still bounds how fast one address guesses at all names. client is the
-- address as store.ClientAddr gives it (IPv6 by its /64), '' for local work.
-- Existing counts are kept as local ones.
CREATE TABLE IF NOT EXISTS sign_in_failures_new (
	name      TEXT NOT NULL,
	client    TEXT NOT NULL DEFAULT '',  -- '' for local work
	failures  INTEGER NOT NULL,
	last_at   TEXT NOT NULL,
	PRIMARY KEY (name, client)
) WITHOUT ROWID;
INSERT OR IGNORE INTO sign_in_failures_new (name, client, failures, last_at) SELECT name, '', failures, last_at FROM sign_in_failures;
DROP TABLE sign_in_failures;
ALTER TABLE sign_in_failures_new RENAME TO sign_in_failures;
