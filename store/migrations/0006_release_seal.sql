-- Benchwright schema, version 6: a release is sealed by a flag, not by counting.
--
-- Version 2 refused a release_samples row once the release held sample_count rows,
-- counting them on every insert: a freeze of n samples did n²/2 index steps (4 s of a
-- 12k-sample freeze). Now a release is written unsealed, its rows inserted, and then
-- sealed in the same transaction; sealing checks the count once, and a sealed
-- release takes no rows and no other change. Releases frozen before are sealed.
ALTER TABLE releases ADD COLUMN sealed INTEGER NOT NULL DEFAULT 1;

DROP TRIGGER release_samples_sealed;
CREATE TRIGGER release_samples_sealed BEFORE INSERT ON release_samples
WHEN (SELECT sealed FROM releases WHERE id = NEW.release_id) IS NOT 0
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;

-- The one update a release allows: sealing it, unchanged otherwise, with exactly
-- sample_count rows.
DROP TRIGGER releases_immutable_update;
CREATE TRIGGER releases_immutable_update BEFORE UPDATE ON releases
WHEN NOT (OLD.sealed = 0 AND NEW.sealed = 1
	AND NEW.id IS OLD.id AND NEW.project_id IS OLD.project_id AND NEW.name IS OLD.name
	AND NEW.version IS OLD.version AND NEW.filter IS OLD.filter AND NEW.split IS OLD.split
	AND NEW.sample_count IS OLD.sample_count AND NEW.created_by IS OLD.created_by
	AND NEW.created_at IS OLD.created_at
	AND (SELECT count(*) FROM release_samples WHERE release_id = OLD.id) = OLD.sample_count)
BEGIN SELECT RAISE(ABORT, 'releases are frozen'); END;
