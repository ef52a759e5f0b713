-- Benchwright schema on PostgreSQL, version 30: the columns of SQLite's migration
-- 30 (the round and revision of the vote an audit row logs). store/auditvotes.go
-- (addAuditVotes) fills them for the votes logged before, once.
ALTER TABLE audit_log ADD COLUMN IF NOT EXISTS vote_round BIGINT;
ALTER TABLE audit_log ADD COLUMN IF NOT EXISTS vote_revision BIGINT;
