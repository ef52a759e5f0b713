-- Benchwright schema on PostgreSQL, version 38: the rows a statement inserts into
-- release_samples are checked against their release's seal once per statement,
-- in one join of the rows it inserted (a transition table), instead of by a
-- PL/pgSQL call per row. A freeze of 11,801 samples writes them in about 24
-- statements; the call per row cost about 90 ms of its 0.5 s of inserts
-- (store/migrations/0038 says why SQLite keeps its trigger). As before, a row
-- for a sealed release is refused with "releases are frozen"; now the refusal
-- comes after the row's foreign keys are checked, at the end of the statement.
DROP TRIGGER IF EXISTS release_samples_sealed ON release_samples;
DROP FUNCTION IF EXISTS bw_release_samples_sealed();
CREATE OR REPLACE FUNCTION bw_release_samples_sealed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM new_rows n LEFT JOIN releases r ON r.id = n.release_id
		WHERE r.sealed IS DISTINCT FROM 0) THEN
		RAISE EXCEPTION 'releases are frozen' USING ERRCODE = 'restrict_violation';
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER release_samples_sealed AFTER INSERT ON release_samples
	REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bw_release_samples_sealed_rows();
