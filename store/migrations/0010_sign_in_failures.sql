-- Benchwright schema, version 10: wrong passwords in a row, per user name.
--
-- After a few wrong passwords in a row a name must wait before the next attempt,
-- twice as long after each further failure (store.Authenticate, signInDelay). The
-- count lives here, not in memory, so that it holds across processes and restarts.
-- It is kept per name typed, known or not, so that the wait itself does not tell
-- which names have accounts; a successful sign-in or a new password deletes the row.
CREATE TABLE IF NOT EXISTS sign_in_failures (
	name      TEXT PRIMARY KEY,
	failures  INTEGER NOT NULL,
	last_at   TEXT NOT NULL
) WITHOUT ROWID;
